#include "compare.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace mt::report {

namespace {

// A site's line moves between builds: the key is its function and file.
std::string group_key(const viewer::TopEntry &e, viewer::Group g) {
    if (g == viewer::Group::Class) return viewer::class_display_name(e.key, e.cls);
    viewer::SiteInfo s = viewer::site_or_none(e.site);
    return s.file.empty() ? s.function : s.function + " (" + s.file + ")";
}

}  // namespace

Side load_side(Source &s, const Query &q) {
    Side side;
    side.label = s.label();
    Query unsorted = q;
    unsorted.by = "";
    for (int64_t offset = 0;;) {
        viewer::TopQuery tq = top_query(s, unsorted, {1000, offset});
        auto r = s.call([&](viewer::Database &db) { return viewer::compute_top(db, tq); });
        // Game frames, not committed ones: frames the runtime merged still count as each game
        // frame they cover.
        side.frames = r.range.game_frames;
        side.total = {r.totals.count, r.totals.requested_bytes, r.totals.gc_bytes};
        for (const auto &e : r.entries) {
            Sums &g = side.groups[group_key(e, r.group)];
            g.count += e.t.count;
            g.requested_bytes += e.t.requested_bytes;
            g.gc_bytes += e.t.gc_bytes;
        }
        if (offset + 1000 >= r.total) break;
        offset += 1000;
    }
    return side;
}

const std::vector<std::pair<std::string, Metric>> &metric_names() {
    static const std::vector<std::pair<std::string, Metric>> names = {
        {"bytes_per_frame", Metric::BytesPerFrame},
        {"gc_bytes_per_frame", Metric::GcBytesPerFrame},
        {"allocs_per_frame", Metric::AllocsPerFrame}};
    return names;
}

double per_frame(const Side &s, const Sums &v, Metric m) {
    double x = m == Metric::AllocsPerFrame   ? static_cast<double>(v.count)
               : m == Metric::GcBytesPerFrame ? static_cast<double>(v.gc_bytes)
                                              : static_cast<double>(v.requested_bytes);
    return s.frames > 0 ? x / static_cast<double>(s.frames) : 0.0;
}

double change_pct(double base, double now) {
    if (base == 0) return now == 0 ? 0.0 : std::numeric_limits<double>::infinity();
    return (now / base - 1.0) * 100.0;
}

Table compare(Source &a, Source &b, const Query &q) {
    Side sa = load_side(a, q), sb = load_side(b, q);
    std::set<std::string> keys;
    for (auto &[k, _] : sa.groups) keys.insert(k);
    for (auto &[k, _] : sb.groups) keys.insert(k);
    struct Row {
        std::string key;
        Sums x, y;
        double delta;
    };
    std::vector<Row> rows;
    for (const auto &k : keys) {
        Sums x = sa.groups.count(k) ? sa.groups[k] : Sums{}, y = sb.groups.count(k) ? sb.groups[k] : Sums{};
        rows.push_back({k, x, y, per_frame(sb, y, Metric::BytesPerFrame) - per_frame(sa, x, Metric::BytesPerFrame)});
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Row &l, const Row &r) {
        return std::fabs(l.delta) > std::fabs(r.delta);
    });
    Table t;
    t.notes.push_back("A = " + sa.label + " (" + std::to_string(sa.frames) + " frames), B = " + sb.label + " (" +
                      std::to_string(sb.frames) + " frames), per " + q.group + ", biggest change in bytes per frame first");
    t.columns = {q.group, "status", "a_count", "b_count", "a_bytes", "b_bytes", "a_bytes_per_frame",
                 "b_bytes_per_frame", "bytes_per_frame_change_pct", "allocs_per_frame_change_pct"};
    auto add = [&](const std::string &key, const Sums &x, const Sums &y, const std::string &status) {
        double ab = per_frame(sa, x, Metric::BytesPerFrame), bb = per_frame(sb, y, Metric::BytesPerFrame);
        t.add({key, status, x.count, y.count, x.requested_bytes, y.requested_bytes, ab, bb, change_pct(ab, bb),
               change_pct(per_frame(sa, x, Metric::AllocsPerFrame), per_frame(sb, y, Metric::AllocsPerFrame))});
    };
    add("(total)", sa.total, sb.total, "");
    for (size_t i = 0; i < rows.size() && static_cast<int64_t>(i) < q.limit; ++i) {
        const Row &r = rows[i];
        add(r.key, r.x, r.y, r.x.count == 0 ? "new" : r.y.count == 0 ? "gone" : "");
    }
    return t;
}

}  // namespace mt::report
