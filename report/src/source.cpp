#include "source.h"

#include <charconv>

#include "ch_backend.h"
#include "clickhouse.h"
#include "memtracer/store/schema.h"

namespace mt::report {

namespace {

int64_t parse_run(const std::string &s, const std::string &spec) {
    int64_t v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || v < 1)
        throw ReportError(spec + ": '" + s + "' after @ is not a run number");
    return v;
}

}  // namespace

Source::Source(const std::string &spec, int64_t run) {
    std::string path = spec;
    if (auto at = spec.rfind('@'); at != std::string::npos && at + 1 < spec.size() &&
                                   spec.find('/', at) == std::string::npos) {
        path = spec.substr(0, at);
        run = parse_run(spec.substr(at + 1), spec);
    }
    try {
        // The viewer's check (store/): a newer schema (user_version or meta.schema_version), a
        // foreign or damaged file and a locked one are refused here with the same words, before
        // any answer could be read from tables that may mean something else.
        if (fleet::ClickHouseUrl::is_url(path)) {  // a fleet database: a run by its fleet run id
            db_ = std::make_unique<viewer::Database>(fleet::open_clickhouse_backend(path));
        } else {
            store::check_readable(path);
            db_ = std::make_unique<viewer::Database>(path);
        }
    } catch (const std::exception &e) {
        throw ReportError(e.what());
    }
    if (run == 0) {
        auto runs = call([](viewer::Database &db) { return viewer::compute_runs(db, {2, 0}); });
        if (runs.runs.size() != 1)
            throw ReportError(path + " holds " + (runs.runs.size() ? "more than one run" : "no run") +
                              (runs.runs.size() ? ": name one as " + path + "@N (memtracer-viewer lists them)" : ""));
        run = runs.runs.front().run_id;
    }
    run_ = run;
    label_ = path + "@" + std::to_string(run);
    call([run](viewer::Database &db) {  // 404 now, naming the run, rather than later
        viewer::require_run(db, run);
        return 0;
    });
}

void Source::guarded(const std::function<void()> &fn) {
    auto fail = [&](const std::string &msg) { return ReportError(label_.empty() ? msg : label_ + ": " + msg); };
    try {
        viewer::in_snapshot(*db_, fn);
    } catch (const viewer::ApiError &e) {
        throw fail(e.message);
    } catch (const ReportError &) {
        throw;
    } catch (const std::exception &e) {
        throw fail(e.what());
    }
}

std::string site_name(const std::optional<viewer::SiteInfo> &s) {
    viewer::SiteInfo v = viewer::site_or_none(s);
    return v.file.empty() ? v.function : v.function + " (" + v.file + (v.line ? ":" + std::to_string(v.line) : "") + ")";
}

}  // namespace mt::report
