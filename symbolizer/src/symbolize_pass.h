// symbolize_pass.h — turns the addresses a run uses into symbols rows: per module, the rows the
// cache cannot answer go to the backend (sorted, unique, moved into the call instruction); each
// answer is enriched with demangled and C# names and the C# line, then stored and marked.
#ifndef MEMTRACER_SYM_SYMBOLIZE_PASS_H
#define MEMTRACER_SYM_SYMBOLIZE_PASS_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "address_cache.h"
#include "backend.h"
#include "il2cpp_symbols.h"
#include "progress.h"
#include "sites.h"
#include "symbol_locator.h"

namespace mt::sym {

struct SymbolizeStats {
    uint64_t addresses = 0;        // distinct addresses the run uses inside modules
    uint64_t cache_hits = 0;       // already answered, and this run's file cannot do better (needs_symbolizing)
    uint64_t no_symbols = 0;       // in modules without a symbol file (kept as module+offset)
    uint64_t sent_to_backend = 0;  // addresses the backend was asked about
    uint64_t backend_calls = 0;    // Backend::symbolize invocations
    uint64_t unknown = 0;          // answers with no function
    uint64_t without_debug_info = 0;  // answers from the symbol table only, by files that have debug info
    double backend_seconds = 0;
};

// Demangling, IL2CPP C# names and C# lines for one source frame.
class Enricher {
public:
    explicit Enricher(const Il2CppSymbols *il2cpp) : il2cpp_(il2cpp) {}
    SymbolRow row(SourceFrame &&f) const;

private:
    const Il2CppSymbols *il2cpp_;
};

struct PartitionWork {
    AddressCache::Partition *partition;
    const SymbolFile *file;  // nullptr: no symbols for this module
};

void symbolize_partitions(Db &db, AddressCache &cache, const std::vector<PartitionWork> &work, Backend &backend,
                          const Enricher &enricher, Progress &progress,
                          const std::function<void(const std::string &)> &warn, SymbolizeStats &stats,
                          bool resymbolize = false);

}  // namespace mt::sym

#endif
