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

#include <map>
#include <memory>
#include <string>
#include <utility>

namespace mt::sym {

class FastDwarfContext final : public llvm::DIContext {
public:
    explicit FastDwarfContext(std::unique_ptr<llvm::DWARFContext> inner)
        : llvm::DIContext(CK_DWARF), inner_(std::move(inner)) {}

    llvm::DIInliningInfo getInliningInfoForAddress(llvm::object::SectionedAddress address,
                                                   llvm::DILineInfoSpecifier spec) override;

    void dump(llvm::raw_ostream &os, llvm::DIDumpOptions opts) override { inner_->dump(os, opts); }
    llvm::DILineInfo getLineInfoForAddress(llvm::object::SectionedAddress a, llvm::DILineInfoSpecifier s) override {
        return inner_->getLineInfoForAddress(a, s);
    }
    llvm::DILineInfo getLineInfoForDataAddress(llvm::object::SectionedAddress a) override {
        return inner_->getLineInfoForDataAddress(a);
    }
    llvm::DILineInfoTable getLineInfoForAddressRange(llvm::object::SectionedAddress a, uint64_t size,
                                                     llvm::DILineInfoSpecifier s) override {
        return inner_->getLineInfoForAddressRange(a, size, s);
    }
    std::vector<llvm::DILocal> getLocalsForAddress(llvm::object::SectionedAddress a) override {
        return inner_->getLocalsForAddress(a);
    }

private:
    // getFileNameByIndex, memoized: its success and the name.
    const std::pair<bool, std::string> &file_name(const llvm::DWARFDebugLine::LineTable *table, uint64_t index,
                                                  const char *comp_dir, llvm::DILineInfoSpecifier::FileLineInfoKind kind);

    std::unique_ptr<llvm::DWARFContext> inner_;
    std::map<std::pair<const void *, uint64_t>, std::pair<bool, std::string>> files_;
};

}  // namespace mt::sym

#endif
