#include "symbol_chains.h"

#include <algorithm>

#include "memtracer/store/writer_sql.h"

namespace mt::sym {

SymbolChains::SymbolChains(store::Db &db) : chain_(db.prepare(store::sql::kSymbolChain)) {}

std::vector<SymbolRow> SymbolChains::read(int64_t addr_id) {
    std::vector<SymbolRow> rows;
    chain_.bind(1, addr_id);
    while (chain_.step())
        rows.push_back({chain_.str(0), chain_.str(1), chain_.str(2), chain_.str(3), static_cast<uint32_t>(chain_.i64(4)),
                        static_cast<uint32_t>(chain_.i64(5)), chain_.str(6), static_cast<uint32_t>(chain_.i64(7))});
    chain_.reset();
    return rows;
}

void SymbolChains::read_ahead(std::vector<int64_t> ids) {
    // In addr_id order the seeks walk the table's pages front to back: each page is read once
    // and is still in SQLite's cache for the next seek (a random order reads most pages again).
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    ahead_.reserve(ahead_.size() + ids.size());
    for (int64_t id : ids)
        if (id && !ahead_.contains(id)) ahead_.emplace(id, read(id));
}

std::vector<SymbolRow> SymbolChains::take(int64_t addr_id) {
    auto it = ahead_.find(addr_id);
    if (it == ahead_.end()) return read(addr_id);
    std::vector<SymbolRow> rows = std::move(it->second);
    ahead_.erase(it);
    return rows;
}

}  // namespace mt::sym
