// viewer_bench: latency of each endpoint through the query layer (no sockets), p50 and p95 over
// repeated requests on one warm connection, with /api/runs as the baseline measured in the same
// run. wrk measures the same endpoints over HTTP (run_bench.sh).
//   viewer_bench DB [--reps N]
#include <memtracer/cli.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "memtracer/viewer/query.h"

using namespace mt::viewer;
using Clock = std::chrono::steady_clock;

namespace {
struct Row {
    std::string name, target_ms;
    std::vector<std::string> targets;  // cycled through
    std::string versus;                // printed against this row's p95 (same run)
};

double pct(std::vector<double> v, double p) {
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size() - 1) + 0.5))];
}

int64_t json_int(const std::string &body, const std::string &key) {
    auto at = body.find("\"" + key + "\":");
    return at == std::string::npos ? -1 : std::stoll(body.substr(at + key.size() + 3));
}
}  // namespace

int main(int argc, char **argv) {
    int reps = 40;
    std::string path;
    mt::cli::Parser cli({"viewer_bench", "DB [--reps N]", 2, ""});
    cli.app().add_option("DB", path, "the database to query")->required();
    cli.app().add_option("--reps", reps, "requests per endpoint")->check(mt::cli::range(1, 1000000));
    if (auto code = cli.parse(argc, argv)) return *code;
    Database db(path);
    auto runs = handle_target(db, "/api/runs");
    // The two longest runs: the first is "a", the second "b".
    int64_t a = json_int(runs.body, "run_id");
    auto second = runs.body.find("\"run_id\":", runs.body.find("\"run_id\":") + 1);
    int64_t b = second == std::string::npos ? a : std::stoll(runs.body.substr(second + 9));
    int64_t frames = json_int(handle_target(db, "/api/runs/" + std::to_string(a)).body, "frames");
    auto A = "/api/runs/" + std::to_string(a);
    std::mt19937 rng(1);
    std::vector<std::string> one_frame;
    for (int i = 0; i < 64; ++i) one_frame.push_back(A + "/frames/" + std::to_string(rng() % frames));
    auto mid = std::to_string(frames / 2), mid1k = std::to_string(frames / 2 + 999);
    std::vector<Row> rows = {
        {"runs list (baseline)", "", {"/api/runs"}},
        {"run summary", "", {A}},
        {"frame series, whole run", "100", {A + "/frames"}},
        {"one frame", "20", one_frame},
        {"TopN whole run, by class", "100", {A + "/top"}},
        {"TopN whole run, by site", "100", {A + "/top?group=site"}},
        {"TopN whole run, by stack", "100", {A + "/top?group=stack&by=count"}},
        {"TopN 1000-frame range", "", {A + "/top?from=" + mid + "&to=" + mid1k}},
        {"compare runs, by class", "250", {"/api/compare?a=" + std::to_string(a) + "&b=" + std::to_string(b)}},
        {"compare runs, by site", "250", {"/api/compare?a=" + std::to_string(a) + "&b=" + std::to_string(b) + "&group=site"}},
        {"compare two 1000-frame ranges", "", {"/api/compare?a=" + std::to_string(a) + "&b=" + std::to_string(a) +
                                                "&a_from=0&a_to=999&b_from=" + mid + "&b_to=" + mid1k}},
        {"flame graph, whole run", "", {A + "/flame"}},
        // Issue 11: the one filter on TopN, and search; each against the unfiltered TopN. Words
        // that match both the generator's names and the sample game's (update, string, list).
        {"TopN whole run, class filter", "150", {A + "/top?class=string", A + "/top?class=node", A + "/top?class=list"},
         "TopN whole run, by class"},
        {"TopN whole run, function filter", "150",
         {A + "/top?function=update", A + "/top?function=Graph.Link", A + "/top?function=behaviour"},
         "TopN whole run, by class"},
        {"TopN whole run by site, class + function", "150", {A + "/top?group=site&class=string&function=update"},
         "TopN whole run, by site"},
        {"TopN 1000-frame range, class + function", "150",
         {A + "/top?from=" + mid + "&to=" + mid1k + "&class=string&function=update"}, "TopN 1000-frame range"},
        {"TopN whole-run range (seq 0..end), function filter", "150",
         {A + "/top?from=0&to=" + std::to_string(frames - 2) + "&function=update"}, "TopN whole run, by class"},
        {"TopN half-run range (unfiltered)", "", {A + "/top?from=" + std::to_string(frames / 4) + "&to=" + std::to_string(frames * 3 / 4)}},
        {"TopN half-run range, class + function", "150",
         {A + "/top?from=" + std::to_string(frames / 4) + "&to=" + std::to_string(frames * 3 / 4) + "&class=string&function=update"},
         "TopN half-run range (unfiltered)"},
        // The thread filter (ids: the generator's and the sample game's runs both have 0 and 1):
        // whole run from run_class_stack's thread rows; a long range from block sums of that
        // thread's rows (built by the first such request, kept per thread set).
        {"TopN whole run, thread filter", "150", {A + "/top?thread=0", A + "/top?thread=1"}, "TopN whole run, by class"},
        {"TopN 1000-frame range, thread filter", "150", {A + "/top?from=" + mid + "&to=" + mid1k + "&thread=1"},
         "TopN 1000-frame range"},
        {"TopN half-run range, thread filter", "150",
         {A + "/top?from=" + std::to_string(frames / 4) + "&to=" + std::to_string(frames * 3 / 4) + "&thread=1"},
         "TopN half-run range (unfiltered)"},
        {"search", "100", {A + "/search?q=node", A + "/search?q=update", A + "/search?q=sys", A + "/search?q=list", A + "/search?q=e"},
         "TopN whole run, by class"},
    };
    // Issue 11's lifetimes views, when the run recorded lifetimes: whole run and a half-run range
    // (allocs minus the range's linked deaths), against the unfiltered whole-run TopN.
    if (handle_target(db, A).body.find("\"has_lifetimes\":true") != std::string::npos) {
        auto half = "from=" + std::to_string(frames / 4) + "&to=" + std::to_string(frames * 3 / 4);
        std::vector<Row> lifetimes = {
            {"leaks whole run, by class", "250", {A + "/leaks"}, "TopN whole run, by class"},
            {"leaks whole run, by site", "250", {A + "/leaks?group=site"}, "TopN whole run, by class"},
            {"leaks half-run range, by site", "250", {A + "/leaks?group=site&" + half}, "TopN half-run range (unfiltered)"},
            {"temporaries whole run (within 1), by class", "250", {A + "/temporaries"}, "TopN whole run, by class"},
            {"temporaries whole run (within 60), by site", "250", {A + "/temporaries?within=60&group=site"},
             "TopN whole run, by class"},
            {"temporaries half-run range, class filter", "250", {A + "/temporaries?class=string&" + half},
             "TopN half-run range (unfiltered)"},
        };
        rows.insert(rows.end(), lifetimes.begin(), lifetimes.end());
    }
    std::vector<std::pair<std::string, double>> p95s;
    std::printf("database: %s (run %lld: %lld frames; compare with run %lld), %d requests per endpoint\n\n", argv[1],
                static_cast<long long>(a), static_cast<long long>(frames), static_cast<long long>(b), reps);
    std::printf("| endpoint | p50 ms | p95 ms | p50 / baseline | target p95 | bytes |\n|---|---:|---:|---:|---:|---:|\n");
    double base = 0;
    bool all_ok = true;
    for (auto &r : rows) {
        std::vector<double> t;
        size_t bytes = 0;
        handle_target(db, r.targets[0]);  // warm the page cache and prepared statements
        for (int i = 0; i < reps; ++i) {
            auto t0 = Clock::now();
            auto res = handle_target(db, r.targets[static_cast<size_t>(i) % r.targets.size()]);
            t.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            if (res.status != 200) {
                std::fprintf(stderr, "%s -> %d %s\n", r.targets[0].c_str(), res.status, res.body.c_str());
                return 1;
            }
            bytes = res.body.size();
        }
        double p50 = pct(t, 0.5), p95 = pct(t, 0.95);
        if (base == 0) base = p50;
        p95s.emplace_back(r.name, p95);
        bool ok = r.target_ms.empty() || p95 <= std::stod(r.target_ms);
        all_ok = all_ok && ok;
        std::printf("| %s | %.2f | %.2f | %.1fx | %s | %zu |\n", r.name.c_str(), p50, p95, p50 / base,
                    r.target_ms.empty() ? "–" : ((ok ? "<= " : "MISSED ") + r.target_ms + " ms").c_str(), bytes);
    }
    std::printf("\n| filtered / search / lifetimes | p95 ms | against (same run) | its p95 ms | ratio |\n|---|---:|---|---:|---:|\n");
    for (auto &r : rows) {
        if (r.versus.empty()) continue;
        auto find = [&](const std::string &n) {
            for (auto &[k, v] : p95s)
                if (k == n) return v;
            return 0.0;
        };
        double mine = find(r.name), ref = find(r.versus);
        std::printf("| %s | %.2f | %s | %.2f | %.1fx |\n", r.name.c_str(), mine, r.versus.c_str(), ref,
                    ref > 0 ? mine / ref : 0.0);
    }
    std::printf("\n%s\n", all_ok ? "all targets met" : "some targets missed");
    return 0;
}
