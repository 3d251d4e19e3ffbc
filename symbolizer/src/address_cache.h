// address_cache.h — the addresses table as the per-build cache. Every distinct code address of
// a build gets one row, keyed by (module key, file address) (the key stands for the build id and
// module path: address_modules, schema version 3) and shared by all runs of
// that build; a run interns its addresses here and then symbolizes only those rows a backend has
// not answered yet (or whose answer a better symbol file may improve: see needs_symbolizing).
//
// Rows new in this run are written once, after symbolization, already marked: ids are handed
// out in file-address order (so the table, its unique index and the symbols rows all grow at
// their ends), which the input's write transaction makes safe.
#ifndef MEMTRACER_SYM_ADDRESS_CACHE_H
#define MEMTRACER_SYM_ADDRESS_CACHE_H

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "record.h"
#include "memtracer/store/db.h"

namespace mt::sym {

class FileFingerprint;

// An address_sites row (schema version 4): the site choice's summary of the row's chain as
// an earlier ingest stored it (sites.h: StackSites::stored / from_stored), so a warm ingest reads
// no chains back. Site ids: 0 none, > 0 a sites.site_id, -1 a site not stored then.
struct StoredSites {
    int32_t facts = -1;  // -1: no row, not summarized
    int32_t own = 0, any = 0, runtime = 0, runtime_any = 0;
};

struct CachedAddress {
    int64_t addr_id = 0;  // 0 until assign_ids() for rows new in this run
    uint64_t file_address = 0;
    bool symbolized = false;
    Quality quality = Quality::None;  // of this row's answer
    uint64_t answered_by = 0;         // SymbolFile::fingerprint of the file that answered (0 unknown)
    bool used = false;    // referenced by the run being ingested
    bool fresh = false;   // not in the database yet
    bool dirty = false;   // in the database, re-symbolized: needs an UPDATE
    bool answered = false;  // a backend answered it during this ingest (a followed run's earlier batch)
};

// Whether `a` goes to the backend when `file` (quality `file_quality`, content hash
// `fingerprint`) is this run's symbol file for its module. Quality is per answer, not per file:
// an answer without debug info is redone by a file with debug info that has not answered it
// before (a complete dSYM after one missing an object file), never by the same file again, and
// a debug-info answer is kept. `resymbolize` redoes everything (--resymbolize). The file is
// hashed only for an answer weaker than the file's (the fingerprint is lazy: symbol_locator.h).
bool needs_symbolizing(const CachedAddress &a, Quality file_quality, const FileFingerprint &fingerprint, bool resymbolize);

// File address -> row index of one partition: open addressing with linear probing, so a lookup
// reads one slot (std::unordered_map read a bucket and a node: with the bench run's 400k
// addresses, the warm run's lookups were 14% of its CPU, docs/benchmarks.md issue 22).
class AddressIndex {
public:
    void reserve(size_t n);
    // The row of `address`, or `row` newly entered for it; second: whether it was entered now.
    std::pair<uint32_t, bool> try_emplace(uint64_t address, uint32_t row);
    size_t size() const { return size_; }

private:
    struct Slot {
        uint64_t address = 0;
        uint32_t row = kEmpty;
    };
    static constexpr uint32_t kEmpty = UINT32_MAX;
    size_t slot_of(uint64_t address) const { return static_cast<size_t>((address * 0x9E3779B97F4A7C15ull) >> shift_); }
    void rehash(size_t capacity);

    std::vector<Slot> slots_;
    size_t size_ = 0;
    int shift_ = 64;
};

// File address -> row for the rows a partition loaded from the database, which it keeps sorted by
// file address: a bucket array by the address's high bits (about one row per bucket) gives the
// range of rows to search. Built in one sequential pass, where entering a warm run's 240k loaded
// rows into AddressIndex was random writes over 8 MB, and a lookup reads a small array and then
// the row itself (docs/benchmarks.md, issue 22, sixth session). Any spread of addresses gives the
// right answer; a clustered one only makes some ranges longer (searched by bisection).
class SortedAddressIndex {
public:
    static constexpr uint32_t kAbsent = UINT32_MAX;
    // rows[0, n) sorted by file_address, distinct.
    void build(const std::vector<CachedAddress> &rows, size_t n);
    uint32_t find(const std::vector<CachedAddress> &rows, uint64_t address) const;

private:
    uint64_t lo_ = 0, hi_ = 0;
    int shift_ = 0;
    std::vector<uint32_t> start_;  // start_[b]: the first row whose bucket is >= b; one past the last bucket too
};

class AddressCache {
public:
    explicit AddressCache(store::Db &db);

