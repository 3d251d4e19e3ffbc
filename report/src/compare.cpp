#include "compare.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace mt::report {

using simdjson::dom::element;

namespace {

std::string group_key(const element &e, const std::string &group) {
    if (group == "class") return str(e, "full_name");
    std::string f = str(e, "function"), file = str(e, "file");
    return file.empty() ? f : f + " (" + file + ")";
}

}  // namespace

Side load_side(Source &s, const Query &q) {
    Side side;
    side.label = s.label();
    for (int64_t offset = 0;;) {
        Query page = q;
        page.limit = 1000;
        page.by = "";
        Doc d = s.get(s.run_path("top") + query_string(page, "&group=" + q.group + "&offset=" + std::to_string(offset)));
        element r = d["range"];
        // Game frames, not committed ones: frames the runtime merged still count as each game
        // frame they cover (older viewers answer without the field).
        side.frames = is_null(r, "game_frames") ? num(r, "to") - num(r, "from") + 1 : num(r, "game_frames");
        element t = d["totals"];
        side.total = {num(t, "count"), num(t, "requested_bytes"), num(t, "gc_bytes")};
        simdjson::dom::array entries = d["entries"].get_array().value();
        for (element e : entries) {
            Sums &g = side.groups[group_key(e, q.group)];
            g.count += num(e, "count");
            g.requested_bytes += num(e, "requested_bytes");
            g.gc_bytes += num(e, "gc_bytes");
        }
        if (is_null(d.root, "next_offset")) break;
        offset = num(d.root, "next_offset");
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
