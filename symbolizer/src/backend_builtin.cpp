// The default backend: LLVM's symbolize library in this process. Each thread owns an
// LLVMSymbolizer (its own DWARFContext: DWARF parsing state is not thread-safe) and a contiguous
// run of the sorted addresses, so it parses only the compile units its addresses fall in.
// Options match llvm-symbolizer's defaults (linkage names, absolute paths, symbol table
// fallback) with demangling off, so both backends give identical records.
#include <llvm/DebugInfo/Symbolize/Symbolize.h>

#include "backend.h"

namespace mt::sym {

namespace {

class BuiltinBackend final : public Backend {
public:
    explicit BuiltinBackend(unsigned jobs) : jobs_(jobs) {}
    const char *name() const override { return "builtin"; }

    std::vector<SymbolRecord> symbolize(const SymbolFile &file, std::span<const uint64_t> addrs,
                                        const BackendContext &ctx) override {
        std::vector<SymbolRecord> out(addrs.size());
        auto ranges = split_ranges(addrs.size(), jobs_);
        std::atomic<uint64_t> errors{0};
        run_parallel(ranges.size(), [&](size_t part) {
            llvm::symbolize::LLVMSymbolizer::Options o;
            o.Demangle = false;
            o.UseSymbolTable = true;
            o.PathStyle = llvm::DILineInfoSpecifier::FileLineInfoKind::AbsoluteFilePath;
            o.PrintFunctions = llvm::DILineInfoSpecifier::FunctionNameKind::LinkageName;
            o.DefaultArch = file.arch;
            llvm::symbolize::LLVMSymbolizer sym(o);
            auto [begin, end] = ranges[part];
            for (size_t i = begin; i < end; ++i) {
                auto res = sym.symbolizeInlinedCode(file.path, {addrs[i], llvm::object::SectionedAddress::UndefSection});
                if (!res) {
                    std::string msg = llvm::toString(res.takeError());
                    if (errors.fetch_add(1) == 0 && ctx.warn) ctx.warn(file.path + ": " + msg);
                } else {
                    SymbolRecord &r = out[i];
                    r.frames.reserve(res->getNumberOfFrames());
                    for (uint32_t k = 0; k < res->getNumberOfFrames(); ++k) {
                        const llvm::DILineInfo &li = res->getFrame(k);
                        r.frames.push_back({li.FunctionName, li.FileName, li.Line, li.Column});
                    }
                    normalize(r);
                }
                if (ctx.done) ctx.done->fetch_add(1, std::memory_order_relaxed);
            }
        });
        return out;
    }

private:
    unsigned jobs_;
};

}  // namespace

std::unique_ptr<Backend> make_builtin_backend(unsigned jobs) { return std::make_unique<BuiltinBackend>(jobs); }

}  // namespace mt::sym
