#include "address_cache.h"

namespace mt::sym {

AddressCache::AddressCache(Db &db)
    : db_(db),
      select_(db.prepare("SELECT addr_id, file_address, symbolized, quality FROM addresses "
                         "WHERE build_id = ?1 AND module_path = ?2")),
      insert_(db.prepare("INSERT INTO addresses(build_id, module_path, file_address, symbolized, quality) "
                         "VALUES (?1, ?2, ?3, 0, 0)")),
      update_(db.prepare("UPDATE addresses SET symbolized = 1, quality = ?2 WHERE addr_id = ?1")) {}

AddressCache::Partition &AddressCache::partition(const std::string &build_id, const std::string &module_path) {
    std::string key = build_id + '\n' + module_path;
    auto it = parts_.find(key);
    if (it != parts_.end()) return it->second;
    Partition &p = parts_[key];
    p.build_id = build_id;
    p.module_path = module_path;
    select_.bind(1, build_id).bind(2, module_path);
    while (select_.step()) {
        CachedAddress a;
        a.addr_id = select_.int64(0);
        a.file_address = static_cast<uint64_t>(select_.int64(1));
        a.symbolized = select_.int64(2) != 0;
        a.quality = static_cast<Quality>(select_.int64(3));
        p.by_address.emplace(a.file_address, static_cast<uint32_t>(p.rows.size()));
        p.rows.push_back(a);
    }
    select_.reset();
    loaded_ += p.rows.size();
    return p;
}

int64_t AddressCache::intern(Partition &p, uint64_t file_address) {
    auto [it, inserted] = p.by_address.try_emplace(file_address, static_cast<uint32_t>(p.rows.size()));
    if (inserted) {
        insert_.bind(1, p.build_id).bind(2, p.module_path).bind(3, file_address).run();
        CachedAddress a;
        a.addr_id = db_.last_insert_rowid();
        a.file_address = file_address;
        p.rows.push_back(a);
    }
    CachedAddress &row = p.rows[it->second];
    row.used = true;
    return row.addr_id;
}

void AddressCache::mark_symbolized(Partition &p, uint32_t index, Quality q) {
    CachedAddress &row = p.rows[index];
    row.symbolized = true;
    row.quality = q;
    update_.bind(1, row.addr_id).bind(2, static_cast<int>(q)).run();
}

std::vector<AddressCache::Partition *> AddressCache::partitions() {
    std::vector<Partition *> out;
    for (auto &[k, p] : parts_) out.push_back(&p);
    return out;
}

}  // namespace mt::sym
