#include "session.h"

#include "text.h"

#include <memtracer/format.h>

#include <cmath>
#include <cstdlib>

namespace mt::reader::detail {
namespace {

double parse_tick_hz(const std::string &s, double fallback) {
    char *end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    return (!s.empty() && *end == '\0' && std::isfinite(v) && v > 0) ? v : fallback;
}

const char *end_reason_name(uint64_t r) {
    switch (r) {
    case MT_END_STOPPED: return "stopped";
    case MT_END_DISABLED: return "runtime disabled itself";
    case MT_END_THREAD_EXIT: return "process exit";
    default: return "unknown reason";
    }
}

}  // namespace

Session::Session(const uint8_t *data, size_t size, Header header, Visitor &visitor)
    : size_(size), header_(std::move(header)), visitor_(visitor),
      walker_(data, size, sizeof(mt_file_header)) {}

void Session::rebind(const uint8_t *data, size_t size, uint64_t base) {
    size_ = static_cast<size_t>(base + size);
    walker_ = ChunkWalker(data, size, walker_.pos(), base);
}

ReadResult Session::run(bool final) {
    Chunk chunk;
    StopAt stop;
    while (!ended_ && walker_.next(chunk, stop)) {
        Cursor c(chunk.payload, chunk.size);
        try {
            dispatch(chunk, c);
        } catch (const DecodeError &e) {
            stop = {Stop::Corrupt, chunk.offset, chunk_type_name(chunk.type) + " chunk at offset " +
                                                     std::to_string(chunk.offset) + ": " + e.what()};
            break;
        }
        if (walked_) walked_(walker_.pos());
    }
    if (final) send_header();
    if (!ended_) {
        result_.stop = stop.stop;
        result_.stop_offset = stop.offset;
        result_.stop_reason = std::move(stop.reason);
    }
    result_.uncommitted_events = frames_.uncommitted_records();
    if (!final) return result_;
    return std::move(result_);
}

void Session::dispatch(const Chunk &chunk, Cursor &c) {
    if (chunk.type == MT_CHUNK_INFO) return on_info(c);
    send_header();
    switch (chunk.type) {
    case MT_CHUNK_MODULES:
    case MT_CHUNK_THREADS:
    case MT_CHUNK_CLASSES:
    case MT_CHUNK_STACKS: return on_dictionary(chunk.type, c);
    case MT_CHUNK_EVENTS:
    case MT_CHUNK_AGGREGATES:
    case MT_CHUNK_GC:
    case MT_CHUNK_DEATHS:
    case MT_CHUNK_MARKS: return on_frame_data(chunk.type, c);
    case MT_CHUNK_FRAME: return on_frame(c);
    case MT_CHUNK_COUNTERS:
        result_.counters = decode_counters(c);
        c.finish();
        result_.has_counters = true;
        return;
    case MT_CHUNK_END: return on_end(chunk, c);
    default: c.fail("unknown chunk type (this reader knows 1 to 13)");
    }
}

void Session::on_info(Cursor &c) {
    if (header_sent_) c.fail("INFO must be the first chunk and appear once");
    header_.info = decode_info(c);
    c.finish();
    header_.tick_hz = parse_tick_hz(header_.info_value("tick_hz"), header_.tick_hz);
    send_header();
}

void Session::send_header() {
    if (header_sent_) return;
    header_sent_ = true;
    visitor_.on_header(header_);
}

// Each dictionary chunk is decoded whole before any entry is delivered, so damage in its tail
// cannot leave the visitor with half a chunk.
void Session::on_dictionary(uint16_t type, Cursor &c) {
    if (type == MT_CHUNK_MODULES) {
        auto v = decode_modules(c, dicts_.modules);
        c.finish();
        for (const Module &m : v) visitor_.on_module(m);
        dicts_.modules += v.size();
    } else if (type == MT_CHUNK_THREADS) {
        auto v = decode_threads(c, dicts_.threads);
        c.finish();
        for (const Thread &t : v) {
            visitor_.on_thread(t);
            if (t.id == dicts_.threads) ++dicts_.threads;
        }
    } else if (type == MT_CHUNK_CLASSES) {
        auto v = decode_classes(c, dicts_.classes);
        c.finish();
        for (const Class &k : v) visitor_.on_class(k);
        dicts_.classes += v.size();
    } else {
        auto v = decode_stacks(c, dicts_.stacks, header_.version);
        c.finish();
        for (const Stack &s : v) {
            visitor_.on_stack(s);
            dicts_.stack_shapes.push_back(StackShape{s.shape_class, s.shape_size, s.shape_gc_size});
        }
        dicts_.stacks += v.size();
    }
}

namespace {

// Decodes into the frame's own vector and cuts it back on failure: the chunk is all or nothing.
template <class T, class Decode>
void append_whole(std::vector<T> &v, Cursor &c, Decode decode) {
    size_t before = v.size();
    try {
        decode(v);
        c.finish();
    } catch (...) {
        v.resize(before);
        throw;
    }
}

}  // namespace

// The header decides which frame data may appear: a file read under the wrong mode would be
// ingested as empty (aggregate header, EVENTS chunks) or with its data silently ignored.
void Session::check_mode(uint16_t type) const {
    bool aggregate = (header_.flags & MT_FILE_FLAG_AGGREGATE) != 0;
    std::string why;
    if (type == MT_CHUNK_EVENTS && aggregate)
        why = "the file header says aggregate mode (flag 0x1 set), whose frames carry AGGREGATES chunks, not EVENTS";
    else if (type == MT_CHUNK_AGGREGATES && !aggregate)
        why = "the file header says events mode (flag 0x1 clear), whose frames carry EVENTS chunks, not AGGREGATES";
    else if (type == MT_CHUNK_GC && !(header_.flags & MT_FILE_FLAG_GC_EVENTS))
        why = "the file header does not set GC events (flag 0x10), so no GC chunk may appear";
    else if (type == MT_CHUNK_DEATHS && !(header_.flags & MT_FILE_FLAG_LIFETIMES))
        why = "the file header does not set lifetimes (flag 0x8), so no DEATHS chunk may appear";
    else if (type == MT_CHUNK_MARKS && header_.version < 2)
        why = "MARKS chunks appear from format version 2 on, this file is version " + std::to_string(header_.version);
    if (!why.empty()) throw DecodeError(why + " (header flags " + hex32(header_.flags) + ")");
}

void Session::on_frame_data(uint16_t type, Cursor &c) {
    check_mode(type);
    uint64_t seq = c.u("frame_seq");
    Frame *f = frames_.pending(seq);
    if (!f)
        c.fail("frame_seq " + std::to_string(seq) + " names a frame already committed (next is " +
               std::to_string(frames_.next_seq()) + ")");
    switch (type) {
    case MT_CHUNK_EVENTS: return append_whole(f->event_list, c, [&](auto &v) { decode_events(c, dicts_, header_.version, v); });
    case MT_CHUNK_AGGREGATES:
        return append_whole(f->aggregates, c, [&](auto &v) { decode_aggregates(c, dicts_, v); });
    case MT_CHUNK_GC: return append_whole(f->gcs, c, [&](auto &v) { decode_gcs(c, v); });
    case MT_CHUNK_MARKS: return append_whole(f->marks, c, [&](auto &v) { decode_marks(c, v); });
    default: return append_whole(f->deaths, c, [&](auto &v) { decode_deaths(c, dicts_, v); });
    }
}

void Session::on_frame(Cursor &c) {
    Frame fields;
    decode_frame_fields(c, fields);
    c.finish();
    if (fields.seq != frames_.next_seq())
        throw DecodeError("frame_seq is " + std::to_string(fields.seq) + ", expected " +
                          std::to_string(frames_.next_seq()) + " (frames are committed densely, in order)");
    check_count(fields);
    Frame f = frames_.commit(std::move(fields));
    visitor_.on_frame(f);
    ++result_.frames;
}

// The FRAME chunk counts the allocations it commits; the frame data read for it must record as
// many. A chunk written twice (or lost) keeps its CRC, so only this comparison catches it.
void Session::check_count(const Frame &fields) const {
    bool aggregate = (header_.flags & MT_FILE_FLAG_AGGREGATE) != 0;
    uint64_t held = frames_.held_allocations(fields.seq);
    if (held == fields.events) return;
    const char *data = aggregate ? "AGGREGATES" : "EVENTS";
    throw DecodeError("frame_seq " + std::to_string(fields.seq) + " (frame index " + std::to_string(fields.index) +
                      ") commits " + std::to_string(fields.events) + (aggregate ? " allocations" : " events") +
                      ", but its " + data + " chunks " + (aggregate ? "record " : "hold ") + std::to_string(held) +
                      ": an " + data + " chunk was duplicated or lost");
}

void Session::on_end(const Chunk &chunk, Cursor &c) {
    auto [reason, message] = decode_end(c);
    c.finish();
    ended_ = true;
    result_.stop = Stop::End;
    result_.stop_offset = chunk.end();
    result_.end_reason = static_cast<uint32_t>(reason);
    result_.end_message = message;
    result_.stop_reason = "END chunk at offset " + std::to_string(chunk.offset) + ": " + end_reason_name(reason) +
                          (message.empty() ? "" : " (" + message + ")");
    if (chunk.end() < size_)
        result_.stop_reason += "; " + std::to_string(size_ - chunk.end()) + " bytes after it were ignored";
}

}  // namespace mt::reader::detail
