// The builtin backend's DWARF lookup keeps one compile unit parsed at a time (its memory is one
// unit's DIEs and line table, not the whole library's): a fresh working context per unit the
// lookups move into, and a unit visited again is parsed again with the same answers.
#include <llvm/DebugInfo/DWARF/DWARFCompileUnit.h>
#include <llvm/DebugInfo/DWARF/DWARFContext.h>
#include <llvm/Object/ObjectFile.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <set>

#include "fast_dwarf_context.h"
#include "support.h"

using namespace mt::sym;

namespace {

const llvm::DILineInfoSpecifier kSpec(llvm::DILineInfoSpecifier::FileLineInfoKind::AbsoluteFilePath,
                                      llvm::DILineInfoSpecifier::FunctionNameKind::LinkageName);

std::vector<uint64_t> text_addresses(const llvm::object::ObjectFile &obj) {
    std::vector<uint64_t> out;
    for (const auto &sec : obj.sections()) {
        auto name = sec.getName();
        if (!name) {
            llvm::consumeError(name.takeError());
            continue;
        }
        if (*name == ".text")
            for (uint64_t a = sec.getAddress(); a < sec.getAddress() + sec.getSize(); ++a) out.push_back(a);
    }
    return out;
}

// What LLVM's own DWARFContext answers (the frames' names, files, lines, columns and declaration lines).
std::vector<std::string> frames_of(const llvm::DIInliningInfo &info) {
    std::vector<std::string> out;
    for (uint32_t i = 0; i < info.getNumberOfFrames(); ++i) {
        const llvm::DILineInfo &f = info.getFrame(i);
        out.push_back(f.FunctionName + " " + f.FileName + ":" + std::to_string(f.Line) + ":" + std::to_string(f.Column) +
                      " declared at " + std::to_string(f.StartLine));
    }
    return out;
}

// A fixture library and the DWARF contexts of it the tests compare (LLVM's own and ours).
struct Library {
    explicit Library(const std::string &name) : bin(llvm::object::ObjectFile::createObjectFile(mt::test::fixture(name))) {
        REQUIRE(static_cast<bool>(bin));
    }
    const llvm::object::ObjectFile &obj() const { return *bin->getBinary(); }
    FastDwarfContext::MakeContext maker() {
        return [this] {
            return llvm::DWARFContext::create(obj(), llvm::DWARFContext::ProcessDebugRelocations::Process, nullptr, "",
                                              diag.handler(), diag.handler());
        };
    }
    llvm::Expected<llvm::object::OwningBinary<llvm::object::ObjectFile>> bin;
    DwarfDiagnostics diag;
};

}  // namespace

TEST_CASE("symbolizer: the DWARF lookup parses one compile unit at a time and answers as LLVM does", "[dwarf]") {
    // Two compile units with debug info (split_a.c, split_b.c).
    Library lib("split/full/libsplit.so");
    const llvm::object::ObjectFile &obj = lib.obj();
    DwarfDiagnostics &diag = lib.diag;
    auto make = lib.maker();
    auto plain = make();
    std::vector<uint64_t> addrs = text_addresses(obj);
    REQUIRE(addrs.size() > 50);

    // The units the sorted addresses walk through, in order.
    size_t switches = 0;
    uint64_t last = UINT64_MAX;
    std::set<uint64_t> units;
    for (uint64_t a : addrs)
        if (auto *cu = plain->getCompileUnitForCodeAddress(a)) {
            units.insert(cu->getOffset());
            switches += cu->getOffset() != last;
            last = cu->getOffset();
        }
    REQUIRE(units.size() == 2);

    SECTION("sorted addresses: one working context per unit") {
        FastDwarfContext fast(make, diag);
        size_t with_frames = 0;
        for (uint64_t a : addrs) {
            llvm::object::SectionedAddress sa{a, llvm::object::SectionedAddress::UndefSection};
            auto ours = frames_of(fast.getInliningInfoForAddress(sa, kSpec));
            CHECK(ours == frames_of(plain->getInliningInfoForAddress(sa, kSpec)));
            with_frames += !ours.empty();
        }
        CHECK(with_frames > 50);  // the rest: the linker's and crt's code, no debug info
        CHECK(fast.contexts_made() == switches);
        CHECK(switches == units.size());  // the units' code does not interleave
        // The chains came from this context's own address -> subroutine map, one per unit.
        CHECK(fast.subroutine_maps_built() == switches);
    }
    SECTION("shuffled addresses: every return to a unit parses it again, same answers") {
        std::shuffle(addrs.begin(), addrs.end(), std::mt19937_64(7));
        FastDwarfContext fast(make, diag);
        for (uint64_t a : addrs) {
            llvm::object::SectionedAddress sa{a, llvm::object::SectionedAddress::UndefSection};
            REQUIRE(frames_of(fast.getInliningInfoForAddress(sa, kSpec)) == frames_of(plain->getInliningInfoForAddress(sa, kSpec)));
        }
        CHECK(fast.contexts_made() > units.size());
    }
    CHECK(diag.count() == 0);
}

TEST_CASE("symbolizer: the DWARF lookup's own subroutine map answers as LLVM's on inlined code", "[dwarf]") {
    // Every .text byte of the inline fixtures (gcc and clang: inlined chains several deep, code
    // of one function split by inlined ranges) against LLVM's own DWARFContext, whose
    // DWARFUnit::getInlinedChainForAddress builds LLVM's map.
    for (const char *name : {"libfixture_gcc.so", "libfixture_clang.so"}) {
        INFO(name);
        Library lib(name);
        const llvm::object::ObjectFile &obj = lib.obj();
        DwarfDiagnostics &diag = lib.diag;
        auto plain = lib.maker()();
        FastDwarfContext fast(lib.maker(), diag);
        size_t inlined = 0, differ = 0;
        for (uint64_t a : text_addresses(obj)) {
            llvm::object::SectionedAddress sa{a, llvm::object::SectionedAddress::UndefSection};
            auto ours = frames_of(fast.getInliningInfoForAddress(sa, kSpec));
            differ += ours != frames_of(plain->getInliningInfoForAddress(sa, kSpec));
            inlined += ours.size() > 1;
        }
        CHECK(differ == 0);
        CHECK(inlined > 10);
        CHECK(fast.subroutine_maps_built() >= 1);
        CHECK(diag.count() == 0);
    }
}
