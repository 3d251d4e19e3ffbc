// symbolize_pass.h — turns the addresses a run uses into symbols rows: per module, the rows the
// cache cannot answer go to the backend (sorted, unique, moved into the call instruction); each
// answer is enriched with demangled and C# names and the C# line, then stored and marked.
#ifndef MEMTRACER_SYM_SYMBOLIZE_PASS_H
#define MEMTRACER_SYM_SYMBOLIZE_PASS_H

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "address_cache.h"
#include "backend.h"
#include "il2cpp_symbols.h"
#include "memtracer/symbolizer/progress.h"
#include "memtracer/symbolizer/results.h"
#include "sites.h"
#include "string_ids.h"
#include "symbol_locator.h"

namespace mt::sym {

// Demangling, IL2CPP C# names and C# lines for one source frame. The names depend on the raw
// function name alone and a library's addresses share few functions (every call site of a
// function, every inlined helper), so they are worked out once per name and kept. One thread at
// a time.
class Enricher {
public:
    explicit Enricher(const Il2CppSymbols *il2cpp) : il2cpp_(il2cpp) {}
    SymbolRow row(SourceFrame &&f) const;

    // The function's names, as row() gives them, without a copy: views into this enricher's
    // memo, valid as long as it lives.
    struct Names {
        std::string_view function, demangled, csharp;
    };
    Names names(const std::string &function) const;
    // The function's names as ids of the strings table (schema version 3), kept in the memo
    // beside the names: each name is looked up in `strings` once per ingest, not per row.
    struct NameIds {
        int64_t function, demangled, csharp;
    };
    NameIds name_ids(const std::string &function, StringIds &strings) const;
    // The C# file and line of a frame (empty and 0 without IL2CPP symbols or a mapping).
    std::pair<std::string, uint32_t> cs_location(const SourceFrame &f) const;

private:
    struct Derived {
        std::string demangled, csharp;
        uint64_t ids_from = 0;  // StringIds::generation() of the ingest whose strings `ids` are
        NameIds ids{};
    };
    using Memo = std::unordered_map<std::string, Derived>;
    Memo::iterator entry(const std::string &function) const;
    const Il2CppSymbols *il2cpp_;
    mutable Memo names_;
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
