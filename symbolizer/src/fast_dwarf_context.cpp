#include "fast_dwarf_context.h"

#include <llvm/DebugInfo/DWARF/DWARFCompileUnit.h>
#include <llvm/DebugInfo/DWARF/DWARFDebugAranges.h>
#include <llvm/DebugInfo/DWARF/DWARFDie.h>

#include <cinttypes>

namespace mt::sym {

namespace {

// A ULEB128 at `offset` of `bytes`, bounds-checked; false where it runs past the end or over 64
// bits (LLVM's reader decides those).
bool read_uleb(llvm::StringRef bytes, uint64_t &offset, uint64_t &value) {
    value = 0;
    for (unsigned shift = 0; offset < bytes.size() && shift < 64; shift += 7) {
        uint8_t b = static_cast<uint8_t>(bytes[offset++]);
        if (shift == 63 && b > 1) return false;
        value |= static_cast<uint64_t>(b & 0x7f) << shift;
        if (!(b & 0x80)) return true;
    }
    return false;
}

// Moves `offset` past one attribute value of `form`, as DWARFFormValue::skipValue does; the
// fixed-size and LEB128 forms here (the attributes of code DIEs), the rest by LLVM.
void skip_value(llvm::dwarf::Form form, const llvm::DWARFDataExtractor &data, uint64_t &offset,
                const llvm::dwarf::FormParams &params) {
    using namespace llvm::dwarf;
    switch (form) {
    case DW_FORM_flag_present:
    case DW_FORM_implicit_const: return;
    case DW_FORM_data1: case DW_FORM_ref1: case DW_FORM_flag: case DW_FORM_strx1: case DW_FORM_addrx1: offset += 1; return;
    case DW_FORM_data2: case DW_FORM_ref2: case DW_FORM_strx2: case DW_FORM_addrx2: offset += 2; return;
    case DW_FORM_strx3: case DW_FORM_addrx3: offset += 3; return;
    case DW_FORM_data4: case DW_FORM_ref4: case DW_FORM_strx4: case DW_FORM_addrx4: case DW_FORM_ref_sup4: offset += 4; return;
    case DW_FORM_data8: case DW_FORM_ref8: case DW_FORM_ref_sig8: case DW_FORM_ref_sup8: offset += 8; return;
    case DW_FORM_data16: offset += 16; return;
    case DW_FORM_addr: offset += params.AddrSize; return;
    case DW_FORM_sec_offset: case DW_FORM_strp: case DW_FORM_line_strp: case DW_FORM_GNU_ref_alt: case DW_FORM_GNU_strp_alt:
    case DW_FORM_strp_sup: offset += params.getDwarfOffsetByteSize(); return;
    case DW_FORM_ref_addr: offset += params.getRefAddrByteSize(); return;
    case DW_FORM_udata: case DW_FORM_sdata: case DW_FORM_ref_udata: case DW_FORM_strx: case DW_FORM_addrx: case DW_FORM_rnglistx:
    case DW_FORM_loclistx: case DW_FORM_GNU_addr_index: case DW_FORM_GNU_str_index: {
        uint64_t at = offset, ignored;
        if (read_uleb(data.getData(), at, ignored)) {  // an SLEB128 has the same length
            offset = at;
            return;
        }
        break;
    }
    default: break;
    }
    llvm::DWARFFormValue::skipValue(form, data, &offset, params);
}

// A DW_FORM_data1, data2 or udata value (call sites' file, line and column), taken here: what
// extractValue stores for them is the value alone, and no DWARFFormValue query of these forms
// looks at the unit (unlike data4/data8, which DWARF 3 also uses as section offsets). nullopt for
// any other form, or a value past the data's end (extractValue's to refuse).
std::optional<llvm::DWARFFormValue> small_constant(llvm::dwarf::Form form, const llvm::DWARFDataExtractor &data, uint64_t offset) {
    llvm::StringRef bytes = data.getData();
    switch (form) {
    case llvm::dwarf::DW_FORM_data1:
        if (offset + 1 > bytes.size()) return std::nullopt;
        return llvm::DWARFFormValue::createFromUValue(form, static_cast<uint8_t>(bytes[offset]));
    case llvm::dwarf::DW_FORM_data2: {
        if (offset + 2 > bytes.size()) return std::nullopt;
        uint64_t at = offset;
        return llvm::DWARFFormValue::createFromUValue(form, data.getU16(&at));
    }
    case llvm::dwarf::DW_FORM_udata: {
        uint64_t value = 0;
        if (!read_uleb(bytes, offset, value)) return std::nullopt;
        return llvm::DWARFFormValue::createFromUValue(form, value);
    }
    default: return std::nullopt;
    }
}

}  // namespace

template <size_t N>
DieAttributes<N> AttributeReader<N>::read(const llvm::DWARFDie &die) {
    DieAttributes<N> out;
    const llvm::DWARFAbbreviationDeclaration *abbrev = die.isValid() ? die.getAbbreviationDeclarationPtr() : nullptr;
    if (!abbrev) return out;
    // Where each wanted attribute is (its first occurrence, as findAttributeIndex finds it),
    // planned once per abbreviation: a DIE without any of them costs no data read.
    Plan local, *plan = &local;
    if (uint32_t code = abbrev->getCode(); code < 4096) {
        if (plans_.size() <= code) plans_.resize(code + 1);
        plan = &plans_[code];
    }
    if (plan->abbrev != abbrev) {
        plan->abbrev = abbrev;
        plan->at.fill(UINT32_MAX);
        plan->last = UINT32_MAX;
        for (uint32_t i = 0, n = static_cast<uint32_t>(abbrev->getNumAttributes()); i < n; ++i)
            for (size_t k = 0; k < N; ++k)
                if (plan->at[k] == UINT32_MAX && abbrev->getAttrByIndex(i) == attrs_[k]) plan->at[k] = plan->last = i;
    }
    if (plan->last == UINT32_MAX) return out;
    // DWARFAbbreviationDeclaration::getAttributeOffsetFromIndex and getAttributeValueFromOffset,
    // once for all of them.
    const llvm::DWARFUnit &u = *die.getDwarfUnit();
    llvm::DWARFDataExtractor data = u.getDebugInfoExtractor();
    const llvm::dwarf::FormParams &params = u.getFormParams();
    uint64_t offset = die.getOffset() + abbrev->getCodeByteSize();
    uint32_t i = 0;
    for (const auto &spec : abbrev->attributes()) {
        for (size_t k = 0; k < N; ++k) {
            if (plan->at[k] != i) continue;
            if (spec.isImplicitConst()) {
                out[k] = llvm::DWARFFormValue::createFromSValue(spec.Form, spec.getImplicitConstValue());
            } else if (auto constant = small_constant(spec.Form, data, offset)) {
                out[k] = *constant;
            } else {
                llvm::DWARFFormValue value(spec.Form);
                uint64_t value_offset = offset;
                if (value.extractValue(data, &value_offset, params, &u)) out[k] = value;
            }
        }
        if (i == plan->last) break;
        skip_value(spec.Form, data, offset, params);
        ++i;
    }
    return out;
}
template class AttributeReader<1>;
template class AttributeReader<3>;
template class AttributeReader<4>;

namespace {

// A DWARF 5 range list at `offset` of .debug_rnglists, as DWARFUnit::findRnglistFromOffset and
// DWARFDebugRnglist::getAbsoluteRanges read it, for the encodings compilers write for code
// (base_addressx, offset_pair, startx_length, startx_endx, end_of_list). False where LLVM's
// reading must decide: another encoding, a list past the section's end, an address index not
// in the pool, a tombstone address.
bool read_rnglist(llvm::DWARFUnit &u, uint64_t offset, llvm::DWARFAddressRangesVector &out) {
    using namespace llvm::dwarf;
    llvm::StringRef bytes = u.getContext().getDWARFObj().getRnglistsSection().Data;
    const uint64_t tombstone = computeTombstoneAddress(u.getAddressByteSize());
    std::optional<llvm::object::SectionedAddress> base = u.getBaseAddress();
    out.clear();
    while (offset < bytes.size()) {
        uint8_t kind = static_cast<uint8_t>(bytes[offset++]);
        uint64_t v0 = 0, v1 = 0;
        switch (kind) {
        case DW_RLE_end_of_list: return true;
        case DW_RLE_base_addressx:
            if (!read_uleb(bytes, offset, v0) || v0 > UINT32_MAX || !(base = u.getAddrOffsetSectionItem(static_cast<uint32_t>(v0))))
                return false;
            continue;
        case DW_RLE_offset_pair: {
            if (!read_uleb(bytes, offset, v0) || !read_uleb(bytes, offset, v1) || v0 == tombstone) return false;
            llvm::DWARFAddressRange r{v0, v1, llvm::object::SectionedAddress::UndefSection};
            if (base) {
                if (base->Address == tombstone) return false;
                r = {v0 + base->Address, v1 + base->Address, base->SectionIndex};
            }
            if (r.LowPC == tombstone) return false;
            out.push_back(r);
            continue;
        }
        case DW_RLE_startx_length:
        case DW_RLE_startx_endx: {
            if (!read_uleb(bytes, offset, v0) || !read_uleb(bytes, offset, v1) || v0 > UINT32_MAX || v1 > UINT32_MAX) return false;
            auto start = u.getAddrOffsetSectionItem(static_cast<uint32_t>(v0));
            if (!start) return false;
            uint64_t high = start->Address + v1;
            if (kind == DW_RLE_startx_endx) {
                auto end = u.getAddrOffsetSectionItem(static_cast<uint32_t>(v1));
                if (!end) return false;
                high = end->Address;
            }
            if (start->Address == tombstone) return false;
            out.push_back({start->Address, high, start->SectionIndex});
            continue;
        }
        default: return false;
        }
    }
    return false;  // no end_of_list before the section's end
}

}  // namespace

DieRangesSource die_address_ranges(const llvm::DWARFDie &die, llvm::DWARFAddressRangesVector &out, AttributeReader<3> &reader) {
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
    auto [low, high, ranges] = reader.read(die);
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
    if (u.getVersion() >= 5 && !u.isDWOUnit()) {
        std::optional<uint64_t> at = ranges->getForm() == llvm::dwarf::DW_FORM_rnglistx ? u.getRnglistOffset(static_cast<uint32_t>(*list)) : list;
        if (at && read_rnglist(u, *at, out)) return DieRangesSource::OwnRnglist;
    }
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
                                                                llvm::DWARFCompileUnit *cu,
                                                                llvm::DILineInfoSpecifier::FileLineInfoKind kind) {
    auto [it, fresh] = files_.try_emplace({table, index});
    // The compilation directory only for a name not yet made: DWARFUnit::getCompilationDir reads
    // the unit DIE's attributes on every call (about 840 instructions).
    if (fresh) it->second.first = table->getFileNameByIndex(index, cu->getCompilationDir(), kind, it->second.second);
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
    range_reader_.clear();  // its plans are keyed by work_'s abbreviations
    call_reader_.clear();
    subroutines_built_ = false;
}

void FastDwarfContext::add_subroutines(llvm::DWARFDie die) {
    // LLVM 19's DWARFUnit::updateAddressDieMap, step for step: parents before children, so a
    // child's range splits its parent's entry into at most three.
    if (die.isSubroutineDIE()) {
        die_address_ranges(die, ranges_, range_reader_);
        for (const auto &r : ranges_) {
            if (r.LowPC == r.HighPC) continue;  // 0-sized ranges are ignored
            // The same insertions as LLVM's (AddrDieMap[key] = ...), each given the position the
            // upper_bound already found as its hint: a map's hint never changes what is stored,
            // a right one saves the second descent of the tree.
            auto next = subroutines_.upper_bound(r.LowPC);
            auto at = next;  // where LowPC goes: before `at`
            if (next != subroutines_.begin()) {
                auto b = std::prev(next);
                if (r.LowPC < b->second.first) {
                    if (r.HighPC < b->second.first) at = subroutines_.insert_or_assign(next, r.HighPC, b->second);
                    if (r.LowPC > b->first) b->second.first = r.LowPC;
                }
            }
            subroutines_.insert_or_assign(at, r.LowPC, std::make_pair(r.HighPC, die));
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
void caller_frame(const llvm::DWARFDie &die, uint32_t &file, uint32_t &line, uint32_t &column, uint32_t &discriminator,
                  AttributeReader<4> &reader) {
    using namespace llvm::dwarf;
    auto [f, l, c, d] = reader.read(die);
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
        const auto &name = file_name(table, r.File, cu, spec.FLIKind);
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
                    const auto &name = file_name(table, call_file, cu, spec.FLIKind);
                    if (name.first) frame.FileName = name.second;
                }
                frame.Line = call_line;
                frame.Column = call_column;
                frame.Discriminator = call_discriminator;
            }
            if (i + 1 < chain.size()) caller_frame(die, call_file, call_line, call_column, call_discriminator, call_reader_);
        }
    }
    return info;
}

}  // namespace mt::sym
