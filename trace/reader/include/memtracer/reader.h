// reader.h — the host-side reader of run.mt (C++20). Used by memtracer-dump, the symbolizer and
// the tests. It streams: a Visitor sees dictionaries as they are defined and each frame once its
// FRAME chunk commits it, so a multi-GB capture never has to fit in memory.
#ifndef MEMTRACER_READER_H
#define MEMTRACER_READER_H

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "memtracer/format.h"
#include "memtracer/noncopyable.h"

namespace mt::reader {

// Thrown only for a file that cannot be read at all: missing, not a run.mt, unknown version,
// damaged header. Everything after a good header is reported through ReadResult instead, so
// the frames read before the damage are never lost.
struct FormatError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Header {
    uint32_t version = 0;
    uint64_t start_unix_ns = 0;
    uint64_t sample_interval_bytes = 0;
    uint32_t flags = 0;  // MT_FILE_FLAG_*
    uint32_t pid = 0;
    uint16_t pointer_size = 0;
    uint16_t max_stack_depth = 0;
    uint32_t arch = 0;   // mt_arch
    std::vector<std::pair<std::string, std::string>> info;  // INFO chunk, in file order
    double tick_hz = 1e9;  // from INFO "tick_hz"
    std::string info_value(const std::string &key) const;  // "" if absent
};

struct Module {
    uint32_t id = 0;
    uint32_t kind = 0;  // mt_module_kind
    std::string path;
    uint64_t load_address = 0, size = 0, bias = 0, text_vmaddr = 0;
    std::vector<uint8_t> build_id;
    bool contains(uint64_t addr) const { return addr >= load_address && addr - load_address < size; }
    bool operator==(const Module &) const = default;
};

struct Thread {
    uint32_t id = 0;
    uint64_t os_tid = 0;
    std::string name;
    bool operator==(const Thread &) const = default;
};

struct Class {
    uint32_t id = 0;
    uint64_t klass = 0;
    std::string name, name_space;
    uint32_t flags = 0;  // mt_class_flags
    uint64_t element_size = 0;
    bool operator==(const Class &) const = default;
};

struct Stack {
    uint32_t id = 0;
    std::vector<uint64_t> frames;  // innermost first, raw return addresses
    // Version 3 on: an allocation's class and sizes at this stack (events predict from it; 0 in
    // older files). Not a figure: what the events say is.
    uint32_t shape_class = 0;
    uint64_t shape_size = 0, shape_gc_size = 0;
    bool operator==(const Stack &) const = default;
};

struct Event {
    uint32_t thread = 0;
    uint64_t tick = 0;  // absolute tick
    uint32_t class_id = 0, stack_id = 0;
    uint64_t size = 0, gc_size = 0, address = 0;
    bool operator==(const Event &) const = default;
};

struct Aggregate {
    uint32_t class_id = 0, stack_id = 0;
    uint64_t count = 0, requested_bytes = 0, gc_bytes = 0, samples = 0;
    bool operator==(const Aggregate &) const = default;
};

struct GcEvent {
    uint64_t start_tick = 0, end_tick = 0, heap_size = 0, free_bytes = 0, reclaimed_bytes = 0, gc_no = 0;
    bool operator==(const GcEvent &) const = default;
};

struct Death {
    uint64_t address = 0, alloc_frame_seq = 0;
    uint32_t class_id = 0, stack_id = 0;
    uint64_t gc_size = 0;
    bool operator==(const Death &) const = default;
};

struct Mark {  // mt_mark: a label the game put on the frame open at the call
    uint64_t tick = 0;  // absolute tick of the call
    std::string label;
    bool operator==(const Mark &) const = default;
};

struct Frame {
    uint64_t seq = 0, index = 0, start_tick = 0, end_tick = 0;
    uint64_t events = 0, requested_bytes = 0, gc_bytes = 0, dropped = 0, heap_size = 0, free_bytes = 0;
    uint32_t flags = 0;  // mt_frame_flags
    std::vector<Event> event_list;       // raw mode
    std::vector<Aggregate> aggregates;   // aggregate mode
    std::vector<GcEvent> gcs;
    std::vector<Death> deaths;
    std::vector<Mark> marks;             // format version 2 on
    bool operator==(const Frame &) const = default;
};

// The COUNTERS chunk: one member per entry of MT_COUNTERS_FIELDS (format.h), in its order.
#define MT_READER_COUNTER_MEMBER(kind, member, label) uint64_t member = 0;
struct Counters {
    MT_COUNTERS_FIELDS(MT_READER_COUNTER_MEMBER)
    bool operator==(const Counters &) const = default;
};
#undef MT_READER_COUNTER_MEMBER

enum class Stop {
    End,        // END chunk read: the capture was stopped cleanly
    Eof,        // the file ends on a chunk boundary without END (process killed between writes)
    Truncated,  // the file ends inside a chunk (killed mid-write); everything before is good
    Corrupt     // a chunk failed its magic, CRC or decoding with data after it
};

struct ReadResult {
    Stop stop = Stop::Eof;
    uint64_t stop_offset = 0;       // file offset of the first byte not used
    std::string stop_reason;        // human sentence: what was found there
    uint64_t frames = 0;            // frames committed and delivered
    uint64_t uncommitted_events = 0;  // events (aggregate records in aggregate mode) read for
                                      // frames whose FRAME chunk never came
    uint32_t end_reason = 0;        // mt_end_reason, when stop == End
    std::string end_message;
    bool has_counters = false;
    Counters counters;              // the last COUNTERS chunk
    bool clean() const { return stop == Stop::End; }
    bool usable() const { return stop != Stop::Corrupt; }
};

class Visitor {
public:
    virtual ~Visitor() = default;
    virtual void on_header(const Header &) {}
    virtual void on_module(const Module &) {}
    virtual void on_thread(const Thread &) {}  // also called again on a rename
    virtual void on_class(const Class &) {}
    virtual void on_stack(const Stack &) {}
    virtual void on_frame(const Frame &) {}    // once committed; frames arrive in seq order
};

// Streams `path` into `visitor`. Throws FormatError only when not even the header is usable.
ReadResult read_file(const std::string &path, Visitor &visitor);

// Same, from memory (used by tests and fuzzers).
ReadResult read_buffer(const uint8_t *data, size_t size, Visitor &visitor);

// Everything in memory, for tests and small captures.
struct Run {
    Header header;
    std::vector<Module> modules;
    std::vector<Thread> threads;  // by id
    std::vector<Class> classes;   // by id
    std::vector<Stack> stacks;    // by id
    std::vector<Frame> frames;
    ReadResult result;
};
Run load_file(const std::string &path);
Run load_buffer(const uint8_t *data, size_t size);

const char *stop_name(Stop s);  // "end", "eof", "truncated", "corrupt"

// Reads a run.mt that is still being written (memtracer-symbolize --follow), a batch at a time:
// each poll delivers the whole chunks appended since the previous one, never part of a chunk
// (a chunk whose bytes or CRC are incomplete waits for the next poll), so every chunk is decoded
// once and the visitor sees exactly what read_file would show it for the same bytes.
class FollowReader {
public:
    explicit FollowReader(Visitor &visitor);
    ~FollowReader();
    MT_NONCOPYABLE(FollowReader);

    // `data`/`size`: the whole file as it is now. Returns false while even the 64-byte file
    // header is incomplete (nothing read); throws FormatError for a header that is bad. Then
    // result() says where this poll stopped: Eof or Truncated = waiting for more bytes, End =
    // the capture is complete, Corrupt = damage with data after it (further polls stop there).
    bool poll(const uint8_t *data, size_t size);
    // The same over the file at `path`, as large as it is at this call; false also while the
    // file does not exist yet. Throws FormatError naming `path`.
    bool poll_file(const std::string &path);
    // The same for a caller that holds only the bytes after the previous poll: `data`/`size` are
    // the file's bytes from `base` = offset() on (a live host checks each chunk this way before
    // it stores it, so its file is only ever what this reader accepts). False, reading nothing,
    // before the header was polled or when `base` is not offset().
    bool poll_at(const uint8_t *data, size_t size, uint64_t base);
    const ReadResult &result() const { return result_; }
    uint64_t offset() const;  // file offset of the first byte not read yet

private:
    struct State;
    Visitor &visitor_;
    State *state_ = nullptr;
    ReadResult result_;
};

}  // namespace mt::reader

#endif  // MEMTRACER_READER_H
