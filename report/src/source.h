// source.h — a run to report on: `path[@run]` opened read-only through the viewer's query layer,
// and its endpoints' answers parsed with simdjson. Every failure is a ReportError saying what.
#ifndef MEMTRACER_REPORT_SOURCE_H
#define MEMTRACER_REPORT_SOURCE_H

#include <simdjson.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "memtracer/viewer/query.h"

namespace mt::report {

// Exit status 2 with this message (bad database, unknown run, an endpoint's 4xx).
struct ReportError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// One parsed answer; the parser owns the memory the elements point into.
struct Doc {
    std::unique_ptr<simdjson::dom::parser> parser;
    simdjson::dom::element root;
    simdjson::dom::element operator[](std::string_view k) const { return root[k].value(); }
};

class Source {
public:
    // `spec` is `path` (a database with one run, or `run` names it) or `path@N`.
    explicit Source(const std::string &spec, int64_t run = 0);
    int64_t run() const { return run_; }
    const std::string &label() const { return label_; }  // "base.db@1"
    // GET of a query-layer target ("/api/runs/1/top?..."); 200 or a ReportError with the
    // endpoint's message.
    Doc get(const std::string &target);
    std::string run_path(const std::string &what) const { return "/api/runs/" + std::to_string(run_) + "/" + what; }

private:
    std::unique_ptr<viewer::Database> db_;
    int64_t run_ = 0;
    std::string label_;
};

// Element accessors that say which field was missing rather than throwing simdjson's code.
int64_t num(const simdjson::dom::element &e, std::string_view key);
double real(const simdjson::dom::element &e, std::string_view key);
std::string str(const simdjson::dom::element &e, std::string_view key);
bool is_null(const simdjson::dom::element &e, std::string_view key);

// What a row of a top/leaks/temporaries answer is: "System.String", or
// "Hud.UpdateText (Assets/Scripts/Hud.cs:31)" for a site, "stack 12: <site>" for a stack.
std::string entry_name(const simdjson::dom::element &e, std::string_view group);

}  // namespace mt::report

#endif
