// symbol_chains.h — addresses' inline chains (their symbols rows, innermost first) read back for
// the site choice (sites.h's StackSites), which asks for one address at a time. Asked one by one
// in stack order, each chain was a seek to a random page of the symbols table: with 40k stacks
// that query was the largest part of a warm ingest (docs/benchmarks.md, issue 22, fourth
// session). read_each() reads the chains a run will surely ask for (each stack's first address
// in a module) in one pass in addr_id order and hands each to the caller as it is read (nothing
// is kept here: StackSites keeps a summary); the rest are still read on demand (read()).
#ifndef MEMTRACER_SYM_SYMBOL_CHAINS_H
#define MEMTRACER_SYM_SYMBOL_CHAINS_H

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "memtracer/store/db.h"
#include "sites.h"

namespace mt::sym {

class SymbolChains {
public:
    explicit SymbolChains(store::Db &db);
    // Reads the chains of `ids` (any order, repeats allowed; 0 is skipped) now, in addr_id order,
    // and calls each(addr_id, chain) once per distinct id.
    void read_each(std::vector<int64_t> ids, const std::function<void(int64_t, std::span<const SymbolRow>)> &each);
    // The chain of `addr_id`, innermost first (empty: no symbols rows).
    std::vector<SymbolRow> read(int64_t addr_id);

private:
    // The chain into rows[0, n), reusing the rows (and their strings' buffers) already there; n.
    size_t read_into(int64_t addr_id, std::vector<SymbolRow> &rows);
    // The text of string `id`, read once (a library's chains share few names).
    const std::string &text(int64_t id);

    store::Stmt chain_, text_;
    std::unordered_map<int64_t, std::string> texts_;
    std::vector<SymbolRow> rows_;  // read_each's buffer, reused
};

}  // namespace mt::sym

#endif
