#include "stacks.h"

#include <algorithm>
#include <cstdio>

#include "sqlite.h"

namespace mt::viewer {

namespace {
std::string hex(uint64_t v) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
    return buf;
}

std::string basename(const std::string &p) {
    auto s = p.find_last_of('/');
    return s == std::string::npos ? p : p.substr(s + 1);
}

// Columns shared by both queries below, from column `c`.
SymFrame read_frame(const Stmt &s, int c) {
    SymFrame f;
    f.pos = s.i64(c);
    f.address = static_cast<uint64_t>(s.i64(c + 1));
    f.module = s.str(c + 2);
    f.file_address = static_cast<uint64_t>(s.i64(c + 3));
    f.has_symbol = !s.null(c + 4);
    f.depth = s.null(c + 4) ? 0 : s.i64(c + 4);
    f.function = s.str(c + 5);
    f.demangled = s.str(c + 6);
    f.csharp = s.str(c + 7);
    f.file = s.str(c + 8);
    f.line = s.i64(c + 9);
    f.cs_file = s.str(c + 10);
    f.cs_line = s.i64(c + 11);
    return f;
}

// Marks every chain entry but the last of each pos as inlined.
void mark_inlined(std::vector<SymFrame> &v) {
    for (size_t i = 0; i < v.size(); ++i) v[i].inlined = i + 1 < v.size() && v[i + 1].pos == v[i].pos;
}

#define MT_FRAME_COLUMNS                                                                          \
    "sf.pos, sf.address, coalesce(a.module_path,''), coalesce(a.file_address,0), s.depth, "      \
    "coalesce(s.function,''), coalesce(s.demangled,''), coalesce(s.csharp,''), coalesce(s.file,''), " \
    "coalesce(s.line,0), coalesce(s.cs_file,''), coalesce(s.cs_line,0) "                          \
    "FROM stack_frames sf LEFT JOIN addresses a ON a.addr_id=sf.addr_id "                         \
    "LEFT JOIN symbols s ON s.addr_id=sf.addr_id "
// stack -> its leading allocation machinery frames (stacks.machinery, docs/schema.md), which the
// flame graph leaves out so a patch-mode and a no-patch run draw one tree. A database written
// before the column has nothing trimmed.
std::unordered_map<int64_t, int64_t> machinery_frames(Database &db, int64_t run) {
    std::unordered_map<int64_t, int64_t> out;
    auto c = query(db, "SELECT count(*) FROM pragma_table_info('stacks') WHERE name='machinery'");
    if (!c.step() || c.i64(0) == 0) return out;
    auto s = query(db, "SELECT stack_id, machinery FROM stacks WHERE run_id=? AND machinery > 0");
    s.binds(run);
    while (s.step()) out[s.i64(0)] = s.i64(1);
    return out;
}
}  // namespace

std::string SymFrame::name() const {
    if (!csharp.empty()) return csharp;
    if (!demangled.empty()) return demangled;
    if (!function.empty()) return function;
    if (!module.empty()) return basename(module) + "+" + hex(file_address);
    return hex(address);
}

std::string SymFrame::location() const {
    if (!cs_file.empty()) return cs_file + ":" + std::to_string(cs_line);
    if (!file.empty()) return file + ":" + std::to_string(line);
    return "";
}

std::vector<SymFrame> resolve_stack(Database &db, int64_t run, int64_t stack_id) {
    auto s = query(db, "SELECT " MT_FRAME_COLUMNS "WHERE sf.run_id=? AND sf.stack_id=? ORDER BY sf.pos, s.depth");
    s.binds(run, stack_id);
    std::vector<SymFrame> out;
    while (s.step()) out.push_back(read_frame(s, 0));
    mark_inlined(out);
    return out;
}

void write_frames(Json &j, const std::vector<SymFrame> &frames) {
    j.arr();
    for (const auto &f : frames) {
        j.obj().kv("pos", f.pos).kv("name", f.name()).kv("location", f.location()).kv("inlined", f.inlined);
        j.kv("address", hex(f.address)).kv("module", basename(f.module)).kv("function", f.function);
        j.kv("csharp", f.csharp).kv("file", f.file).kv("line", f.line).kv("cs_file", f.cs_file);
        j.kv("cs_line", f.cs_line).end_obj();
    }
    j.end_arr();
}

std::unordered_map<int64_t, std::vector<std::string>> stack_paths(Database &db, int64_t run) {
    auto s = query(db, "SELECT sf.stack_id, " MT_FRAME_COLUMNS
                       "WHERE sf.run_id=? ORDER BY sf.stack_id, sf.pos, s.depth");
    s.binds(run);
    auto trim = machinery_frames(db, run);
    std::unordered_map<int64_t, std::vector<std::string>> out;
    std::vector<std::string> *cur = nullptr;
    int64_t cur_id = -1, skip = 0;
    while (s.step()) {
        int64_t id = s.i64(0);
        if (id != cur_id || !cur) {
            if (cur) std::reverse(cur->begin(), cur->end());
            cur = &out[id];
            cur_id = id;
            auto t = trim.find(id);
            skip = t == trim.end() ? 0 : t->second;
        }
        if (skip > 0) {
            --skip;  // rows come innermost first: the stack's leading machinery
            continue;
        }
        cur->push_back(read_frame(s, 1).name());
    }
    if (cur) std::reverse(cur->begin(), cur->end());
    return out;
}

std::unordered_map<int64_t, std::vector<PathFrame>> stack_paths_located(Database &db, int64_t run, bool csharp_only) {
    auto s = query(db, "SELECT sf.stack_id, " MT_FRAME_COLUMNS
                       "WHERE sf.run_id=? ORDER BY sf.stack_id, sf.pos, s.depth");
    s.binds(run);
    auto trim = machinery_frames(db, run);
    std::unordered_map<int64_t, std::vector<PathFrame>> out;
    while (s.step()) {
        auto &v = out[s.i64(0)];  // innermost first here, reversed below
        if (auto t = trim.find(s.i64(0)); t != trim.end() && t->second > 0) {
            --t->second;  // rows come innermost first: the stack's leading machinery
            continue;
        }
        auto f = read_frame(s, 1);
        if (csharp_only && f.csharp.empty()) continue;
        if (csharp_only && !v.empty() && v.back().name == f.csharp) continue;  // keep the innermost line
        v.push_back({f.name(), f.location()});
    }
    for (auto &[_, v] : out) std::reverse(v.begin(), v.end());
    return out;
}

}  // namespace mt::viewer
