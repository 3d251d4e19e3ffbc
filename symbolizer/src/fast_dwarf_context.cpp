#include "fast_dwarf_context.h"

#include <llvm/DebugInfo/DWARF/DWARFCompileUnit.h>
#include <llvm/DebugInfo/DWARF/DWARFDebugAranges.h>
#include <llvm/DebugInfo/DWARF/DWARFDie.h>

#include <cinttypes>

namespace mt::sym {

template <size_t N>
DieAttributes<N> find_attributes(const llvm::DWARFDie &die, const std::array<llvm::dwarf::Attribute, N> &attrs) {
    DieAttributes<N> out;
    const llvm::DWARFAbbreviationDeclaration *abbrev = die.isValid() ? die.getAbbreviationDeclarationPtr() : nullptr;
    if (!abbrev) return out;
    // Where each wanted attribute is (its first occurrence, as findAttributeIndex finds it),
    // from the abbreviation alone: a DIE without any of them costs no data read.
    std::array<uint32_t, N> at;
    at.fill(UINT32_MAX);
    uint32_t last = 0;
    bool any = false;
    for (uint32_t i = 0, n = static_cast<uint32_t>(abbrev->getNumAttributes()); i < n; ++i)
        for (size_t k = 0; k < N; ++k)
            if (at[k] == UINT32_MAX && abbrev->getAttrByIndex(i) == attrs[k]) {
                at[k] = i;
                last = i;
                any = true;
            }
    if (!any) return out;
    // DWARFAbbreviationDeclaration::getAttributeOffsetFromIndex and getAttributeValueFromOffset,
    // once for all of them.
    const llvm::DWARFUnit &u = *die.getDwarfUnit();
    llvm::DWARFDataExtractor data = u.getDebugInfoExtractor();
    uint64_t offset = die.getOffset() + abbrev->getCodeByteSize();
    uint32_t i = 0;
    for (const auto &spec : abbrev->attributes()) {
        for (size_t k = 0; k < N; ++k) {
            if (at[k] != i) continue;
            if (spec.isImplicitConst()) {
                out[k] = llvm::DWARFFormValue::createFromSValue(spec.Form, spec.getImplicitConstValue());
            } else {
                llvm::DWARFFormValue value(spec.Form);
                uint64_t value_offset = offset;
                if (value.extractValue(data, &value_offset, u.getFormParams(), &u)) out[k] = value;
            }
        }
        if (i == last) break;
        if (auto fixed = spec.getByteSize(u))
            offset += *fixed;
        else
            llvm::DWARFFormValue::skipValue(spec.Form, data, &offset, u.getFormParams());
        ++i;
    }
    return out;
}
template DieAttributes<1> find_attributes(const llvm::DWARFDie &, const std::array<llvm::dwarf::Attribute, 1> &);
template DieAttributes<3> find_attributes(const llvm::DWARFDie &, const std::array<llvm::dwarf::Attribute, 3> &);
template DieAttributes<4> find_attributes(const llvm::DWARFDie &, const std::array<llvm::dwarf::Attribute, 4> &);

DieRangesSource die_address_ranges(const llvm::DWARFDie &die, llvm::DWARFAddressRangesVector &out) {
    out.clear();
    auto llvm_ranges = [&] {
        auto ranges = die.getAddressRanges();
        if (ranges)
            out = std::move(*ranges);
        else
            llvm::consumeError(ranges.takeError());
        return DieRangesSource::Llvm;
    };
    if (!die.isValid() || die.isNULL()) return DieRangesSource::None;
    auto [low, high, ranges] = find_attributes<3>(die, {llvm::dwarf::DW_AT_low_pc, llvm::dwarf::DW_AT_high_pc, llvm::dwarf::DW_AT_ranges});
    // DWARFDie::getLowAndHighPC and getHighPC.
    if (low) {
        if (auto low_pc = low->getAsSectionedAddress()) {
            llvm::DWARFUnit &u = *die.getDwarfUnit();
            std::optional<uint64_t> high_pc;
            if (low_pc->Address != llvm::dwarf::computeTombstoneAddress(u.getAddressByteSize()) && high) {
                if (auto address = high->getAsAddress())
                    high_pc = address;  // high_pc as an address (DW_FORM_addr, addrx)
                else if (auto size = high->getAsUnsignedConstant())
                    high_pc = low_pc->Address + *size;  // high_pc as the size (DW_FORM_data*)
            }
            if (high_pc) {
                out.push_back({low_pc->Address, *high_pc, low_pc->SectionIndex});
                return DieRangesSource::LowHigh;
            }
        }
    }
    if (!ranges) return DieRangesSource::None;
    // LLVM dereferences the offset unchecked; a form without one is left to it.
    std::optional<uint64_t> list = ranges->getAsSectionOffset();
    if (!list) return llvm_ranges();
    llvm::DWARFUnit &u = *die.getDwarfUnit();
    auto read = ranges->getForm() == llvm::dwarf::DW_FORM_rnglistx ? u.findRnglistFromIndex(static_cast<uint32_t>(*list))
                                                                   : u.findRnglistFromOffset(*list);
    if (!read) {
        llvm::consumeError(read.takeError());
        return llvm_ranges();  // the same error again, LLVM's to handle as it does
    }
    out = std::move(*read);
    return DieRangesSource::RangesList;
}

const std::pair<bool, std::string> &FastDwarfContext::file_name(const llvm::DWARFDebugLine::LineTable *table, uint64_t index,
                                                                const char *comp_dir,
                                                                llvm::DILineInfoSpecifier::FileLineInfoKind kind) {
    auto [it, fresh] = files_.try_emplace({table, index});
    if (fresh) it->second.first = table->getFileNameByIndex(index, comp_dir, kind, it->second.second);
    return it->second;
}

llvm::DWARFCompileUnit *FastDwarfContext::unit_for(uint64_t address) {
    uint64_t offset = index_->getDebugAranges()->findAddress(address);
    if (offset == UINT64_MAX) return nullptr;
    if (offset != work_unit_) {
        drop_unit_state();
        work_.reset();   // before the next is made: one unit's state at a time
        work_ = make_();
        ++contexts_made_;
        work_unit_ = offset;
    }
    return work_->getCompileUnitForOffset(offset);
}

void FastDwarfContext::drop_unit_state() {
    files_.clear();  // its keys are work_'s line tables
    subroutines_.clear();
    arena_.release();  // every node at once
    die_names_.clear();
    subroutines_built_ = false;
}

void FastDwarfContext::add_subroutines(llvm::DWARFDie die) {
    // LLVM 19's DWARFUnit::updateAddressDieMap, step for step: parents before children, so a
    // child's range splits its parent's entry into at most three.
    if (die.isSubroutineDIE()) {
        die_address_ranges(die, ranges_);
        {
            for (const auto &r : ranges_) {
                if (r.LowPC == r.HighPC) continue;  // 0-sized ranges are ignored
                auto b = subroutines_.upper_bound(r.LowPC);
                if (b != subroutines_.begin() && r.LowPC < (--b)->second.first) {
                    if (r.HighPC < b->second.first) subroutines_[r.HighPC] = b->second;
                    if (r.LowPC > b->first) subroutines_[b->first].first = r.LowPC;
                }
                subroutines_[r.LowPC] = std::make_pair(r.HighPC, die);
            }
        }
    }
    for (llvm::DWARFDie child = die.getFirstChild(); child; child = child.getSibling()) add_subroutines(child);
}

void FastDwarfContext::inlined_chain(llvm::DWARFCompileUnit *cu, uint64_t address,
                                     llvm::SmallVectorImpl<llvm::DWARFDie> &chain) {
    if (!subroutines_built_) {
        subroutines_built_ = true;
        // A skeleton unit's subroutines are in its .dwo, which LLVM's walk loads.
        split_unit_ = static_cast<bool>(cu->getUnitDIE().find({llvm::dwarf::DW_AT_dwo_name, llvm::dwarf::DW_AT_GNU_dwo_name}));
        if (!split_unit_) {
            cu->getNumDIEs();  // all of them (a unit checked in an earlier context is not yet)
            add_subroutines(cu->getUnitDIE());
            ++subroutine_maps_built_;
        }
    }
    if (split_unit_) return cu->getInlinedChainForAddress(address, chain);
    // LLVM 19's DWARFUnit::getSubroutineForAddress and getInlinedChainForAddress.
    auto r = subroutines_.upper_bound(address);
    if (r == subroutines_.begin()) return;
    --r;
    if (address >= r->second.first) return;
    for (llvm::DWARFDie die = r->second.second; die; die = die.getParent()) {
        if (die.isSubprogramDIE()) {
            chain.push_back(die);
            return;
        }
        if (die.getTag() == llvm::dwarf::DW_TAG_inlined_subroutine) chain.push_back(die);
    }
}

llvm::DWARFDie FastDwarfContext::names_owner(llvm::DWARFCompileUnit *cu, const llvm::DWARFDie &die) {
    using namespace llvm::dwarf;
    const llvm::DWARFAbbreviationDeclaration *abbrev = die.getAbbreviationDeclarationPtr();
    if (!abbrev) return die;
    bool origin = false;
    for (const auto &spec : abbrev->attributes()) {
        switch (spec.Attr) {
        case DW_AT_abstract_origin: origin = true; break;
        // What getName / getDeclLine find on the DIE itself, or a second reference that
        // findRecursively would also follow: the DIE answers for itself.
        case DW_AT_name:
        case DW_AT_linkage_name:
        case DW_AT_MIPS_linkage_name:
        case DW_AT_decl_line:
        case DW_AT_specification:
        case DW_AT_signature: return die;
        default: break;
        }
    }
    if (!origin) return die;
    llvm::DWARFDie owner = die.getAttributeValueAsReferencedDie(DW_AT_abstract_origin);
    // Only a DIE of this unit has a memo slot (a DW_FORM_ref_addr may point into another).
    if (!owner.isValid() || owner.getDwarfUnit() != cu || owner == die) return die;
    return owner;
}

const FastDwarfContext::DieNames &FastDwarfContext::die_names(llvm::DWARFCompileUnit *cu, const llvm::DWARFDie &die,
                                                               llvm::DINameKind kind, int depth) {
    // Only DIEs of work_'s unit have a slot (a split unit's chain is in its .dwo's unit).
    DieNames *slot = &scratch_names_;
    if (!split_unit_ && die.getDwarfUnit() == cu) {
        if (die_names_.size() < cu->getNumDIEs()) die_names_.resize(cu->getNumDIEs());
        slot = &die_names_[cu->getDIEIndex(die)];
        if (slot->set && slot->kind == kind) return *slot;
        // An inlined call's DIE has its names from its abstract origin, the function inlined:
        // memoized there, every inlined call of one function reads them once. (The chain's
        // DIEs are subroutines, so getSubroutineName is getName, of the origin as well.)
        if (depth < 8)
            if (llvm::DWARFDie owner = names_owner(cu, die); owner != die) {
                DieNames names = die_names(cu, owner, kind, depth + 1);  // a copy: resizing moves slots
                slot = &die_names_[cu->getDIEIndex(die)];
                *slot = names;
                ++names_from_origin_;
                return *slot;
            }
    }
    slot->name = die.getName(kind);
    slot->decl_line = static_cast<uint32_t>(die.getDeclLine());
    slot->kind = kind;
    slot->set = true;
    return *slot;
}

// DWARFDie::getCallerFrame, its four attributes read in one pass.
void caller_frame(const llvm::DWARFDie &die, uint32_t &file, uint32_t &line, uint32_t &column, uint32_t &discriminator) {
    using namespace llvm::dwarf;
    auto [f, l, c, d] = find_attributes<4>(die, {DW_AT_call_file, DW_AT_call_line, DW_AT_call_column, DW_AT_GNU_discriminator});
    file = static_cast<uint32_t>(toUnsigned(f, 0));
    line = static_cast<uint32_t>(toUnsigned(l, 0));
    column = static_cast<uint32_t>(toUnsigned(c, 0));
    discriminator = static_cast<uint32_t>(toUnsigned(d, 0));
}

bool FastDwarfContext::unit_ok(llvm::DWARFCompileUnit *cu) {
    if (diag_.count()) return false;
    if (checked_units_.insert(cu->getOffset()).second) {
        // A unit whose abbreviations do not parse yields no DIEs beyond the unit DIE; LLVM says
        // so through the warning handler. The lookups below would extract the same DIEs and
        // line table anyway, so checking them first costs nothing extra.
        if (!cu->getAbbreviations())
            diag_.report(llvm::createStringError(llvm::inconvertibleErrorCode(),
                                                 "compile unit at 0x%" PRIx64 ": unreadable abbreviation table", cu->getOffset()));
        else {
            cu->getNumDIEs();
            work_->getLineTableForUnit(cu);
        }
    }
    return diag_.count() == 0;
}

llvm::DIInliningInfo FastDwarfContext::getInliningInfoForAddress(llvm::object::SectionedAddress address,
                                                                 llvm::DILineInfoSpecifier spec) {
    using Kind = llvm::DILineInfoSpecifier::FileLineInfoKind;
    llvm::DIInliningInfo info;
    if (diag_.count()) return info;
    llvm::DWARFCompileUnit *cu = unit_for(address.Address);
    if (!cu || !unit_ok(cu)) return info;

    const llvm::DWARFDebugLine::LineTable *table = nullptr;
    // The innermost frame's file and line: the line table row of the address.
    auto innermost = [&](llvm::DILineInfo &frame) {
        table = work_->getLineTableForUnit(cu);
        if (!table) return false;
        uint32_t row = table->lookupAddress({address.Address, address.SectionIndex});
        if (row == UINT32_MAX) return false;
        const auto &r = table->Rows[row];
        const auto &name = file_name(table, r.File, cu->getCompilationDir(), spec.FLIKind);
        if (!name.first) return false;
        frame.FileName = name.second;
        frame.Line = r.Line;
        frame.Column = r.Column;
        frame.Discriminator = r.Discriminator;
        return true;
    };

    llvm::SmallVector<llvm::DWARFDie, 4> chain;
    inlined_chain(cu, address.Address, chain);
    if (chain.empty()) {
        // No DIE for the address (e.g. in an unavailable .dwo): the line table may still know.
        if (spec.FLIKind != Kind::None) {
            llvm::DILineInfo frame;
            if (innermost(frame)) info.addFrame(frame);
        }
        return info;
    }
    uint32_t call_file = 0, call_line = 0, call_column = 0, call_discriminator = 0;
    for (size_t i = 0; i < chain.size(); ++i) {
        llvm::DWARFDie &die = chain[i];
        // Filled in place: addFrame copies its argument (two or three string copies a frame).
        info.addFrame(llvm::DILineInfo());
        llvm::DILineInfo &frame = *info.getMutableFrame(static_cast<unsigned>(i));
        const DieNames &names = die_names(cu, die, spec.FNKind);
        if (names.name) frame.FunctionName = names.name;
        frame.StartLine = names.decl_line;
        if (spec.FLIKind != Kind::None) {
            if (i == 0) {
                innermost(frame);
            } else {
                // Inlined frames: the call site the previous (inner) DIE recorded.
                if (table) {
                    const auto &name = file_name(table, call_file, cu->getCompilationDir(), spec.FLIKind);
                    if (name.first) frame.FileName = name.second;
                }
                frame.Line = call_line;
                frame.Column = call_column;
                frame.Discriminator = call_discriminator;
            }
            if (i + 1 < chain.size()) caller_frame(die, call_file, call_line, call_column, call_discriminator);
        }
    }
    return info;
}

}  // namespace mt::sym
