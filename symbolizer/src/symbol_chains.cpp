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
    rows.resize(read_into(addr_id, rows));
    return rows;
}

size_t SymbolChains::read_into(int64_t addr_id, std::vector<SymbolRow> &rows) {
    size_t n = 0;
    chain_.bind(1, addr_id);
    while (chain_.step()) {
        if (n == rows.size()) rows.emplace_back();
        SymbolRow &r = rows[n++];
        // Assigned, not constructed: a row's strings keep their buffers from the last chain.
        r.function = text(chain_.i64(0));
        r.demangled = text(chain_.i64(1));
        r.csharp = text(chain_.i64(2));
        r.file = text(chain_.i64(3));
        r.line = static_cast<uint32_t>(chain_.i64(4));
        r.column = static_cast<uint32_t>(chain_.i64(5));
        r.cs_file = text(chain_.i64(6));
        r.cs_line = static_cast<uint32_t>(chain_.i64(7));
    }
    chain_.reset();
    return n;
}

void SymbolChains::read_each(std::vector<int64_t> ids, const std::function<void(int64_t, std::span<const SymbolRow>)> &each) {
    // In addr_id order the seeks walk the table's pages front to back: each page is read once
    // and is still in SQLite's cache for the next seek (a random order reads most pages again).
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    for (int64_t id : ids) {
        if (!id) continue;
        size_t n = read_into(id, rows_);
        each(id, std::span<const SymbolRow>(rows_.data(), n));
    }
}

}  // namespace mt::sym
