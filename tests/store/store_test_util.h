// store_test_util.h — a temporary folder for the store tests' database files.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

#include "memtracer/store/db.h"

namespace mt::test {

struct StoreDir {
    std::filesystem::path dir;
    StoreDir() {
        std::string t = (std::filesystem::temp_directory_path() / "mt-store-XXXXXX").string();
        dir = mkdtemp(t.data());
    }
    ~StoreDir() {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
    std::string file(const std::string &name) const { return (dir / name).string(); }
};

// Gives a database made from today's schema version 2's address cache: the addresses and symbols
// tables (build id and module path on every address row, the names on every symbols row) in
// place of version 3's address_modules, address_rows, strings, symbol_frames and their views.
// Sets no version: the caller says which one it builds.
inline void use_version2_cache(mt::store::Db &db) {
    db.exec(R"(
DROP VIEW addresses; DROP TABLE address_rows; DROP TABLE address_modules;
DROP VIEW symbols; DROP TABLE symbol_frames; DROP TABLE strings;
CREATE TABLE symbols (
    addr_id   INTEGER NOT NULL REFERENCES addresses(addr_id),
    depth     INTEGER NOT NULL,
    function  TEXT NOT NULL,
    demangled TEXT NOT NULL DEFAULT '',
    csharp    TEXT NOT NULL DEFAULT '',
    file      TEXT NOT NULL DEFAULT '',
    line      INTEGER NOT NULL DEFAULT 0,
    column    INTEGER NOT NULL DEFAULT 0,
    cs_file   TEXT NOT NULL DEFAULT '',
    cs_line   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (addr_id, depth)
) WITHOUT ROWID;
CREATE TABLE addresses (
    addr_id      INTEGER PRIMARY KEY,
    build_id     TEXT NOT NULL,
    module_path  TEXT NOT NULL,
    file_address INTEGER NOT NULL,
    symbolized   INTEGER NOT NULL DEFAULT 0,
    quality      INTEGER NOT NULL DEFAULT 0,
    answered_by  INTEGER NOT NULL DEFAULT 0,
    UNIQUE (build_id, module_path, file_address)
);)");
}

// Gives a database made from today's schema version 4's stacks: the stack_frames table (a row per
// run, stack and frame) and stacks without shape_id, in place of version 5's shapes and view.
// Sets no version: the caller says which one it builds.
inline void use_version4_stacks(mt::store::Db &db) {
    db.exec(R"(
DROP VIEW stack_frames; DROP TABLE shape_frames; DROP TABLE stack_shapes; DROP TABLE run_biases; DROP TABLE stacks;
CREATE TABLE stacks (
    run_id   INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
    stack_id INTEGER NOT NULL,
    depth    INTEGER NOT NULL,
    site_id  INTEGER REFERENCES sites(site_id),
    machinery INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, stack_id)
) WITHOUT ROWID;
CREATE TABLE stack_frames (
    run_id   INTEGER NOT NULL,
    stack_id INTEGER NOT NULL,
    pos      INTEGER NOT NULL,
    address  INTEGER NOT NULL,
    addr_id  INTEGER REFERENCES address_rows(addr_id),
    PRIMARY KEY (run_id, stack_id, pos)
) WITHOUT ROWID;)");
}

}  // namespace mt::test
