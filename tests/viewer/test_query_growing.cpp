// A run that grows while it is served (memtracer-viewer --live: the symbolizer's --follow commits
// a batch of frames at a time into ONE run): every answer after a growth must count every frame
// the database holds, never the totals cached for fewer frames, and the whole-run table
// (run_class_stack, written when the run ends) must not be read before it exists.
// Run 9 of a copy of the fixture is run 2's frames four times over (1200 frames), committed in
// steps the way a follow ingest does while the same read connection keeps querying.
#include <unistd.h>

#include <filesystem>

#include "viewer_test_util.h"

using namespace mt::test;
using mt::viewer::Database;

namespace {
constexpr int kRun = 9, kSrc = 2, kSrcFrames = 300;

// "a, b, c" of `table`'s columns, with run_id (and seq shifted by `seq_add`) rewritten.
std::string select_list(mt::store::Db &db, const std::string &table, const std::string &seq_add) {
    auto s = db.prepare("SELECT name FROM pragma_table_info(?1)");
    s.bind(1, table);
    std::string cols, vals;
    while (s.step()) {
        std::string c = s.str(0);
        cols += (cols.empty() ? "" : ", ") + c;
        vals += (vals.empty() ? "" : ", ") +
                (c == "run_id" ? std::to_string(kRun) : c == "seq" && !seq_add.empty() ? "seq + " + seq_add : c);
    }
    return "INSERT INTO " + table + "(" + cols + ") SELECT " + vals + " FROM " + table;
}

// Frames [have, n) of run 9 from run 2's (seq mod 300), in one transaction.
void grow(mt::store::Db &db, int64_t have, int64_t n) {
    db.exec("BEGIN");
    for (int64_t base = have - have % kSrcFrames; base < n; base += kSrcFrames) {
        std::string lo = std::to_string(std::max<int64_t>(have - base, 0)), hi = std::to_string(n - base - 1);
        for (const char *t : {"frames", "allocs"})
            db.exec(select_list(db, t, std::to_string(base)) + " WHERE run_id=" + std::to_string(kSrc) +
                    " AND seq BETWEEN " + lo + " AND " + hi);
    }
    // The runs row as --follow keeps it per batch: totals so far, live_state 'live'.
    db.exec("UPDATE runs SET frame_count=" + std::to_string(n) + ", live_state='live' WHERE run_id=" + std::to_string(kRun));
    db.exec("COMMIT");
}

int64_t sql_sum(const std::string &path, const std::string &col, const std::string &where) {
    return sql_int(path, "SELECT coalesce(sum(" + col + "),0) FROM allocs WHERE run_id=" + std::to_string(kRun) + where);
}

void check(Database &q, const std::string &path, int64_t n) {
    std::string run = "/api/runs/" + std::to_string(kRun);
    auto whole = ok(q, run + "/top?group=stack&limit=1000");
    INFO("frames " << n);
    REQUIRE(whole["range"]["to"].i() == n - 1);
    REQUIRE(whole["totals"]["count"].i() == sql_sum(path, "count", ""));
    REQUIRE(whole["totals"]["requested_bytes"].i() == sql_sum(path, "requested_bytes", ""));
    const std::string str_cls = " AND class_id IN (SELECT class_id FROM classes WHERE run_id=" + std::to_string(kRun) +
                                " AND lower(full_name) LIKE '%string%')";
    auto wf = ok(q, run + "/top?class=string&limit=1000");
    REQUIRE(wf["totals"]["gc_bytes"].i() == sql_sum(path, "gc_bytes", str_cls));
    for (auto [from, to] : {std::pair<int64_t, int64_t>{10, n - 1}, {0, n / 2}, {n / 3, n - 2}, {256, n - 1}, {5, 520}}) {
        if (to >= n || from >= to) continue;
        std::string rng = " AND seq BETWEEN " + std::to_string(from) + " AND " + std::to_string(to);
        INFO(from << ".." << to);
        auto t = ok(q, run + "/top?group=stack&limit=1000&from=" + std::to_string(from) + "&to=" + std::to_string(to));
        REQUIRE(t["totals"]["count"].i() == sql_sum(path, "count", rng));
        REQUIRE(t["totals"]["gc_bytes"].i() == sql_sum(path, "gc_bytes", rng));
        for (auto &e : t["entries"].a)
            REQUIRE(e["requested_bytes"].i() ==
                    sql_sum(path, "requested_bytes", rng + " AND stack_id=" + std::to_string(e["stack_id"].i())));
        auto f = ok(q, run + "/top?class=string&limit=1000&from=" + std::to_string(from) + "&to=" + std::to_string(to));
        REQUIRE(f["totals"]["count"].i() == sql_sum(path, "count", rng + str_cls));
    }
}
// At 300 frames run 9 holds exactly run 2's frames; with run 2's deaths too. While it grows it has
// no survivors rows (--follow writes them at the end), so its leaks must be computed from
// allocations minus deaths, not read from an empty survivors table: the same answer as run 2's
// own computed one (run 2 flagged live for the comparison, then back).
void check_leaks(mt::store::Db &w, Database &q) {
    for (const char *t : {"deaths", "death_sites"})
        w.exec(select_list(w, t, "0") + " WHERE run_id=" + std::to_string(kSrc));
    auto grown = ok(q, "/api/runs/9/leaks");
    w.exec("UPDATE runs SET live_state='live' WHERE run_id=2");
    auto same = ok(q, "/api/runs/2/leaks");
    w.exec("UPDATE runs SET live_state='' WHERE run_id=2");
    REQUIRE(grown["entries"].size() > 0);
    REQUIRE(grown["entries"].size() == same["entries"].size());
    for (size_t i = 0; i < same["entries"].size(); ++i)
        for (const char *k : {"count", "gc_bytes", "oldest_seq", "frames"}) {
            INFO(i << " " << k);
            REQUIRE(grown["entries"][i][k].i() > (std::string(k) == "oldest_seq" ? -1 : 0));
            REQUIRE(grown["entries"][i][k].i() == same["entries"][i][k].i());
        }
}
}  // namespace

