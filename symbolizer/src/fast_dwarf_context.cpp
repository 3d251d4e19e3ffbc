#include "fast_dwarf_context.h"

#include <llvm/DebugInfo/DWARF/DWARFCompileUnit.h>
#include <llvm/DebugInfo/DWARF/DWARFDebugAranges.h>
#include <llvm/DebugInfo/DWARF/DWARFDie.h>

#include <cinttypes>

namespace mt::sym {

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
        files_.clear();  // its keys are work_'s line tables
        work_.reset();   // before the next is made: one unit's state at a time
        work_ = make_();
        ++contexts_made_;
        work_unit_ = offset;
    }
    return work_->getCompileUnitForOffset(offset);
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
    cu->getInlinedChainForAddress(address.Address, chain);
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
        llvm::DILineInfo frame;
        if (const char *name = die.getSubroutineName(spec.FNKind)) frame.FunctionName = name;
        frame.StartLine = static_cast<uint32_t>(die.getDeclLine());
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
            if (i + 1 < chain.size()) die.getCallerFrame(call_file, call_line, call_column, call_discriminator);
        }
        info.addFrame(frame);
    }
    return info;
}

}  // namespace mt::sym