    // One cache partition: the rows of one (build id, module path). Loaded from the database on
    // first use, so a warm run costs one indexed range scan per module.
    struct Partition {
        std::string build_id, module_path;
        int64_t module_key = 0;  // address_modules' key; 0 until the module has rows in the database
        std::vector<CachedAddress> rows;  // those loaded first, by file address; then this run's new ones
        SortedAddressIndex loaded;        // the loaded rows
        AddressIndex by_address;          // the rows new in this run
        std::vector<uint32_t> fresh;  // rows new in this run, in addr_id (= file address) order
        // Site summaries by row, beside `rows` rather than in them: about one row in ten has one,
        // and a warm run's random lookups into `rows` miss the cache less with small rows.
        std::vector<StoredSites> sites;      // empty, or one per row
        std::vector<uint32_t> sites_dirty;   // rows whose summary this ingest made: flush() writes them
        uint32_t loaded_count = 0;           // rows[0, loaded_count) came from the database, by file address
        // The database's address_blobs row of this module holds exactly its rows (read from it, or
        // written by flush()); false: flush() writes one (a missing or stale blob is replaced).
        bool blob_current = false;
        StoredSites stored_sites(uint32_t row) const { return row < sites.size() ? sites[row] : StoredSites{}; }
    };

    Partition &partition(const std::string &build_id, const std::string &module_path);
    // Row index of `file_address` in `p` (a new row if needed), marked used by this run; the
    // second value is true the first time this run uses the row.
    std::pair<uint32_t, bool> intern(Partition &p, uint64_t file_address);
    // intern() for many addresses at once, with the same results as calling it in `order` order:
    // `lookups` (reordered here) are sorted by address and merged with the loaded rows in one
    // sequential pass, where a lookup per address in stack order missed the CPU cache on most
    // (SortedAddressIndex::find was 12% of a warm run's samples on 1% of its instructions,
    // docs/benchmarks.md, issue 22, eighth session); addresses not loaded are then interned in
    // `order` order, so rows new in this run are made in the same order as before.
    struct Lookup {
        uint64_t file_address;
        uint32_t order;  // the caller's index: out[order] is this lookup's result; given in ascending order
    };
    struct Interned {
        uint32_t row = 0;
        bool first = false;   // intern()'s second value
        int64_t addr_id = 0;  // the row's (0 for a row new in this run)
    };
    void intern_all(Partition &p, std::vector<Lookup> &lookups, std::vector<Interned> &out);
    // Gives every new row its addr_id (after the last intern, before symbolizing).
    void assign_ids();
    // A backend answered for row `index` of `p` from the file `answered_by`; the answer's quality is
    // `q`. A site summary of the old answer is forgotten.
    void mark_symbolized(Partition &p, uint32_t index, Quality q, uint64_t answered_by = 0);
    void mark_symbolized(Partition &p, uint32_t index, Quality q, const FileFingerprint &answered_by);
    // The site summary of row `index`, summarized by this ingest; written by flush().
    void set_sites(Partition &p, uint32_t index, const StoredSites &s);
    // The partition's address_modules key, the module's row inserted now if it had none (a
    // module new to the cache): the stacks' shapes name it before flush() writes the rows.
    int64_t module_key(Partition &p);
    // Writes the new rows, the re-symbolized ones and the new site summaries; after the stacks'
    // sites are chosen (write_stacks sets the summaries it made).
    void flush();

    std::vector<Partition *> partitions();

private:
    // Fills p.rows with the module's rows from its blob; false (rows untouched) when there is none,
    // or it does not hold exactly the module's rows.
    bool load_blob(Partition &p);
    // Fills p.rows from the unique index (the fallback: no blob, or a stale one).
    void load_rows(Partition &p, int64_t &lo, int64_t &hi);
    // The rows' states (unless `have_states`) and stored site summaries, by addr_id in [lo, hi].
    void load_states(Partition &p, int64_t lo, int64_t hi, bool have_states);
    // Stores p's blob: every row, by file address (after the rows are written).
    void write_blob(Partition &p);

    store::Db &db_;
    store::Stmt module_key_;
    std::unordered_map<std::string, std::unique_ptr<Partition>> parts_;
    std::vector<Partition *> order_;
    int64_t next_id_ = 0;
};

}  // namespace mt::sym

#endif
