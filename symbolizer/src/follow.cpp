// follow.cpp — Symbolizer::follow: RunIngest over a FollowReader, one transaction per batch.
// Each poll reads the whole chunks appended since the last one (the reader never takes part of
// a chunk), and the batch is committed with everything a reader needs to see a consistent run:
// new stacks resolved and symbolized (addresses seen before are free: the cache persists across
// batches), allocs, deaths, run_class_stack and the runs row's totals so far. Survivors are
// written once, when the run ends or is cut off.
#include <sys/stat.h>

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <optional>
#include <thread>

#include "memtracer/symbolizer/errors.h"
#include "memtracer/store/db.h"
#include "memtracer/store/schema.h"
#include "memtracer/store/writer_sql.h"
#include "run_ingest.h"
#include "sites.h"
#include "memtracer/symbolizer/symbolizer.h"

namespace mt::sym {

namespace {

std::optional<uint64_t> file_size(const std::string &path) {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) return std::nullopt;
    return static_cast<uint64_t>(st.st_size);
}

bool stop_requested(const FollowOptions &o) { return o.stop && o.stop->load(std::memory_order_relaxed); }

// Sleeps one poll period, in short slices so a stop request is seen promptly.
void wait_poll(const FollowOptions &o) {
    using namespace std::chrono;
    auto until = steady_clock::now() + milliseconds(o.poll_ms);
    while (!stop_requested(o) && steady_clock::now() < until)
        std::this_thread::sleep_for(std::min<milliseconds>(milliseconds(10), milliseconds(o.poll_ms)));
}

}  // namespace

const char *live_state_name(LiveState s) {
    switch (s) {
    case LiveState::Live: return "live";
    case LiveState::Ended: return "ended";
    case LiveState::CutOff: return "cut_off";
    }
    return "live";
}

std::string progress_line(const FollowBatch &b) {
    char line[256];
    snprintf(line, sizeof line, "follow run=%" PRId64 " frames=%" PRIu64 " last_seq=%" PRId64 " events=%" PRIu64 " state=%s",
             b.run_id, b.frames, b.last_seq, b.events, live_state_name(b.state));
    return line;
}

namespace {

LiveState state_after(const mt::reader::ReadResult &r, bool stopping) {
    if (r.stop == mt::reader::Stop::End) return LiveState::Ended;
    return stopping || r.stop == mt::reader::Stop::Corrupt ? LiveState::CutOff : LiveState::Live;
}

std::string corrupt_at(const std::string &path, const mt::reader::ReadResult &r) {
    return path + ": corrupt at offset " + std::to_string(r.stop_offset) + ": " + r.stop_reason;
}

}  // namespace

InputResult Symbolizer::follow(store::Db &db, const std::string &run_path, const FollowOptions &options) {
    // Readers (the live viewer) query the database while batches are committed: WAL keeps their
    // snapshots consistent without blocking the writer. finish_database() switches back.
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = NORMAL");
    InputResult res;
    RunIngest run(db, {run_path, 0}, *locator_, config_.force, warn_);
    run.split_threads(config_.threads);
    mt::reader::FollowReader reader(run);
    std::optional<AddressCache> cache;
    uint64_t polled_size = 0;
    std::optional<uint64_t> committed_offset;
    for (;; wait_poll(options)) {
        // Read before polling: after a stop request, one last poll takes every whole chunk there.
        bool stopping = stop_requested(options);
        std::optional<uint64_t> size = file_size(run_path);
        if (!stopping && (!size || *size == polled_size)) continue;
        polled_size = size.value_or(0);
        store::Transaction tx(db);
        bool polled = false;
        try {
            polled = reader.poll_file(run_path);
        } catch (const mt::reader::FormatError &e) {
            throw input_error(e.what());
        }
        const mt::reader::ReadResult &r = reader.result();
        if (polled && !run.has_header() && r.stop == mt::reader::Stop::Corrupt)  // the INFO chunk itself
            throw input_error(corrupt_at(run_path, r) + "; nothing was written");
        if (!polled || !run.has_header()) {
            if (stopping) return res;  // nothing of a run came: no run
            continue;
        }
        LiveState state = state_after(r, stopping);
        if (state == LiveState::Live && committed_offset == reader.offset()) continue;  // only part of a chunk came

        if (!cache) {
            check_site_rules(db);  // before the cache loads stored site summaries
            cache.emplace(db);
        }
        symbolize_new_stacks(db, run, *cache, res, config_.resymbolize);
        if (state == LiveState::Live) run.flush_batch(r);
        else run.finish(r);
        store::Stmt live = db.prepare(store::sql::kUpdateLiveRun);
        live.bind(1, run.run_id()).bind(2, std::max(file_size(run_path).value_or(0), reader.offset()));
        live.bind(3, live_state_name(state)).run();
        store::create_secondary_indexes(db);
        tx.commit();
        committed_offset = reader.offset();

        if (options.on_batch) options.on_batch({run.run_id(), run.frames_written(), run.last_seq(), run.totals().events, state});
        if (r.stop == mt::reader::Stop::Corrupt)
            throw input_error(corrupt_at(run_path, r) + "; the " + std::to_string(run.frames_written()) +
                              " frames before it are kept (run " + std::to_string(run.run_id()) + ", cut off)");
        if (state != LiveState::Live) {
            describe(run, r, res);
            return res;
        }
    }
}

}  // namespace mt::sym
