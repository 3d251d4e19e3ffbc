#include "symbol_chains.h"

#include <algorithm>

#include "memtracer/store/writer_sql.h"

namespace mt::sym {

SymbolChains::SymbolChains(store::Db &db)
    : chain_(db.prepare(store::sql::kSymbolChain)), text_(db.prepare(store::sql::kStringText)) {}

const std::string &SymbolChains::text(int64_t id) {
    auto [it, fresh] = texts_.try_emplace(id);
    if (fresh) {
        text_.bind(1, id);
        if (!text_.step()) {
            text_.reset();
            texts_.erase(it);
            throw store::Error("symbol_frames refers to string " + std::to_string(id) + ", which the strings table lacks", 0);
        }
        it->second = text_.str(0);
        text_.reset();
    }
    return it->second;
}

std::vector<SymbolRow> SymbolChains::read(int64_t addr_id) {
    std::vector<SymbolRow> rows;
    chain_.bind(1, addr_id);
    while (chain_.step())
        rows.push_back({text(chain_.i64(0)), text(chain_.i64(1)), text(chain_.i64(2)), text(chain_.i64(3)),
                        static_cast<uint32_t>(chain_.i64(4)), static_cast<uint32_t>(chain_.i64(5)), text(chain_.i64(6)),
                        static_cast<uint32_t>(chain_.i64(7))});
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
