#include "db_pool.h"
#include "ch_backend.h"
#include "clickhouse.h"

#include <memory>
#include <unordered_map>

#include "memtracer/store/schema.h"

namespace mt::viewer {

namespace {
std::atomic<uint64_t> next_pool_id{1};

struct Conn {
    std::unique_ptr<Database> db;
    uint64_t generation = 0;
};
thread_local std::unordered_map<uint64_t, Conn> conns;

}  // namespace

// The checks live in store/ with the schema they check; store::Error is a std::runtime_error,
// which is what this layer's callers catch.
void check_database(const std::string &path) { store::check_readable(path); }

DbPool::DbPool(std::string path) : path_(std::move(path)), id_(next_pool_id++) {}

Database &DbPool::local() {
    auto &c = conns[id_];
    uint64_t gen = generation_.load();
    if (!c.db || c.generation != gen) {
        c.db.reset();
        if (fleet::ClickHouseUrl::is_url(path_)) {  // a fleet database: fleet/'s backend
            c.db = std::make_unique<Database>(fleet::open_clickhouse_backend(path_));
            c.generation = gen;
            return *c.db;
        }
        check_database(path_);  // a newer or foreign database is refused with its reason, not served as 500s
        c.db = std::make_unique<Database>(path_);
        c.generation = gen;
    }
    return *c.db;
}

void create_empty_database(const std::string &path) { store::create_empty_database(path); }

}  // namespace mt::viewer
