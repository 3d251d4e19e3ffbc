// fast_dwarf_context.h — the builtin backend's DWARF lookup: LLVM's DWARFContext with a leaner
// getInliningInfoForAddress.
//
// LLVM's version also computes, for every frame of every address, the declaration file, line
// and low_pc of the function (DILineInfo::StartFileName and friends), and rebuilds each file
// name from the line table prologue by path concatenation. We use neither the start fields nor
// a fresh string per frame, so this version keeps the same walk (compile unit, inlined chain,
// line table row for the innermost frame, call file/line/column for the others) and drops the
// start fields, with file names memoized per (line table, file index). Everything else goes to
// the wrapped DWARFContext.
//
// It reports the DWARF kind, so LLVM's SymbolizableObjectFile applies the same symbol-table
// override of the outermost frame's name as llvm-symbolizer does; SymbolizableObjectFile only
// calls the DIContext interface on it. The agreement test and benchmark compare the result
// with llvm-symbolizer address by address.
#ifndef MEMTRACER_SYM_FAST_DWARF_CONTEXT_H
#define MEMTRACER_SYM_FAST_DWARF_CONTEXT_H

#include <llvm/DebugInfo/DWARF/DWARFContext.h>

#include <array>
#include <atomic>
#include <functional>
#include <optional>
#include <map>
#include <memory>
#include <memory_resource>
#include <mutex>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace mt::sym {

// LLVM's DWARF errors and warnings for one symbol file, counted instead of printed (LLVM's
// default handlers write one raw line each, hundreds for a damaged file). Shared by the threads
// that read the file; any count above zero makes the backend refuse the file.
class DwarfDiagnostics {
public:
    void report(llvm::Error e) {
        std::string msg = llvm::toString(std::move(e));
        for (size_t at; (at = msg.find('\n')) != std::string::npos;) msg.replace(at, 1, "; ");  // one line per message
        if (count_.fetch_add(1, std::memory_order_relaxed) == 0) {
            std::lock_guard<std::mutex> lock(mu_);
            first_ = std::move(msg);
        }
    }
    uint64_t count() const { return count_.load(std::memory_order_relaxed); }
    std::string first() const {
        std::lock_guard<std::mutex> lock(mu_);
        return first_;
    }
    // Handlers for llvm::DWARFContext::create.
    std::function<void(llvm::Error)> handler() {
        return [this](llvm::Error e) { report(std::move(e)); };
    }

private:
    std::atomic<uint64_t> count_{0};
    mutable std::mutex mu_;
    std::string first_;
};

// The values DWARFDie::find gives for each of `attrs` (the first attribute of that name in the
// DIE's abbreviation), read in one pass over the DIE's data: find scans the abbreviation and
// skips the data from the DIE's start once per attribute. Where the attributes are is planned
// once per abbreviation (by its code; clear() when the abbreviations go with their context).
template <size_t N>
using DieAttributes = std::array<std::optional<llvm::DWARFFormValue>, N>;
template <size_t N>
class AttributeReader {
public:
    explicit AttributeReader(const std::array<llvm::dwarf::Attribute, N> &attrs) : attrs_(attrs) {}
    DieAttributes<N> read(const llvm::DWARFDie &die);
    void clear() { plans_.clear(); }

private:
    struct Plan {
        const llvm::DWARFAbbreviationDeclaration *abbrev = nullptr;
        std::array<uint32_t, N> at{};  // attribute index of each, UINT32_MAX if absent
        uint32_t last = UINT32_MAX;    // the last of them; UINT32_MAX if none
    };
    std::array<llvm::dwarf::Attribute, N> attrs_;
    std::vector<Plan> plans_;  // by abbreviation code
};
// One DIE's attributes through a fresh reader: the tests' view, which checks the reader's
// skipping and decoding on every attribute of every DIE against DWARFDie::find.
template <size_t N>
DieAttributes<N> find_attributes(const llvm::DWARFDie &die, const std::array<llvm::dwarf::Attribute, N> &attrs) {
    AttributeReader<N> reader(attrs);
    return reader.read(die);
}

