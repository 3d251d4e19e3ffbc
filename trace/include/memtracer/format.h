/*
 * format.h — the run.mt trace format, shared by the runtime's writer and the host's reader.
 * docs/format.md draws the same bytes. Any change to a layout here bumps MT_FORMAT_VERSION.
 *
 * A file is a fixed header followed by chunks, all little-endian:
 *
 *   [mt_file_header 64 B] [chunk] [chunk] ... [chunk END]
 *   chunk = [mt_chunk_header 16 B] [payload: `size` bytes]
 *
 * Why chunks: the runtime appends whole chunks with write(2). A process killed at any instant
 * (iOS jetsam, SIGKILL) leaves a prefix of the file; the reader walks chunks until one is short
 * or fails its CRC and reports that offset. A frame counts only once its FRAME chunk is read, so
 * every frame committed before the kill comes back identical and a half-written one is dropped.
 *
 * Payloads are sequences of LEB128 varints (u: unsigned, s: zigzag signed) and byte strings
 * (str = u length + bytes, no NUL). Field lists per chunk type are given below and in format.md.
 * Dictionary chunks (THREADS, CLASSES, STACKS, MODULES) always precede the first chunk that
 * references their ids. Ids are dense, starting at 0, in order of first definition.
 */
#ifndef MEMTRACER_FORMAT_H
#define MEMTRACER_FORMAT_H

#include <stdint.h>

#define MT_FORMAT_MAGIC "MEMTRACE"      /* 8 bytes, no NUL stored */
#define MT_FORMAT_VERSION 4u           /* 4: STACK_PREDICTED is the stack that followed the previous one;
                                          3: EVENTS entries lead with mt_event_flags; 2: MARKS chunks */
#define MT_FORMAT_VERSION_MIN 1u       /* oldest version this reader still reads */
#define MT_CHUNK_MAGIC 0x4B43544Du      /* "MTCK" as bytes 'M','T','C','K' */
#define MT_MAX_CHUNK_PAYLOAD (64u * 1024u * 1024u)  /* a reader refuses larger */

/* File header flags. */
#define MT_FILE_FLAG_AGGREGATE  0x1u   /* frames carry AGGREGATES chunks instead of EVENTS */
#define MT_FILE_FLAG_SAMPLED    0x2u   /* sample_interval_bytes > 0: weights apply */
#define MT_FILE_FLAG_LIBUNWIND  0x4u   /* stacks from libunwind (else frame pointers) */
#define MT_FILE_FLAG_LIFETIMES  0x8u   /* DEATHS chunks may appear */
#define MT_FILE_FLAG_GC_EVENTS  0x10u  /* GC chunks may appear */

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mt_file_header {
    char magic[8];                  /* "MEMTRACE" */
    uint32_t version;               /* MT_FORMAT_VERSION */
    uint32_t header_size;           /* sizeof(mt_file_header) = 64; chunks start here */
    uint64_t start_unix_ns;         /* wall clock at mt_start */
    uint64_t sample_interval_bytes; /* 0 = unsampled */
    uint32_t flags;                 /* MT_FILE_FLAG_* */
    uint32_t pid;
    uint16_t pointer_size;          /* 8 (4 reserved for armv7) */
    uint16_t max_stack_depth;
    uint32_t arch;                  /* mt_arch */
    uint32_t reserved[3];           /* zero */
    uint32_t header_crc;            /* CRC-32C of the 60 bytes before this field */
} mt_file_header;

typedef enum mt_arch {
    MT_ARCH_UNKNOWN = 0,
    MT_ARCH_X86_64 = 1,
    MT_ARCH_ARM64 = 2
} mt_arch;

typedef struct mt_chunk_header {
    uint32_t magic;                 /* MT_CHUNK_MAGIC */
    uint16_t type;                  /* mt_chunk_type */
    uint16_t flags;                 /* zero in version 1 */
    uint32_t size;                  /* payload bytes following this header */
    uint32_t crc;                   /* CRC-32C over type, flags, size (8 bytes LE) then payload */
} mt_chunk_header;

