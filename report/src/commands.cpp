#include "commands.h"

#include <cctype>
#include <map>

namespace mt::report {

using simdjson::dom::element;

namespace {
// &kind= and &thread=; a thread name may hold spaces, '&' or '%': every byte but unreserved ones goes %XX.
std::string filter_params(const Query &q) {
    std::string out = q.kind.empty() ? "" : "&kind=" + q.kind;  // "native" or "managed": nothing to escape
    if (q.thread.empty()) return out;
    out += "&thread=";
    for (unsigned char c : q.thread) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || c == ',') {
            out += static_cast<char>(c);
        } else {
            static const char *hex = "0123456789ABCDEF";
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}
}  // namespace

std::string query_string(const Query &q, const std::string &extra) {
    std::string s = "?limit=" + std::to_string(q.limit);
    if (q.from) s += "&from=" + std::to_string(*q.from);
    if (q.to) s += "&to=" + std::to_string(*q.to);
    if (!q.by.empty()) s += "&by=" + q.by;
    return s + filter_params(q) + extra;
}

namespace {

std::string range_note(const Source &s, const element &root, const std::string &what) {
    element r = root["range"].value();
    return s.label() + ": " + what + ", frames " + std::to_string(num(r, "from")) + ".." + std::to_string(num(r, "to"));
}

void need_lifetimes(const Doc &d) {
    bool on = false;
    if (d["lifetimes"].get(on) || !on) throw NoLifetimes(str(d.root, "note"));
}

}  // namespace

Table top(Source &s, const Query &q) {
    Doc d = s.get(s.run_path("top") + query_string(q, "&group=" + q.group));
    Table t;
    t.notes.push_back(range_note(s, d.root, "top " + q.group + " by " + str(d.root, "by")));
    t.columns = {"rank", q.group, "count", "requested_bytes", "gc_bytes", "share"};
    simdjson::dom::array entries = d["entries"].get_array().value();
    for (element e : entries)
        t.add({num(e, "rank"), entry_name(e, q.group), num(e, "count"), num(e, "requested_bytes"), num(e, "gc_bytes"),
               real(e, "share")});
    return t;
}

Table frames(Source &s, const Query &q) {
    std::string qs = "?fields=all";
    if (q.from) qs += "&from=" + std::to_string(*q.from);
    if (q.to) qs += "&to=" + std::to_string(*q.to);
    qs += filter_params(q);
    Doc d = s.get(s.run_path("frames") + qs);
    Table t;
    t.columns = {"seq", "frame_index", "alloc_count", "requested_bytes", "gc_bytes", "collections", "heap_size",
                 "live_bytes", "mark"};
    int64_t live_peak = is_null(d.root, "live_peak") ? -1 : num(d["live_peak"], "seq");
    int64_t heap_peak = is_null(d.root, "heap_peak") ? -1 : num(d["heap_peak"], "seq");
    auto col = [&](std::string_view k) { return d[k].get_array().value(); };
    auto seq = col("seq"), idx = col("frame_index"), n = col("alloc_count"), rb = col("requested_bytes"),
         gb = col("gc_bytes"), gc = col("collections"), heap = col("heap_size");
    element live_el = d["live_bytes"];
    bool has_live = !live_el.is_null();
    // mt_mark labels name the frames the game marked ("level loaded"): shown beside the peaks.
    Doc marks = s.get(s.run_path("markers"));
    std::map<int64_t, std::string> marked;
    int64_t n_marks = 0;
    // A named array, not a range over `.value()` of a temporary: that dangles (it crashed here).
    simdjson::dom::array marker_list = marks["markers"].get_array().value();
    for (element m : marker_list) {
        std::string &l = marked[num(m, "seq")];
        l += (l.empty() ? "" : ", ") + std::string("marker '") + str(m, "label") + "'";
        ++n_marks;
    }
    for (size_t i = 0; i < seq.size(); ++i) {
        int64_t sq = seq.at(i).get_int64().value();
        Cell live = std::string("");
        if (has_live) {
            element v = live_el.at(i).value();
            if (!v.is_null()) live = v.get_int64().value();
        }
        std::string mark = sq == live_peak ? "live peak" : "";
        if (sq == heap_peak) mark += mark.empty() ? "heap peak" : ", heap peak";
        if (auto it = marked.find(sq); it != marked.end()) mark += (mark.empty() ? "" : ", ") + it->second;
        t.add({sq, idx.at(i).get_int64().value(), n.at(i).get_int64().value(), rb.at(i).get_int64().value(),
               gb.at(i).get_int64().value(), gc.at(i).get_int64().value(), heap.at(i).get_int64().value(), live, mark});
    }
    t.notes.push_back(s.label() + ": " + std::to_string(seq.size()) + " frames" +
                      (live_peak >= 0 ? ", live peak at " + std::to_string(live_peak) : ", no lifetimes") +
                      (heap_peak >= 0 ? ", heap peak at " + std::to_string(heap_peak) : "") + ", " +
                      std::to_string(n_marks) + (n_marks == 1 ? " marker in the run" : " markers in the run"));
    return t;
}

Table leaks(Source &s, const Query &q) {
    Doc d = s.get(s.run_path("leaks") + query_string(q, "&group=" + q.group));
    need_lifetimes(d);
    Table t;
    t.notes.push_back(range_note(s, d.root, "alive at the end (leak candidates) by " + q.group + ", sorted by " +
                                                str(d.root, "by") +
                                                " (frames: allocation frames whose objects survived a collection)"));
    t.columns = {"rank", q.group, "frames", "count", "gc_bytes", "allocated", "oldest_seq", "age_frames"};
    simdjson::dom::array entries = d["entries"].get_array().value();
    for (element e : entries)
        t.add({num(e, "rank"), entry_name(e, q.group), num(e, "frames"), num(e, "count"), num(e, "gc_bytes"),
               num(e, "allocated"), num(e, "oldest_seq"), num(e, "age_frames")});
    return t;
}

Table temporaries(Source &s, const Query &q) {
    Doc d = s.get(s.run_path("temporaries") +
                  query_string(q, "&group=" + q.group + "&within=" + std::to_string(q.within)));
    need_lifetimes(d);
    Table t;
    t.notes.push_back(range_note(s, d.root, "died within " + std::to_string(q.within) + " frame(s) by " + q.group));
    t.columns = {"rank", q.group, "count", "gc_bytes", "allocated", "temporary_share", "share"};
    simdjson::dom::array entries = d["entries"].get_array().value();
    for (element e : entries) {
        int64_t n = num(e, "count"), a = num(e, "allocated");
        t.add({num(e, "rank"), entry_name(e, q.group), n, num(e, "gc_bytes"), a,
               a > 0 ? static_cast<double>(n) / static_cast<double>(a) : 0.0, real(e, "share")});
    }
    return t;
}

}  // namespace mt::report