inline AttributeReader<3> range_attributes() {
    return AttributeReader<3>({llvm::dwarf::DW_AT_low_pc, llvm::dwarf::DW_AT_high_pc, llvm::dwarf::DW_AT_ranges});
}
inline AttributeReader<4> call_attributes() {
    return AttributeReader<4>({llvm::dwarf::DW_AT_call_file, llvm::dwarf::DW_AT_call_line, llvm::dwarf::DW_AT_call_column,
                               llvm::dwarf::DW_AT_GNU_discriminator});
}

// A DIE's address ranges as DWARFDie::getAddressRanges gives them (low_pc with high_pc, else
// DW_AT_ranges, else none), with the three attributes read in one pass (`reader`: from
// range_attributes()) and the single range of low/high written into `out` instead of a fresh
// vector. DWARF 5 range lists (DW_FORM_rnglistx, or an offset into .debug_rnglists) are decoded
// here for the encodings compilers write for code; other lists (DWARF 4 .debug_ranges, a .dwo's)
// are read by the unit's own findRnglistFromOffset / findRnglistFromIndex, as LLVM does.
// Anything this does not decode itself (a form whose value it cannot take, an error) goes to
// getAddressRanges.
enum class DieRangesSource : uint8_t { None, LowHigh, OwnRnglist, RangesList, Llvm };
DieRangesSource die_address_ranges(const llvm::DWARFDie &die, llvm::DWARFAddressRangesVector &out, AttributeReader<3> &reader);

// DWARFDie::getCallerFrame (DW_AT_call_file, call_line, call_column, GNU_discriminator; 0 where
// absent), the four attributes read in one pass (`reader`: from call_attributes()).
void caller_frame(const llvm::DWARFDie &die, uint32_t &file, uint32_t &line, uint32_t &column, uint32_t &discriminator,
                  AttributeReader<4> &reader);

class FastDwarfContext final : public llvm::DIContext {
public:
    using MakeContext = std::function<std::unique_ptr<llvm::DWARFContext>()>;

    // `make` gives a fresh DWARFContext of the file, reporting to `diag`
    // (DwarfDiagnostics::handler). Each compile unit is checked when first used: all its DIEs
    // and its line table are parsed, and if LLVM reported any problem the unit (and every later
    // lookup) answers nothing, so a damaged file never reaches the DIE walk that crashes on a
    // corrupt abbreviation table.
    //
    // Only one compile unit's parsed state is kept at a time. LLVM keeps every unit it parsed
    // (all DIEs, the address -> DIE map, the line table) until the context goes, which for a
    // whole library is most of a symbolizer's memory; the backend's addresses come sorted, so a
    // thread walks its units one after the other. One context (`index_`) keeps the address ->
    // unit index (the units' ranges only); the unit being looked at is parsed in a second one
    // (`work_`), replaced by a fresh one when a lookup lands in another unit. A unit visited
    // again is parsed again, correctly: nothing of the old context is reused.
    FastDwarfContext(MakeContext make, DwarfDiagnostics &diag)
        : llvm::DIContext(CK_DWARF), make_(std::move(make)), index_(make_()), diag_(diag) {}

    llvm::DIInliningInfo getInliningInfoForAddress(llvm::object::SectionedAddress address,
                                                   llvm::DILineInfoSpecifier spec) override;

    void dump(llvm::raw_ostream &os, llvm::DIDumpOptions opts) override { index_->dump(os, opts); }
    llvm::DILineInfo getLineInfoForAddress(llvm::object::SectionedAddress a, llvm::DILineInfoSpecifier s) override {
        return index_->getLineInfoForAddress(a, s);
    }
    llvm::DILineInfo getLineInfoForDataAddress(llvm::object::SectionedAddress a) override {
        return index_->getLineInfoForDataAddress(a);
    }
    llvm::DILineInfoTable getLineInfoForAddressRange(llvm::object::SectionedAddress a, uint64_t size,
                                                     llvm::DILineInfoSpecifier s) override {
        return index_->getLineInfoForAddressRange(a, size, s);
    }
    std::vector<llvm::DILocal> getLocalsForAddress(llvm::object::SectionedAddress a) override {
        return index_->getLocalsForAddress(a);
    }

