-- MemTracer database, schema version 5 (2 split the allocation tables per allocating thread; 3 keyed the
-- address cache by a module key and stored the symbols' strings once, with version 2's addresses
-- and symbols tables kept as views of the same columns; 4 keeps the site choice's summary of each
-- cached address beside its chain, address_sites; 5 stores each distinct stack's frames once, as
-- a shape shared by every run of the build, stack_frames becoming a view of the same columns).
-- The symbolizer writes it, the viewer reads it.
-- docs/schema.md draws it and explains each index by the query that needs it.
-- Several runs live in one database (compare "this build vs that"); symbols are shared by every
-- run of the same build, which is also the symbolizer's per-build cache.
-- All times are nanoseconds; *_ns columns of a run are relative to that run's start.

PRAGMA user_version = 5;

CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS runs (
    run_id            INTEGER PRIMARY KEY,
    source_file       TEXT NOT NULL,     -- run.mt path as given
    source_size       INTEGER NOT NULL,
    ingested_unix_ns  INTEGER NOT NULL,
    start_unix_ns     INTEGER NOT NULL,
    pid               INTEGER NOT NULL,
    process           TEXT NOT NULL DEFAULT '',
    device            TEXT NOT NULL DEFAULT '',
    os                TEXT NOT NULL DEFAULT '',
    arch              TEXT NOT NULL DEFAULT '',
    session_label     TEXT NOT NULL DEFAULT '',
    build_id          TEXT NOT NULL DEFAULT '',  -- hex id of the main traced module (UnityFramework, libil2cpp.so, the game)
    mode              TEXT NOT NULL,             -- 'events' | 'aggregate'
    sample_interval   INTEGER NOT NULL DEFAULT 0,
    tick_hz           REAL NOT NULL,
    frame_count       INTEGER NOT NULL DEFAULT 0,
    duration_ns       INTEGER NOT NULL DEFAULT 0,
    alloc_count       INTEGER NOT NULL DEFAULT 0,
    requested_bytes   INTEGER NOT NULL DEFAULT 0,
    gc_bytes          INTEGER NOT NULL DEFAULT 0,
    dropped           INTEGER NOT NULL DEFAULT 0,
    gc_count          INTEGER NOT NULL DEFAULT 0,
    has_lifetimes     INTEGER NOT NULL DEFAULT 0,
    thread_split      INTEGER NOT NULL DEFAULT 0, -- 1: allocs, run_class_stack, death_sites, survivors hold a row per
                                                 -- allocating thread; 0: thread_id -1 ("all threads"): aggregate-mode
                                                 -- captures (no per-event thread), --no-threads, runs migrated from version 1
    stop              TEXT NOT NULL,             -- reader's Stop: 'end' | 'eof' | 'truncated' | 'corrupt' (--salvage only)
    stop_reason       TEXT NOT NULL DEFAULT '',
    live_state        TEXT NOT NULL DEFAULT ''   -- --follow: 'live' (still growing) | 'ended' | 'cut_off'; '' = whole-file ingest
);

