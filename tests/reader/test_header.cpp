// Files that cannot be read at all: the reader throws FormatError saying what and where.
#include "trace_fixture.h"

#include "memtracer/codec.h"

#include <catch2/catch.hpp>
#include <memtracer/format.h>

#include <cstdio>
#include <unistd.h>

using namespace mt;
using Catch::Contains;
using Catch::Equals;

namespace {

std::string error_of(const std::vector<uint8_t> &bytes) {
    try {
        reader::load_buffer(bytes.data(), bytes.size());
    } catch (const reader::FormatError &e) {
        return e.what();
    }
    return "(no FormatError)";
}

std::string temp_path(const char *tag) { return std::string("reader_") + tag + "_" + std::to_string(getpid()) + ".mt"; }

}  // namespace

TEST_CASE("reader: a missing file is a FormatError naming the path and errno", "[reader][header]") {
    REQUIRE_THROWS_WITH(reader::load_file("/nonexistent/run.mt"),
                        Equals("cannot open '/nonexistent/run.mt': No such file or directory"));
}

TEST_CASE("reader: an empty file is not a run.mt", "[reader][header]") {
    CHECK_THAT(error_of({}), Equals("not a run.mt: the file is empty (0 bytes)"));
    std::string path = temp_path("empty");
    test::write_all(path, {});
    CHECK_THROWS_WITH(reader::load_file(path), Equals(path + ": not a run.mt: the file is empty (0 bytes)"));
    std::remove(path.c_str());
}

TEST_CASE("reader: a foreign file is refused by its magic, quoted", "[reader][header]") {
    std::vector<uint8_t> elf = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    CHECK_THAT(error_of(elf), Equals("not a run.mt: magic is '\\x7fELF\\x02\\x01\\x01\\x00' at offset 0, "
                                     "expected 'MEMTRACE'"));
    std::vector<uint8_t> text = {'h', 'i', '\n'};
    CHECK_THAT(error_of(text), Equals("not a run.mt: magic is 'hi\\x0a' at offset 0, expected 'MEMTRACE'"));
}

TEST_CASE("reader: a wrong magic in an otherwise valid header is refused", "[reader][header]") {
    std::vector<uint8_t> h = test::header_bytes();
    h[7] = 'X';
    test::fix_header_crc(h);
    CHECK_THAT(error_of(h), Equals("not a run.mt: magic is 'MEMTRACX' at offset 0, expected 'MEMTRACE'"));
}

TEST_CASE("reader: an unknown version is named, whatever follows it", "[reader][header]") {
    std::vector<uint8_t> h = test::header_bytes();
    codec::put_le32(h.data() + 8, 7);
    CHECK_THAT(error_of(h), Equals("format version 7, this reader knows 1 to 4"));
    test::fix_header_crc(h);
    CHECK_THAT(error_of(h), Equals("format version 7, this reader knows 1 to 4"));
    h.resize(16);  // a future header may be shorter or longer: the version alone decides
    CHECK_THAT(error_of(h), Equals("format version 7, this reader knows 1 to 4"));
}

TEST_CASE("reader: a damaged header fails its CRC", "[reader][header]") {
    std::vector<uint8_t> h = test::header_bytes();
    h[36] ^= 0x10;  // pid
    CHECK_THAT(error_of(h), Contains("damaged header: header_crc at offset 60 is 0x") &&
                                Contains("the 60 bytes before it hash to 0x"));
    h = test::header_bytes();
    h[61] ^= 0x01;  // the CRC itself
    CHECK_THAT(error_of(h), Contains("damaged header: header_crc"));
}

TEST_CASE("reader: a header_size other than 64 is refused even when signed", "[reader][header]") {
    std::vector<uint8_t> h = test::header_bytes();
    codec::put_le32(h.data() + 12, 96);
    test::fix_header_crc(h);
    CHECK_THAT(error_of(h), Equals("damaged header: header_size at offset 12 is 96, version 1 headers are 64 bytes"));
}

TEST_CASE("reader: a header cut short says how much is there", "[reader][header]") {
    std::vector<uint8_t> h = test::header_bytes();
    for (size_t n : {1, 8, 11, 12, 30, 63}) {
        std::vector<uint8_t> cut(h.begin(), h.begin() + static_cast<long>(n));
        INFO(n << " bytes");
        CHECK_THAT(error_of(cut), Equals("damaged header: the file has " + std::to_string(n) +
                                         " bytes, a run.mt header needs 64"));
    }
}

TEST_CASE("reader: a header alone is a valid, empty capture", "[reader][header]") {
    std::vector<uint8_t> h = test::header_bytes(MT_FILE_FLAG_SAMPLED);
    reader::Run run = reader::load_buffer(h.data(), h.size());
    CHECK(run.header.version == MT_FORMAT_VERSION);
    CHECK(run.header.flags == MT_FILE_FLAG_SAMPLED);
    CHECK(run.header.pid == static_cast<uint32_t>(getpid()));
    CHECK(run.header.tick_hz == 1e9);
    CHECK(run.result.stop == reader::Stop::Eof);
    CHECK(run.result.stop_offset == 64);
    CHECK(run.frames.empty());
}
