// The address cache's blob of a module's rows (address_blobs, address_blob.h): the codec against
// the rows it was given, every malformed blob refused, and the cache's trust rules: a blob is read
// only while it holds exactly the module's rows; a missing, stale (a row inserted, updated or
// deleted since) or damaged one falls back to the rows and is written anew.
#include <catch2/catch.hpp>

#include "address_blob.h"
#include "address_cache.h"
#include "memtracer/store/db.h"
#include "memtracer/store/schema.h"
#include "support.h"

using namespace mt::sym;

namespace {

CachedAddress row(uint64_t address, int64_t id, bool symbolized, Quality q, uint64_t answered_by) {
    CachedAddress a;
    a.file_address = address;
    a.addr_id = id;
    a.symbolized = symbolized;
    a.quality = q;
    a.answered_by = answered_by;
    return a;
}

// The rows the codec keeps, as one comparable tuple per row.
auto fields(const CachedAddress &a) { return std::tuple(a.file_address, a.addr_id, a.symbolized, a.quality, a.answered_by); }

std::vector<CachedAddress> sample_rows() {
    // Ids that rise and fall (rows of several ingests), the extreme addresses and hashes, every quality.
    return {row(0, 7, false, Quality::None, 0),
            row(1, 3, true, Quality::SymbolTable, 0xffffffffffffffffull),
            row(0x1000, 1, true, Quality::DebugInfo, 0x0123456789abcdefull),
            row(0x1004, 1000000, true, Quality::DebugInfo, 0x0123456789abcdefull),
            row(0x7fffffffffffffffull, 2, true, Quality::DebugInfo, 5),
            row(0xfffffffffffffff0ull, INT64_MAX, false, Quality::None, 0)};
}

std::vector<uint32_t> identity(size_t n) {
    std::vector<uint32_t> v(n);
    for (uint32_t i = 0; i < n; ++i) v[i] = i;
    return v;
}

}  // namespace

TEST_CASE("symbolizer: an address blob decodes to exactly the rows it was made of", "[cache][blob]") {
    auto rows = sample_rows();
    std::string blob = encode_address_blob(rows, identity(rows.size()));
    std::vector<CachedAddress> out = {row(99, 99, false, Quality::None, 0)};  // appended after what is there
    REQUIRE(decode_address_blob(blob, rows.size(), out));
    REQUIRE(out.size() == rows.size() + 1);
    for (size_t i = 0; i < rows.size(); ++i) CHECK(fields(out[i + 1]) == fields(rows[i]));
    // The order given is the blob's: rows listed out of place come out by that order.
    std::vector<CachedAddress> shuffled = {rows[3], rows[0], rows[5], rows[1], rows[4], rows[2]};
    std::vector<CachedAddress> back;
    REQUIRE(decode_address_blob(encode_address_blob(shuffled, std::vector<uint32_t>{1, 3, 5, 0, 4, 2}), 6, back));
    for (size_t i = 0; i < rows.size(); ++i) CHECK(fields(back[i]) == fields(rows[i]));
    // No rows at all.
    std::vector<CachedAddress> none;
    CHECK(decode_address_blob(encode_address_blob(none, {}), 0, none));
    CHECK(none.empty());
}

TEST_CASE("symbolizer: a malformed or miscounted address blob is refused, leaving the rows as they were", "[cache][blob]") {
    auto rows = sample_rows();
    const std::string blob = encode_address_blob(rows, identity(rows.size()));
    auto refused = [](const std::string &b, uint64_t n) {
        std::vector<CachedAddress> out = {row(42, 1, true, Quality::DebugInfo, 0)};
        bool ok = decode_address_blob(b, n, out);
        return !ok && out.size() == 1 && out[0].file_address == 42;
    };
    CHECK(refused(blob, rows.size() - 1));  // another row count than the module's
    CHECK(refused(blob, rows.size() + 1));
    for (size_t len = 0; len < blob.size(); ++len) CHECK(refused(blob.substr(0, len), rows.size()));  // cut anywhere
    CHECK(refused(blob + '\0', rows.size()));  // something after the last row
    std::string magic = blob;
    magic[3] = '2';
    CHECK(refused(magic, rows.size()));
    // Two rows of one address (a zero difference), and an addr_id of 0: not rows of the cache.
    auto dup = rows;
    dup[3].file_address = dup[2].file_address;
    CHECK(refused(encode_address_blob(dup, identity(dup.size())), dup.size()));
    auto zero_id = rows;
    zero_id[1].addr_id = 0;
    CHECK(refused(encode_address_blob(zero_id, identity(zero_id.size())), zero_id.size()));
    // A quality this build does not know (3, and others that must not spill into the value
    // index's bits), and a state naming an answered_by value past the table.
    for (int q : {3, 4, 5, 255, -1}) {
        auto bad_quality = rows;
        bad_quality[0].quality = static_cast<Quality>(q);
        CHECK(refused(encode_address_blob(bad_quality, identity(bad_quality.size())), bad_quality.size()));
    }
    std::vector<CachedAddress> one = {row(0x10, 1, true, Quality::DebugInfo, 9)};
    std::string bad_index = encode_address_blob(one, identity(1));
    bad_index.back() = static_cast<char>(1 | 2 << 1 | 1 << 3);  // value index 1 of a table of 1
    CHECK(refused(bad_index, 1));
}

