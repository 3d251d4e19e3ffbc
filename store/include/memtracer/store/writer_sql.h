// writer_sql.h — the statements memtracer-symbolize writes a database with, named, so the SQL of
// the contract lives in store/ beside schema.sql (docs/schema.md). The symbolizer's writers
// (address_cache, frame_writer, run_ingest, symbolize_pass) prepare them by name; a BatchInsert
// head is "INSERT INTO t(columns)" without its VALUES, which BatchInsert adds.
#ifndef MEMTRACER_STORE_WRITER_SQL_H
#define MEMTRACER_STORE_WRITER_SQL_H

namespace mt::store::sql {

// address_cache.cpp
// The addresses already known for one (build, module): the symbolizer's per-build cache.
inline constexpr char kAddressesOfModule[] =
    "SELECT addr_id, file_address FROM addresses WHERE build_id = ?1 AND module_path = ?2";
// What is known of a range of address ids (a build's rows, read in one sweep).
inline constexpr char kAddressStatesBetween[] =
    "SELECT addr_id, symbolized, quality, answered_by FROM addresses WHERE addr_id BETWEEN ?1 AND ?2";
// The first free address id.
inline constexpr char kNextAddressId[] =
    "SELECT coalesce(max(addr_id), 0) + 1 FROM addresses";
// What is known of one address id.
inline constexpr char kAddressState[] =
    "SELECT symbolized, quality, answered_by FROM addresses WHERE addr_id = ?1";
// BatchInsert head, 7 values per row.
inline constexpr char kInsertAddresses[] =
    "INSERT INTO addresses(addr_id, build_id, module_path, file_address, symbolized, quality, answered_by)";
// An address answered again (a better symbol file).
inline constexpr char kMarkAddressSymbolized[] =
    "UPDATE addresses SET symbolized = 1, quality = ?2, answered_by = ?3 WHERE addr_id = ?1";

// symbolize_pass.cpp
// An address's old inline chain, before a better answer replaces it.
inline constexpr char kDeleteSymbols[] =
    "DELETE FROM symbols WHERE addr_id = ?1";
// BatchInsert head, 10 values per row.
inline constexpr char kInsertSymbols[] =
    "INSERT INTO symbols(addr_id, depth, function, demangled, csharp, file, line, column, cs_file, cs_line)";

// frame_writer.cpp
// One frame of a run.
inline constexpr char kInsertFrame[] =
    "INSERT INTO frames(run_id, seq, frame_index, start_ns, end_ns, alloc_count, requested_bytes, "
    "gc_bytes, dropped, heap_size, free_bytes, gc_count, gc_ns, live_bytes, flags) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)";
// One collection.
inline constexpr char kInsertGcEvent[] =
    "INSERT INTO gc_events(run_id, seq, start_ns, end_ns, heap_size, free_bytes, reclaimed_bytes, gc_no) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";
// One mt_mark label.
inline constexpr char kInsertMarker[] =
    "INSERT INTO markers(run_id, seq, ns, label) VALUES (?1, ?2, ?3, ?4)";
// Objects of a class freed in a frame.
inline constexpr char kInsertDeath[] =
    "INSERT INTO deaths(run_id, seq, class_id, count, gc_bytes) VALUES (?1, ?2, ?3, ?4, ?5)";
// A run's totals per (class, stack, allocating thread), replaced by the newer totals while a run
// is followed.
inline constexpr char kInsertRunClassStack[] =
    "INSERT OR REPLACE INTO run_class_stack(run_id, class_id, stack_id, count, requested_bytes, gc_bytes, "
    "first_seq, last_seq, thread_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";
// Objects alive at the run's end, per (class, stack, allocating thread).
inline constexpr char kInsertSurvivor[] =
    "INSERT INTO survivors(run_id, class_id, stack_id, count, gc_bytes, first_seq, frames, thread_id, all_frames) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)";
// One (death frame, class, stack, allocating thread) of death_sites; ages packs (age, count,
// gc_bytes) varint triples.
inline constexpr char kInsertDeathSite[] =
    "INSERT INTO death_sites(run_id, seq, class_id, stack_id, ages, thread_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
// BatchInsert head, 8 values per row.
inline constexpr char kInsertAllocs[] =
    "INSERT INTO allocs(run_id, seq, class_id, stack_id, count, requested_bytes, gc_bytes, thread_id)";
// Whether the run's allocation tables are split per allocating thread (runs.thread_split).
inline constexpr char kSetThreadSplit[] = "UPDATE runs SET thread_split = ?2 WHERE run_id = ?1";

// run_ingest.cpp
// A module loaded by the run.
inline constexpr char kInsertModule[] =
    "INSERT INTO modules(run_id, module_id, kind, path, load_address, size, bias, text_vmaddr, "
    "build_id, symbol_file) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";
// A thread, renamed when the run says so again.
inline constexpr char kUpsertThread[] =
    "INSERT INTO threads(run_id, thread_id, os_tid, name) VALUES (?1, ?2, ?3, ?4) "
    "ON CONFLICT(run_id, thread_id) DO UPDATE SET os_tid = excluded.os_tid, name = excluded.name";
// A managed class.
inline constexpr char kInsertClass[] =
    "INSERT OR REPLACE INTO classes(run_id, class_id, klass, name, namespace, full_name, flags, "
    "element_size) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";
// A run already ingested (same start time, pid and size).
inline constexpr char kFindSameRun[] =
    "SELECT run_id FROM runs WHERE start_unix_ns = ?1 AND pid = ?2 AND source_size = ?3";
// A new run, from its header; the new run id is last_insert_rowid().
inline constexpr char kInsertRun[] =
    "INSERT INTO runs(source_file, source_size, ingested_unix_ns, start_unix_ns, pid, process, device, os, arch, "
    "session_label, mode, sample_interval, tick_hz, has_lifetimes, stop) "
    "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, 'eof')";
// One key of the header's info block.
inline constexpr char kInsertRunInfo[] =
    "INSERT OR REPLACE INTO run_info(run_id, key, value) VALUES (?1, ?2, ?3)";
// BatchInsert head, 5 values per row.
inline constexpr char kInsertStackFrames[] =
    "INSERT INTO stack_frames(run_id, stack_id, pos, address, addr_id)";
// An address's inline chain, innermost first.
inline constexpr char kSymbolChain[] =
    "SELECT function, demangled, csharp, file, line, column, cs_file, cs_line FROM symbols "
    "WHERE addr_id = ?1 ORDER BY depth";
// A site (function, file, line), once.
inline constexpr char kInsertSite[] =
    "INSERT INTO sites(function, file, line) VALUES (?1, ?2, ?3) "
    "ON CONFLICT(function, file, line) DO NOTHING";
// A site's id.
inline constexpr char kFindSite[] =
    "SELECT site_id FROM sites WHERE function = ?1 AND file = ?2 AND line = ?3";
// BatchInsert head, 5 values per row.
inline constexpr char kInsertStacks[] =
    "INSERT INTO stacks(run_id, stack_id, depth, machinery, site_id)";
// A run's totals and how it ended, once all its frames are in.
inline constexpr char kFinishRun[] =
    "UPDATE runs SET build_id = ?2, frame_count = ?3, duration_ns = ?4, alloc_count = ?5, requested_bytes = ?6, "
    "gc_bytes = ?7, dropped = ?8, gc_count = ?9, stop = ?10, stop_reason = ?11 WHERE run_id = ?1";

// follow.cpp (memtracer-symbolize --follow)
// How far a followed run is: the bytes of run.mt seen, and 'live' | 'ended' | 'cut_off'.
inline constexpr char kUpdateLiveRun[] =
    "UPDATE runs SET source_size = ?2, live_state = ?3 WHERE run_id = ?1";

}  // namespace mt::store::sql

#endif
