// progress.h — progress on stderr: on a terminal one redrawn bar with count, rate and ETA; when
// stderr is a file or pipe, a plain line at most every few seconds, so logs stay readable.
// Messages (warnings) go through it, so they never land in the middle of a bar.
#ifndef MEMTRACER_SYM_PROGRESS_H
#define MEMTRACER_SYM_PROGRESS_H

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

namespace mt::sym {

class Progress {
public:
    enum class Style { Bar, Lines, Off };
    // Bar if `out` is a terminal, else Lines; Off when disabled.
    static Style detect(FILE *out, bool enabled);
    explicit Progress(Style style, FILE *out = stderr) : style_(style), out_(out) {}

    void message(const std::string &line);  // always printed (warnings, summaries)
    Style style() const { return style_; }

    // One phase: `done` is advanced by any thread; a ticker thread draws it until destruction,
    // which prints the final state. total 0 = unknown (count and rate only).
    class Phase {
    public:
        Phase(Progress &p, std::string name, uint64_t total, const std::atomic<uint64_t> &done,
              std::string unit = "addresses");
        ~Phase();
        // Draws now, as the ticker does every 100 ms.
        void tick();
        Phase(const Phase &) = delete;
        Phase &operator=(const Phase &) = delete;

    private:
        void loop();
        void draw(bool final);
        Progress &p_;
        std::string name_, unit_;
        uint64_t total_;
        const std::atomic<uint64_t> &done_;
        std::chrono::steady_clock::time_point start_, last_line_;
        std::mutex mu_;
        std::condition_variable cv_;
        bool stop_ = false;
        std::thread ticker_;
    };

    // "1.2M", "340k", "87" — for counts and rates.
    static std::string human(double v);
    // "3s", "2m05s", "1h02m".
    static std::string duration(double seconds);

private:
    void write(const std::string &s, bool bar);
    Style style_;
    FILE *out_;
    std::mutex mu_;
    bool bar_shown_ = false;
};

}  // namespace mt::sym

#endif