/*
 * Chunk types and their payloads (u = unsigned varint, s = zigzag varint, str = u len + bytes).
 * The bytes are drawn here and in docs/format.md; the field order in code is the MT_*_FIELDS
 * tables below, which the encoder and the decoder both expand.
 *
 * INFO      count u, then count x (key str, value str). Once, first. Keys used: process, os,
 *           arch, device, session_label, runtime_version, unwinder, mode, ring_capacity,
 *           max_threads, drain_interval_us, tick_hz.
 * MODULES   count u, then per module: id u, kind u (mt_module_kind), path str, load_address u,
 *           size u, bias u (file address = runtime address - bias; ELF load bias, Mach-O
 *           slide), text_vmaddr u (Mach-O __TEXT vmaddr, ELF lowest PT_LOAD vaddr),
 *           build_id str (raw bytes: GNU build-id or the 16-byte LC_UUID).
 *           Later MODULES chunks add images loaded after start; ids keep counting.
 * THREADS   count u, then per thread: id u, os_tid u, name str. A later entry with a known id
 *           renames that thread.
 * CLASSES   count u, then per class: id u, klass u (Il2CppClass* in the game), name str,
 *           namespace str, flags u (mt_class_flags), element_size u (arrays; else 0).
 * STACKS    count u, then per stack: id u, depth u, then depth x s: each frame as the zigzag
 *           delta from the previous frame (the first from 0). Innermost frame first; frames are
 *           raw return addresses (the innermost is the allocation call site's return address).
 *           Version 3 on, then the stack's shape: class u, size u, gc_size u (those of an
 *           allocation at this stack, usually its first; EVENTS' SAME_CLASS and SAME_SIZE fall back to them).
 * EVENTS    frame_seq u, count u, then per event (raw mode, version 3 on; MT_EVENT_FIELDS):
 *             flags u (mt_event_flags), thread u (unless SAME_THREAD), dt s (ticks since the
 *             previous event in this chunk; the first is from the frame's start tick), stack u
 *             (unless STACK_PREDICTED), class u (unless SAME_CLASS), size u (requested; unless
 *             SAME_SIZE), gc_extra s (GC_size - requested; unless SAME_SIZE or NO_GC_EXTRA),
 *             addr s (unless ADDR_PREDICTED: the object address minus its prediction, or where
 *             there is none minus the previous event's address in this chunk, the first's from 0). What a flag leaves out is predicted exactly from
 *             the earlier events of the same chunk (every chunk decodes alone) and the STACKS
 *             entries:
 *               SAME_THREAD              the previous event's;
 *               STACK_PREDICTED          version 4: the stack that followed the previous event's
 *                 stack P at P's last earlier occurrence in this chunk, if no other stack of P's
 *                 shape slot (stack mod MT_EVENT_SHAPE_SLOTS) occurred since; else P itself.
 *                 Version 3 (SAME_STACK): always the previous event's stack;
 *               SAME_CLASS, SAME_SIZE    class / size and GC size of the stack's shape: the last
 *                 event whose stack had the same shape slot (stack mod MT_EVENT_SHAPE_SLOTS) if
 *                 that event had this very stack, else the shape in the stack's STACKS entry;
 *               NO_GC_EXTRA              the GC size is the requested size;
 *               ADDR_PREDICTED           A + D, where A is the address of the last event in the
 *                 same address slot (mt_event_addr_slot: thread and GC size) if that event had
 *                 this thread and GC size, and D the slot's stride: minus the GC size at first,
 *                 then the step between the slot's last two addresses whenever that step equals
 *                 the one before it. Boehm's thread-local free lists hand out one size class at
 *                 a fixed stride, so most addresses are predicted.
 *           Version 1 and 2 entries: thread u, dt s, class u, stack u, size u, gc_extra s, addr s
 *           (MT_EVENT_FIELDS_V2). Several EVENTS chunks may carry the same frame_seq (as may
 *           GC, DEATHS and MARKS: a long frame's lists are written in pieces); they belong to
 *           that frame only once its FRAME chunk is read.
 * AGGREGATES frame_seq u, count u, then per (class, stack): class u, stack u, count u,
 *           requested_bytes u, gc_bytes u, samples u. With sampling, count and bytes are the
 *           unbiased estimates and samples is how many allocations were actually recorded.
 * GC        frame_seq u, count u, then per collection: start_tick u, end_tick u,
 *           heap_size u, free_bytes u, reclaimed_bytes u, gc_no u.
 * DEATHS    frame_seq u, count u, then per death: addr s (delta from previous, the first from 0),
 *           alloc_frame_seq u (frame the object was allocated in), class u, stack u, gc_size u.
 *           The frame_seq is the frame in which the collection that found the object dead ended.
 * FRAME     frame_seq u (dense, from 0), frame_index u (the game's own index passed to
 *           mt_frame_end), start_tick u, end_tick u, events u, requested_bytes u, gc_bytes u,
 *           dropped u (allocations lost in this frame), heap_size u, free_bytes u,
 *           flags u (mt_frame_flags). Commits the frame.
 * MARKS     frame_seq u, count u, then per mark: tick u (absolute, when mt_mark was called),
 *           label str (at most MT_MAX_MARK_LABEL bytes). Version 2 on; a version 1 reader
 *           refuses the file by its version before reading any chunk.
 * COUNTERS  the counters of MT_COUNTERS_FIELDS (the runtime's mt_counters), in order, each as u.
 *           Written with END and optionally mid-run.
 * END       reason u (mt_end_reason), message str. Last chunk of a cleanly stopped capture.
 *
 * Ticks: the runtime's clock (TSC, CNTVCT or CLOCK_MONOTONIC). INFO.tick_hz converts ticks to
 * seconds; the FRAME chunk's ticks are on the same clock.
 */

