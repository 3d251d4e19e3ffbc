// live_follow.h — the live view's ingest: ONE `memtracer-symbolize RUN.MT --follow --db DB`
// child for the whole capture (docs/symbolizer.md). It ingests the growing file into one run,
// one transaction per batch, and prints a line per committed batch; this class reads those lines
// and reports them. Nothing is ever re-ingested: the cost of a frame is paid once.
#ifndef MEMTRACER_VIEWER_LIVE_FOLLOW_H
#define MEMTRACER_VIEWER_LIVE_FOLLOW_H

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mt::viewer {

// One committed batch: `follow run=<id> frames=<n> last_seq=<seq> events=<n> state=<s>`.
struct FollowLine {
    int64_t run_id = -1;
    uint64_t frames = 0;   // frames of the run now queryable
    int64_t last_seq = -1;
    uint64_t events = 0;
    std::string state;     // "live", "ended", "cut_off"
};
// nullopt for any other line (the symbolizer's own progress or warnings): never guessed at.
std::optional<FollowLine> parse_follow_line(std::string_view line);

// The symbolizer's command line for following `run_mt` into `db`.
std::vector<std::string> follow_argv(const std::string &symbolizer, const std::string &run_mt, const std::string &db,
                                     const std::vector<std::string> &symbol_args);

class FollowIngest {
public:
    using OnLine = std::function<void(const FollowLine &)>;
    // Runs the child to its end on the calling thread: each batch line goes to on_line; returns
    // the exit status, with `error` holding the child's last stderr line when it failed.
    int run(const std::vector<std::string> &argv, const OnLine &on_line, std::string &error);
    // From another thread: SIGTERM, so the child finishes the run as cut off (the game is gone,
    // or the viewer is stopping) and exits; run() then returns.
    void finish();

private:
    std::atomic<int> pid_{-1};
    std::atomic<bool> finish_asked_{false};
};

}  // namespace mt::viewer

#endif
