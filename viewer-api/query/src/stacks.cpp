#include "stacks.h"

#include <algorithm>
#include <cstdio>

#include "memtracer/viewer/backend.h"

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

// Marks every chain entry but the last of each pos as inlined.
void mark_inlined(std::vector<SymFrame> &v) {
    for (size_t i = 0; i < v.size(); ++i) v[i].inlined = i + 1 < v.size() && v[i + 1].pos == v[i].pos;
}

// stack -> its leading allocation machinery frames (stacks.machinery, docs/schema.md), which the
// flame graph leaves out so a patch-mode and a no-patch run draw one tree.
std::unordered_map<int64_t, int64_t> machinery_frames(Database &db, int64_t run) {
    std::unordered_map<int64_t, int64_t> out;
    for (auto [stack, n] : db.backend().machinery(run)) out[stack] = n;
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
    std::vector<SymFrame> out = db.backend().stack_frames(run, stack_id);
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
    auto trim = machinery_frames(db, run);
    std::unordered_map<int64_t, std::vector<std::string>> out;
    std::vector<std::string> *cur = nullptr;
    int64_t cur_id = -1, skip = 0;
    db.backend().all_stack_frames(run, [&](int64_t id, const SymFrame &f) {
        if (id != cur_id || !cur) {
            if (cur) std::reverse(cur->begin(), cur->end());
            cur = &out[id];
            cur_id = id;
            auto t = trim.find(id);
            skip = t == trim.end() ? 0 : t->second;
        }
        if (skip > 0) {
            --skip;  // rows come innermost first: the stack's leading machinery
            return;
        }
        cur->push_back(f.name());
    });
    if (cur) std::reverse(cur->begin(), cur->end());
    return out;
}

std::unordered_map<int64_t, std::vector<PathFrame>> stack_paths_located(Database &db, int64_t run, bool csharp_only) {
    auto trim = machinery_frames(db, run);
    std::unordered_map<int64_t, std::vector<PathFrame>> out;
    db.backend().all_stack_frames(run, [&](int64_t id, const SymFrame &f) {
        auto &v = out[id];  // innermost first here, reversed below
        if (auto t = trim.find(id); t != trim.end() && t->second > 0) {
            --t->second;  // rows come innermost first: the stack's leading machinery
            return;
        }
        if (csharp_only && f.csharp.empty()) return;
        if (csharp_only && !v.empty() && v.back().name == f.csharp) return;  // keep the innermost line
        v.push_back({f.name(), f.location()});
    });
    for (auto &[_, v] : out) std::reverse(v.begin(), v.end());
    return out;
}

}  // namespace mt::viewer
