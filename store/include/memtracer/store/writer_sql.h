// writer_sql.h — the statements memtracer-symbolize writes a database with, named, so the SQL of
// the contract lives in store/ beside schema.sql (docs/schema.md). The symbolizer's writers
// (address_cache, frame_writer, run_ingest, symbolize_pass) prepare them by name; a BatchInsert
// head is "INSERT INTO t(columns)" without its VALUES, which BatchInsert adds.
//
// Each INSERT is built at compile time from its table and column list (insert_sql below), the
// way trace/format.h's field tables drive the encoder and decoder: a column list is written once,
// and its "?N" parameters always match it in number and order.
#ifndef MEMTRACER_STORE_WRITER_SQL_H
#define MEMTRACER_STORE_WRITER_SQL_H

#include <cstddef>
#include <string_view>

namespace mt::store::sql {

// A statement's text, built at compile time; Db::prepare and BatchInsert take it as a string_view.
struct SqlText {
    char text[640]{};  // the longest statement below is under 300 characters
    size_t size = 0;
    constexpr SqlText &operator+=(std::string_view s) {
        for (char c : s) text[size++] = c;  // past the end: not a constant expression, a compile error
        return *this;
    }
    constexpr operator std::string_view() const { return {text, size}; }
};

constexpr int count_columns(std::string_view columns) {
    int n = 1;
    for (char c : columns) n += c == ',';
    return n;
}

// "VERB INTO table(columns)": a BatchInsert head.
constexpr SqlText rows_head(std::string_view table, std::string_view columns, std::string_view verb = "INSERT") {
    SqlText s;
    s += verb;
    s += " INTO ";
    s += table;
    s += "(";
    s += columns;
    s += ")";
    return s;
}

// rows_head(...) + " VALUES (?1, ?2, ...)" with a parameter per column, except that the last
// columns take the `fixed` values (SQL literals, comma-separated) when given; then `tail`.
constexpr SqlText insert_sql(std::string_view table, std::string_view columns, std::string_view verb = "INSERT",
                             std::string_view tail = "", std::string_view fixed = "") {
    SqlText s = rows_head(table, columns, verb);
    int params = count_columns(columns) - (fixed.empty() ? 0 : count_columns(fixed));
    s += " VALUES (";
    constexpr std::string_view digits = "0123456789";
    for (int i = 1; i <= params; ++i) {  // "?1, ?2, ..., ?15"
        s += i > 1 ? ", ?" : "?";
        if (i >= 10) s += digits.substr(static_cast<size_t>(i / 10), 1);
        s += digits.substr(static_cast<size_t>(i % 10), 1);
    }
    if (!fixed.empty()) {
        s += ", ";
        s += fixed;
    }
    s += ")";
    s += tail;
    return s;
}

// address_cache.cpp
// A module's key in the cache (schema version 3: address rows refer to it).
inline constexpr char kAddressModuleKey[] =
    "SELECT module_key FROM address_modules WHERE build_id = ?1 AND module_path = ?2";
// A module new to the cache; its key is last_insert_rowid().
inline constexpr SqlText kInsertAddressModule = insert_sql("address_modules", "build_id, module_path");
// The addresses already known for one module: the symbolizer's per-build cache.
// Read as rows of store::for_each_int_row (int_rows.h: no step per row), as are the two sweeps below.
inline constexpr char kAddressesOfModule[] = "SELECT mt_rows(addr_id, file_address) FROM address_rows WHERE module_key = ?1";
// A module's rows as one blob (address_blobs, address_blob.h), and what says it still holds
// exactly the module's rows: the largest address id (equal to the blob's max_id: no row was
// inserted since), else the module's row count (equal to its row_count). The blob is written after
// the rows, with max_id set when ids 1..max are all taken (count equals max).
inline constexpr char kAddressBlobOf[] = "SELECT row_count, max_id, data FROM address_blobs WHERE module_key = ?1";
inline constexpr char kMaxAddressId[] = "SELECT coalesce(max(addr_id), 0) FROM address_rows";
inline constexpr char kAddressRowCount[] = "SELECT count(*) FROM address_rows";
inline constexpr char kAddressCountOfModule[] = "SELECT count(*) FROM address_rows WHERE module_key = ?1";
inline constexpr char kPutAddressBlob[] =
    "INSERT OR REPLACE INTO address_blobs(module_key, row_count, max_id, data) VALUES (?1, ?2, ?3, ?4)";
inline constexpr char kDeleteAddressBlob[] = "DELETE FROM address_blobs WHERE module_key = ?1";
// What is known of a range of address ids (a build's rows, read in one sweep).
inline constexpr char kAddressStatesBetween[] =
    "SELECT mt_rows(addr_id, symbolized, quality, answered_by) FROM address_rows WHERE addr_id BETWEEN ?1 AND ?2";
// The first free address id.
inline constexpr char kNextAddressId[] = "SELECT coalesce(max(addr_id), 0) + 1 FROM address_rows";
// What is known of one address id.
inline constexpr char kAddressState[] = "SELECT symbolized, quality, answered_by FROM address_rows WHERE addr_id = ?1";
// The stored site summaries of a range of address ids (schema version 4; a build's rows, read in
// one sweep), and of one id.
inline constexpr std::string_view kAddressSitesColumns = "addr_id, facts, own_site, any_site, runtime_site, runtime_any_site";
inline constexpr char kAddressSitesBetween[] =
    "SELECT mt_rows(addr_id, facts, own_site, any_site, runtime_site, runtime_any_site) FROM address_sites "
    "WHERE addr_id BETWEEN ?1 AND ?2";
inline constexpr char kAddressSitesOf[] =
    "SELECT addr_id, facts, own_site, any_site, runtime_site, runtime_any_site FROM address_sites WHERE addr_id = ?1";
// BatchInsert head.
inline constexpr SqlText kInsertAddresses =
    rows_head("address_rows", "addr_id, module_key, file_address, symbolized, quality, answered_by");
// An address answered again (a better symbol file).
inline constexpr char kMarkAddressSymbolized[] =
    "UPDATE address_rows SET symbolized = 1, quality = ?2, answered_by = ?3 WHERE addr_id = ?1";
// BatchInsert head: site summaries made by this ingest (run_ingest.cpp's write_stacks).
inline constexpr SqlText kInsertAddressSites = rows_head("address_sites", kAddressSitesColumns, "INSERT OR REPLACE");
// The summary of an address answered again: it was of the old chain.
inline constexpr char kDeleteAddressSites[] = "DELETE FROM address_sites WHERE addr_id = ?1";
// The fingerprint of the site rules the stored summaries follow (meta key 'site_rules'); when it
// differs from the writer's, every stored summary is forgotten.
inline constexpr char kSiteRules[] = "SELECT value FROM meta WHERE key = 'site_rules'";
inline constexpr char kSetSiteRules[] = "INSERT OR REPLACE INTO meta(key, value) VALUES ('site_rules', ?1)";
inline constexpr char kForgetAddressSites[] = "DELETE FROM address_sites";

// symbolize_pass.cpp
// An address's old inline chain, before a better answer replaces it.
inline constexpr char kDeleteSymbols[] = "DELETE FROM symbol_frames WHERE addr_id = ?1";
// BatchInsert head: an inline frame, its names as string ids (kInsertString).
inline constexpr SqlText kInsertSymbols = rows_head(
    "symbol_frames", "addr_id, depth, function_id, demangled_id, csharp_id, file_id, line, column, cs_file_id, cs_line");
// string_ids.cpp: a name, once; its id is last_insert_rowid() when changes() says it was added,
// else kFindString's.
inline constexpr SqlText kInsertString = insert_sql("strings", "text", "INSERT", " ON CONFLICT(text) DO NOTHING");
inline constexpr char kFindString[] = "SELECT string_id FROM strings WHERE text = ?1";

// frame_writer.cpp
// One frame of a run; the Rows form is the symbolizer's BatchInsert head (many frames a statement).
inline constexpr std::string_view kFrameColumns =
    "run_id, seq, frame_index, start_ns, end_ns, alloc_count, requested_bytes, gc_bytes, dropped, heap_size, "
    "free_bytes, gc_count, gc_ns, live_bytes, flags";
inline constexpr SqlText kInsertFrame = insert_sql("frames", kFrameColumns);
inline constexpr SqlText kInsertFrameRows = rows_head("frames", kFrameColumns);
// One collection; the same two forms.
inline constexpr std::string_view kGcEventColumns = "run_id, seq, start_ns, end_ns, heap_size, free_bytes, reclaimed_bytes, gc_no";
inline constexpr SqlText kInsertGcEvent = insert_sql("gc_events", kGcEventColumns);
inline constexpr SqlText kInsertGcEventRows = rows_head("gc_events", kGcEventColumns);
// One mt_mark label.
inline constexpr SqlText kInsertMarker = insert_sql("markers", "run_id, seq, ns, label");
// Objects of a class freed in a frame.
inline constexpr SqlText kInsertDeath = insert_sql("deaths", "run_id, seq, class_id, count, gc_bytes");
// A run's totals per (class, stack, allocating thread), replaced by the newer totals while a run
// is followed.
inline constexpr SqlText kInsertRunClassStack = insert_sql(
    "run_class_stack", "run_id, class_id, stack_id, count, requested_bytes, gc_bytes, first_seq, last_seq, thread_id",
    "INSERT OR REPLACE");
// BatchInsert head of the same rows (the symbolizer's frame_writer.cpp: a followed run writes a
// pair's totals again after each batch, so it replaces).
inline constexpr SqlText kInsertRunClassStackRows = rows_head(
    "run_class_stack", "run_id, class_id, stack_id, count, requested_bytes, gc_bytes, first_seq, last_seq, thread_id",
    "INSERT OR REPLACE");
// Objects alive at the run's end, per (class, stack, allocating thread).
inline constexpr SqlText kInsertSurvivor = insert_sql(
    "survivors", "run_id, class_id, stack_id, count, gc_bytes, first_seq, frames, thread_id, all_frames");
// One (death frame, class, stack, allocating thread) of death_sites; ages packs (age, count,
// gc_bytes) varint triples.
inline constexpr SqlText kInsertDeathSite =
    insert_sql("death_sites", "run_id, seq, class_id, stack_id, ages, thread_id");
// BatchInsert head.
inline constexpr SqlText kInsertAllocs =
    rows_head("allocs", "run_id, seq, class_id, stack_id, count, requested_bytes, gc_bytes, thread_id");
// Whether the run's allocation tables are split per allocating thread (runs.thread_split).
inline constexpr char kSetThreadSplit[] = "UPDATE runs SET thread_split = ?2 WHERE run_id = ?1";

// run_ingest.cpp
// A module loaded by the run.
inline constexpr SqlText kInsertModule = insert_sql(
    "modules", "run_id, module_id, kind, path, load_address, size, bias, text_vmaddr, build_id, symbol_file");
// A thread, renamed when the run says so again.
inline constexpr SqlText kUpsertThread =
    insert_sql("threads", "run_id, thread_id, os_tid, name", "INSERT",
               " ON CONFLICT(run_id, thread_id) DO UPDATE SET os_tid = excluded.os_tid, name = excluded.name");
// A managed class.
inline constexpr SqlText kInsertClass = insert_sql(
    "classes", "run_id, class_id, klass, name, namespace, full_name, flags, element_size", "INSERT OR REPLACE");
// A run already ingested (same start time, pid and size).
inline constexpr char kFindSameRun[] =
    "SELECT run_id FROM runs WHERE start_unix_ns = ?1 AND pid = ?2 AND source_size = ?3";
// A new run, from its header; the new run id is last_insert_rowid().
inline constexpr SqlText kInsertRun = insert_sql(
    "runs", "source_file, source_size, ingested_unix_ns, start_unix_ns, pid, process, device, os, arch, session_label, "
            "mode, sample_interval, tick_hz, has_lifetimes, stop",
    "INSERT", "", "'eof'");
// One key of the header's info block.
inline constexpr SqlText kInsertRunInfo = insert_sql("run_info", "run_id, key, value", "INSERT OR REPLACE");
// shapes.cpp (schema version 5): a shape by its key; a new shape (its id is last_insert_rowid());
// its frames (BatchInsert head); a run's bias of a module; the biases a run has.
inline constexpr char kFindShape[] = "SELECT shape_id FROM stack_shapes WHERE key = ?1";
inline constexpr char kAllShapes[] = "SELECT shape_id, key FROM stack_shapes";
inline constexpr SqlText kInsertShape = insert_sql("stack_shapes", "key, depth");
inline constexpr SqlText kInsertShapeFrames = rows_head("shape_frames", "shape_id, pos, addr_id, module_key, address");
inline constexpr SqlText kInsertRunBias = insert_sql("run_biases", "run_id, module_key, bias");
inline constexpr char kRunBiases[] = "SELECT module_key, bias FROM run_biases WHERE run_id = ?1";
// An address's inline chain, innermost first, its names as string ids (the symbols view's rows
// without a strings lookup per name: symbol_chains.cpp reads each distinct id once, kStringText).
inline constexpr char kSymbolChain[] =
    "SELECT function_id, demangled_id, csharp_id, file_id, line, column, cs_file_id, cs_line FROM symbol_frames "
    "WHERE addr_id = ?1 ORDER BY depth";
// One string of the strings table.
inline constexpr char kStringText[] = "SELECT text FROM strings WHERE string_id = ?1";
// A site (function, file, line), once.
inline constexpr SqlText kInsertSite =
    insert_sql("sites", "function, file, line", "INSERT", " ON CONFLICT(function, file, line) DO NOTHING");
// A site's id.
inline constexpr char kFindSite[] = "SELECT site_id FROM sites WHERE function = ?1 AND file = ?2 AND line = ?3";
// BatchInsert head.
inline constexpr SqlText kInsertStacks = rows_head("stacks", "run_id, stack_id, depth, machinery, site_id, shape_id");
// A run's totals and how it ended, once all its frames are in.
inline constexpr char kFinishRun[] =
    "UPDATE runs SET build_id = ?2, frame_count = ?3, duration_ns = ?4, alloc_count = ?5, requested_bytes = ?6, "
    "gc_bytes = ?7, dropped = ?8, gc_count = ?9, stop = ?10, stop_reason = ?11 WHERE run_id = ?1";

// follow.cpp (memtracer-symbolize --follow)
// How far a followed run is: the bytes of run.mt seen, and 'live' | 'ended' | 'cut_off'.
inline constexpr char kUpdateLiveRun[] = "UPDATE runs SET source_size = ?2, live_state = ?3 WHERE run_id = ?1";

}  // namespace mt::store::sql

#endif
