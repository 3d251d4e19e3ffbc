// source.h — a run to report on: `path[@run]` opened read-only through the viewer's query layer,
// whose typed results (memtracer/viewer/results.h) the commands read directly. Every failure is
// a ReportError saying what.
#ifndef MEMTRACER_REPORT_SOURCE_H
#define MEMTRACER_REPORT_SOURCE_H

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "memtracer/viewer/query.h"
#include "memtracer/viewer/results.h"

namespace mt::report {

// Exit status 2 with this message (bad database, unknown run, a bad parameter).
struct ReportError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Source {
public:
    // `spec` is `path` (a database with one run, or `run` names it) or `path@N`.
    explicit Source(const std::string &spec, int64_t run = 0);
    int64_t run() const { return run_; }
    const std::string &label() const { return label_; }  // "base.db@1"

    // One compute call of the query layer, as an endpoint makes it (one read snapshot): its
    // result, or a ReportError with the query layer's message after the run's label.
    template <class F>
    auto call(F &&f) {
        std::optional<decltype(f(*db_))> out;
        guarded([&] { out.emplace(f(*db_)); });
        return std::move(*out);
    }

private:
    void guarded(const std::function<void()> &fn);
    std::unique_ptr<viewer::Database> db_;
    int64_t run_ = 0;
    std::string label_;
};

// What a row of a top/leaks/temporaries answer is: "System.String", or
// "Hud.UpdateText (Assets/Scripts/Hud.cs:31)" for a site, "stack 12: <site>" for a stack.
std::string site_name(const std::optional<viewer::SiteInfo> &s);
template <class E>
std::string entry_name(const E &e, viewer::Group g) {
    if (g == viewer::Group::Class) return viewer::class_display_name(e.key, e.cls);
    if (g == viewer::Group::Site) return site_name(e.site);
    return "stack " + std::to_string(e.key) + ": " + site_name(e.site);
}

}  // namespace mt::report

#endif
