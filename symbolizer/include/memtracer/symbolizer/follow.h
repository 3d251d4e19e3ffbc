// follow.h — options and progress of Symbolizer::follow (memtracer-symbolize --follow): a run.mt
// that memtracer-capture (or a game) is still writing, ingested into ONE run as it grows, one
// transaction per batch of whole chunks, so a reader of the database sees a consistent run
// after every commit (docs/symbolizer.md, "--follow").
#ifndef MEMTRACER_SYM_FOLLOW_H
#define MEMTRACER_SYM_FOLLOW_H

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

namespace mt::sym {

// runs.live_state of a followed run (docs/schema.md); a whole-file ingest leaves it ''.
enum class LiveState { Live, Ended, CutOff };
const char *live_state_name(LiveState s);  // "live", "ended", "cut_off"

// What one committed batch left in the database.
struct FollowBatch {
    int64_t run_id = 0;
    uint64_t frames = 0;   // frames committed so far
    int64_t last_seq = -1;  // seq of the last of them, -1 before the first
    uint64_t events = 0;   // allocation events (aggregate records in aggregate mode) so far
    LiveState state = LiveState::Live;
};

// The progress line memtracer-symbolize prints on stdout after each commit (the live viewer
// parses it): "follow run=<id> frames=<n> last_seq=<seq> events=<n> state=<live|ended|cut_off>".
std::string progress_line(const FollowBatch &b);

struct FollowOptions {
    int poll_ms = 100;                       // how often the file is looked at
    const std::atomic<bool> *stop = nullptr;  // set (e.g. by SIGTERM): take what is there, cut off
    std::function<void(const FollowBatch &)> on_batch;  // after each commit
};

}  // namespace mt::sym

#endif