CREATE TABLE IF NOT EXISTS run_info (          -- the INFO chunk, verbatim
    run_id INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
    key    TEXT NOT NULL,
    value  TEXT NOT NULL,
    PRIMARY KEY (run_id, key)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS modules (
    run_id       INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
    module_id    INTEGER NOT NULL,
    kind         TEXT NOT NULL,                  -- 'elf' | 'macho'
    path         TEXT NOT NULL,
    load_address INTEGER NOT NULL,
    size         INTEGER NOT NULL,
    bias         INTEGER NOT NULL,
    text_vmaddr  INTEGER NOT NULL,
    build_id     TEXT NOT NULL,                  -- hex
    symbol_file  TEXT,                           -- what symbolized it, NULL if nothing did
    PRIMARY KEY (run_id, module_id)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS threads (
    run_id    INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
    thread_id INTEGER NOT NULL,
    os_tid    INTEGER NOT NULL,
    name      TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (run_id, thread_id)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS classes (
    run_id       INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
    class_id     INTEGER NOT NULL,
    klass        INTEGER NOT NULL,
    name         TEXT NOT NULL,
    namespace    TEXT NOT NULL DEFAULT '',
    full_name    TEXT NOT NULL,                  -- 'System.String'; compare matches runs by it
    flags        INTEGER NOT NULL DEFAULT 0,
    element_size INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, class_id)
) WITHOUT ROWID;

-- The modules the per-build cache knows, each (build id, module path) once: an address row refers
-- to its module by this small key (version 3), so the cache's unique index holds three integers
-- per address, not the two strings again (docs/schema.md).
CREATE TABLE IF NOT EXISTS address_modules (
    module_key   INTEGER PRIMARY KEY,
    build_id     TEXT NOT NULL,                  -- '' with the module path: a module that had no id
    module_path  TEXT NOT NULL,
    UNIQUE (build_id, module_path)
);

-- One row per distinct code address of a build: the symbolizer's cache. Readers read it through
-- the `addresses` view below (the version-2 columns).
CREATE TABLE IF NOT EXISTS address_rows (
    addr_id      INTEGER PRIMARY KEY,
    module_key   INTEGER NOT NULL REFERENCES address_modules(module_key),
    file_address INTEGER NOT NULL,               -- address in the symbol file (runtime - bias)
    symbolized   INTEGER NOT NULL DEFAULT 0,     -- 1 once a backend answered (even '??')
    quality      INTEGER NOT NULL DEFAULT 0,     -- what this answer came from: 0 nothing, 1 symbol table only,
                                                 -- 2 debug info (line table / DIE); below 2, another symbol file
                                                 -- of the build with debug info symbolizes it again
    answered_by  INTEGER NOT NULL DEFAULT 0,     -- content hash of the symbol file that answered (0 unknown)
    UNIQUE (module_key, file_address)
);

-- Version 4: the site choice's summary of a cached address's inline chain (the symbolizer's
-- sites.h, AddressFacts), so a later ingest picks its stacks' sites and leading machinery without
-- reading the chains back. A row per address an ingest summarized (a stack asked about it);
-- deleted when a better symbol file answers the address anew, and all of them when
-- meta.site_rules (the rules' fingerprint) changes. No reader reads it (docs/schema.md).
CREATE TABLE IF NOT EXISTS address_sites (
    addr_id          INTEGER PRIMARY KEY REFERENCES address_rows(addr_id),
    facts            INTEGER NOT NULL,  -- 1 no symbols rows, 2 a named frame, 4 every frame allocation
                                        -- machinery; the leading machinery frames << 3
    -- Each a frame of the chain as a site: 0 no such frame, > 0 its sites.site_id, -1 a site that
    -- was not in the sites table when stored (the chain is read if a rule needs it).
    own_site         INTEGER NOT NULL,  -- the first named frame of game code, not library code
    any_site         INTEGER NOT NULL,  -- the first named frame that is not runtime internals
    runtime_site     INTEGER NOT NULL,  -- the first named frame that is not allocation machinery
    runtime_any_site INTEGER NOT NULL   -- the first named frame
);

-- The cache's rows of one module in one value (issue 22, tenth session): a warm ingest reads a
-- module's rows from it in one step instead of walking the unique index and every row. A copy, so
-- the writer trusts it only when it provably holds exactly the module's rows (docs/schema.md,
-- *The address blobs*): its row_count equals the module's count of address_rows, or, in one
-- lookup, max_id is still max(addr_id): max_id is set only when every id 1..max_id was taken
-- when the blob was written, so an insert since had to take a higher id. The triggers below keep
-- that true for any writer (they live in the file): an update of a row deletes its module's blob,
-- and a delete, or an update that renumbers a row, deletes every blob (it frees an id). A missing
-- or distrusted blob is never an error: the rows are read, and the writer stores a new one. No
-- reader reads it. (An INSERT OR REPLACE over an existing row fires no delete trigger: no writer
-- of ours replaces address_rows; a hand edit that does must delete the blobs too.) The layout is the symbolizer's (symbolizer/src/address_blob.h).
CREATE TABLE IF NOT EXISTS address_blobs (
    module_key INTEGER PRIMARY KEY REFERENCES address_modules(module_key),
    row_count  INTEGER NOT NULL,                 -- the rows it holds: all of the module's, when trusted
    max_id     INTEGER NOT NULL DEFAULT 0,       -- max(addr_id) when written, if ids 1..max_id were all taken; else 0
    data       BLOB NOT NULL
);
CREATE TRIGGER IF NOT EXISTS address_rows_update_blob AFTER UPDATE ON address_rows BEGIN
    DELETE FROM address_blobs WHERE module_key IN (OLD.module_key, NEW.module_key) OR OLD.addr_id != NEW.addr_id;
END;
CREATE TRIGGER IF NOT EXISTS address_rows_delete_blob AFTER DELETE ON address_rows BEGIN
    DELETE FROM address_blobs;
END;

-- Version 2's addresses table, as a view: every reader's query reads it unchanged. The module's
-- strings are scalar subqueries, not a join, so the view stays one table to SQLite and a
-- `LEFT JOIN addresses` is flattened into the reader's query (a joined view on the right of a
-- LEFT JOIN is not); a query that reads neither column does no lookup.
CREATE VIEW IF NOT EXISTS addresses AS
SELECT r.addr_id,
       (SELECT m.build_id FROM address_modules m WHERE m.module_key = r.module_key) AS build_id,
       (SELECT m.module_path FROM address_modules m WHERE m.module_key = r.module_key) AS module_path,
       r.file_address, r.symbolized, r.quality, r.answered_by
FROM address_rows r;

-- Every name and file name of the inline chains, once (version 3): a library's call sites share
-- few functions, so symbol_frames refers to its strings by id (docs/schema.md).
CREATE TABLE IF NOT EXISTS strings (
    string_id INTEGER PRIMARY KEY,
    text      TEXT NOT NULL UNIQUE
);

-- The inline chain of one address: depth 0 is the innermost (inlined) frame, the last depth is
-- the function that really contains the address. Readers read it through the `symbols` view.
CREATE TABLE IF NOT EXISTS symbol_frames (
    addr_id      INTEGER NOT NULL REFERENCES address_rows(addr_id),
    depth        INTEGER NOT NULL,
    function_id  INTEGER NOT NULL REFERENCES strings(string_id),  -- raw: mangled or IL2CPP C++ name; '' if unknown
    demangled_id INTEGER NOT NULL REFERENCES strings(string_id),  -- '' when not mangled
    csharp_id    INTEGER NOT NULL REFERENCES strings(string_id),  -- 'NodeFactory.CreateNode', 'List`1.Add'
    file_id      INTEGER NOT NULL REFERENCES strings(string_id),
    line         INTEGER NOT NULL DEFAULT 0,
    column       INTEGER NOT NULL DEFAULT 0,
    cs_file_id   INTEGER NOT NULL REFERENCES strings(string_id),  -- from LineNumberMappings.json
    cs_line      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (addr_id, depth)
) WITHOUT ROWID;

-- Version 2's symbols table, as a view (the same columns): each name a lookup of its id, done only
-- for the columns a query reads; one table to SQLite, so a reader's (LEFT) JOIN is flattened.
CREATE VIEW IF NOT EXISTS symbols AS
SELECT f.addr_id, f.depth,
       (SELECT t.text FROM strings t WHERE t.string_id = f.function_id) AS function,
       (SELECT t.text FROM strings t WHERE t.string_id = f.demangled_id) AS demangled,
       (SELECT t.text FROM strings t WHERE t.string_id = f.csharp_id) AS csharp,
       (SELECT t.text FROM strings t WHERE t.string_id = f.file_id) AS file,
       f.line, f.column,
       (SELECT t.text FROM strings t WHERE t.string_id = f.cs_file_id) AS cs_file,
       f.cs_line
FROM symbol_frames f;

-- An allocation site: the first frame of a stack that is game code rather than il2cpp, GC or
-- MemTracer internals. Keyed by name and place so runs of different builds can be compared.
CREATE TABLE IF NOT EXISTS sites (
    site_id  INTEGER PRIMARY KEY,
    function TEXT NOT NULL,                      -- display name (C# name if known)
    file     TEXT NOT NULL DEFAULT '',
    line     INTEGER NOT NULL DEFAULT 0,
    UNIQUE (function, file, line)
);

CREATE TABLE IF NOT EXISTS stacks (
    run_id   INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
    stack_id INTEGER NOT NULL,
    depth    INTEGER NOT NULL,
    site_id  INTEGER REFERENCES sites(site_id),
    -- the stack's leading allocation machinery (il2cpp's Object/Array/String/Profiler allocation
    -- functions, Boehm, MemTracer's hook), in frames: stack_frames x symbols rows, pos then depth
    -- (an address without symbols is one frame). The views start the stack after them, so a
    -- patch-mode and a no-patch run give one stack shape. 0 in databases written before it.
    machinery INTEGER NOT NULL DEFAULT 0,
    shape_id INTEGER REFERENCES stack_shapes(shape_id),  -- version 5: its frames; NULL: a stack without frames
    PRIMARY KEY (run_id, stack_id)
) WITHOUT ROWID;

-- Version 5: a stack's frames, stored once per distinct content (a "shape") and shared by every
-- run and stack that has it: a warm ingest of a known build writes one stacks row per stack and
-- no frame rows (docs/schema.md, *Stack shapes*). A frame inside a module is stored by its cache
-- row (addr_id) and its file address, and the view adds the run's load bias of that module
-- (run_biases), so runs of one build at different load addresses share a shape; a frame outside
-- every module (or one whose runtime address the sum would not give back exactly) keeps its raw
-- address, and its shape is shared only by stacks with that same address.
CREATE TABLE IF NOT EXISTS stack_shapes (
    shape_id INTEGER PRIMARY KEY,
    key      BLOB NOT NULL UNIQUE,               -- the frames as varints: addr_id << 1 | raw, then the raw address if raw
    depth    INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS shape_frames (
    shape_id   INTEGER NOT NULL,
    pos        INTEGER NOT NULL,                 -- 0 = innermost (the allocation call)
    addr_id    INTEGER REFERENCES address_rows(addr_id),  -- NULL: outside every module
    module_key INTEGER,                          -- the addr_id's module: address is its file address, + the run's bias;
                                                 -- NULL: address is the raw runtime address
    address    INTEGER NOT NULL,
    PRIMARY KEY (shape_id, pos)
) WITHOUT ROWID;

-- Version 5: each run's load bias of a cached module (runtime address - file address), for the
-- frames of its stacks' shapes.
CREATE TABLE IF NOT EXISTS run_biases (
    run_id     INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
    module_key INTEGER NOT NULL REFERENCES address_modules(module_key),
    bias       INTEGER NOT NULL,
    PRIMARY KEY (run_id, module_key)
) WITHOUT ROWID;

-- Version 4's stack_frames table, as a view of the same columns: a row per (run, stack, frame),
-- address the raw runtime return address. The bias is a scalar subquery, done only for the rows
-- a query reads the address of. A join of two tables: SQLite flattens it into a reader's query
-- where the view is the left operand or an inner join (every reader's use); on the right of a
-- LEFT JOIN it would be materialized.
CREATE VIEW IF NOT EXISTS stack_frames AS
SELECT s.run_id, s.stack_id, f.pos,
       CASE WHEN f.module_key IS NULL THEN f.address
            ELSE f.address + (SELECT b.bias FROM run_biases b WHERE b.run_id = s.run_id AND b.module_key = f.module_key)
       END AS address,
       f.addr_id
FROM stacks s JOIN shape_frames f ON f.shape_id = s.shape_id;

CREATE TABLE IF NOT EXISTS frames (
    run_id          INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
    seq             INTEGER NOT NULL,            -- dense 0.. in file order
    frame_index     INTEGER NOT NULL,            -- the game's own frame number
    start_ns        INTEGER NOT NULL,
    end_ns          INTEGER NOT NULL,
    alloc_count     INTEGER NOT NULL,
    requested_bytes INTEGER NOT NULL,
    gc_bytes        INTEGER NOT NULL,
    dropped         INTEGER NOT NULL DEFAULT 0,
    heap_size       INTEGER NOT NULL DEFAULT 0,
    free_bytes      INTEGER NOT NULL DEFAULT 0,
    gc_count        INTEGER NOT NULL DEFAULT 0,
    gc_ns           INTEGER NOT NULL DEFAULT 0,
    live_bytes      INTEGER,                     -- NULL unless the run recorded lifetimes
    flags           INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS gc_events (
    run_id          INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
    seq             INTEGER NOT NULL,            -- frame it ended in
    start_ns        INTEGER NOT NULL,
    end_ns          INTEGER NOT NULL,
    heap_size       INTEGER NOT NULL,
    free_bytes      INTEGER NOT NULL,
    reclaimed_bytes INTEGER NOT NULL,
    gc_no           INTEGER NOT NULL
);
-- gc_events_by_frame: created after the bulk load (end of file).

-- mt_mark labels (run.mt MARKS chunks): few per run, read whole or looked up by label for a
-- frame range's end ("from=marker:level loaded"). A label may repeat, also within a frame.
CREATE TABLE IF NOT EXISTS markers (
    run_id  INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,                    -- frame open when mt_mark was called
    ns      INTEGER NOT NULL,                    -- when, relative to the run's start
    label   TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS markers_by_run ON markers(run_id, seq);

-- Per frame aggregates: what the original tool recorded per frame, and what every view reads.
-- Raw-mode runs are aggregated at ingest; the primary key serves "one frame" and frame ranges.
CREATE TABLE IF NOT EXISTS allocs (
    run_id          INTEGER NOT NULL,
    seq             INTEGER NOT NULL,
    class_id        INTEGER NOT NULL,
    stack_id        INTEGER NOT NULL,
    count           INTEGER NOT NULL,
    requested_bytes INTEGER NOT NULL,
    gc_bytes        INTEGER NOT NULL,
    thread_id       INTEGER NOT NULL DEFAULT -1,   -- allocating thread (threads.thread_id); -1: not split (runs.thread_split 0)
    PRIMARY KEY (run_id, seq, class_id, stack_id, thread_id)
) WITHOUT ROWID;

-- Whole-run totals per (class, stack): makes whole-run TopN a scan of thousands of rows, not
-- of every frame.
CREATE TABLE IF NOT EXISTS run_class_stack (
    run_id          INTEGER NOT NULL,
    class_id        INTEGER NOT NULL,
    stack_id        INTEGER NOT NULL,
    count           INTEGER NOT NULL,
    requested_bytes INTEGER NOT NULL,
    gc_bytes        INTEGER NOT NULL,
    first_seq       INTEGER NOT NULL,
    last_seq        INTEGER NOT NULL,
    thread_id       INTEGER NOT NULL DEFAULT -1,
    PRIMARY KEY (run_id, class_id, stack_id, thread_id)
) WITHOUT ROWID;

-- Lifetimes (runs recorded with MT_FLAG_LIFETIMES): deaths per frame and the objects that
-- never died (leak candidates), both grouped by (class, stack).
CREATE TABLE IF NOT EXISTS deaths (
    run_id    INTEGER NOT NULL,
    seq       INTEGER NOT NULL,                  -- frame of death
    class_id  INTEGER NOT NULL,
    count     INTEGER NOT NULL,
    gc_bytes  INTEGER NOT NULL,
    PRIMARY KEY (run_id, seq, class_id)
) WITHOUT ROWID;

-- Each death linked to its allocation (issue 11): per frame of death and (class, stack), how
-- many died at each age in frames (death frame - allocation frame), so leaks at any frame and
-- temporaries are known per allocation site. `ages` packs (age, count, gc_bytes) triples as
-- unsigned LEB128 varints, ages ascending: a row per age cost about twice the bytes
-- (docs/schema.md, *death_sites*).
CREATE TABLE IF NOT EXISTS death_sites (
    run_id    INTEGER NOT NULL,
    seq       INTEGER NOT NULL,                  -- frame of death
    class_id  INTEGER NOT NULL,
    stack_id  INTEGER NOT NULL,
    ages      BLOB NOT NULL,                     -- varint triples (age, count, gc_bytes)
    thread_id INTEGER NOT NULL DEFAULT -1,       -- the thread that allocated the objects (not the collector's)
    PRIMARY KEY (run_id, seq, class_id, stack_id, thread_id)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS survivors (
    run_id    INTEGER NOT NULL,
    class_id  INTEGER NOT NULL,
    stack_id  INTEGER NOT NULL,
    count     INTEGER NOT NULL,
    gc_bytes  INTEGER NOT NULL,
    first_seq INTEGER NOT NULL,                  -- oldest surviving allocation
    frames    INTEGER NOT NULL DEFAULT 0,        -- allocation frames before the last collection with objects alive
    thread_id INTEGER NOT NULL DEFAULT -1,       -- allocating thread
    all_frames INTEGER NOT NULL DEFAULT 0,       -- `frames` of the (class, stack) over all its threads (a frame
                                                 -- counts once), the same on each of its rows
    PRIMARY KEY (run_id, class_id, stack_id, thread_id)
) WITHOUT ROWID;

-- @after-bulk-load
-- Secondary indexes. The symbolizer creates them after its bulk load (inserting into an indexed
-- table is slower than indexing once); running this whole file on an empty database creates
-- them too. docs/schema.md names the viewer query each one serves.
CREATE INDEX IF NOT EXISTS gc_events_by_frame ON gc_events(run_id, seq);
