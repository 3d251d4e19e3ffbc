// read_file gives back the pages of run.mt it has walked (FileBytes::release_before): a mapped
// page counts in the reader's resident set until the kernel reclaims it, so a session-sized
// capture (0.6-1.2 GB) made memtracer-symbolize's peak RSS as large as the file (issue 22).
#include "trace_fixture.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include <memtracer/format.h>

using namespace mt;

namespace {

// The file-backed part of this process's resident set (/proc/self/status RssFile), in KiB.
long rss_file_kib() {
    std::ifstream in("/proc/self/status");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("RssFile:", 0) == 0) return std::stol(line.substr(8));
    return -1;
}

struct PeakRss : reader::Visitor {
    long peak = 0;
    uint64_t frames = 0;
    void on_frame(const reader::Frame &) override {
        ++frames;
        peak = std::max(peak, rss_file_kib());
    }
};

}  // namespace

TEST_CASE("reader: read_file's resident set does not grow with the file", "[reader][file]") {
    if (rss_file_kib() < 0) {
        WARN("no RssFile in /proc/self/status: not checked");
        return;
    }
    // 160 frames of 1 MiB each (a MARKS chunk with a 1 MiB label): a 160 MiB file.
    constexpr int kFrames = 160;
    std::vector<uint8_t> file = test::header_bytes(0);
    std::string label(1 << 20, 'x');
    for (int seq = 0; seq < kFrames; ++seq) {
        test::raw_chunk(file, MT_CHUNK_MARKS, test::Payload().u(seq).u(1).u(0).str(label).b);
        test::raw_chunk(file, MT_CHUNK_FRAME,
                        test::Payload().u(seq).u(seq).u(0).u(0).u(0).u(0).u(0).u(0).u(0).u(0).u(0).b);
    }
    test::raw_chunk(file, MT_CHUNK_END, test::Payload().u(0).str("").b);
    std::string path = (std::filesystem::temp_directory_path() / ("mt_release_" + std::to_string(::getpid()) + ".mt")).string();
    test::write_all(path, file);
    std::vector<uint8_t>().swap(file);

    PeakRss v;
    long before = rss_file_kib();
    reader::ReadResult r = reader::read_file(path, v);
    std::filesystem::remove(path);
    REQUIRE(r.stop == reader::Stop::End);
    REQUIRE(v.frames == kFrames);
    // Without the release the mapped file's pages pile up to 160 MiB; with it at most one
    // release step (32 MiB) and a chunk stay resident.
    INFO("RssFile before " << before << " KiB, peak while reading " << v.peak << " KiB");
    CHECK(v.peak - before < 64 * 1024);
}
