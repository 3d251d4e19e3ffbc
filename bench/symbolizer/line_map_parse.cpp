// line_map_parse: parse time of a real LineNumberMappings.json, the symbolizer's own parser
// (LineMap::parse, il2cpp_line_map.cpp) against simdjson On-Demand building the same table
// (issue 13 item 4: replace the hand parser unless the measurement says keep it).
//
//   line_map_parse FILE [RUNS]      (bash bench/symbolizer/line_map_parse.sh FILE)
//
// Prints each parser's median over RUNS (default 15) and the ratio, and checks both read the same
// number of C++ files and mappings. The file is read once into memory (with simdjson's padding);
// what is timed is parsing into the lookup table, not the disk.
#include <simdjson.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "il2cpp_paths.h"
#include "il2cpp_symbols.h"
#include "../common/median.h"

using namespace mt::sym;

using mt::bench::upper_median;

namespace {

struct Table {
    std::vector<std::string> cpp_files, cs_files;
    std::vector<std::vector<std::array<uint32_t, 3>>> entries;  // per C++ file: cpp line, cs file, cs line
    size_t mappings = 0;
};

// What LineMap::parse builds, through simdjson On-Demand.
Table parse_simdjson(simdjson::ondemand::parser &parser, const simdjson::padded_string &json) {
    Table t;
    simdjson::ondemand::document doc = parser.iterate(json);
    for (auto cpp : doc.get_object()) {
        t.cpp_files.emplace_back(std::string_view(cpp.unescaped_key()));
        auto &rows = t.entries.emplace_back();
        for (auto cs : cpp.value().get_object()) {
            auto file = static_cast<uint32_t>(t.cs_files.size());
            t.cs_files.emplace_back(std::string_view(cs.unescaped_key()));
            for (auto line : cs.value().get_object()) {
                std::string_view key = line.unescaped_key();
                uint32_t cpp_line = 0;
                std::from_chars(key.data(), key.data() + key.size(), cpp_line);
                rows.push_back({cpp_line, file, static_cast<uint32_t>(uint64_t(line.value()))});
            }
        }
        std::sort(rows.begin(), rows.end());
        t.mappings += rows.size();
    }
    return t;
}

}  // namespace

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: line_map_parse LineNumberMappings.json [RUNS]\n");
        return 2;
    }
    int runs = argc > 2 ? std::max(1, std::atoi(argv[2])) : 15;
    try {
        std::string text = read_symbols_file(argv[1]);
        simdjson::padded_string padded(text);
        simdjson::ondemand::parser parser;
        std::vector<double> hand, simd;
        size_t hand_files = 0, simd_files = 0, simd_mappings = 0;
        for (int r = 0; r < runs; ++r) {
            auto t0 = std::chrono::steady_clock::now();
            LineMap m = LineMap::parse(text, argv[1]);
            auto t1 = std::chrono::steady_clock::now();
            Table t = parse_simdjson(parser, padded);
            auto t2 = std::chrono::steady_clock::now();
            hand.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            simd.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
            hand_files = m.cpp_files();
            simd_files = t.cpp_files.size();
            simd_mappings = t.mappings;
        }
        printf("%s: %.1f MB, %zu C++ files, %zu mappings, %d runs\n", argv[1], static_cast<double>(text.size()) / 1e6, simd_files,
               simd_mappings, runs);
        printf("  hand parser (LineMap::parse)  median %8.2f ms\n", upper_median(hand));
        printf("  simdjson On-Demand            median %8.2f ms\n", upper_median(simd));
        printf("  ratio hand / simdjson         %8.2f\n", upper_median(hand) / upper_median(simd));
        if (hand_files != simd_files) {
            fprintf(stderr, "the two parsers disagree: %zu vs %zu C++ files\n", hand_files, simd_files);
            return 1;
        }
    } catch (const std::exception &e) {
        fprintf(stderr, "line_map_parse: %s\n", e.what());
        return 1;
    }
    return 0;
}
