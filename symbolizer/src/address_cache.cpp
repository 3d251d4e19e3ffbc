#include "address_cache.h"

#include "address_blob.h"

#include <algorithm>
#include <array>
#include <bit>
#include <tuple>

#include "memtracer/store/batch_insert.h"
#include "memtracer/store/db.h"
#include "memtracer/store/int_rows.h"
#include "memtracer/store/writer_sql.h"
#include "symbol_locator.h"

namespace mt::sym {

void AddressIndex::reserve(size_t n) {
    size_t capacity = 16;
    while (capacity < 2 * n) capacity *= 2;  // at most half full
    if (capacity > slots_.size()) rehash(capacity);
}

void AddressIndex::rehash(size_t capacity) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(capacity, Slot{});
    shift_ = 64 - std::countr_zero(capacity);
    size_ = 0;
    for (const Slot &s : old)
        if (s.row != kEmpty) try_emplace(s.address, s.row);
}

std::pair<uint32_t, bool> AddressIndex::try_emplace(uint64_t address, uint32_t row) {
    if (2 * (size_ + 1) > slots_.size()) rehash(std::max<size_t>(16, 2 * slots_.size()));
    const size_t mask = slots_.size() - 1;
    for (size_t i = slot_of(address);; i = (i + 1) & mask) {
        Slot &s = slots_[i];
        if (s.row == kEmpty) {
            s = {address, row};
            ++size_;
            return {row, true};
        }
        if (s.address == address) return {s.row, false};
    }
}

void SortedAddressIndex::build(const std::vector<CachedAddress> &rows, size_t n) {
    start_.clear();
    if (n == 0) return;
    lo_ = rows[0].file_address;
    hi_ = rows[n - 1].file_address;
    // Buckets of 2^shift_ addresses, at most about n of them.
    shift_ = std::bit_width((hi_ - lo_) / n);
    size_t buckets = static_cast<size_t>((hi_ - lo_) >> shift_) + 1;
    start_.assign(buckets + 1, 0);
    size_t row = 0;
    for (size_t b = 0; b <= buckets; ++b) {
        while (row < n && ((rows[row].file_address - lo_) >> shift_) < b) ++row;
        start_[b] = static_cast<uint32_t>(row);
    }
}

uint32_t SortedAddressIndex::find(const std::vector<CachedAddress> &rows, uint64_t address) const {
    if (start_.empty() || address < lo_ || address > hi_) return kAbsent;
    size_t b = static_cast<size_t>((address - lo_) >> shift_);
    auto first = rows.begin() + start_[b], last = rows.begin() + start_[b + 1];
    auto it = std::lower_bound(first, last, address, [](const CachedAddress &r, uint64_t a) { return r.file_address < a; });
    return it != last && it->file_address == address ? static_cast<uint32_t>(it - rows.begin()) : kAbsent;
}

namespace {

// A site id as the row keeps it: one that does not fit counts as "not stored" (the chain is read).
int32_t site_ref(int64_t id) { return id >= -1 && id <= INT32_MAX ? static_cast<int32_t>(id) : -1; }

// symbolized, quality, answered_by (kAddressStatesBetween's values 1-3, kAddressState's columns).
void read_state(const int64_t *v, CachedAddress &a) {
    a.symbolized = v[0] != 0;
    a.quality = static_cast<Quality>(v[1]);
    a.answered_by = static_cast<uint64_t>(v[2]);
}

// A stored site summary (facts and the four sites: kAddressSitesBetween's values 1-5,
// kAddressSitesOf's columns 1-5) for row `i` of `p`.
void read_sites(const int64_t *v, AddressCache::Partition &p, uint32_t i) {
    int64_t facts = v[0];
    if (facts < 0 || facts > INT32_MAX) return;  // not ours: summarized again
    if (p.sites.size() < p.rows.size()) p.sites.resize(p.rows.size());
    p.sites[i] = {static_cast<int32_t>(facts), site_ref(v[1]), site_ref(v[2]), site_ref(v[3]), site_ref(v[4])};
}

// Columns [from, from + n) of the current row of `st`.
std::array<int64_t, 5> columns(const store::Stmt &st, int from, int n) {
    std::array<int64_t, 5> v{};
    for (int c = 0; c < n; ++c) v[static_cast<size_t>(c)] = st.i64(from + c);
    return v;
}

}  // namespace

