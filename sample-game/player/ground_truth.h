// ground_truth.h — what the game itself allocated, frame by frame and class by class (from
// libil2cpp's own tally, not from MemTracer), for the summary and for --expect-json.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "mtsample_game.h"
#include "options.h"

namespace mtsample {

struct ClassTotal {
    std::string name_space, name;
    uint64_t count = 0, bytes = 0;
};

class GroundTruth {
public:
    void add_frame(uint64_t frame, const mtsample_tally_row *rows, uint32_t n);
    uint64_t total_count() const;
    std::vector<std::pair<const void *, ClassTotal>> top(size_t n) const;  // by count
    // Writes the JSON file; false with `error` set if it cannot be written.
    bool write_json(const std::string &path, const Options &o, std::string &error) const;
    // Boehm's collection count (GC_get_gc_no) when the capture started and when it stopped.
    void set_collections(uint64_t at_start, uint64_t at_stop) {
        collections_at_start_ = at_start;
        collections_at_stop_ = at_stop;
    }

private:
    struct Row {
        uint64_t frame;
        const void *klass;
        uint64_t count, bytes;
    };
    std::vector<Row> rows_;
    std::map<const void *, ClassTotal> totals_;
    uint64_t collections_at_start_ = 0, collections_at_stop_ = 0;
};

}  // namespace mtsample