namespace {

// One ingest's worth of cache work: `addresses` interned into build "aaaa"'s partition (every
// third answered with debug info by file 77), new rows written; returns the rows the partition
// loaded and whether they came from the blob.
struct Loaded {
    std::vector<std::tuple<uint64_t, int64_t, bool, Quality, uint64_t>> rows;
    bool from_blob = false;
};
Loaded ingest(mt::store::Db &db, const std::vector<uint64_t> &addresses) {
    mt::store::Transaction tx(db);
    AddressCache cache(db);
    auto &p = cache.partition("aaaa", "libA.so");
    Loaded out;
    out.from_blob = p.blob_current;
    for (uint32_t i = 0; i < p.loaded_count; ++i) out.rows.push_back(fields(p.rows[i]));
    for (uint64_t a : addresses) {
        auto [row, first] = cache.intern(p, a);
        if (first && !p.rows[row].symbolized && a % 3 == 0) cache.mark_symbolized(p, row, Quality::DebugInfo, 77);
    }
    cache.assign_ids();
    cache.flush();
    tx.commit();
    return out;
}

// The module's rows as address_rows holds them, by file address (what a load must give).
std::vector<std::tuple<uint64_t, int64_t, bool, Quality, uint64_t>> table_rows(mt::store::Db &db) {
    std::vector<std::tuple<uint64_t, int64_t, bool, Quality, uint64_t>> out;
    auto st = db.prepare("SELECT file_address, addr_id, symbolized, quality, answered_by FROM address_rows r JOIN "
                         "address_modules m USING(module_key) WHERE m.build_id = 'aaaa' ORDER BY file_address");
    while (st.step())
        out.emplace_back(static_cast<uint64_t>(st.i64(0)), st.i64(1), st.i64(2) != 0, static_cast<Quality>(st.i64(3)),
                         static_cast<uint64_t>(st.i64(4)));
    return out;
}

int64_t blob_rows(mt::store::Db &db) { return db.query_int("SELECT coalesce(sum(row_count), -1) FROM address_blobs").value_or(-1); }

std::vector<uint64_t> range(uint64_t from, uint64_t n) {
    std::vector<uint64_t> v;
    for (uint64_t i = 0; i < n; ++i) v.push_back(from + 4 * i);
    return v;
}

}  // namespace

