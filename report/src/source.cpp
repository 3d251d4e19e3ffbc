#include "source.h"

#include <charconv>

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
        store::check_readable(path);
        db_ = std::make_unique<viewer::Database>(path);
    } catch (const std::exception &e) {
        throw ReportError(e.what());
    }
    if (run == 0) {
        Doc runs = get("/api/runs?limit=2");
        auto list = runs["runs"].get_array().value();
        if (list.size() != 1)
            throw ReportError(path + " holds " + (list.size() ? "more than one run" : "no run") +
                              (list.size() ? ": name one as " + path + "@N (memtracer-viewer lists them)" : ""));
        run = num(list.at(0).value(), "run_id");
    }
    run_ = run;
    label_ = path + "@" + std::to_string(run);
    get("/api/runs/" + std::to_string(run));  // 404 now, naming the run, rather than later
}

Doc Source::get(const std::string &target) {
    viewer::Response r = viewer::handle_target(*db_, target);
    Doc d{std::make_unique<simdjson::dom::parser>(), {}};
    auto parsed = d.parser->parse(r.body);
    if (parsed.error()) throw ReportError(target + ": answer is not JSON (" + simdjson::error_message(parsed.error()) + ")");
    d.root = parsed.value();
    if (r.status != 200) {
        std::string_view msg;
        if (d.root["error"]["message"].get(msg)) msg = "error";
        throw ReportError(label_.empty() ? std::string(msg) : label_ + ": " + std::string(msg));
    }
    return d;
}

int64_t num(const simdjson::dom::element &e, std::string_view key) {
    auto v = e[key];
    int64_t i = 0;
    if (!v.get(i)) return i;
    double d = 0;
    if (!v.get(d)) return static_cast<int64_t>(d);
    throw ReportError("answer has no number '" + std::string(key) + "'");
}

double real(const simdjson::dom::element &e, std::string_view key) {
    double d = 0;
    if (!e[key].get(d)) return d;
    int64_t i = 0;
    if (!e[key].get(i)) return static_cast<double>(i);
    throw ReportError("answer has no number '" + std::string(key) + "'");
}

std::string str(const simdjson::dom::element &e, std::string_view key) {
    std::string_view s;
    if (e[key].get(s)) throw ReportError("answer has no text '" + std::string(key) + "'");
    return std::string(s);
}

bool is_null(const simdjson::dom::element &e, std::string_view key) {
    simdjson::dom::element v;
    if (e[key].get(v)) return true;
    return v.is_null();
}

std::string entry_name(const simdjson::dom::element &e, std::string_view group) {
    if (group == "class") return str(e, "full_name");
    auto site = [](const simdjson::dom::element &s) {
        std::string f = str(s, "function"), file = str(s, "file");
        int64_t line = num(s, "line");
        return file.empty() ? f : f + " (" + file + (line ? ":" + std::to_string(line) : "") + ")";
    };
    if (group == "site") return site(e);
    return "stack " + std::to_string(num(e, "stack_id")) + ": " + site(e["site"].value());
}

}  // namespace mt::report
