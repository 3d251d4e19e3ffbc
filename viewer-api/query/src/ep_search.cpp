// ep_search.cpp — find a class or a function in a run by a case-insensitive substring: classes
// by full name, functions by any frame of any stack (C#, demangled or raw name, inline chains
// included). Ranked exact > prefix > substring, then by the bytes allocated under them, and
// bounded: the page's search box asks on every keystroke.
#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <unordered_map>

#include "endpoints.h"
#include "filter.h"
#include "model.h"
#include "spec.h"

namespace mt::viewer {

namespace {
std::string lower(std::string_view s) {
    std::string out(s);
    for (char &c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// 0 exact, 1 prefix (of the name or of the part after the last '.'), 2 substring.
int tier(const std::string &name, const std::string &q) {
    auto n = lower(name);
    if (n == q) return 0;
    auto dot = n.find_last_of('.');
    std::string tail = dot == std::string::npos ? n : n.substr(dot + 1);
    if (tail == q) return 0;
    if (n.rfind(q, 0) == 0 || tail.rfind(q, 0) == 0) return 1;
    return 2;
}

struct Hit {
    int tier = 2;
    Totals t;
    std::string name;
};

template <class H>
void rank(std::vector<H> &v, Metric by) {
    std::sort(v.begin(), v.end(), [&](const H &a, const H &b) {
        if (a.tier != b.tier) return a.tier < b.tier;
        if (a.t.get(by) != b.t.get(by)) return a.t.get(by) > b.t.get(by);
        return a.name < b.name;
    });
}

struct ClassHit : Hit {
    int64_t id = 0;
    ClassInfo info;
};

struct FuncHit : Hit {
    bool csharp = false;  // named by its C# name (else native)
    std::string file;     // where it allocates most: C# file:line if known, else C++
    int64_t line = 0, best = -1;
    std::set<int64_t> stacks;
};

std::vector<ClassHit> find_classes(Database &db, int64_t run, const std::string &q,
                                   const std::unordered_map<int64_t, Totals> &per_class) {
    std::vector<ClassHit> out;
    for (auto &[id, info] : db.backend().classes_matching(run, q)) {
        ClassHit h;
        h.id = id;
        h.info = std::move(info);
        h.name = h.info.full_name;
        h.tier = std::min(tier(h.info.full_name, q), tier(h.info.name, q));
        if (auto it = per_class.find(h.id); it != per_class.end()) h.t = it->second;
        out.push_back(std::move(h));
    }
    return out;
}

std::vector<FuncHit> find_functions(Database &db, int64_t run, const std::string &q,
                                    const std::unordered_map<int64_t, Totals> &per_stack, Metric by) {
    std::map<std::string, FuncHit> by_name;
    for (const FunctionMatch &m : db.backend().functions_matching(run, q)) {
        // The name that matched: C# first (what the page shows), else the native one.
        std::string cs = m.csharp, native = m.demangled.empty() ? m.function : m.demangled;
        bool use_cs = !cs.empty() && lower(cs).find(q) != std::string::npos;
        const std::string &name = use_cs ? cs : native;
        auto &h = by_name[name];
        h.name = name;
        h.csharp = use_cs;
        h.tier = tier(name, q);
        int64_t stack = m.stack_id;
        auto it = per_stack.find(stack);
        Totals t = it == per_stack.end() ? Totals{} : it->second;
        if (h.stacks.insert(stack).second) h.t.add(t);
        if (t.get(by) > h.best) {  // the call line of the stack that allocates most under it
            h.best = t.get(by);
            bool cs_loc = !m.cs_file.empty();
            h.file = cs_loc ? m.cs_file : m.file;
            h.line = cs_loc ? m.cs_line : m.line;
        }
    }
    std::vector<FuncHit> out;
    for (auto &[_, h] : by_name) out.push_back(std::move(h));
    return out;
}

// 400 for a missing or over-long search text, naming q.
void check_text(const std::string &q) {
    if (q.empty()) throw ApiError{400, "missing parameter q (the text to find)", "q"};
    if (q.size() > 256) throw ApiError{400, "q is longer than 256 bytes", "q"};
}

const char *match_name(int tier) { return tier == 0 ? "exact" : tier == 1 ? "prefix" : "substring"; }
}  // namespace

SearchResult compute_search(Database &db, const SearchQuery &sq) {
    check_text(sq.q);
    parse_int(std::to_string(sq.limit), 1, 200, "limit");  // the endpoint's check, for typed callers
    const std::string q = lower(sq.q);
    SpecParams sp({}, sq.filter);
    auto run = load_run(db, sq.run);
    // Under a filter (the page's filter bar) the totals shown are of what it keeps.
    auto filter = parse_filter(sp.params(), db, run);

    std::unordered_map<int64_t, Totals> per_class, per_stack;
    db.backend().run_class_stack_rows(run.id, filter.alloc(), [&](const AllocRow &r) {
        per_class[r.class_id].add(r.t);
        per_stack[r.stack_id].add(r.t);
    });
    auto classes = find_classes(db, run.id, q, per_class);
    auto funcs = find_functions(db, run.id, q, per_stack, sq.by);
    rank(classes, sq.by);
    rank(funcs, sq.by);
    SearchResult r;
    r.run_id = run.id, r.q = sq.q, r.by = sq.by, r.filter = filter;
    r.total_classes = static_cast<int64_t>(classes.size());
    r.total_functions = static_cast<int64_t>(funcs.size());
    for (size_t i = 0; i < classes.size() && static_cast<int64_t>(i) < sq.limit; ++i)
        r.classes.push_back({classes[i].id, classes[i].info, classes[i].t, match_name(classes[i].tier)});
    for (size_t i = 0; i < funcs.size() && static_cast<int64_t>(i) < sq.limit; ++i) {
        const auto &f = funcs[i];
        r.functions.push_back({f.name, f.csharp, f.file, f.line, static_cast<int64_t>(f.stacks.size()), f.t, match_name(f.tier)});
    }
    return r;
}

Response search(Database &db, const Request &req, int64_t run_id) {
    Params p(req, {"q", "limit", "by", MT_FILTER_PARAMS});
    SearchQuery sq;
    sq.run = run_id;
    auto qv = p.get("q");
    sq.q = qv ? std::string(*qv) : "";
    check_text(sq.q);
    sq.limit = p.integer("limit", 20, 1, 200);
    sq.by = metric_param(p);
    sq.filter = filter_spec(p);
    return Response{200, render_search(compute_search(db, sq)), "application/json", ""};
}

std::string render_search(const SearchResult &r) {
    Json j;
    j.obj().kv("run_id", r.run_id).kv("q", r.q).kv("by", metric_name(r.by));
    write_filter(j, r.filter);
    j.arr("classes");
    for (const SearchClass &c : r.classes) {
        j.obj();
        write_class(j, c.class_id, &c.info);
        write_totals(j, c.t);
        j.kv("match", c.match).end_obj();
    }
    j.end_arr().kv("total_classes", r.total_classes).arr("functions");
    for (const SearchFunction &f : r.functions) {
        j.obj().kv("name", f.name).kv("kind", f.csharp ? "csharp" : "native").kv("file", f.file).kv("line", f.line);
        j.kv("stacks", f.stacks);
        write_totals(j, f.t);
        j.kv("match", f.match).end_obj();
    }
    j.end_arr().kv("total_functions", r.total_functions).end_obj();
    return j.take();
}

}  // namespace mt::viewer
