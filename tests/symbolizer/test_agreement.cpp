// Agreement: the builtin backend and persistent llvm-symbolizer processes give identical
// records (function, file, line, column, inline depth) for every address of the fixtures' code.
#include <llvm/Object/ObjectFile.h>

#include <catch2/catch.hpp>

#include "backend.h"
#include "object_info.h"
#include "support.h"

using namespace mt::sym;

namespace {

std::vector<uint64_t> every_text_address(const std::string &path) {
    auto bin = llvm::object::ObjectFile::createObjectFile(path);
    if (!bin) throw std::runtime_error(llvm::toString(bin.takeError()));
    std::vector<uint64_t> out;
    for (const auto &sec : bin->getBinary()->sections()) {
        auto name = sec.getName();
        if (!name || (*name != ".text" && *name != "__text")) {
            if (!name) llvm::consumeError(name.takeError());
            continue;
        }
        for (uint64_t a = sec.getAddress(); a < sec.getAddress() + sec.getSize(); ++a) out.push_back(a);
    }
    return out;
}

SymbolFile file_for(const std::string &path) {
    ObjectInfo info = inspect_object(path);
    SymbolFile f;
    f.path = path;
    f.kind = info.kind;
    f.slice = info.slices.at(0);
    f.arch = info.kind == ObjectKind::MachO ? f.slice.arch : "";
    return f;
}

}  // namespace

TEST_CASE("symbolizer: builtin and llvm-symbolizer agree on every code address", "[agreement]") {
    for (const char *lib : {"libfixture_gcc.so", "libfixture_clang.so", "stripped/libfixture_gcc.so"}) {
        SECTION(lib) {
            std::string path = mt::test::fixture(lib);
            SymbolFile f = file_for(path);
            std::vector<uint64_t> addrs = every_text_address(path);
            REQUIRE(addrs.size() > 100);
            std::atomic<uint64_t> a{0}, b{0};
            auto ours = make_backend({BackendKind::Builtin, 2, "", ""})->symbolize(f, addrs, {&a, nullptr});
            auto theirs = make_backend({BackendKind::LlvmSymbolizer, 2, "", ""})->symbolize(f, addrs, {&b, nullptr});
            REQUIRE(ours.size() == addrs.size());
            REQUIRE(theirs.size() == addrs.size());
            CHECK(a == addrs.size());
            CHECK(b == addrs.size());
            size_t differ = 0, with_inlines = 0, known = 0;
            for (size_t i = 0; i < addrs.size(); ++i) {
                if (!(ours[i] == theirs[i])) {
                    if (++differ <= 5) {
                        UNSCOPED_INFO("differs at 0x" << std::hex << addrs[i] << std::dec << ": builtin "
                                                      << (ours[i].frames.empty() ? "?" : ours[i].frames[0].function) << " vs "
                                                      << (theirs[i].frames.empty() ? "?" : theirs[i].frames[0].function));
                    }
                }
                known += !ours[i].frames.empty();
                with_inlines += ours[i].frames.size() > 1;
            }
            CHECK(differ == 0);
            CHECK(known > addrs.size() / 2);
            if (std::string(lib).find("stripped") == std::string::npos) CHECK(with_inlines > 0);
        }
    }
}
