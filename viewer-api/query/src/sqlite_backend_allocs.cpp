// sqlite_backend_allocs.cpp — allocation rows, run totals and lifetimes of a run.db
// (sqlite_backend.h), with the filter's SQL condition.
#include <memtracer/format.h>

#include "sqlite_backend.h"

namespace mt::viewer {

std::string filter_sql(const AllocFilter &f, int first) {
    std::string out;
    auto n = [&](int k) { return "?" + std::to_string(first + k); };
    int k = 0;
    if (!f.cls.empty()) {
        out += " AND class_id IN (SELECT c.class_id FROM classes c WHERE c.run_id=" + n(k) +
               " AND instr(lower(c.full_name), " + n(k + 1) + ") > 0)";
        k += 2;
    }
    if (!f.function.empty()) {
        // Any frame of the stack, any level of an inline chain, by C#, demangled or raw name.
        out += " AND stack_id IN (SELECT sf.stack_id FROM stack_frames sf JOIN symbols s ON s.addr_id=sf.addr_id "
               "WHERE sf.run_id=" + n(k) + " AND (instr(lower(s.csharp), " + n(k + 1) +
               ") > 0 OR instr(lower(s.demangled), " + n(k + 1) + ") > 0 OR instr(lower(s.function), " + n(k + 1) +
               ") > 0))";
        k += 2;
    }
    if (!f.kind.empty()) {
        out += " AND class_id IN (SELECT c.class_id FROM classes c WHERE c.run_id=" + n(k) + " AND (c.flags & " +
               std::to_string(MT_CLASS_NATIVE) + ") " + (f.kind == "native" ? "!=" : "=") + " 0)";
        k += 1;
    }
    if (!f.threads.empty()) {
        out += " AND thread_id IN (";
        for (size_t i = 0; i < f.threads.size(); ++i) out += (i ? ", " : "") + n(k++);
        out += ")";
    }
    return out;
}

int filter_bind(const AllocFilter &f, int64_t run, Stmt &s, int first) {
    if (!f.cls.empty()) {
        s.bind(first++, run);
        s.bind(first++, std::string_view(f.cls));
    }
    if (!f.function.empty()) {
        s.bind(first++, run);
        s.bind(first++, std::string_view(f.function));
    }
    if (!f.kind.empty()) s.bind(first++, run);
    for (int64_t t : f.threads) s.bind(first++, t);
    return first;
}

void SqliteBackend::allocs(int64_t run, int64_t from, int64_t to, const AllocFilter &f, RowFn<AllocRow> fn) {
    // A version-1 file has no thread_id: every row is "all threads" (-1).
    auto s = query((features_.alloc_threads
                        ? "SELECT seq, class_id, stack_id, count, requested_bytes, gc_bytes, thread_id FROM allocs "
                          "WHERE run_id=?1 AND seq BETWEEN ?2 AND ?3"
                        : "SELECT seq, class_id, stack_id, count, requested_bytes, gc_bytes, -1 FROM allocs "
                          "WHERE run_id=?1 AND seq BETWEEN ?2 AND ?3") +
                   filter_sql(f, 4));
    s.binds(run, from, to);
    filter_bind(f, run, s, 4);
    AllocRow r;
    while (s.step()) {
        r.seq = s.i64(0), r.class_id = s.i64(1), r.stack_id = s.i64(2);
        r.t = {s.i64(3), s.i64(4), s.i64(5)};
        r.thread_id = s.i64(6);
        fn(r);
    }
}

void SqliteBackend::frame_class_stacks(int64_t run, int64_t seq, const AllocFilter &f, RowFn<AllocRow> fn) {
    // Rows per allocating thread, summed per (class, stack) in primary-key order.
    auto a = query("SELECT class_id, stack_id, sum(count), sum(requested_bytes), sum(gc_bytes) FROM allocs "
                   "WHERE run_id=?1 AND seq=?2" + filter_sql(f, 3) + " GROUP BY class_id, stack_id");
    a.binds(run, seq);
    filter_bind(f, run, a, 3);
    while (a.step()) fn({seq, a.i64(0), a.i64(1), -1, {a.i64(2), a.i64(3), a.i64(4)}});
}

void SqliteBackend::run_class_stacks(int64_t run, const AllocFilter &f, RowFn<AllocRow> fn) {
    // Rows are split per allocating thread: summed per (class, stack), in primary-key order, so
    // SQLite groups as it scans.
    auto s = query("SELECT class_id, stack_id, sum(count), sum(requested_bytes), sum(gc_bytes) FROM run_class_stack "
                   "WHERE run_id=?1" + filter_sql(f, 2) + " GROUP BY class_id, stack_id");
    s.binds(run);
    filter_bind(f, run, s, 2);
    while (s.step()) fn({-1, s.i64(0), s.i64(1), -1, {s.i64(2), s.i64(3), s.i64(4)}});
}

void SqliteBackend::run_class_stack_rows(int64_t run, const AllocFilter &f, RowFn<AllocRow> fn) {
    auto t = query("SELECT class_id, stack_id, count, requested_bytes, gc_bytes FROM run_class_stack WHERE run_id=?1" +
                   filter_sql(f, 2));
    t.binds(run);
    filter_bind(f, run, t, 2);
    while (t.step()) fn({-1, t.i64(0), t.i64(1), -1, {t.i64(2), t.i64(3), t.i64(4)}});
}

std::vector<std::pair<int64_t, Totals>> SqliteBackend::thread_totals(int64_t run) {
    std::vector<std::pair<int64_t, Totals>> out;
    auto s = query("SELECT thread_id, sum(count), sum(requested_bytes), sum(gc_bytes) FROM run_class_stack "
                   "WHERE run_id=? GROUP BY thread_id");
    s.binds(run);
    while (s.step()) out.push_back({s.i64(0), {s.i64(1), s.i64(2), s.i64(3)}});
    return out;
}

void SqliteBackend::survivors(int64_t run, RowFn<SurvivorRow> fn) {
    // In key order: a (class, stack)'s rows are adjacent.
    auto s = query(!features_.survivor_frames
                       ? "SELECT class_id, stack_id, count, gc_bytes, first_seq, 0, -1, 0 FROM survivors WHERE run_id=?"
                   : features_.alloc_threads
                       ? "SELECT class_id, stack_id, count, gc_bytes, first_seq, frames, thread_id, "
                         "all_frames FROM survivors WHERE run_id=?"
                       : "SELECT class_id, stack_id, count, gc_bytes, first_seq, frames, -1, frames "
                         "FROM survivors WHERE run_id=?");
    s.binds(run);
    while (s.step()) fn({s.i64(0), s.i64(1), s.i64(2), s.i64(3), s.i64(4), s.i64(5), s.i64(6), s.i64(7)});
}

void SqliteBackend::death_sites(int64_t run, int64_t from, int64_t to, RowFn<DeathSiteRow> fn) {
    auto d = query(features_.alloc_threads ? "SELECT seq, class_id, stack_id, ages, thread_id FROM death_sites "
                                             "WHERE run_id=? AND seq BETWEEN ? AND ?"
                                           : "SELECT seq, class_id, stack_id, ages, -1 FROM death_sites "
                                             "WHERE run_id=? AND seq BETWEEN ? AND ?");
    d.binds(run, from, to);
    DeathSiteRow r;
    while (d.step()) {
        r.seq = d.i64(0), r.class_id = d.i64(1), r.stack_id = d.i64(2), r.thread_id = d.i64(4);
        r.ages.assign(d.blob(3));
        fn(r);
    }
}

std::optional<int64_t> SqliteBackend::last_death_seq(int64_t run, int64_t from, int64_t to) {
    auto last = query("SELECT max(seq) FROM death_sites WHERE run_id=? AND seq BETWEEN ? AND ?");
    last.binds(run, from, to);
    if (last.step() && !last.null(0)) return last.i64(0);
    return std::nullopt;
}

}  // namespace mt::viewer