namespace {
void sort_by_address(std::vector<AddressCache::Lookup> &a);  // below, with intern_all
}  // namespace

AddressCache::AddressCache(store::Db &db)
    : db_(db),
      module_key_(db.prepare(store::sql::kAddressModuleKey)) {
    next_id_ = db.query_int(store::sql::kNextAddressId).value_or(1);
}

AddressCache::Partition &AddressCache::partition(const std::string &build_id, const std::string &module_path) {
    std::string key = build_id + '\n' + module_path;
    auto it = parts_.find(key);
    if (it != parts_.end()) return *it->second;
    auto &p = parts_[key];
    p = std::make_unique<Partition>();
    order_.push_back(p.get());
    p->build_id = build_id;
    p->module_path = module_path;
    module_key_.bind(1, build_id).bind(2, module_path);
    if (module_key_.step()) p->module_key = module_key_.i64(0);
    module_key_.reset();
    if (!p->module_key) return *p;  // a module new to the cache: no rows yet
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    const bool from_blob = load_blob(*p);
    if (from_blob) {
        for (const CachedAddress &a : p->rows) {
            lo = std::min(lo, a.addr_id);
            hi = std::max(hi, a.addr_id);
        }
    } else {
        load_rows(*p, lo, hi);
    }
    p->blob_current = from_blob;
    p->loaded.build(p->rows, p->rows.size());
    p->loaded_count = static_cast<uint32_t>(p->rows.size());
    if (!p->rows.empty()) load_states(*p, lo, hi, from_blob);
    return *p;
}

bool AddressCache::load_blob(Partition &p) {
    store::Stmt blob = db_.prepare(store::sql::kAddressBlobOf);
    blob.bind(1, p.module_key);
    if (!blob.step()) return false;
    // Trusted only while it holds exactly the module's rows. Updates and deletes removed it
    // (schema.sql's triggers); an insert since it was written is seen by one of two checks:
    // - max_id, set when ids 1..max_id were all taken: an insert since had to take a higher id,
    //   so an unchanged max(addr_id) (one b-tree descent) means none happened;
    // - else the module's row count, which walks its index entries (88M instructions and the
    //   index's pages for 240k rows: the cost the first check avoids).
    const int64_t rows = blob.i64(0), max_id = blob.i64(1);
    bool current = max_id > 0 && db_.query_int(store::sql::kMaxAddressId).value_or(-1) == max_id;
    if (!current) {
        store::Stmt count = db_.prepare(store::sql::kAddressCountOfModule);
        count.bind(1, p.module_key);
        current = count.step() && count.i64(0) == rows;
    }
    return current && rows >= 0 && decode_address_blob(blob.blob(2), static_cast<uint64_t>(rows), p.rows);
}

void AddressCache::load_rows(Partition &p, int64_t &lo, int64_t &hi) {
    // Steps SQLite once, not once per row (store/int_rows.h): a warm ingest without a blob reads
    // every cached row of the module (issue 22, eighth session). Served by the unique index alone
    // (it holds addr_id as the rowid): one range scan.
    store::for_each_int_row(db_, store::sql::kAddressesOfModule, {p.module_key}, [&](const int64_t *v) {
        CachedAddress a;
        a.addr_id = v[0];
        a.file_address = static_cast<uint64_t>(v[1]);
        lo = std::min(lo, a.addr_id);
        hi = std::max(hi, a.addr_id);
        p.rows.push_back(a);
    });
    // The unique index delivers them by file address; sorted here in case a plan does not.
    auto by_address = [](const CachedAddress &a, const CachedAddress &b) { return a.file_address < b.file_address; };
    if (!std::is_sorted(p.rows.begin(), p.rows.end(), by_address)) std::sort(p.rows.begin(), p.rows.end(), by_address);
}

