// symbol_chains.h — addresses' inline chains (their symbols rows, innermost first) read back for
// the site choice (sites.h's StackSites), which asks for one address at a time. Asked one by one
// in stack order, each chain was a seek to a random page of the symbols table: with 40k stacks
// that query was the largest part of a warm ingest (docs/benchmarks.md, issue 22, fourth
// session). read_ahead() reads the chains a run will surely ask for (each stack's first address
// in a module) in one pass in addr_id order; the rest are still read on demand.
#ifndef MEMTRACER_SYM_SYMBOL_CHAINS_H
#define MEMTRACER_SYM_SYMBOL_CHAINS_H

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "memtracer/store/db.h"
#include "sites.h"

namespace mt::sym {

class SymbolChains {
public:
    explicit SymbolChains(store::Db &db);
    // Reads the chains of `ids` (any order, repeats allowed; 0 is skipped) now, in addr_id order.
    void read_ahead(std::vector<int64_t> ids);
    // The chain of `addr_id`: handed over from what read_ahead() read, else read now. Each id
    // once (the caller keeps what it was given: StackSites memoizes).
    std::vector<SymbolRow> take(int64_t addr_id);

private:
    std::vector<SymbolRow> read(int64_t addr_id);
    // The text of string `id`, read once (a library's chains share few names).
    const std::string &text(int64_t id);

    store::Stmt chain_, text_;
    std::unordered_map<int64_t, std::string> texts_;
    std::unordered_map<int64_t, std::vector<SymbolRow>> ahead_;
};

}  // namespace mt::sym

#endif