TEST_CASE("viewer: a run growing while served is counted whole after every batch", "[viewer][query][live]") {
    namespace fs = std::filesystem;
    auto path = (fs::temp_directory_path() / ("mt-growing-" + std::to_string(getpid()) + ".db")).string();
    fs::copy_file(fixture_db(), path, fs::copy_options::overwrite_existing);
    struct Cleanup {
        std::string p;
        ~Cleanup() { fs::remove(p); }
    } cleanup{path};
    auto w = mt::store::Db::open(path, false);
    // The runs row as a follow ingest starts it, and the run's dictionaries; no run_class_stack
    // (--follow rewrites it per batch, but a reader must not need it to be current).
    w.exec(select_list(w, "runs", "") + " WHERE run_id=" + std::to_string(kSrc));
    w.exec("UPDATE runs SET frame_count=0, stop='eof' WHERE run_id=" + std::to_string(kRun));
    // The stacks rows name their shapes (schema version 5); the run's biases come with them.
    for (const char *t : {"classes", "stacks", "run_biases", "threads", "modules", "run_info"})
        w.exec(select_list(w, t, "") + " WHERE run_id=" + std::to_string(kSrc));
    grow(w, 0, 100);

    Database q(path);  // one read connection across every growth, as a server thread keeps it
    int64_t have = 100;
    check(q, path, have);
    for (int64_t n : {300, 700, 701, 1200}) {
        grow(w, have, n);
        have = n;
        check(q, path, have);
        if (n == 300) check_leaks(w, q);
    }
    // The run ends: its totals and run_class_stack are written; the answers stay the same.
    w.exec("INSERT INTO run_class_stack(run_id, class_id, stack_id, count, requested_bytes, gc_bytes, first_seq, last_seq) "
           "SELECT run_id, class_id, stack_id, sum(count), sum(requested_bytes), sum(gc_bytes), min(seq), max(seq) "
           "FROM allocs WHERE run_id=9 GROUP BY class_id, stack_id");
    w.exec("UPDATE runs SET frame_count=1200, stop='end', live_state='ended' WHERE run_id=9");
    check(q, path, have);
}