TEST_CASE("symbolizer: the cache reads a module's rows from its blob only while the blob holds exactly them", "[cache][blob]") {
    mt::test::TempDir d;
    auto odb = mt::store::open_database(d.file("cache.db"));
    mt::store::Db &db = odb.db;
    // A cold ingest writes the rows and the blob of them; the next one reads the blob.
    CHECK(ingest(db, range(0x1000, 300)).rows.empty());
    CHECK(blob_rows(db) == 300);
    Loaded warm = ingest(db, range(0x1000, 300));
    CHECK(warm.from_blob);
    CHECK(warm.rows == table_rows(db));

    SECTION("rows added by an ingest: the blob is rewritten with them") {
        ingest(db, range(0x1002, 50));  // between the old ones
        CHECK(blob_rows(db) == 350);
        Loaded next = ingest(db, {});
        CHECK(next.from_blob);
        CHECK(next.rows == table_rows(db));
    }
    SECTION("missing: the rows are read, and the blob written again") {
        db.exec("DELETE FROM address_blobs");
        Loaded next = ingest(db, {});
        CHECK_FALSE(next.from_blob);
        CHECK(next.rows == table_rows(db));
        CHECK(blob_rows(db) == 300);
        CHECK(ingest(db, {}).from_blob);
    }
    SECTION("stale after an insert it did not see (an older writer's): the count differs, the rows are read") {
        db.exec("INSERT INTO address_rows(addr_id, module_key, file_address, symbolized, quality, answered_by) "
                "SELECT max(addr_id) + 1, 1, 0x1001, 1, 2, 5 FROM address_rows");
        CHECK(blob_rows(db) == 300);  // still there, but no longer trusted
        Loaded next = ingest(db, {0x1001});
        CHECK_FALSE(next.from_blob);
        CHECK(next.rows == table_rows(db));
        CHECK(next.rows.size() == 301);
        CHECK(blob_rows(db) == 301);  // written again with the row it lacked
        CHECK(ingest(db, {}).rows == table_rows(db));
    }
    SECTION("another module's rows added since: the max id moved, and the module's count still trusts it") {
        CHECK(db.query_int("SELECT max_id FROM address_blobs") == 300);  // ids 1..300 all taken when written
        {
            mt::store::Transaction tx(db);
            AddressCache cache(db);
            auto &other = cache.partition("bbbb", "libB.so");
            for (uint64_t a : range(0x5000, 20)) cache.intern(other, a);
            cache.assign_ids();
            cache.flush();
            tx.commit();
        }
        Loaded next = ingest(db, {});
        CHECK(next.from_blob);
        CHECK(next.rows == table_rows(db));
        CHECK(db.query_int("SELECT max_id FROM address_blobs WHERE row_count = 300") == 300);  // unchanged: not rewritten
    }
    SECTION("written while an id was free: no max id, the count decides") {
        // A gap in the ids (a row of another module deleted, which also dropped every blob).
        db.exec("INSERT INTO address_modules(build_id, module_path) VALUES ('cccc', 'libC.so');"
                "INSERT INTO address_rows(addr_id, module_key, file_address) VALUES (301, 2, 1), (302, 2, 2);"
                "DELETE FROM address_rows WHERE addr_id = 301");
        CHECK(blob_rows(db) == -1);
        CHECK_FALSE(ingest(db, {}).from_blob);
        CHECK(db.query_int("SELECT max_id FROM address_blobs") == 0);  // 302 rows' ids would not all be taken
        // An insert into the gap: the max id did not move, but no max id is trusted; the count sees it.
        db.exec("INSERT INTO address_rows(addr_id, module_key, file_address, symbolized, quality) VALUES (301, 1, 0x1001, 1, 2)");
        Loaded next = ingest(db, {});
        CHECK_FALSE(next.from_blob);
        CHECK(next.rows == table_rows(db));
        CHECK(next.rows.size() == 301);
        CHECK(ingest(db, {}).from_blob);
    }
    SECTION("stale after an update or a delete: the schema's triggers removed it") {
        db.exec("UPDATE address_rows SET quality = 1, answered_by = 9 WHERE file_address = 0x1000");
        CHECK(blob_rows(db) == -1);
        Loaded next = ingest(db, {});
        CHECK_FALSE(next.from_blob);
        CHECK(next.rows == table_rows(db));
        CHECK(std::get<3>(next.rows[0]) == Quality::SymbolTable);
        CHECK(blob_rows(db) == 300);
        db.exec("DELETE FROM address_rows WHERE file_address = 0x1004");
        CHECK(blob_rows(db) == -1);
        Loaded after_delete = ingest(db, {});
        CHECK_FALSE(after_delete.from_blob);
        CHECK(after_delete.rows == table_rows(db));
        CHECK(after_delete.rows.size() == 299);
    }
    SECTION("damaged, with the right count: refused by the decoder, the rows are read") {
        db.exec("UPDATE address_blobs SET data = substr(data, 1, length(data) - 1)");
        Loaded next = ingest(db, {});
        CHECK_FALSE(next.from_blob);
        CHECK(next.rows == table_rows(db));
        CHECK(ingest(db, {}).from_blob);
    }
    SECTION("a row of a quality the blob cannot hold (a foreign writer's): no blob, the rows serve it") {
        db.exec("UPDATE address_rows SET quality = 5 WHERE file_address = 0x1000");
        Loaded next = ingest(db, {});
        CHECK_FALSE(next.from_blob);
        CHECK(next.rows == table_rows(db));
        CHECK(std::get<3>(next.rows[0]) == static_cast<Quality>(5));
        CHECK(blob_rows(db) == -1);  // not written
        CHECK(ingest(db, {}).rows == table_rows(db));
    }
    SECTION("a row answered anew by this ingest: the blob holds its new state") {
        AddressCache::Partition *p = nullptr;
        {
            mt::store::Transaction tx(db);
            AddressCache cache(db);
            p = &cache.partition("aaaa", "libA.so");
            REQUIRE(p->blob_current);
            auto [row, first] = cache.intern(*p, 0x1000 + 4);  // not symbolized yet (0x1004 % 3 != 0)
            REQUIRE_FALSE(p->rows[row].symbolized);
            cache.mark_symbolized(*p, row, Quality::SymbolTable, 1234);
            cache.assign_ids();
            cache.flush();
            tx.commit();
        }
        Loaded next = ingest(db, {});
        CHECK(next.from_blob);
        CHECK(next.rows == table_rows(db));
        CHECK(std::get<4>(next.rows[1]) == 1234);
    }
}
