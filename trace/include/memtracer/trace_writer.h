// trace_writer.h — the run.mt encoder: the file header and every chunk type of format.h, written
// to a file descriptor. The runtime's writer thread uses it, and so can host tools and tests that
// need a run.mt with chosen modules, stacks, classes and events without running a game.
//
// USAGE (host C++20 or runtime code; no exceptions, no STL, nothing to initialise):
//
//   #include "memtracer/trace_writer.h" // link target `memtracer_writer` (host code), or the
//                                      // `memtracer` runtime library itself (same objects)
//   mt::trace::TraceWriter w;
//   if (!w.open("run.mt")) die(w.error());               // O_CREAT|O_TRUNC|O_CLOEXEC; owns the fd
//   mt::trace::FileHeaderParams hp;                      // defaults: this pid, pointer 8, arch
//   hp.arch = MT_ARCH_ARM64; hp.max_stack_depth = 64;     //   of the build machine, no flags
//   w.header(hp);
//   mt::trace::KeyValue info[] = {{"process", "Game"}, {"tick_hz", "24000000"}};
//   w.info(info, 2);
//   uint8_t uuid[16] = {...};
//   mt::trace::ModuleRecord m{0, MT_MODULE_MACHO, "/private/.../Game", 0x100000000, 0x4000,
//                          0x0 /*slide*/, 0x100000000 /*__TEXT vmaddr*/, uuid, 16};
//   w.modules(&m, 1);
//   mt::trace::ThreadRecord t{0, 1234, "main"};           w.threads(&t, 1);
//   mt::trace::ClassRecord c{0, 0x7f00, "String", "System", MT_CLASS_STRING, 0};  w.classes(&c, 1);
//   uint64_t pcs[] = {0x100001234, 0x100005678};
//   mt::trace::StackRecord s{0, pcs, 2};                  w.stacks(&s, 1);
//   mt::trace::EventRecord e{/*thread*/0, /*tick*/105, /*class*/0, /*stack*/0, /*size*/32,
//                         /*gc_size*/48, /*address*/0x7f001000};
//   w.events(/*frame_seq*/0, /*frame start tick*/100, &e, 1);
//   mt::trace::FrameRecord f; f.seq = 0; f.index = 7; f.start_tick = 100; f.end_tick = 200;
//   f.events = 1; f.requested_bytes = 32; f.gc_bytes = 48;
//   w.frame(f);
//   w.end(MT_END_STOPPED, "stopped");
//   if (!w.flush()) die(w.error());                       // chunks reach the fd only here
//   w.close();
//
// Every append goes to an in-memory batch; flush() hands the batch to write(2) (one call unless
// the kernel takes less), so a frame commit is one write. Entries repeated within a chunk can
// also be built incrementally with ListEncoder and then appended with the *_list() calls, which
// is what the runtime does while it drains rings (the count is only known at the end).
//
// Encoding choices where format.h leaves room (the reader follows the same):
//  - EVENTS: the first event's dt is from the start tick given to ListEncoder::begin (the frame's
//    start tick); its addr delta is from 0. Each EVENTS chunk starts afresh.
//  - DEATHS: the first addr delta is from 0.
//  - STACKS: the first frame's delta is from 0.
//
// Errors: open() and flush() return false; error() is a sentence naming the path and errno.
// When a write fails part-way, flush() truncates the file back to the end of the last flush that
// succeeded, so the file always ends on a chunk boundary a reader accepts.
#ifndef MEMTRACER_TRACE_TRACE_WRITER_H
#define MEMTRACER_TRACE_TRACE_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "memtracer/buf.h"
#include "memtracer/event_encode.h"
#include "memtracer/event_predict.h"
#include "memtracer/format.h"
#include "memtracer/noncopyable.h"

namespace mt::trace {

mt_arch host_arch();

struct FileHeaderParams {
    uint64_t start_unix_ns = 0;
    uint64_t sample_interval_bytes = 0;
    uint32_t flags = 0;          // MT_FILE_FLAG_*
    uint32_t pid = 0;            // 0 = getpid()
    uint16_t pointer_size = 8;
    uint16_t max_stack_depth = 128;  // the runtime's MT_MAX_STACK_DEPTH; any u16 is valid here
    uint32_t arch = host_arch();
};

struct KeyValue {
    const char *key;
    const char *value;
};

struct ModuleRecord {
    uint32_t id;
    uint32_t kind;  // mt_module_kind
    const char *path;
    uint64_t load_address, size, bias, text_vmaddr;
    const uint8_t *build_id;
    size_t build_id_size;
};

struct ThreadRecord {
    uint32_t id;
    uint64_t os_tid;
    const char *name;
};

struct ClassRecord {
    uint32_t id;
    uint64_t klass;
    const char *name;
    const char *name_space;
    uint32_t flags;  // mt_class_flags
    uint64_t element_size;
};

struct StackRecord {
    uint32_t id;
    const uint64_t *frames;  // innermost first
    uint32_t depth;
    // The stack's shape (format.h STACKS, version 3): an allocation's at this stack. Events
    // predict their class and sizes from it; any value is valid (a wrong one costs bytes only).
    uint32_t shape_class = 0;
    uint64_t shape_size = 0, shape_gc_size = 0;
};

struct AggregateRecord {
    uint32_t class_id, stack_id;
    uint64_t count, requested_bytes, gc_bytes, samples;
};

struct GcRecord {
    uint64_t start_tick, end_tick, heap_size, free_bytes, reclaimed_bytes, gc_no;
};

struct DeathRecord {
    uint64_t address, alloc_frame_seq;
    uint32_t class_id, stack_id;
    uint64_t gc_size;
};

struct MarkRecord {
    uint64_t tick;      // absolute, when mt_mark was called
    const char *label;  // at most MT_MAX_MARK_LABEL bytes
};

struct EndRecord {
    uint32_t reason;  // mt_end_reason
    const char *message;
};

// COUNTERS: one u64 per entry of MT_COUNTERS_FIELDS (format.h), so the table is the record. The
// runtime fills it from its mt_counters (memtracer.h) and checks the two agree.
#define MT_TRACE_COUNTER_MEMBER(kind, member, label) uint64_t member = 0;
struct CountersRecord {
    MT_COUNTERS_FIELDS(MT_TRACE_COUNTER_MEMBER)
};
#undef MT_TRACE_COUNTER_MEMBER

struct FrameRecord {
    uint64_t seq = 0, index = 0, start_tick = 0, end_tick = 0;
    uint64_t events = 0, requested_bytes = 0, gc_bytes = 0, dropped = 0;
    uint64_t heap_size = 0, free_bytes = 0;
    uint32_t flags = 0;  // mt_frame_flags
};

// The entries of one list chunk, built one at a time. Use one encoder per chunk type; begin()
// starts a new chunk body (and sets the base tick EVENTS deltas start from).
class ListEncoder {
public:
    ListEncoder() = default;
    ~ListEncoder();
    MT_NONCOPYABLE(ListEncoder);