void AddressCache::load_states(Partition &p, int64_t lo, int64_t hi, bool have_states) {
    if (static_cast<uint64_t>(hi - lo) < 4 * p.rows.size() + 1024) {
        // The build owns most of its id range (the usual case): read the range in rowid order
        // and skip other builds' rows.
        std::vector<uint32_t> slot(static_cast<size_t>(hi - lo + 1), UINT32_MAX);
        for (uint32_t i = 0; i < p.rows.size(); ++i) slot[static_cast<size_t>(p.rows[i].addr_id - lo)] = i;
        // The rest of each row, in rowid order over the partition's id range (a blob holds it).
        if (!have_states)
            store::for_each_int_row(db_, store::sql::kAddressStatesBetween, {lo, hi}, [&](const int64_t *v) {
                uint32_t i = slot[static_cast<size_t>(v[0] - lo)];
                if (i != UINT32_MAX) read_state(v + 1, p.rows[i]);
            });
        // Their stored site summaries, the same way (schema version 4: only the summarized rows).
        store::for_each_int_row(db_, store::sql::kAddressSitesBetween, {lo, hi}, [&](const int64_t *v) {
            uint32_t i = slot[static_cast<size_t>(v[0] - lo)];
            if (i != UINT32_MAX) read_sites(v + 1, p, i);
        });
    } else {
        // Interleaved with many other builds: one lookup per row.
        store::Stmt one = db_.prepare(store::sql::kAddressState), sites = db_.prepare(store::sql::kAddressSitesOf);
        for (uint32_t i = 0; i < p.rows.size(); ++i) {
            CachedAddress &a = p.rows[i];
            if (!have_states) {
                one.bind(1, a.addr_id);
                if (one.step()) read_state(columns(one, 0, 3).data(), a);
                one.reset();
            }
            sites.bind(1, a.addr_id);
            if (sites.step()) read_sites(columns(sites, 1, 5).data(), p, i);
            sites.reset();
        }
    }
}

void AddressCache::write_blob(Partition &p) {
    // rows[0, loaded_count) are by file address already; the rest (new in this ingest, in first-use
    // order) are radix-sorted (std::sort through the indexes cost a cold run's 240k rows about
    // 45M instructions) and merged in.
    std::vector<Lookup> fresh;
    fresh.reserve(p.rows.size() - p.loaded_count);
    for (uint32_t i = p.loaded_count; i < p.rows.size(); ++i) fresh.push_back({p.rows[i].file_address, i});
    sort_by_address(fresh);
    std::vector<uint32_t> order;
    order.reserve(p.rows.size());
    for (uint32_t i = 0; i < p.loaded_count; ++i) order.push_back(i);
    for (const Lookup &l : fresh) order.push_back(l.order);
    auto by_address = [&](uint32_t a, uint32_t b) { return p.rows[a].file_address < p.rows[b].file_address; };
    std::inplace_merge(order.begin(), order.begin() + p.loaded_count, order.end(), by_address);
    // max_id only when every id up to it is taken (the ids this writer hands out are dense: it
    // never deletes, and a rolled-back ingest's ids are handed out again): else 0, and a later
    // load counts the module's rows instead.
    const int64_t max_id = db_.query_int(store::sql::kMaxAddressId).value_or(0);
    const bool dense = db_.query_int(store::sql::kAddressRowCount).value_or(-1) == max_id;
    store::Stmt put = db_.prepare(store::sql::kPutAddressBlob);
    put.bind(1, p.module_key).bind(2, static_cast<int64_t>(order.size())).bind(3, dense ? max_id : 0);
    put.bind_blob(4, encode_address_blob(p.rows, order)).run();
    p.blob_current = true;
}

std::pair<uint32_t, bool> AddressCache::intern(Partition &p, uint64_t file_address) {
    uint32_t index = p.loaded.find(p.rows, file_address);
    bool inserted = false;
    if (index == SortedAddressIndex::kAbsent)
        std::tie(index, inserted) = p.by_address.try_emplace(file_address, static_cast<uint32_t>(p.rows.size()));
    if (inserted) {
        CachedAddress a;
        a.file_address = file_address;
        a.fresh = true;
        p.rows.push_back(a);
    }
    CachedAddress &row = p.rows[index];
    bool first = !row.used;
    row.used = true;
    return {index, first};
}