/*
 * Field tables: the one place in code a payload's field order is written. MT_<X>_FIELDS(F)
 * calls F(kind, member, label) once per field, in byte order; the encoder (trace/src/encode.cpp)
 * and the decoder (trace/src/decode_*.cpp) are both driven by them. `member` names the field in
 * the encoder's record (trace_writer.h) and the reader's struct (memtracer/reader.h) alike;
 * `label` is the field's name in format.md and in the reader's error messages. kind:
 *   U        u: the member
 *   ID       u: the entry's dictionary id (dense, from 0, in order of definition)
 *   TID      u: a thread id; a known one renames that thread, an unknown one is the next id
 *   THREAD, CLASS, STACK   u: the id of an entry of that dictionary, defined earlier
 *   DELTA    s: the member minus the same member of the previous entry of this chunk; the first
 *            entry's base is the chunk's (EVENTS tick: the frame's start tick; else 0)
 *   GC_EXTRA s: the member (a GC size) minus the entry's `size`
 *   STR      str: the member's characters (no NUL)
 *   BYTES    str: the member's raw bytes
 *   PCS      u depth, then depth x s: each frame minus the previous one (the first minus 0)
 * EVENTS (version 3 on) only: FLAGS u: the entry's mt_event_flags; THREAD_NEW, STACK_NEW, CLASS_NEW:
 *   THREAD, STACK, CLASS unless SAME_THREAD, STACK_PREDICTED, SAME_CLASS; U_NEW: U unless SAME_SIZE;
 *   GC_EXTRA_NEW: GC_EXTRA unless SAME_SIZE or NO_GC_EXTRA; ADDR: DELTA unless ADDR_PREDICTED
 *   (the running value follows the address either way).
 * List chunks start with count u (frame-scoped ones: frame_seq u, then count u). MT_FIELD_COUNT
 * (table) is the most fields an entry has, MT_FIELD_MIN(table) its smallest size in bytes (the
 * fields always present, one byte at least each).
 */
#define MT_INFO_FIELDS(F) \
    F(STR, key, "key") F(STR, value, "value")
#define MT_MODULE_FIELDS(F) \
    F(ID, id, "id") F(U, kind, "kind") F(STR, path, "path") F(U, load_address, "load_address") \
    F(U, size, "size") F(U, bias, "bias") F(U, text_vmaddr, "text_vmaddr") F(BYTES, build_id, "build_id")
#define MT_THREAD_FIELDS(F) \
    F(TID, id, "id") F(U, os_tid, "os_tid") F(STR, name, "name")
#define MT_CLASS_FIELDS(F) \
    F(ID, id, "id") F(U, klass, "klass") F(STR, name, "name") F(STR, name_space, "namespace") \
    F(U, flags, "flags") F(U, element_size, "element_size")
#define MT_STACK_FIELDS(F) \
    F(ID, id, "id") F(PCS, frames, "depth") F(U, shape_class, "shape_class") F(U, shape_size, "shape_size") \
    F(U, shape_gc_size, "shape_gc_size")
/* Versions 1 and 2 (read, no longer written). */
#define MT_STACK_FIELDS_V2(F) \
    F(ID, id, "id") F(PCS, frames, "depth")
#define MT_EVENT_FIELDS(F) \
    F(FLAGS, flags, "flags") F(THREAD_NEW, thread, "thread") F(DELTA, tick, "dt") F(STACK_NEW, stack_id, "stack") \
    F(CLASS_NEW, class_id, "class") F(U_NEW, size, "size") F(GC_EXTRA_NEW, gc_size, "gc_extra") \
    F(ADDR, address, "addr")
