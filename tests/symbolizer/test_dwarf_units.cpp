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

// The inline fixture in each DWARF encoding the tests build (gcc and clang, DWARF 5, 4 and 3).
constexpr const char *kInlineFixtures[] = {"libfixture_gcc.so",        "libfixture_clang.so",        "libfixture_gcc_dwarf4.so",
                                           "libfixture_gcc_dwarf3.so", "libfixture_clang_sections.so"};

TEST_CASE("symbolizer: the DWARF lookup's own subroutine map answers as LLVM's on inlined code", "[dwarf]") {
    // Every .text byte of the inline fixtures (gcc and clang: inlined chains several deep, code
    // of one function split by inlined ranges) against LLVM's own DWARFContext, whose
    // DWARFUnit::getInlinedChainForAddress builds LLVM's map.
    for (const char *name : kInlineFixtures) {
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
        // The inlined frames' names were read once per function inlined, through its origin.
        CHECK(fast.names_from_origin() > 0);
        CHECK(diag.count() == 0);
    }
}

namespace {

bool same_value(const std::optional<llvm::DWARFFormValue> &a, const std::optional<llvm::DWARFFormValue> &b) {
    if (a.has_value() != b.has_value()) return false;
    if (!a) return true;
    if (a->getForm() != b->getForm() || a->getRawUValue() != b->getRawUValue()) return false;
    auto block_a = a->getAsBlock(), block_b = b->getAsBlock();
    if (block_a.has_value() != block_b.has_value()) return false;
    return !block_a || (block_a->data() == block_b->data() && block_a->size() == block_b->size());
}

}  // namespace

TEST_CASE("symbolizer: the DWARF lookup's own attribute reader gives LLVM's values for every DIE", "[dwarf]") {
    // Every DIE of every unit of the inline fixtures: the address ranges read in one pass
    // against DWARFDie::getAddressRanges, each attribute read by find_attributes against
    // DWARFDie::find, an inlined call's call site against getCallerFrame. The forms decoded
    // are counted: together the fixtures must have exercised each one the reader handles.
    using namespace llvm::dwarf;
    std::set<std::string> decoded;
    size_t subroutines_with_ranges = 0, own_lists = 0;
    for (const char *name : kInlineFixtures) {
        INFO(name);
        Library lib(name);
        auto ctx = lib.maker()();
        for (const auto &unit : ctx->compile_units()) {
            auto reader = range_attributes();
            auto call_reader = call_attributes();
            for (unsigned i = 0; i < unit->getNumDIEs(); ++i) {
                llvm::DWARFDie die = unit->getDIEAtIndex(i);
                INFO("DIE at 0x" << std::hex << die.getOffset());
                llvm::DWARFAddressRangesVector ours;
                DieRangesSource source = die_address_ranges(die, ours, reader);
                auto theirs = die.getAddressRanges();
                REQUIRE(static_cast<bool>(theirs));
                CHECK(ours == *theirs);
                if (source == DieRangesSource::LowHigh) {
                    auto low = die.find(DW_AT_low_pc), high = die.find(DW_AT_high_pc);
                    REQUIRE((low && high));
                    decoded.insert(std::string("low_pc ") + FormEncodingString(low->getForm()).str());
                    decoded.insert(high->getAsAddress() ? "high_pc as an address" : "high_pc as a size");
                } else if (source == DieRangesSource::RangesList || source == DieRangesSource::OwnRnglist) {
                    own_lists += source == DieRangesSource::OwnRnglist;
                    auto ranges = die.find(DW_AT_ranges);
                    REQUIRE(ranges);
                    decoded.insert(ranges->getForm() == DW_FORM_rnglistx ? "ranges rnglistx"
                                   : unit->getVersion() >= 5           ? "ranges .debug_rnglists offset"
                                                                       : "ranges .debug_ranges offset");
                } else {
                    CHECK(source == DieRangesSource::None);  // nothing here left to LLVM's call
                    CHECK(theirs->empty());
                }
                subroutines_with_ranges += die.isSubroutineDIE() && (source == DieRangesSource::RangesList || source == DieRangesSource::OwnRnglist);
                if (const auto *abbrev = die.getAbbreviationDeclarationPtr())
                    for (const auto &spec : abbrev->attributes())
                        CHECK(same_value(find_attributes<1>(die, {spec.Attr})[0], die.find(spec.Attr)));
                if (die.getTag() == DW_TAG_inlined_subroutine) {
                    uint32_t a[4], b[4];
                    caller_frame(die, a[0], a[1], a[2], a[3], call_reader);
                    die.getCallerFrame(b[0], b[1], b[2], b[3]);
                    CHECK(std::equal(a, a + 4, b));
                    CHECK(a[1] != 0);
                }
            }
        }
        CHECK(lib.diag.count() == 0);
    }
    CHECK(decoded == std::set<std::string>{"low_pc DW_FORM_addr", "low_pc DW_FORM_addrx", "high_pc as an address",
                                           "high_pc as a size", "ranges rnglistx", "ranges .debug_rnglists offset",
                                           "ranges .debug_ranges offset"});
    CHECK(subroutines_with_ranges > 0);  // inlined calls split in pieces (gcc)
    CHECK(own_lists > 0);                // DWARF 5 lists decoded here, not by LLVM
}
