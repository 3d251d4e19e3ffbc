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
}  // namespace

Response search(Database &db, const Request &req, int64_t run_id) {
    Params p(req, {"q", "limit", "by", MT_FILTER_PARAMS});
    auto qv = p.get("q");
    if (!qv || qv->empty()) throw ApiError{400, "missing parameter q (the text to find)", "q"};
    if (qv->size() > 256) throw ApiError{400, "q is longer than 256 bytes", "q"};
    const std::string q = lower(*qv);
    int64_t limit = p.integer("limit", 20, 1, 200);
    auto by = metric_param(p);
    auto run = load_run(db, run_id);
    // Under a filter (the page's filter bar) the totals shown are of what it keeps.
    auto filter = parse_filter(p, db, run);

    std::unordered_map<int64_t, Totals> per_class, per_stack;
    db.backend().run_class_stack_rows(run.id, filter.alloc(), [&](const AllocRow &r) {
        per_class[r.class_id].add(r.t);
        per_stack[r.stack_id].add(r.t);
    });
    auto classes = find_classes(db, run.id, q, per_class);
    auto funcs = find_functions(db, run.id, q, per_stack, by);
    rank(classes, by);
    rank(funcs, by);

    Json j;
    j.obj().kv("run_id", run.id).kv("q", *qv).kv("by", metric_name(by));
    write_filter(j, filter);
    j.arr("classes");
    for (size_t i = 0; i < classes.size() && static_cast<int64_t>(i) < limit; ++i) {
        const auto &c = classes[i];
        j.obj();
        write_class(j, c.id, &c.info);
        write_totals(j, c.t);
        j.kv("match", c.tier == 0 ? "exact" : c.tier == 1 ? "prefix" : "substring").end_obj();
    }
    j.end_arr().kv("total_classes", static_cast<int64_t>(classes.size())).arr("functions");
    for (size_t i = 0; i < funcs.size() && static_cast<int64_t>(i) < limit; ++i) {
        const auto &f = funcs[i];
        j.obj().kv("name", f.name).kv("kind", f.csharp ? "csharp" : "native").kv("file", f.file).kv("line", f.line);
        j.kv("stacks", static_cast<int64_t>(f.stacks.size()));
        write_totals(j, f.t);
        j.kv("match", f.tier == 0 ? "exact" : f.tier == 1 ? "prefix" : "substring").end_obj();
    }
    j.end_arr().kv("total_functions", static_cast<int64_t>(funcs.size())).end_obj();
    return ok(j);
}

}  // namespace mt::viewer
