#include "memtracer/symbolizer/progress.h"

#include <unistd.h>

#include <cmath>

namespace mt::sym {

Progress::Style Progress::detect(FILE *out, bool enabled) {
    if (!enabled) return Style::Off;
    return isatty(fileno(out)) ? Style::Bar : Style::Lines;
}

void Progress::write(const std::string &s, bool bar) {
    std::lock_guard<std::mutex> lock(mu_);
    if (bar) {
        fprintf(out_, "\r%s\033[K", s.c_str());
        bar_shown_ = true;
    } else {
        if (bar_shown_) fputs("\r\033[K", out_);
        fprintf(out_, "%s\n", s.c_str());
        bar_shown_ = false;
    }
    fflush(out_);
}

void Progress::message(const std::string &line) { write(line, false); }

std::string Progress::human(double v) {
    char b[32];
    if (v >= 1e9) snprintf(b, sizeof b, "%.1fG", v / 1e9);
    else if (v >= 1e6) snprintf(b, sizeof b, "%.1fM", v / 1e6);
    else if (v >= 1e4) snprintf(b, sizeof b, "%.0fk", v / 1e3);
    else snprintf(b, sizeof b, "%.0f", v);
    return b;
}

std::string Progress::duration(double s) {
    char b[32];
    if (!std::isfinite(s) || s < 0) return "?";
    long t = std::lround(s);
    if (t < 60) snprintf(b, sizeof b, "%lds", t);
    else if (t < 3600) snprintf(b, sizeof b, "%ldm%02lds", t / 60, t % 60);
    else snprintf(b, sizeof b, "%ldh%02ldm", t / 3600, (t / 60) % 60);
    return b;
}

Progress::Phase::Phase(Progress &p, std::string name, uint64_t total, const std::atomic<uint64_t> &done, std::string unit)
    : p_(p), name_(std::move(name)), unit_(std::move(unit)), total_(total), done_(done),
      start_(std::chrono::steady_clock::now()), last_line_(start_) {
    if (p_.style_ != Style::Off) ticker_ = std::thread([this] { loop(); });
}

Progress::Phase::~Phase() {
    if (!ticker_.joinable()) return;
    {
        std::lock_guard<std::mutex> lock(mu_);
        stop_ = true;
    }
    cv_.notify_all();
    ticker_.join();
    draw(true);
}

void Progress::Phase::tick() {
    if (p_.style_ == Style::Off) return;
    std::lock_guard<std::mutex> lock(mu_);
    draw(false);
}

void Progress::Phase::loop() {
    std::unique_lock<std::mutex> lock(mu_);
    while (!cv_.wait_for(lock, std::chrono::milliseconds(100), [this] { return stop_; })) draw(false);
}

void Progress::Phase::draw(bool final) {
    auto now = std::chrono::steady_clock::now();
    double secs = std::chrono::duration<double>(now - start_).count();
    uint64_t done = done_.load(std::memory_order_relaxed);
    double rate = secs > 0 ? static_cast<double>(done) / secs : 0;
    bool bar = p_.style_ == Style::Bar;
    if (!bar && !final) {
        // Plain lines: one every 5 s, and none at all for phases that finish quickly.
        if (std::chrono::duration<double>(now - last_line_).count() < 5) return;
        last_line_ = now;
    }
    if (!bar && final && secs < 5 && done == 0) return;
    std::string s = name_ + ": ";
    if (total_ > 0) {
        double frac = std::min(1.0, static_cast<double>(done) / static_cast<double>(total_));
        if (bar) {
            const int width = 28;
            int fill = static_cast<int>(frac * width);
            s += "[" + std::string(fill, '#') + std::string(width - fill, '.') + "] ";
        }
        char pct[16];
        snprintf(pct, sizeof pct, "%3.0f%% ", frac * 100);
        s += pct + human(static_cast<double>(done)) + "/" + human(static_cast<double>(total_)) + " " + unit_;
        s += ", " + human(rate) + "/s";
        if (final) s += ", " + duration(secs);
        else if (rate > 0) s += ", ETA " + duration(static_cast<double>(total_ - std::min(done, total_)) / rate);
    } else {
        s += human(static_cast<double>(done)) + " " + unit_ + ", " + human(rate) + "/s";
        if (final) s += ", " + duration(secs);
    }
    p_.write(s, bar && !final);
}

}  // namespace mt::sym
