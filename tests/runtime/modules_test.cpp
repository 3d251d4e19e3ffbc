// The module table: the running test binary with the build id readelf reports, and the Mach-O
// load-command walk on a real arm64 iOS dylib built by clang-19 + ld64.lld-19, against
// llvm-dwarfdump's UUID and llvm-objdump's __TEXT segment.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <limits.h>
#include <regex>
#include <unistd.h>

#include "modules.h"
#include "support.h"

namespace {

std::string hex(const std::vector<uint8_t> &b) {
    std::string s;
    char buf[3];
    for (uint8_t c : b) {
        snprintf(buf, sizeof buf, "%02x", c);
        s += buf;
    }
    return s;
}

std::vector<uint8_t> read_all(const std::string &p) {
    std::ifstream f(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("module table holds this binary with the GNU build id readelf reports", "[modules]") {
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    REQUIRE(n > 0);
    exe[n] = 0;
    std::string notes = mtt::run_command("readelf -n '" + std::string(exe) + "' 2>/dev/null");
    std::smatch m;
    REQUIRE(std::regex_search(notes, m, std::regex("Build ID: ([0-9a-f]+)")));
    std::string want_id = m[1];

    std::string path = mtt::temp_path("modules");
    mtt::start(mtt::make_config(path));
    auto run = mtt::stop_and_load(path);
    const mt::reader::Module *self = nullptr;
    uint64_t fn = reinterpret_cast<uint64_t>(&mtt::alloc_at_depth);
    for (const auto &mod : run.modules)
        if (mod.path == exe) self = &mod;
    REQUIRE(self != nullptr);
    CHECK(self->kind == MT_MODULE_ELF);
    CHECK(hex(self->build_id) == want_id);
    CHECK(self->contains(fn));
    CHECK(self->load_address == self->bias + self->text_vmaddr);
#ifdef MT_TEST_STATIC_EXE
    CHECK(run.modules.size() == 1);  // libc and all are linked in: the executable is the one module
#else
    // libc is there too, with its own build id.
    bool libc = false;
    for (const auto &mod : run.modules) libc = libc || (mod.path.find("libc.so") != std::string::npos && !mod.build_id.empty());
    CHECK(libc);
#endif
    // Ids are dense from 0.
    for (size_t i = 0; i < run.modules.size(); ++i) CHECK(run.modules[i].id == i);
}

TEST_CASE("ELF note walk finds the GNU build id among other notes", "[modules]") {
    // An ABI-tag note (4-byte desc) before the build-id note, as in real binaries.
    std::vector<uint8_t> note = {4, 0, 0, 0, 16, 0, 0, 0, 1, 0, 0, 0, 'G', 'N', 'U', 0,
                                 0, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0,
                                 4, 0, 0, 0, 8, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0,
                                 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4};
    uint8_t out[32];
    REQUIRE(mt::rt::elf_note_build_id(note.data(), note.size(), 4, out, sizeof out) == 8);
    CHECK(out[0] == 0xde);
    CHECK(out[7] == 4);
    CHECK(mt::rt::elf_note_build_id(note.data(), 30, 4, out, sizeof out) == 0);  // cut short
}

#if defined(MT_MACHO_FIXTURE)
TEST_CASE("Mach-O walk reads LC_UUID and __TEXT of a real arm64 iOS dylib", "[modules][macho]") {
    auto bytes = read_all(MT_MACHO_FIXTURE);
    REQUIRE(bytes.size() > 32);
    mt::rt::MachoInfo mi;
    REQUIRE(mt::rt::macho_parse(bytes.data(), bytes.size(), &mi));
    CHECK(mi.is_64);
    CHECK(mi.cputype == 0x0100000Cu);  // CPU_TYPE_ARM64
    CHECK(mi.filetype == 6u);          // MH_DYLIB
    REQUIRE(mi.has_uuid);

    std::string dd = mtt::run_command(std::string(MT_DWARFDUMP) + " --uuid '" + MT_MACHO_FIXTURE + "'");
    std::smatch m;
    REQUIRE(std::regex_search(dd, m, std::regex("UUID: ([0-9A-F-]+)")));
    std::string want = std::regex_replace(m[1].str(), std::regex("-"), "");
    std::string got;
    char buf[3];
    for (uint8_t b : mi.uuid) {
        snprintf(buf, sizeof buf, "%02X", b);
        got += buf;
    }
    CHECK(got == want);

    std::string ph = mtt::run_command(std::string(MT_OBJDUMP) + " --macho --private-headers '" + MT_MACHO_FIXTURE + "'");
    REQUIRE(std::regex_search(ph, m, std::regex("segname __TEXT\\s+vmaddr (0x[0-9a-f]+)\\s+vmsize (0x[0-9a-f]+)")));
    REQUIRE(mi.has_text);
    CHECK(mi.text_vmaddr == std::stoull(m[1].str(), nullptr, 16));
    CHECK(mi.text_vmsize == std::stoull(m[2].str(), nullptr, 16));
    CHECK(mi.image_vmsize >= mi.text_vmsize);

    // Only the header and load commands are needed (what dyld maps); anything shorter fails.
    uint32_t sizeofcmds;
    memcpy(&sizeofcmds, bytes.data() + 20, 4);
    mt::rt::MachoInfo again;
    CHECK(mt::rt::macho_parse(bytes.data(), 32 + sizeofcmds, &again));
    CHECK(memcmp(again.uuid, mi.uuid, 16) == 0);
    CHECK_FALSE(mt::rt::macho_parse(bytes.data(), 32 + sizeofcmds - 1, &again));
    // A load command claiming more than its buffer is refused, not followed.
    auto bad = bytes;
    uint32_t huge = 0x7fffffff;
    memcpy(bad.data() + 32 + 4, &huge, 4);
    CHECK_FALSE(mt::rt::macho_parse(bad.data(), bad.size(), &again));
    // Not Mach-O at all.
    CHECK_FALSE(mt::rt::macho_parse(reinterpret_cast<const uint8_t *>("\x7f" "ELF........................."), 30, &again));
}
#endif
