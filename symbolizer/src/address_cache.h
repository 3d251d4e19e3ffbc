// address_cache.h — the addresses table as the per-build cache. Every distinct code address of
// a build gets one row, keyed by (build id, module path, file address) and shared by all runs of
// that build; a run interns its addresses here and then symbolizes only those rows a backend has
// not answered yet (or answered from a weaker symbol file).
#ifndef MEMTRACER_SYM_ADDRESS_CACHE_H
#define MEMTRACER_SYM_ADDRESS_CACHE_H

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "record.h"
#include "sqlite_db.h"

namespace mt::sym {

struct CachedAddress {
    int64_t addr_id = 0;
    uint64_t file_address = 0;
    bool symbolized = false;
    Quality quality = Quality::None;
    bool used = false;  // referenced by the run being ingested
};

class AddressCache {
public:
    explicit AddressCache(Db &db);

    // One cache partition: the rows of one (build id, module path). Loaded from the database on
    // first use, so a warm run costs one indexed range scan per module.
    struct Partition {
        std::string build_id, module_path;
        std::vector<CachedAddress> rows;
        std::unordered_map<uint64_t, uint32_t> by_address;
    };

    // Partition for a module, by its cache key.
    Partition &partition(const std::string &build_id, const std::string &module_path);
    // The addr_id of `file_address` in `p`, inserting a new (unsymbolized) row if needed; marks
    // the row used by this run.
    int64_t intern(Partition &p, uint64_t file_address);
    // Records that a backend answered for row `index` of `p` with a file of quality `q`.
    void mark_symbolized(Partition &p, uint32_t index, Quality q);

    std::vector<Partition *> partitions();
    uint64_t loaded_rows() const { return loaded_; }

private:
    Db &db_;
    Stmt select_, insert_, update_;
    std::unordered_map<std::string, Partition> parts_;
    uint64_t loaded_ = 0;
};

}  // namespace mt::sym

#endif
