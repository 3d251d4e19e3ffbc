// address_blob.h — the address cache's rows of one module as one value (address_blobs, schema.sql):
// a warm ingest loads a module's rows by reading one blob instead of walking the unique index and
// the rows (240k index entries and 240k rows: 496M of a warm run's 1,942M instructions,
// docs/benchmarks.md, issue 22, tenth session).
//
// The blob is a copy, so it may be stale; it is only ever trusted while it exists at all (the
// schema's triggers delete it on any UPDATE or DELETE of the module's rows) and no row was
// inserted since it was written: max(addr_id) still its max_id (set only when ids 1..max_id were
// all taken), else its row count equal to the module's count of address_rows (an insert by any
// writer, older builds included, changes one or the other; AddressCache::load_blob). Whatever
// fails those checks or does not decode is ignored: the rows are read instead.
//
// Layout (little-endian, LEB128 varints): "MTA1"; the row count; the count of distinct
// answered_by values and each as 8 bytes; then per row, by file address ascending: the file
// address's difference from the previous row's (the first row's: the address itself), the
// addr_id's difference from the previous row's zigzag-encoded (the first's from 0), and the state
// `symbolized | quality << 1 | answered_by's index << 3`. Nothing follows the last row.
#ifndef MEMTRACER_SYM_ADDRESS_BLOB_H
#define MEMTRACER_SYM_ADDRESS_BLOB_H

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "address_cache.h"

namespace mt::sym {

// The blob of `rows[order[0]], rows[order[1]], ...`: `order` lists rows by file address ascending,
// distinct, each with its addr_id. A quality outside 0-2 makes a blob the decoder refuses.
std::string encode_address_blob(const std::vector<CachedAddress> &rows, std::span<const uint32_t> order);

// Appends the blob's rows to `out` (file_address, addr_id, symbolized, quality, answered_by; the
// rest default) and returns true, when `blob` is well formed and holds exactly `expected_rows`
// rows; otherwise returns false with `out` as it was.
bool decode_address_blob(std::string_view blob, uint64_t expected_rows, std::vector<CachedAddress> &out);

}  // namespace mt::sym

#endif