/* Versions 1 and 2 (read, no longer written). */
#define MT_EVENT_FIELDS_V2(F) \
    F(THREAD, thread, "thread") F(DELTA, tick, "dt") F(CLASS, class_id, "class") F(STACK, stack_id, "stack") \
    F(U, size, "size") F(GC_EXTRA, gc_size, "gc_extra") F(DELTA, address, "addr")
#define MT_AGGREGATE_FIELDS(F) \
    F(CLASS, class_id, "class") F(STACK, stack_id, "stack") F(U, count, "count") \
    F(U, requested_bytes, "requested_bytes") F(U, gc_bytes, "gc_bytes") F(U, samples, "samples")
#define MT_GC_FIELDS(F) \
    F(U, start_tick, "start_tick") F(U, end_tick, "end_tick") F(U, heap_size, "heap_size") \
    F(U, free_bytes, "free_bytes") F(U, reclaimed_bytes, "reclaimed_bytes") F(U, gc_no, "gc_no")
#define MT_DEATH_FIELDS(F) \
    F(DELTA, address, "addr") F(U, alloc_frame_seq, "alloc_frame_seq") F(CLASS, class_id, "class") \
    F(STACK, stack_id, "stack") F(U, gc_size, "gc_size")
#define MT_FRAME_FIELDS(F) \
    F(U, seq, "frame_seq") F(U, index, "frame_index") F(U, start_tick, "start_tick") F(U, end_tick, "end_tick") \
    F(U, events, "events") F(U, requested_bytes, "requested_bytes") F(U, gc_bytes, "gc_bytes") \
    F(U, dropped, "dropped") F(U, heap_size, "heap_size") F(U, free_bytes, "free_bytes") F(U, flags, "flags")
#define MT_MARK_FIELDS(F) \
    F(U, tick, "tick") F(STR, label, "label")
/* The runtime's counters. The encoder's record (trace_writer.h CountersRecord) and the reader's
 * (reader.h Counters) are both generated from this table; the runtime fills the encoder's from its
 * mt_counters (memtracer.h) and checks at compile time that the table covers every field. */
#define MT_COUNTERS_FIELDS(F) \
    F(U, allocations_seen, "counter") F(U, events_recorded, "counter") F(U, events_dropped, "counter") \
    F(U, events_sampled_out, "counter") F(U, events_written, "counter") F(U, bytes_written, "counter") \
    F(U, frames_written, "counter") F(U, stacks_known, "counter") F(U, classes_known, "counter") \
    F(U, threads_known, "counter") F(U, last_flush_unix_ns, "counter") F(U, last_flush_duration_ns, "counter") \
    F(U, reentrant_skipped, "counter") F(U, running, "counter") F(U, paused, "counter") \
    F(U, disabled, "counter") F(U, gc_callback_rechains, "counter")
#define MT_END_FIELDS(F) \
    F(U, reason, "reason") F(STR, message, "message")

#define MT_FIELD_COUNT_ONE_(kind, member, label) +1
#define MT_FIELD_COUNT(TABLE) (0 TABLE(MT_FIELD_COUNT_ONE_))
#define MT_FIELD_ALWAYS_U 1
#define MT_FIELD_ALWAYS_ID 1
#define MT_FIELD_ALWAYS_TID 1
#define MT_FIELD_ALWAYS_THREAD 1
#define MT_FIELD_ALWAYS_CLASS 1
#define MT_FIELD_ALWAYS_STACK 1
#define MT_FIELD_ALWAYS_DELTA 1
#define MT_FIELD_ALWAYS_GC_EXTRA 1
#define MT_FIELD_ALWAYS_STR 1
#define MT_FIELD_ALWAYS_BYTES 1
#define MT_FIELD_ALWAYS_PCS 1
#define MT_FIELD_ALWAYS_FLAGS 1
#define MT_FIELD_ALWAYS_THREAD_NEW 0
#define MT_FIELD_ALWAYS_STACK_NEW 0
#define MT_FIELD_ALWAYS_CLASS_NEW 0
#define MT_FIELD_ALWAYS_U_NEW 0
#define MT_FIELD_ALWAYS_GC_EXTRA_NEW 0
#define MT_FIELD_ALWAYS_ADDR 0
#define MT_FIELD_MIN_ONE_(kind, member, label) +MT_FIELD_ALWAYS_##kind
#define MT_FIELD_MIN(TABLE) (0 TABLE(MT_FIELD_MIN_ONE_))

