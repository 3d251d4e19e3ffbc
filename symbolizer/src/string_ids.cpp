#include "string_ids.h"

#include <atomic>

#include "memtracer/store/writer_sql.h"

namespace mt::sym {

namespace {
uint64_t next_generation() {
    static std::atomic<uint64_t> last{0};
    return ++last;
}
}  // namespace

StringIds::StringIds(store::Db &db)
    : db_(db), generation_(next_generation()), insert_(db.prepare(store::sql::kInsertString)), find_(db.prepare(store::sql::kFindString)) {}

int64_t StringIds::id(std::string_view text) {
    if (auto it = ids_.find(text); it != ids_.end()) return it->second;
    insert_.bind(1, text).run();
    int64_t id = 0;
    if (db_.changes() == 1) {
        id = db_.last_insert_rowid();
    } else {  // stored by an earlier ingest (another build, another run)
        find_.bind(1, text);
        if (!find_.step()) throw store::Error("strings: '" + std::string(text) + "' neither inserted nor found", 0);
        id = find_.i64(0);
        find_.reset();
    }
    ids_.emplace(text, id);
    return id;
}

}  // namespace mt::sym
