#include "frame_writer.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include "memtracer/format.h"
#include "memtracer/store/writer_sql.h"

namespace mt::sym {

FrameWriter::FrameWriter(store::Db &db, int64_t run_id, const mt::reader::Header &h, bool split_threads)
    : run_id_(run_id),
      ns_per_tick_(1e9 / (h.tick_hz > 0 ? h.tick_hz : 1e9)),
      aggregate_mode_((h.flags & MT_FILE_FLAG_AGGREGATE) != 0),
      split_(split_threads && !aggregate_mode_),
      digester_(h, split_threads),
      death_(db.prepare(store::sql::kInsertDeath)),
      survivor_(db.prepare(store::sql::kInsertSurvivor)),
      marker_(db.prepare(store::sql::kInsertMarker)),
      // run_id a literal in the statements' text: one bind and one copy of a bound value less per
      // row (4.26M allocs rows in a session-sized run).
      allocs_(db, store::sql::kInsertAllocs, store::BatchInsert::Leading{{run_id}}),
      frames_(db, store::sql::kInsertFrameRows, store::BatchInsert::Leading{{run_id}}),
      gcs_(db, store::sql::kInsertGcEventRows, store::BatchInsert::Leading{{run_id}}),
      rcs_(db, store::sql::kInsertRunClassStackRows, store::BatchInsert::Leading{{run_id}}) {
    store::Stmt split = db.prepare(store::sql::kSetThreadSplit);
    split.bind(1, run_id).bind(2, split_ ? 1 : 0).run();
    if (h.flags & MT_FILE_FLAG_LIFETIMES) {
        lifetimes_.emplace();
        death_sites_.emplace(db, run_id);
    }
}

int64_t FrameWriter::ns(uint64_t tick) const {
    double d = (static_cast<double>(tick) - static_cast<double>(totals_.first_tick)) * ns_per_tick_;
    return static_cast<int64_t>(std::llround(d));
}

void FrameWriter::write_allocs(uint64_t seq, const AllocRows &rows) {
    // In key order, so each frame's rows are appended to the allocs b-tree in order.
    for (const AllocRow &row : rows) {
        const Key &key = row.key;
        allocs_.add(seq).add(key.class_id).add(key.stack_id).add(row.count).add(row.requested).add(row.gc).add(key.thread).end_row();
        size_t known = run_aggs_.entries().size();
        uint32_t at = run_aggs_.find_or_add(key);
        RunAgg &r = run_aggs_.entries()[at].second;
        if (at == known) r.first_seq = seq;  // a new key
        r.last_seq = seq;
        if (!r.dirty) {
            r.dirty = true;
            dirty_.push_back(at);
        }
        r.count += row.count;
        r.requested += row.requested;
        r.gc += row.gc;
        totals_.alloc_count += row.count;
        totals_.requested_bytes += row.requested;
        totals_.gc_bytes += row.gc;
        if (lifetimes_) lifetimes_->on_alloc(key.class_id, key.stack_id, key.thread, seq, row.count, row.gc);
    }
}

void FrameWriter::write_deaths(const mt::reader::Frame &f) {
    if (!lifetimes_ || f.deaths.empty()) return;
    std::map<uint32_t, std::pair<uint64_t, uint64_t>> by_class;  // class -> count, gc bytes
    death_threads_.clear();
    for (const auto &d : f.deaths) {
        auto &c = by_class[d.class_id];
        c.first += 1;
        c.second += d.gc_size;
        death_threads_.push_back(split_ ? lifetimes_->death_thread(d) : -1);
        lifetimes_->on_death(d, death_threads_.back());
    }
    death_sites_->add(f, death_threads_);
    last_gc_seq_ = f.seq;
    for (const auto &[cls, c] : by_class)
        death_.bind(1, run_id_).bind(2, f.seq).bind(3, cls).bind(4, c.first).bind(5, c.second).run();
}

void FrameWriter::add(const mt::reader::Frame &f) {
    digester_.sum(f, rows_, lifetimes_ ? &*lifetimes_ : nullptr);
    write(f, aggregate_mode_ ? f.aggregates.size() : f.event_list.size(), rows_);
}

void FrameWriter::add(FrameDigest &d) {
    // A lifetimes run needs every event (Lifetimes::on_event): read_pipelined passes its frames whole.
    if (lifetimes_) throw std::logic_error("FrameWriter: a digested frame in a lifetimes run");
    sort_rows(d.rows);  // the reading thread leaves them in first-use order (FrameDigest)
    write(d.frame, d.records, d.rows);
}

void FrameWriter::write(const mt::reader::Frame &f, uint64_t records, const AllocRows &rows) {
    if (!totals_.any_frame) {
        totals_.first_tick = f.start_tick;
        totals_.any_frame = true;
    }
    totals_.last_tick = std::max(totals_.last_tick, f.end_tick);
    ++totals_.frames;
    totals_.events += records;
    totals_.dropped += f.dropped;

    write_allocs(f.seq, rows);
    write_deaths(f);

    for (const auto &m : f.marks) marker_.bind(1, run_id_).bind(2, f.seq).bind(3, ns(m.tick)).bind(4, m.label).run();

    uint64_t gc_ticks = 0;
    for (const auto &g : f.gcs) {
        gcs_.add(f.seq).add(ns(g.start_tick)).add(ns(g.end_tick));
        gcs_.add(g.heap_size).add(g.free_bytes).add(g.reclaimed_bytes).add(g.gc_no).end_row();
        gc_ticks += g.end_tick > g.start_tick ? g.end_tick - g.start_tick : 0;
    }
    totals_.gc_count += f.gcs.size();

    frames_.add(f.seq).add(f.index).add(ns(f.start_tick)).add(ns(f.end_tick));
    frames_.add(f.events).add(f.requested_bytes).add(f.gc_bytes).add(f.dropped);
    frames_.add(f.heap_size).add(f.free_bytes).add(static_cast<uint64_t>(f.gcs.size()));
    frames_.add(static_cast<int64_t>(std::llround(static_cast<double>(gc_ticks) * ns_per_tick_)));
    if (lifetimes_) frames_.add(lifetimes_->live_bytes());
    else frames_.add_null();
    frames_.add(f.flags).end_row();
}

void FrameWriter::flush() {
    allocs_.flush();
    frames_.flush();
    gcs_.flush();
    // In key order: the rows go into the table's b-tree in its primary key's order. The keys are
    // sorted beside their positions, as two integers (a comparison through the positions into
    // entries was 26M instructions for a warm run's 24k rows, docs/benchmarks.md, issue 22,
    // twelfth session), and not at all when they come in order already.
    auto &entries = run_aggs_.entries();
    struct Keyed {
        uint64_t class_stack;  // class_id, then stack_id: AggKey's order
        int64_t thread;
        uint32_t at;
        bool operator<(const Keyed &o) const { return class_stack != o.class_stack ? class_stack < o.class_stack : thread < o.thread; }
    };
    std::vector<Keyed> keyed;
    keyed.reserve(dirty_.size());
    for (uint32_t at : dirty_) {
        const AggKey &k = entries[at].first;
        keyed.push_back({static_cast<uint64_t>(k.class_id) << 32 | k.stack_id, k.thread, at});
    }
    if (!std::is_sorted(keyed.begin(), keyed.end())) std::sort(keyed.begin(), keyed.end());
    for (const Keyed &kd : keyed) {
        const uint32_t at = kd.at;
        auto &[key, r] = entries[at];
        r.dirty = false;
        rcs_.add(key.class_id).add(key.stack_id).add(r.count).add(r.requested).add(r.gc).add(r.first_seq).add(r.last_seq);
        rcs_.add(key.thread).end_row();
    }
    rcs_.flush();
    dirty_.clear();
}

void FrameWriter::finish() {
    flush();
    if (!lifetimes_) return;
    for (const auto &s : lifetimes_->survivors(last_gc_seq_))
        survivor_.bind(1, run_id_).bind(2, s.class_id).bind(3, s.stack_id).bind(4, s.count).bind(5, s.gc_bytes)
            .bind(6, s.first_seq).bind(7, s.frames).bind(8, s.thread).bind(9, s.all_frames).run();
}

}  // namespace mt::sym
