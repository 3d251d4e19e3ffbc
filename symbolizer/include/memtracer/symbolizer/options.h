// options.h — how memtracer_symbolizer is configured: the symbol files, the IL2CPP side files and
// the backend (docs/symbolizer.md has the command line each comes from).
#ifndef MEMTRACER_SYM_OPTIONS_H
#define MEMTRACER_SYM_OPTIONS_H

#include <string>
#include <vector>

namespace mt::sym {

enum class BackendKind { Builtin, LlvmSymbolizer, Atos };

struct BackendOptions {
    BackendKind kind = BackendKind::Builtin;
    unsigned jobs = 1;
    std::string llvm_symbolizer;  // executables the external backends run ("" = the default)
    std::string atos;
};

BackendKind parse_backend_kind(const std::string &name);  // throws Error(Usage)

struct Config {
    std::vector<std::string> dsyms, elfs, symbol_dirs;
    std::string il2cpp_dir;           // "" = none
    BackendOptions backend;
    bool force = false;               // use symbol files whose id does not match; re-ingest a run
    bool salvage = false;             // keep the frames before a corrupt chunk instead of failing
    bool resymbolize = false;         // symbolize every address again, cached answers or not
    bool threads = true;              // split allocation rows per allocating thread (--no-threads: not)
};

}  // namespace mt::sym

#endif