/* EVENTS (version 3 on): what an entry's flags say it leaves out, and the prediction tables' sizes. */
typedef enum mt_event_flags {
    MT_EVENT_SAME_THREAD = 0x1,
    MT_EVENT_STACK_PREDICTED = 0x2,  /* version 3 called it SAME_STACK: the previous event's stack */
    MT_EVENT_SAME_CLASS = 0x4,
    MT_EVENT_SAME_SIZE = 0x8,
    MT_EVENT_NO_GC_EXTRA = 0x10,   /* never with SAME_SIZE */
    MT_EVENT_ADDR_PREDICTED = 0x20
} mt_event_flags;
#define MT_EVENT_FLAGS_ALL 0x3Fu
#define MT_EVENT_SHAPE_SLOTS 256u   /* shape slot of a stack id: stack % 256 */
#define MT_EVENT_ADDR_SLOTS 128u    /* address slot: mt_event_addr_slot(thread, gc_size) */
static inline uint32_t mt_event_addr_slot(uint64_t thread, uint64_t gc_size) {
    return (uint32_t)(((gc_size >> 4) + thread * 37u) % MT_EVENT_ADDR_SLOTS);
}

typedef enum mt_chunk_type {
    MT_CHUNK_INFO = 1,
    MT_CHUNK_MODULES = 2,
    MT_CHUNK_THREADS = 3,
    MT_CHUNK_CLASSES = 4,
    MT_CHUNK_STACKS = 5,
    MT_CHUNK_EVENTS = 6,
    MT_CHUNK_AGGREGATES = 7,
    MT_CHUNK_GC = 8,
    MT_CHUNK_DEATHS = 9,
    MT_CHUNK_FRAME = 10,
    MT_CHUNK_COUNTERS = 11,
    MT_CHUNK_END = 12,
    MT_CHUNK_MARKS = 13            /* version 2 */
} mt_chunk_type;

typedef enum mt_module_kind {
    MT_MODULE_ELF = 1,
    MT_MODULE_MACHO = 2
} mt_module_kind;

typedef enum mt_class_flags {
    MT_CLASS_ARRAY = 0x1,
    MT_CLASS_STRING = 0x2,
    MT_CLASS_VALUE_TYPE = 0x4,
    MT_CLASS_UNRESOLVED = 0x8,     /* il2cpp_class_get_name unavailable: name is "0x<klass>" */
    MT_CLASS_NATIVE = 0x10         /* a native heap (mt_native_heap, ITT heap functions), not a C# class:
                                      klass is the heap's handle, name its name, namespace its domain */
} mt_class_flags;

typedef enum mt_frame_flags {
    MT_FRAME_FINAL = 0x1,          /* written by mt_stop for allocations after the last frame end */
    MT_FRAME_MERGED = 0x2,         /* several mt_frame_end calls were merged (writer fell behind) */
    /* Where this frame's figures came from (state at the frame's commit). Neither GC_SIZE bit:
     * gc_extra is 0, the GC size is the requested size (no collector reachable). */
    MT_FRAME_GC_SIZE_EXACT = 0x4,  /* GC sizes are Boehm's GC_size (patch mode, bridge) */
    MT_FRAME_GC_SIZE_ESTIMATED = 0x8, /* GC sizes estimated from Boehm's size classes (no-patch) */
    MT_FRAME_GC_FROM_PROFILER = 0x10, /* collections from il2cpp's profiler: timing only, no
                                         heap, free or reclaimed figures, no deaths */
    MT_FRAME_GC_INCOMPLETE = 0x20     /* collections in this frame may be incomplete: Boehm's
                                         callback had been replaced (re-chained here; collections
                                         Boehm counted meanwhile are recorded from gc_no, with no
                                         timing and no deaths), or the GC queue overflowed */
} mt_frame_flags;

typedef enum mt_end_reason {
    MT_END_STOPPED = 0,            /* mt_stop */
    MT_END_DISABLED = 1,           /* the runtime disabled itself; message says why */
    MT_END_THREAD_EXIT = 2         /* process exit without mt_stop (atexit handler) */
} mt_end_reason;

#ifdef __cplusplus
}
#endif

#if defined(__cplusplus)
static_assert(sizeof(mt_file_header) == 64, "file header is 64 bytes on every target");
static_assert(sizeof(mt_chunk_header) == 16, "chunk header is 16 bytes on every target");
#else
_Static_assert(sizeof(mt_file_header) == 64, "file header is 64 bytes on every target");
_Static_assert(sizeof(mt_chunk_header) == 16, "chunk header is 16 bytes on every target");
#endif

#endif /* MEMTRACER_FORMAT_H */
