// ground_truth.cpp — the --expect-json file:
//   {"format": "memtracer-sample-game-expect/1", "seed": S, "frames": N, "workers": W, "jobs": J,
//    "hook": "patch", "classes": [{"klass": "0x…", "namespace": "…", "name": "…"}, …],
//    "allocations": [{"frame": F, "klass": "0x…", "count": C, "bytes": B}, …]}
// klass is the Il2CppClass* of this process, the same value the run.mt CLASSES chunk records.
#include "ground_truth.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace mtsample {

namespace {

std::string json_string(const std::string &s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out + "\"";
}

std::string hex(const void *p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "\"0x%llx\"", static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(p)));
    return buf;
}

}  // namespace

void GroundTruth::add_frame(uint64_t frame, const mtsample_tally_row *rows, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i) {
        rows_.push_back(Row{frame, rows[i].klass, rows[i].count, rows[i].bytes});
        ClassTotal &t = totals_[rows[i].klass];
        t.name_space = rows[i].name_space;
        t.name = rows[i].name;
        t.count += rows[i].count;
        t.bytes += rows[i].bytes;
    }
}

uint64_t GroundTruth::total_count() const {
    uint64_t n = 0;
    for (const auto &[k, t] : totals_) n += t.count;
    return n;
}

std::vector<std::pair<const void *, ClassTotal>> GroundTruth::top(size_t n) const {
    std::vector<std::pair<const void *, ClassTotal>> v(totals_.begin(), totals_.end());
    std::sort(v.begin(), v.end(), [](const auto &a, const auto &b) {
        return a.second.count != b.second.count ? a.second.count > b.second.count : a.second.name < b.second.name;
    });
    if (v.size() > n) v.resize(n);
    return v;
}

bool GroundTruth::write_json(const std::string &path, const Options &o, std::string &error) const {
    FILE *f = std::fopen(path.c_str(), "w");
    if (!f) {
        error = path + ": " + std::strerror(errno);
        return false;
    }
    std::fprintf(f, "{\n  \"format\": \"memtracer-sample-game-expect/1\",\n");
    std::fprintf(f, "  \"seed\": %llu, \"frames\": %llu, \"workers\": %u, \"jobs\": %u, \"hook\": %s,\n",
                 static_cast<unsigned long long>(o.seed), static_cast<unsigned long long>(o.frames), o.workers,
                 o.jobs, json_string(o.hook).c_str());
    std::fprintf(f, "  \"tracer_start\": %s, \"collections_at_start\": %llu, \"collections_at_stop\": %llu,\n",
                 json_string(o.tracer_start).c_str(), static_cast<unsigned long long>(collections_at_start_),
                 static_cast<unsigned long long>(collections_at_stop_));
    std::fprintf(f, "  \"classes\": [");
    const char *sep = "\n";
    for (const auto &[klass, t] : totals_) {
        std::fprintf(f, "%s    {\"klass\": %s, \"namespace\": %s, \"name\": %s}", sep, hex(klass).c_str(),
                     json_string(t.name_space).c_str(), json_string(t.name).c_str());
        sep = ",\n";
    }
    std::fprintf(f, "\n  ],\n  \"allocations\": [");
    sep = "\n";
    for (const Row &r : rows_) {
        std::fprintf(f, "%s    {\"frame\": %llu, \"klass\": %s, \"count\": %llu, \"bytes\": %llu}", sep,
                     static_cast<unsigned long long>(r.frame), hex(r.klass).c_str(),
                     static_cast<unsigned long long>(r.count), static_cast<unsigned long long>(r.bytes));
        sep = ",\n";
    }
    std::fprintf(f, "\n  ]\n}\n");
    bool ok = std::ferror(f) == 0;
    ok = (std::fclose(f) == 0) && ok;
    if (!ok) error = path + ": write failed";
    return ok;
}

}  // namespace mtsample