    void begin(uint64_t base_tick = 0);
    uint64_t count() const { return count_; }
    size_t bytes() const { return body_.size(); }
    bool failed() const { return body_.failed(); }
    const Buf &body() const { return body_; }

    void add(const ModuleRecord &m);
    void add(const ThreadRecord &t);
    void add(const ClassRecord &c);
    void add(const StackRecord &s);
    // Inline (event_encode.h): the runtime's writer adds one per traced allocation.
    MT_EVENT_INLINE void add(const EventRecord &e) {
        if (!predict_ && !make_predict()) return;
        event_encode::encode_event(body_, e, prev_, *predict_);
        ++count_;
    }
    // The same, the stack's STACKS shape given by stack_shape() (const codec::EventShape *, or
    // nullptr), called only when the chunk has no event of that stack in its slot (e.stack_shape
    // is not read): the runtime's writer looks it up only then.
    template <class StackShape>
    MT_EVENT_INLINE void add(const EventRecord &e, StackShape &&stack_shape) {
        if (!predict_ && !make_predict()) return;
        event_encode::encode_event(body_, e, prev_, *predict_, stack_shape);
        ++count_;
    }
    void add(const AggregateRecord &a);
    void add(const GcRecord &g);
    void add(const DeathRecord &d);
    void add(const MarkRecord &m);

    using Deltas = EventDeltas;  // the previous entry's DELTA fields (format.h)

private:
    Buf body_;
    uint64_t count_ = 0;
    Deltas prev_;
    // EVENTS only (encode_events.cpp): the prediction state, allocated at the first event and
    // reset by begin(); a failed allocation fails the body like any other lost entry.
    codec::EventPredict *predict_ = nullptr;
    bool make_predict();
};

class TraceWriter {
public:
    TraceWriter() = default;
    ~TraceWriter();
    MT_NONCOPYABLE(TraceWriter);

    bool open(const char *path);  // creates/truncates; the writer owns and closes the fd
    void attach(int fd);          // an fd the caller owns; bytes_written() counts from 0
    void close();                 // closes an owned fd (pending bytes are dropped: flush first)
    int fd() const { return fd_; }

    // Appends to the batch.
    void header(const FileHeaderParams &p);
    void info(const KeyValue *kv, size_t n);
    void modules(const ModuleRecord *m, size_t n);
    void threads(const ThreadRecord *t, size_t n);
    void classes(const ClassRecord *c, size_t n);
    void stacks(const StackRecord *s, size_t n);
    void events(uint64_t frame_seq, uint64_t frame_start_tick, const EventRecord *e, size_t n);
    void aggregates(uint64_t frame_seq, const AggregateRecord *a, size_t n);
    void gc(uint64_t frame_seq, const GcRecord *g, size_t n);
    void deaths(uint64_t frame_seq, const DeathRecord *d, size_t n);
    void marks(uint64_t frame_seq, const MarkRecord *m, size_t n);
    void frame(const FrameRecord &f);
    void counters(const CountersRecord &c);
    void end(uint32_t reason, const char *message);

    // Dictionary chunks from an encoder (type: MT_CHUNK_MODULES/THREADS/CLASSES/STACKS).
    void dict_list(uint16_t type, const ListEncoder &l);
    // Frame-scoped chunks from an encoder (MT_CHUNK_EVENTS/AGGREGATES/GC/DEATHS/MARKS).
    void frame_list(uint16_t type, uint64_t frame_seq, const ListEncoder &l);

    // Writes the batch. False on a write error or an earlier allocation failure (the batch is
    // then discarded and the file cut back to the last good flush).
    bool flush();
    size_t pending() const { return batch_.size(); }
    uint64_t bytes_written() const { return written_; }
    int last_errno() const { return errno_; }
    const char *error() const { return error_; }

private:
    size_t begin_chunk(uint16_t type);
    void end_chunk(size_t at);
    void list_chunk(uint16_t type, bool has_seq, uint64_t seq, const ListEncoder &l);
    void fail(const char *what, int err);

    Buf batch_;
    int fd_ = -1;
    bool owned_ = false;
    bool oversize_ = false;
    uint64_t written_ = 0;
    int errno_ = 0;
    char path_[256] = {0};
    char error_[384] = {0};
};

}  // namespace mt::trace

#endif  // MEMTRACER_TRACE_TRACE_WRITER_H
