// The default backend: LLVM's DWARF reader in this process. Each thread owns its own object
// file view and DWARF context (DWARF parsing state is not thread-safe) and a contiguous run of
// the sorted addresses, so it parses only the compile units its addresses fall in.
//
// Files with DWARF go through SymbolizableObjectFile over FastDwarfContext (see there); files
// without (symbol table only) through LLVMSymbolizer, which also follows .gnu_debuglink and
// build-id debug directories the way llvm-symbolizer does. Either way the options are
// llvm-symbolizer's defaults (linkage names, absolute paths, symbol table override) with
// demangling off, so both backends give identical records.
#include <llvm/DebugInfo/Symbolize/SymbolizableObjectFile.h>
#include <llvm/DebugInfo/Symbolize/Symbolize.h>
#include <llvm/Object/MachOUniversal.h>

#include <optional>

#include "backend.h"
#include "memtracer/symbolizer/errors.h"
#include "fast_dwarf_context.h"

namespace mt::sym {

namespace {

using llvm::symbolize::LLVMSymbolizer;
using llvm::symbolize::SymbolizableObjectFile;

const llvm::DILineInfoSpecifier kSpec(llvm::DILineInfoSpecifier::FileLineInfoKind::AbsoluteFilePath,
                                      llvm::DILineInfoSpecifier::FunctionNameKind::LinkageName);

// The symbol file mapped once for all threads: an ObjectFile is only read, so the threads share
// it, and the file's pages count once in the process's resident set rather than once a thread.
class MappedObject {
public:
    explicit MappedObject(const SymbolFile &f) {
        auto bin = llvm::object::createBinary(f.path);
        if (!bin) throw symbols_error(f.path + ": " + llvm::toString(bin.takeError()));
        bin_ = std::move(*bin);
        if (auto *u = llvm::dyn_cast<llvm::object::MachOUniversalBinary>(bin_.getBinary())) {
            auto o = u->getMachOObjectForArch(f.arch);
            if (!o) throw symbols_error(f.path + ": " + llvm::toString(o.takeError()));
            slice_ = std::move(*o);
            obj_ = slice_.get();
        } else if (!(obj_ = llvm::dyn_cast<llvm::object::ObjectFile>(bin_.getBinary()))) {
            throw symbols_error(f.path + ": not an object file");
        }
    }
    const llvm::object::ObjectFile &object() const { return *obj_; }

private:
    llvm::object::OwningBinary<llvm::object::Binary> bin_;
    std::unique_ptr<llvm::object::ObjectFile> slice_;
    const llvm::object::ObjectFile *obj_ = nullptr;
};

// One thread's view of the symbol file: its own DWARF context (parsing state is not
// thread-safe) over the shared mapping, or (no debug info) its own LLVMSymbolizer.
class ThreadModule {
public:
    ThreadModule(const SymbolFile &f, const MappedObject *mapped, DwarfDiagnostics &diag) : path_(f.path) {
        if (!mapped) {
            LLVMSymbolizer::Options o;
            o.Demangle = false;
            o.UseSymbolTable = true;
            o.PathStyle = kSpec.FLIKind;
            o.PrintFunctions = kSpec.FNKind;
            o.DefaultArch = f.arch;
            fallback_ = std::make_unique<LLVMSymbolizer>(o);
            return;
        }
        const llvm::object::ObjectFile *obj = &mapped->object();
        auto make = [obj, &diag] {
            return llvm::DWARFContext::create(*obj, llvm::DWARFContext::ProcessDebugRelocations::Process, nullptr, "",
                                              diag.handler(), diag.handler());
        };
        auto mod = SymbolizableObjectFile::create(obj, std::make_unique<FastDwarfContext>(make, diag), false);
        if (!mod) throw symbols_error(f.path + ": " + llvm::toString(mod.takeError()));
        module_ = std::move(*mod);
    }

    llvm::Expected<llvm::DIInliningInfo> lookup(uint64_t address) {
        llvm::object::SectionedAddress a{address, llvm::object::SectionedAddress::UndefSection};
        if (fallback_) return fallback_->symbolizeInlinedCode(path_, a);
        return module_->symbolizeInlinedCode(a, kSpec, /*UseSymbolTable=*/true);
    }

private:
    std::string path_;
    std::unique_ptr<SymbolizableObjectFile> module_;
    std::unique_ptr<LLVMSymbolizer> fallback_;
};

class BuiltinBackend final : public Backend {
public:
    explicit BuiltinBackend(unsigned jobs) : jobs_(jobs) {}
    const char *name() const override { return "builtin"; }

    void symbolize(const SymbolFile &file, std::span<const uint64_t> addrs, std::span<SymbolRecord> out,
                   const BackendContext &ctx) override {
        auto ranges = split_ranges(addrs.size(), jobs_);
        std::atomic<uint64_t> errors{0};
        DwarfDiagnostics diag;
        std::optional<MappedObject> mapped;
        if (file.slice.has_debug_info) mapped.emplace(file);
        run_parallel(ranges.size(), [&](size_t part) {
            ThreadModule module(file, mapped ? &*mapped : nullptr, diag);
            auto [begin, end] = ranges[part];
            size_t chunk_begin = begin;
            for (size_t i = begin; i < end; ++i) {
                auto res = module.lookup(addrs[i]);
                // A damaged file is refused as a whole: some of its answers would be wrong.
                if (diag.count()) refuse(file, diag);
                if (!res) {
                    std::string msg = llvm::toString(res.takeError());
                    if (errors.fetch_add(1) == 0 && ctx.warn) ctx.warn(file.path + ": " + msg);
                } else {
                    SymbolRecord &r = out[i];
                    r.frames.reserve(res->getNumberOfFrames());
                    for (uint32_t k = 0; k < res->getNumberOfFrames(); ++k) {
                        llvm::DILineInfo &li = *res->getMutableFrame(k);
                        r.frames.push_back({std::move(li.FunctionName), std::move(li.FileName), li.Line, li.Column, li.StartLine});
                    }
                    normalize(r);
                }
                if (ctx.done) ctx.done->fetch_add(1, std::memory_order_relaxed);
                if (i + 1 - chunk_begin == kReadyChunk || i + 1 == end) {
                    if (ctx.ready) ctx.ready(chunk_begin, i + 1);
                    chunk_begin = i + 1;
                }
            }
        });
    }

private:
    [[noreturn]] static void refuse(const SymbolFile &file, const DwarfDiagnostics &diag) {
        throw symbols_error(file.path + ": damaged debug info, file refused: LLVM reported " + std::to_string(diag.count()) +
                            " DWARF error(s) reading it, the first: " + diag.first());
    }

    unsigned jobs_;
};

}  // namespace

std::unique_ptr<Backend> make_builtin_backend(unsigned jobs) { return std::make_unique<BuiltinBackend>(jobs); }

}  // namespace mt::sym
