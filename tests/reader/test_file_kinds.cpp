// What read_file accepts: regular files only. A FIFO with no writer would block the open
// forever and /dev/zero would be read until memory runs out, so both are refused from fstat
// alone, before a single byte is read: these tests cannot hang or grow whatever the reader does
// after the check.
#include "trace_fixture.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

using namespace mt;
using Catch::Equals;

namespace {

// A fresh directory under the temp dir, removed with everything in it.
struct TempDir {
    std::string path;
    TempDir() {
        std::string tmpl = (std::filesystem::temp_directory_path() / "mt_reader_kinds_XXXXXX").string();
        if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
        path = tmpl;
    }
    ~TempDir() { std::filesystem::remove_all(path); }
};

std::string error_of(const std::string &path) {
    try {
        reader::load_file(path);
    } catch (const reader::FormatError &e) {
        return e.what();
    }
    return "(no FormatError)";
}

}  // namespace

TEST_CASE("reader: a FIFO is refused without waiting for a writer", "[reader][files]") {
    TempDir d;
    std::string fifo = d.path + "/run.mt";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    CHECK_THAT(error_of(fifo), Equals("cannot read '" + fifo + "': it is a FIFO, not a regular file "
                                      "(the reader maps a finished or growing run.mt; a pipe or device has "
                                      "no size to read up to)"));
}

TEST_CASE("reader: a character device such as /dev/zero is refused before any read", "[reader][files]") {
    CHECK_THAT(error_of("/dev/zero"), Equals("cannot read '/dev/zero': it is a character device, not a regular "
                                             "file (the reader maps a finished or growing run.mt; a pipe or "
                                             "device has no size to read up to)"));
}

TEST_CASE("reader: a directory is refused by name", "[reader][files]") {
    TempDir d;
    CHECK_THAT(error_of(d.path), Catch::StartsWith("cannot read '" + d.path + "': it is a directory, not a regular file"));
}

TEST_CASE("reader: a symlink to a run.mt reads as the file itself", "[reader][files]") {
    TempDir d;
    test::Sample s = test::make_sample();
    test::write_all(d.path + "/real.mt", s.bytes);
    std::filesystem::create_symlink(d.path + "/real.mt", d.path + "/link.mt");
    reader::Run run = reader::load_file(d.path + "/link.mt");
    CHECK(run.result.stop == reader::Stop::End);
    CHECK(run.frames == s.expected.frames);
}
