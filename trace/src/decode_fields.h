// decode_fields.h — format.h's field tables expanded into Cursor reads: the decoder's half of the
// one field order (encode.cpp holds the encoder's). Internal to decode_*.cpp.
#ifndef MEMTRACER_READER_DECODE_FIELDS_H
#define MEMTRACER_READER_DECODE_FIELDS_H

#include "decode.h"

#include <memtracer/format.h>

namespace mt::reader::detail {

// What a field read needs beyond the cursor: the dictionary sizes references are checked
// against, the id an ID field must have, and the DELTA fields' running values (named as those
// fields; each chunk starts them at 0, so EVENTS ticks come out relative to the frame start).
struct EntryContext {
    const DictSizes *dicts = nullptr;
    size_t next_id = 0;             // ID: ids are dense, in order of definition
    const char *dictionary = "";    // ID: "module", "class", "stack" for messages
    size_t known_threads = 0;       // TID
    struct {
        uint64_t tick = 0, address = 0;
    } prev;
};

uint32_t read_next_id(Cursor &c, const char *field, const EntryContext &x);
uint32_t read_thread_id(Cursor &c, const char *field, EntryContext &x);

#define MT_DEC_U(m, label) out.m = static_cast<decltype(out.m)>(c.u(label));
#define MT_DEC_ID(m, label) out.m = read_next_id(c, label, x);
#define MT_DEC_TID(m, label) out.m = read_thread_id(c, label, x);
#define MT_DEC_THREAD(m, label) out.m = c.ref(label, x.dicts->threads, "threads");
#define MT_DEC_CLASS(m, label) out.m = c.ref(label, x.dicts->classes, "classes");
#define MT_DEC_STACK(m, label) out.m = c.ref(label, x.dicts->stacks, "stacks");
#define MT_DEC_DELTA(m, label) out.m = x.prev.m += static_cast<uint64_t>(c.s(label));
#define MT_DEC_GC_EXTRA(m, label) out.m = out.size + static_cast<uint64_t>(c.s(label));
#define MT_DEC_STR(m, label) out.m = c.str(label);
#define MT_DEC_BYTES(m, label) out.m = c.bytes(label);
#define MT_DEC_PCS(m, label)                                                                         \
    {                                                                                                \
        uint64_t depth_ = c.count(label, 1);                                                         \
        out.m.resize(depth_);                                                                        \
        uint64_t pc_ = 0;                                                                            \
        for (uint64_t k_ = 0; k_ < depth_; ++k_) out.m[k_] = pc_ += static_cast<uint64_t>(c.s("frame")); \
    }
#define MT_DEC_FIELD(kind, m, label) MT_DEC_##kind(m, label)

// decode_entry(c, x, out): one entry of a table, read into out. Inline: list decoding is the
// reader's hot loop. kFieldCount<T>: the entry's smallest size in bytes (MT_FIELD_MIN). EVENTS
// entries have their own decoders (decode_events.cpp: two versions, predicted fields).
template <class T>
inline constexpr size_t kFieldCount = 0;
#define MT_ENTRY_DECODER(T, TABLE)                                                    \
    template <>                                                                       \
    inline constexpr size_t kFieldCount<T> = MT_FIELD_MIN(TABLE);                     \
    inline void decode_entry(Cursor &c, [[maybe_unused]] EntryContext &x, T &out) { \
        TABLE(MT_DEC_FIELD)                                                           \
    }
MT_ENTRY_DECODER(InfoEntry, MT_INFO_FIELDS)
MT_ENTRY_DECODER(Module, MT_MODULE_FIELDS)
MT_ENTRY_DECODER(Thread, MT_THREAD_FIELDS)
MT_ENTRY_DECODER(Class, MT_CLASS_FIELDS)
MT_ENTRY_DECODER(Stack, MT_STACK_FIELDS)
// Versions 1 and 2: a Stack without its shape.
struct StackV2 : Stack {};
MT_ENTRY_DECODER(StackV2, MT_STACK_FIELDS_V2)
MT_ENTRY_DECODER(Aggregate, MT_AGGREGATE_FIELDS)
MT_ENTRY_DECODER(GcEvent, MT_GC_FIELDS)
MT_ENTRY_DECODER(Death, MT_DEATH_FIELDS)
MT_ENTRY_DECODER(Mark, MT_MARK_FIELDS)
MT_ENTRY_DECODER(Frame, MT_FRAME_FIELDS)
MT_ENTRY_DECODER(Counters, MT_COUNTERS_FIELDS)
MT_ENTRY_DECODER(EndFields, MT_END_FIELDS)
#undef MT_ENTRY_DECODER

}  // namespace mt::reader::detail

#endif