namespace {

// Sorts by file address, keeping the order of equal ones (a stable LSD radix sort, 11 bits of the
// address's offset from the lowest a pass: 3 passes over a 50 MB library's span). std::sort with
// an (address, order) comparison cost 165M instructions for a warm run's 240k lookups.
void sort_by_address(std::vector<AddressCache::Lookup> &a) {
    if (a.size() < 2) return;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (const auto &l : a) {
        lo = std::min(lo, l.file_address);
        hi = std::max(hi, l.file_address);
    }
    // As few passes as digits of at most 13 bits allow (a 50 MB span: 2 passes of 13 bits, where
    // 11-bit digits took 3; a pass is two sweeps of the lookups, a count array of 8k entries is 64 KB).
    constexpr int kMaxBits = 13;
    const int width = static_cast<int>(std::bit_width(hi - lo));
    const int passes = (width + kMaxBits - 1) / kMaxBits;
    if (passes == 0) return;  // all equal
    const int bits = (width + passes - 1) / passes;
    const size_t buckets = size_t{1} << bits;
    std::vector<AddressCache::Lookup> tmp(a.size());
    std::vector<size_t> count(buckets + 1);
    for (int shift = 0; shift < width; shift += bits) {
        std::fill(count.begin(), count.end(), 0);
        for (const auto &l : a) ++count[((l.file_address - lo) >> shift & (buckets - 1)) + 1];
        for (size_t b = 1; b <= buckets; ++b) count[b] += count[b - 1];
        for (const auto &l : a) tmp[count[(l.file_address - lo) >> shift & (buckets - 1)]++] = l;
        a.swap(tmp);
    }
}

}  // namespace

void AddressCache::intern_all(Partition &p, std::vector<Lookup> &lookups, std::vector<Interned> &out) {
    auto put = [&](uint32_t order, uint32_t row, bool first) { out[order] = {row, first, p.rows[row].addr_id}; };
    const size_t n = p.loaded_count;
    if (n == 0) {  // nothing loaded (a cold run): intern() in order, nothing to merge
        for (const Lookup &l : lookups) {
            auto [row, first] = intern(p, l.file_address);
            put(l.order, row, first);
        }
        return;
    }
    // By address, then order: of equal addresses the earliest comes first, and is intern()'s "first".
    sort_by_address(lookups);
    std::vector<uint32_t> missing;  // positions in lookups of addresses not loaded
    size_t j = 0;
    for (size_t i = 0; i < lookups.size(); ++i) {
        const Lookup &l = lookups[i];
        while (j < n && p.rows[j].file_address < l.file_address) ++j;
        if (j < n && p.rows[j].file_address == l.file_address) {
            CachedAddress &row = p.rows[j];
            put(l.order, static_cast<uint32_t>(j), !row.used);
            row.used = true;
        } else {
            missing.push_back(static_cast<uint32_t>(i));
        }
    }
    std::sort(missing.begin(), missing.end(), [&](uint32_t a, uint32_t b) { return lookups[a].order < lookups[b].order; });
    for (uint32_t i : missing) {
        auto [row, first] = intern(p, lookups[i].file_address);
        put(lookups[i].order, row, first);
    }
}

void AddressCache::assign_ids() {
    for (Partition *p : order_) {
        size_t before = p->fresh.size();
        for (uint32_t i = 0; i < p->rows.size(); ++i)
            if (p->rows[i].fresh && !p->rows[i].addr_id) p->fresh.push_back(i);
        std::sort(p->fresh.begin() + static_cast<ptrdiff_t>(before), p->fresh.end(),
                  [&](uint32_t a, uint32_t b) { return p->rows[a].file_address < p->rows[b].file_address; });
        for (size_t k = before; k < p->fresh.size(); ++k) p->rows[p->fresh[k]].addr_id = next_id_++;
    }
}

bool needs_symbolizing(const CachedAddress &a, Quality file_quality, const FileFingerprint &fingerprint, bool resymbolize) {
    if ((resymbolize && !a.answered) || !a.symbolized) return true;
    if (a.quality >= Quality::DebugInfo || file_quality <= a.quality) return false;
    return a.answered_by == 0 || a.answered_by != fingerprint.value();  // the only place a cache hit hashes the file
}

