// libFuzzer target for the reader (MEMTRACER_FUZZ=ON with clang). Any input must either throw
// FormatError (header) or come back with a stop and a reason; whatever is delivered must be
// self-consistent: frames dense from 0, every reference naming something defined, each frame's
// count equal to the allocations delivered with it, and only the frame data the header allows.
#include "memtracer/codec.h"

#include <memtracer/format.h>
#include <memtracer/reader.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace {

void require(bool ok) {
    if (!ok) __builtin_trap();
}

void check_frame(const mt::reader::Run &run, const mt::reader::Frame &f, uint64_t seq) {
    require(f.seq == seq);
    for (const auto &e : f.event_list)
        require(e.thread < run.threads.size() && e.class_id < run.classes.size() && e.stack_id < run.stacks.size());
    for (const auto &a : f.aggregates) require(a.class_id < run.classes.size() && a.stack_id < run.stacks.size());
    for (const auto &d : f.deaths) require(d.class_id < run.classes.size() && d.stack_id < run.stacks.size());
    uint32_t flags = run.header.flags;
    uint64_t held = f.event_list.size();
    for (const auto &a : f.aggregates) held += a.samples;
    require(held == f.events);
    require((flags & MT_FILE_FLAG_AGGREGATE) ? f.event_list.empty() : f.aggregates.empty());
    require(f.gcs.empty() || (flags & MT_FILE_FLAG_GC_EVENTS));
    require(f.deaths.empty() || (flags & MT_FILE_FLAG_LIFETIMES));
}

// Mutations almost never keep a CRC right, which would leave the decoders behind the CRC check
// unexplored. So each input is also read with every complete chunk (and the header) re-signed.
std::vector<uint8_t> resigned(const uint8_t *data, size_t size) {
    std::vector<uint8_t> b(data, data + size);
    if (size < 64) return b;
    mt::codec::put_le32(b.data() + 60, mt::codec::crc32c_update(0, b.data(), 60));
    for (size_t at = 64; size - at >= 16;) {
        uint8_t *h = b.data() + at;
        uint32_t n = mt::codec::get_le32(h + 8);
        if (size - at - 16 < n) break;
        mt::codec::put_le32(h + 12, mt::codec::chunk_crc(mt::codec::get_le16(h + 4), mt::codec::get_le16(h + 6), n, h + 16));
        at += 16 + static_cast<size_t>(n);
    }
    return b;
}

void read_and_check(const uint8_t *data, size_t size) {
    mt::reader::Run run;
    try {
        run = mt::reader::load_buffer(data, size);
    } catch (const mt::reader::FormatError &) {
        return;
    }
    const mt::reader::ReadResult &r = run.result;
    require(r.frames == run.frames.size());
    require(r.stop_offset >= 64 && r.stop_offset <= size);
    require(!r.stop_reason.empty());
    for (uint64_t i = 0; i < run.frames.size(); ++i) check_frame(run, run.frames[i], i);
    for (size_t i = 0; i < run.classes.size(); ++i) require(run.classes[i].id == i);
    for (size_t i = 0; i < run.stacks.size(); ++i) require(run.stacks[i].id == i);
    for (size_t i = 0; i < run.modules.size(); ++i) require(run.modules[i].id == i);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    read_and_check(data, size);
    std::vector<uint8_t> fixed = resigned(data, size);
    read_and_check(fixed.data(), fixed.size());
    return 0;
}
