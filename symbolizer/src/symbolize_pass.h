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
#include "memtracer/symbolizer/progress.h"
#include "memtracer/symbolizer/results.h"
#include "sites.h"
#include "symbol_locator.h"

namespace mt::sym {

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

void symbolize_partitions(store::Db &db, AddressCache &cache, const std::vector<PartitionWork> &work, Backend &backend,
                          const Enricher &enricher, Progress &progress,
                          const std::function<void(const std::string &)> &warn, SymbolizeStats &stats,
                          bool resymbolize = false);

}  // namespace mt::sym

#endif