void AddressCache::mark_symbolized(Partition &p, uint32_t index, Quality q, uint64_t answered_by) {
    CachedAddress &row = p.rows[index];
    row.symbolized = true;
    row.quality = q;
    row.answered_by = answered_by;
    row.answered = true;
    row.dirty = !row.fresh;
    if (index < p.sites.size()) p.sites[index] = StoredSites{};  // the old chain's (flush() deletes it from the database too)
}

void AddressCache::mark_symbolized(Partition &p, uint32_t index, Quality q, const FileFingerprint &answered_by) {
    mark_symbolized(p, index, q, answered_by.value());
}

void AddressCache::set_sites(Partition &p, uint32_t index, const StoredSites &s) {
    if (p.sites.size() < p.rows.size()) p.sites.resize(p.rows.size());
    p.sites[index] = s;
    p.sites_dirty.push_back(index);
}

int64_t AddressCache::module_key(Partition &p) {
    if (!p.module_key) {
        store::Stmt module = db_.prepare(store::sql::kInsertAddressModule);
        module.bind(1, p.build_id).bind(2, p.module_path).run();
        p.module_key = db_.last_insert_rowid();
    }
    return p.module_key;
}

void AddressCache::flush() {
    store::BatchInsert insert(db_, store::sql::kInsertAddresses, 6);
    store::BatchInsert sites(db_, store::sql::kInsertAddressSites, 6);
    store::Stmt update = db_.prepare(store::sql::kMarkAddressSymbolized);
    store::Stmt forget = db_.prepare(store::sql::kDeleteAddressSites);
    std::vector<Partition *> touched;  // rows written: their blobs are rewritten below
    for (Partition *p : order_) {
        if (!p->fresh.empty() || std::any_of(p->rows.begin(), p->rows.end(), [](const CachedAddress &r) { return r.dirty; }))
            touched.push_back(p);
        for (CachedAddress &row : p->rows) {
            if (row.dirty) {  // answered anew: the stored summary was of the old chain
                update.bind(1, row.addr_id).bind(2, static_cast<int>(row.quality)).bind(3, static_cast<int64_t>(row.answered_by)).run();
                forget.bind(1, row.addr_id).run();
                row.dirty = false;
            }
        }
        // After the deletes above: a row answered anew and summarized again gets its new summary.
        for (uint32_t i : p->sites_dirty) {
            const StoredSites &s = p->sites[i];
            sites.add(p->rows[i].addr_id).add(s.facts).add(s.own).add(s.any).add(s.runtime).add(s.runtime_any).end_row();
        }
        p->sites_dirty.clear();
        if (!p->fresh.empty()) module_key(*p);
        for (uint32_t i : p->fresh) {
            CachedAddress &row = p->rows[i];
            insert.add(row.addr_id).add(p->module_key).add(row.file_address);
            insert.add(row.symbolized ? 1 : 0).add(static_cast<int>(row.quality)).add(static_cast<int64_t>(row.answered_by)).end_row();
            row.fresh = false;
        }
        p->fresh.clear();
    }
    insert.flush();
    sites.flush();
    // After every row write above (an UPDATE deleted the module's blob): each partition's blob
    // again, when its rows changed or it had none to trust. A row without its id yet (none, after
    // assign_ids) would make the blob wrong: then none is stored, and the rows are read next time.
    for (Partition *p : order_) {
        if (!p->module_key || (p->blob_current && std::find(touched.begin(), touched.end(), p) == touched.end())) continue;
        // Every row written, and of a quality the blob can hold (a foreign row's other value is
        // served from the rows).
        bool complete = std::all_of(p->rows.begin(), p->rows.end(), [](const CachedAddress &r) {
            return r.addr_id && !r.fresh && static_cast<int>(r.quality) >= 0 && r.quality <= Quality::DebugInfo;
        });
        if (complete) {
            write_blob(*p);
        } else {
            db_.prepare(store::sql::kDeleteAddressBlob).bind(1, p->module_key).run();
            p->blob_current = false;
        }
    }
}

std::vector<AddressCache::Partition *> AddressCache::partitions() { return order_; }

}  // namespace mt::sym