    // Fresh working contexts made so far (a test's view of the one-unit-at-a-time rule).
    uint64_t contexts_made() const { return contexts_made_; }
    // Units whose address -> subroutine map this context built (its own, not LLVM's): a test's
    // view that the lookups take the arena path, once per unit visited.
    uint64_t subroutine_maps_built() const { return subroutine_maps_built_; }
    // Frames whose names came from their abstract origin's memo (a test's view of that path).
    uint64_t names_from_origin() const { return names_from_origin_; }

private:
    // The compile unit holding `address` (as DWARFContext::getCompileUnitForCodeAddress finds
    // it), parsed in work_; nullptr if none.
    llvm::DWARFCompileUnit *unit_for(uint64_t address);

    // getFileNameByIndex, memoized: its success and the name.
    const std::pair<bool, std::string> &file_name(const llvm::DWARFDebugLine::LineTable *table, uint64_t index,
                                                  llvm::DWARFCompileUnit *cu, llvm::DILineInfoSpecifier::FileLineInfoKind kind);

    // Parses all of `cu` once; false if LLVM reported a problem (now or before).
    bool unit_ok(llvm::DWARFCompileUnit *cu);

    // DWARFUnit::getInlinedChainForAddress with the address -> innermost subroutine map kept
    // here, in an arena dropped with the unit. LLVM's map (DWARFUnit::AddrDieMap) is a
    // std::map of one allocation per range, built once per unit and freed node by node with
    // the working context (with the building, about a third of the backend's profile samples
    // on the bench library; the arena saves the allocations and the frees). Same insertions, same order, same queries as LLVM 19's
    // updateAddressDieMap/getSubroutineForAddress, so the same DIE for every address; a unit
    // with split DWARF (a .dwo to load) goes to LLVM's own walk.
    void inlined_chain(llvm::DWARFCompileUnit *cu, uint64_t address, llvm::SmallVectorImpl<llvm::DWARFDie> &chain);
    void add_subroutines(llvm::DWARFDie die);
    void drop_unit_state();

    // A frame's function name and declaration line, memoized per DIE of work_'s unit: the
    // outermost frame's subprogram is every call site's in the function, and its name is found
    // through DW_AT_specification / DW_AT_abstract_origin on each read.
    struct DieNames {
        const char *name = nullptr;
        uint32_t decl_line = 0;
        llvm::DINameKind kind = llvm::DINameKind::None;
        bool set = false;
    };
    const DieNames &die_names(llvm::DWARFCompileUnit *cu, const llvm::DWARFDie &die, llvm::DINameKind kind, int depth = 0);
    // The DIE whose names `die`'s are: its DW_AT_abstract_origin in the same unit when `die`
    // has no name, linkage name, declaration line or other reference of its own (an inlined
    // call's DIE), so findRecursively's walk from `die` is the walk from that origin; else `die`.
    llvm::DWARFDie names_owner(llvm::DWARFCompileUnit *cu, const llvm::DWARFDie &die);

    MakeContext make_;
    std::unique_ptr<llvm::DWARFContext> index_, work_;
    uint64_t work_unit_ = UINT64_MAX;  // offset of the unit work_ was made for
    uint64_t contexts_made_ = 0;
    DwarfDiagnostics &diag_;
    std::unordered_set<uint64_t> checked_units_;
    // work_'s unit: its address -> (end, innermost subroutine DIE) map, LLVM's AddrDieMap.
    using SubroutineMap = std::pmr::map<uint64_t, std::pair<uint64_t, llvm::DWARFDie>>;
    std::pmr::monotonic_buffer_resource arena_;
    SubroutineMap subroutines_{&arena_};
    bool subroutines_built_ = false, split_unit_ = false;
    uint64_t subroutine_maps_built_ = 0, names_from_origin_ = 0;
    std::vector<DieNames> die_names_;  // by DIE index of work_'s unit
    llvm::DWARFAddressRangesVector ranges_;  // one DIE's, reused
    AttributeReader<3> range_reader_ = range_attributes();
    AttributeReader<4> call_reader_ = call_attributes();
    DieNames scratch_names_;           // a DIE of another unit (split DWARF)
    // Keyed by work_'s line tables: cleared with it.
    std::map<std::pair<const void *, uint64_t>, std::pair<bool, std::string>> files_;
};

}  // namespace mt::sym

#endif
