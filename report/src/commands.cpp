#include "commands.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <map>

namespace mt::report {


std::string range_bound(const std::string &value) {
    static constexpr std::string_view kMarker = "marker:";
    if (value.rfind(kMarker, 0) == 0) {
        if (value.size() == kMarker.size()) throw std::invalid_argument("marker: needs a label, e.g. marker:level loaded");
        return value;
    }
    bool digits = !value.empty() && value.size() <= 18 &&
                  std::all_of(value.begin(), value.end(), [](unsigned char c) { return std::isdigit(c); });
    if (!digits)
        throw std::invalid_argument("'" + value.substr(0, 40) + (value.size() > 40 ? "..." : "") +
                                    "' is not a frame number or marker:LABEL");
    return value;
}

viewer::RangeSpec range_spec(const Query &q) {
    viewer::RangeSpec r;
    if (q.from) r.from = *q.from;
    if (q.to) r.to = *q.to;
    return r;
}

viewer::FilterSpec filter_spec(const Query &q) {
    viewer::FilterSpec f;
    if (!q.thread.empty()) f.thread = q.thread;
    if (!q.kind.empty()) f.kind = q.kind;
    return f;
}

viewer::TopQuery top_query(Source &s, const Query &q, const viewer::Page &page) {
    viewer::TopQuery t;
    t.run = s.run();
    s.call([&](viewer::Database &) {  // a bad --sort or --by is the endpoint's 400, after the label
        t.by = q.by.empty() ? viewer::Metric::Bytes : viewer::metric_of(q.by);
        t.group = viewer::group_of(q.group);
        return 0;
    });
    t.range = range_spec(q);
    t.filter = filter_spec(q);
    t.page = page;
    return t;
}

namespace {

std::string range_note(const Source &s, const viewer::Range &r, const std::string &what) {
    return s.label() + ": " + what + ", frames " + std::to_string(r.from) + ".." + std::to_string(r.to);
}

void need_lifetimes(const viewer::LifetimeResult &r) {
    if (!r.available) throw NoLifetimes(r.note);
}

viewer::LifetimeResult lifetimes(Source &s, const Query &q, bool leaks) {
    viewer::LifetimeQuery l;
    l.run = s.run();
    l.leaks = leaks;
    s.call([&](viewer::Database &) {
        l.by = q.by.empty() ? (leaks ? viewer::LifetimeMetric::Frames : viewer::LifetimeMetric::GcBytes)
                            : viewer::lifetime_metric_of(q.by, leaks);
        l.group = viewer::group_of(q.group);
        return 0;
    });
    l.range = range_spec(q);
    l.filter = filter_spec(q);
    l.page = {q.limit, 0};
    l.within = q.within;
    return s.call([&](viewer::Database &db) { return viewer::compute_lifetimes(db, l); });
}

}  // namespace

Table top(Source &s, const Query &q) {
    viewer::TopQuery tq = top_query(s, q, {q.limit, 0});
    auto r = s.call([&](viewer::Database &db) { return viewer::compute_top(db, tq); });
    Table t;
    viewer::Range range{r.range.from, r.range.to, r.range.whole};
    t.notes.push_back(range_note(s, range, "top " + q.group + " by " + std::string(viewer::metric_name(r.by))));
    t.columns = {"rank", q.group, "count", "requested_bytes", "gc_bytes", "share"};
    for (const auto &e : r.entries)
        t.add({e.rank, entry_name(e, r.group), e.t.count, e.t.requested_bytes, e.t.gc_bytes, e.share});
    return t;
}

Table frames(Source &s, const Query &q) {
    viewer::FramesQuery fq;
    fq.run = s.run();
    fq.all_fields = true;
    fq.range = range_spec(q);
    fq.filter = filter_spec(q);
    auto d = s.call([&](viewer::Database &db) { return viewer::compute_frames(db, fq); });
    Table t;
    t.columns = {"seq", "frame_index", "alloc_count", "requested_bytes", "gc_bytes", "collections", "heap_size",
                 "live_bytes", "mark"};
    int64_t live_peak = d.live_peak ? d.live_peak->seq : -1;
    int64_t heap_peak = d.heap_peak ? d.heap_peak->seq : -1;
    const auto &seq = d.columns[0], &idx = d.columns[1], &n = d.columns[2], &rb = d.columns[3], &gb = d.columns[4],
               &gc = d.columns[5], &heap = d.columns[6];
    // mt_mark labels name the frames the game marked ("level loaded"): shown beside the peaks.
    auto marks = s.call([&](viewer::Database &db) { return viewer::compute_markers(db, s.run()); });
    std::map<int64_t, std::string> marked;
    for (const auto &m : marks.markers) {
        std::string &l = marked[m.seq];
        l += (l.empty() ? "" : ", ") + std::string("marker '") + m.label + "'";
    }
    const auto n_marks = static_cast<int64_t>(marks.markers.size());
    for (size_t i = 0; i < seq.size(); ++i) {
        int64_t sq = seq[i];
        Cell live = std::string("");
        if (d.live_bytes && (*d.live_bytes)[i]) live = *(*d.live_bytes)[i];
        std::string mark = sq == live_peak ? "live peak" : "";
        if (sq == heap_peak) mark += mark.empty() ? "heap peak" : ", heap peak";
        if (auto it = marked.find(sq); it != marked.end()) mark += (mark.empty() ? "" : ", ") + it->second;
        t.add({sq, idx[i], n[i], rb[i], gb[i], gc[i], heap[i], live, mark});
    }
    t.notes.push_back(s.label() + ": " + std::to_string(seq.size()) + " frames" +
                      (live_peak >= 0 ? ", live peak at " + std::to_string(live_peak) : ", no lifetimes") +
                      (heap_peak >= 0 ? ", heap peak at " + std::to_string(heap_peak) : "") + ", " +
                      std::to_string(n_marks) + (n_marks == 1 ? " marker in the run" : " markers in the run"));
    return t;
}

Table leaks(Source &s, const Query &q) {
    auto d = lifetimes(s, q, true);
    need_lifetimes(d);
    Table t;
    const char *by = d.by == viewer::LifetimeMetric::Count ? "count" : d.by == viewer::LifetimeMetric::Frames ? "frames" : "gc_bytes";
    t.notes.push_back(range_note(s, d.range, "alive at the end (leak candidates) by " + q.group + ", sorted by " + by +
                                                " (frames: allocation frames whose objects survived a collection)"));
    t.columns = {"rank", q.group, "frames", "count", "gc_bytes", "allocated", "oldest_seq", "age_frames"};
    for (const auto &e : d.entries)
        t.add({e.rank, entry_name(e, d.group), e.frames, e.count, e.gc_bytes, e.allocated, e.oldest_seq, e.age_frames});
    return t;
}

Table temporaries(Source &s, const Query &q) {
    auto d = lifetimes(s, q, false);
    need_lifetimes(d);
    Table t;
    t.notes.push_back(range_note(s, d.range, "died within " + std::to_string(q.within) + " frame(s) by " + q.group));
    t.columns = {"rank", q.group, "count", "gc_bytes", "allocated", "temporary_share", "share"};
    for (const auto &e : d.entries) {
        int64_t n = e.count, a = e.allocated;
        t.add({e.rank, entry_name(e, d.group), n, e.gc_bytes, a,
               a > 0 ? static_cast<double>(n) / static_cast<double>(a) : 0.0, e.share});
    }
    return t;
}

}  // namespace mt::report
