// decode.h — payload decoders, one per chunk type, driven by format.h's field tables.
// Each throws DecodeError (via Cursor) on anything it cannot trust: a varint past the payload,
// an id that is not dense or refers to nothing defined yet, bytes left over at the end.
#ifndef MEMTRACER_READER_DECODE_H
#define MEMTRACER_READER_DECODE_H

#include "cursor.h"

#include <memtracer/reader.h>

#include <string>
#include <utility>
#include <vector>

namespace mt::reader::detail {

// A stack's shape from its STACKS entry (version 3): what SAME_SHAPE falls back to.
struct StackShape {
    uint64_t class_id = 0, size = 0, gc_size = 0;
};

// How many ids of each dictionary are defined so far; references are checked against these.
struct DictSizes {
    size_t modules = 0, threads = 0, classes = 0, stacks = 0;
    std::vector<StackShape> stack_shapes;  // by stack id (version 3 files)
};

struct InfoEntry {
    std::string key, value;
};

struct EndFields {
    uint64_t reason = 0;  // mt_end_reason
    std::string message;
};

std::vector<std::pair<std::string, std::string>> decode_info(Cursor &c);
std::vector<Module> decode_modules(Cursor &c, size_t next_id);
std::vector<Thread> decode_threads(Cursor &c, size_t known);
std::vector<Class> decode_classes(Cursor &c, size_t next_id);
std::vector<Stack> decode_stacks(Cursor &c, size_t next_id, uint32_t version);

// Frame data, after the caller has read frame_seq. Appends to `out`. Event ticks come out
// relative to the frame's start tick, which only the later FRAME chunk carries. EVENTS entries
// are laid out by the file's format version (the header's).
void decode_events(Cursor &c, const DictSizes &d, uint32_t version, std::vector<Event> &out);
void decode_aggregates(Cursor &c, const DictSizes &d, std::vector<Aggregate> &out);
void decode_gcs(Cursor &c, std::vector<GcEvent> &out);
void decode_deaths(Cursor &c, const DictSizes &d, std::vector<Death> &out);
void decode_marks(Cursor &c, std::vector<Mark> &out);

void decode_frame_fields(Cursor &c, Frame &f);  // every FRAME field, frame_seq included
Counters decode_counters(Cursor &c);
EndFields decode_end(Cursor &c);

}  // namespace mt::reader::detail

#endif
