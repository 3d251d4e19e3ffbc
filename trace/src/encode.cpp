// encode.cpp — the run.mt encoder (see trace_writer.h), driven by format.h's field tables. Chunks are assembled in place in the batch buffer: the
// 16-byte header is reserved first and patched with size and CRC once the payload is known.
#include "memtracer/trace_writer.h"
#include "memtracer/write_all.h"

#include "crc_fast.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

namespace mt::trace {

mt_arch host_arch() {
#if defined(__x86_64__)
    return MT_ARCH_X86_64;
#elif defined(__aarch64__)
    return MT_ARCH_ARM64;
#else
    return MT_ARCH_UNKNOWN;
#endif
}

// ---- ListEncoder ---------------------------------------------------------------------------

// One field of a format.h table, appended to `out` from record `r`; `prev` holds the DELTA
// fields' previous values (members named as the fields: tick, address).
#define MT_ENC_U(m) out.put_u(r.m);
#define MT_ENC_ID(m) out.put_u(r.m);
#define MT_ENC_TID(m) out.put_u(r.m);
#define MT_ENC_THREAD(m) out.put_u(r.m);
#define MT_ENC_CLASS(m) out.put_u(r.m);
#define MT_ENC_STACK(m) out.put_u(r.m);
#define MT_ENC_DELTA(m) out.put_s(static_cast<int64_t>(r.m - prev.m)); prev.m = r.m;
#define MT_ENC_GC_EXTRA(m) out.put_s(static_cast<int64_t>(r.m - r.size));
#define MT_ENC_STR(m) out.put_cstr(r.m);
#define MT_ENC_BYTES(m) out.put_u(r.m##_size); out.put_bytes(r.m, r.m##_size);
#define MT_ENC_PCS(m)                                              \
    out.put_u(r.depth);                                            \
    for (uint64_t i_ = 0, pc_ = 0; i_ < r.depth; pc_ = r.m[i_++]) \
        out.put_s(static_cast<int64_t>(r.m[i_] - pc_));
#define MT_ENC_FIELD(kind, m, label) MT_ENC_##kind(m)

namespace {
// One encoder per record type; tables without DELTA fields leave prev alone.
#define MT_ENTRY_ENCODER(R, TABLE)                                    \
    void encode_entry(Buf &out, const R &r, ListEncoder::Deltas &prev) { \
        (void)prev;                                                   \
        TABLE(MT_ENC_FIELD)                                           \
    }
MT_ENTRY_ENCODER(KeyValue, MT_INFO_FIELDS)
MT_ENTRY_ENCODER(ModuleRecord, MT_MODULE_FIELDS)
MT_ENTRY_ENCODER(ThreadRecord, MT_THREAD_FIELDS)
MT_ENTRY_ENCODER(ClassRecord, MT_CLASS_FIELDS)
MT_ENTRY_ENCODER(StackRecord, MT_STACK_FIELDS)
MT_ENTRY_ENCODER(MarkRecord, MT_MARK_FIELDS)
MT_ENTRY_ENCODER(EndRecord, MT_END_FIELDS)

// Tables of varints only (no strings, no frame lists) have a largest size known up front. The
// writer thread encodes one EVENTS entry per traced allocation and encode_entry was its largest
// symbol in perf (docs/benchmarks.md), a capacity check per field included: these reserve the
// entry's largest size once and write the varints through a bare cursor. Same bytes.
struct VarOut {
    uint8_t *p;
    void put_u(uint64_t v) { p += codec::put_varint(p, v); }
    void put_s(int64_t v) { put_u(codec::zigzag(v)); }
};
#define MT_VARINT_ENCODER(R, TABLE)                                                     \
    void encode_entry(Buf &buf, const R &r, ListEncoder::Deltas &prev) {                \
        (void)prev;                                                                     \
        uint8_t *w = buf.reserve(MT_FIELD_COUNT(TABLE) * codec::kMaxVarint);            \
        if (!w) return;                                                                 \
        VarOut out{w};                                                                  \
        TABLE(MT_ENC_FIELD)                                                             \
        buf.commit(static_cast<size_t>(out.p - w));                                     \
    }
// EventRecord: encode_events.cpp (version 3 entries predict fields from the chunk's earlier ones).
MT_VARINT_ENCODER(AggregateRecord, MT_AGGREGATE_FIELDS)
MT_VARINT_ENCODER(GcRecord, MT_GC_FIELDS)
MT_VARINT_ENCODER(DeathRecord, MT_DEATH_FIELDS)
MT_VARINT_ENCODER(FrameRecord, MT_FRAME_FIELDS)
MT_VARINT_ENCODER(CountersRecord, MT_COUNTERS_FIELDS)
}  // namespace

void ListEncoder::begin(uint64_t base_tick) {
    body_.reset();
    count_ = 0;
    prev_.tick = base_tick;
    prev_.address = 0;
    if (predict_) predict_->reset();
}

ListEncoder::~ListEncoder() { free(predict_); }

#define MT_LIST_ADD(R)                    \
    void ListEncoder::add(const R &r) {   \
        encode_entry(body_, r, prev_);    \
        ++count_;                         \
    }
MT_LIST_ADD(ModuleRecord)
MT_LIST_ADD(ThreadRecord)
MT_LIST_ADD(ClassRecord)
MT_LIST_ADD(StackRecord)
MT_LIST_ADD(AggregateRecord)
MT_LIST_ADD(GcRecord)
MT_LIST_ADD(DeathRecord)
MT_LIST_ADD(MarkRecord)

// ---- TraceWriter: file -------------------------------------------------------------------

TraceWriter::~TraceWriter() { close(); }

bool TraceWriter::open(const char *path) {
    close();
    snprintf(path_, sizeof path_, "%s", path ? path : "");
    int fd = ::open(path_, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        fail("cannot create", errno);
        return false;
    }
    fd_ = fd;
    owned_ = true;
    written_ = 0;
    errno_ = 0;
    error_[0] = 0;
    return true;
}

void TraceWriter::attach(int fd) {
    close();
    snprintf(path_, sizeof path_, "fd %d", fd);
    fd_ = fd;
    owned_ = false;
    written_ = 0;
}

void TraceWriter::close() {
    if (fd_ >= 0 && owned_) ::close(fd_);
    fd_ = -1;
    owned_ = false;
    batch_.reset();
}

void TraceWriter::fail(const char *what, int err) {
    errno_ = err;
    snprintf(error_, sizeof error_, "%s %s: %s (after %llu bytes)", what, path_,
             err ? strerror(err) : "out of memory", static_cast<unsigned long long>(written_));
}

bool TraceWriter::flush() {
    if (batch_.failed() || oversize_) {
        fail(oversize_ ? "chunk over MT_MAX_CHUNK_PAYLOAD for" : "no memory to encode", 0);
        batch_.reset();
        oversize_ = false;
        return false;
    }
    if (int err = write_all(fd_, batch_.data(), batch_.size())) {
        // Cut the partial batch off so the file still ends on a chunk boundary. Devices
        // such as /dev/full cannot be truncated; there nothing reached the disk anyway.
        if (ftruncate(fd_, static_cast<off_t>(written_)) == 0) lseek(fd_, static_cast<off_t>(written_), SEEK_SET);
        fail("write to", err);
        batch_.reset();
        return false;
    }
    written_ += batch_.size();
    batch_.clear();
    return true;
}

// ---- TraceWriter: chunks -----------------------------------------------------------------

size_t TraceWriter::begin_chunk(uint16_t type) {
    size_t at = batch_.size();
    uint8_t *h = batch_.reserve(sizeof(mt_chunk_header));
    if (!h) return at;
    codec::put_le32(h + offsetof(mt_chunk_header, magic), MT_CHUNK_MAGIC);
    codec::put_le16(h + offsetof(mt_chunk_header, type), type);
    codec::put_le16(h + offsetof(mt_chunk_header, flags), 0);
    batch_.commit(sizeof(mt_chunk_header));
    return at;
}

void TraceWriter::end_chunk(size_t at) {
    if (batch_.failed()) return;
    uint8_t *h = batch_.data() + at;
    size_t payload = batch_.size() - at - sizeof(mt_chunk_header);
    if (payload > MT_MAX_CHUNK_PAYLOAD) {
        oversize_ = true;  // reported by the next flush(); a reader would refuse the chunk
        return;
    }
    uint32_t size = static_cast<uint32_t>(payload);
    codec::put_le32(h + offsetof(mt_chunk_header, size), size);
    codec::put_le32(h + offsetof(mt_chunk_header, crc),
                    chunk_crc_fast(codec::get_le16(h + offsetof(mt_chunk_header, type)), 0, size, h + sizeof(mt_chunk_header)));
}

void TraceWriter::header(const FileHeaderParams &p) {
    uint8_t *h = batch_.reserve(sizeof(mt_file_header));
    if (!h) return;
    memset(h, 0, sizeof(mt_file_header));
    // Offsets from format.h's struct (never restated here); little-endian whatever the host.
#define MT_AT(field) (h + offsetof(mt_file_header, field))
    memcpy(MT_AT(magic), MT_FORMAT_MAGIC, 8);
    codec::put_le32(MT_AT(version), MT_FORMAT_VERSION);
    codec::put_le32(MT_AT(header_size), sizeof(mt_file_header));
    for (int i = 0; i < 8; ++i) MT_AT(start_unix_ns)[i] = static_cast<uint8_t>(p.start_unix_ns >> (8 * i));
    for (int i = 0; i < 8; ++i) MT_AT(sample_interval_bytes)[i] = static_cast<uint8_t>(p.sample_interval_bytes >> (8 * i));
    codec::put_le32(MT_AT(flags), p.flags);
    codec::put_le32(MT_AT(pid), p.pid ? p.pid : static_cast<uint32_t>(getpid()));
    codec::put_le16(MT_AT(pointer_size), p.pointer_size);
    codec::put_le16(MT_AT(max_stack_depth), p.max_stack_depth);
    codec::put_le32(MT_AT(arch), p.arch);
    codec::put_le32(MT_AT(header_crc), codec::crc32c_update(0, h, offsetof(mt_file_header, header_crc)));
#undef MT_AT
    batch_.commit(sizeof(mt_file_header));
}

void TraceWriter::info(const KeyValue *kv, size_t n) {
    size_t at = begin_chunk(MT_CHUNK_INFO);
    batch_.put_u(n);
    ListEncoder::Deltas none;
    for (size_t i = 0; i < n; ++i) encode_entry(batch_, kv[i], none);
    end_chunk(at);
}

void TraceWriter::list_chunk(uint16_t type, bool has_seq, uint64_t seq, const ListEncoder &l) {
    if (l.failed()) {
        batch_.set_failed();  // an entry was lost to memory: the next flush() reports it
        return;
    }
    size_t at = begin_chunk(type);
    if (has_seq) batch_.put_u(seq);
    batch_.put_u(l.count());
    batch_.put_bytes(l.body().data(), l.bytes());
    end_chunk(at);
}

void TraceWriter::dict_list(uint16_t type, const ListEncoder &l) { list_chunk(type, false, 0, l); }

void TraceWriter::frame_list(uint16_t type, uint64_t frame_seq, const ListEncoder &l) {
    list_chunk(type, true, frame_seq, l);
}

// The whole list of one chunk at once; a dictionary chunk (framed false) has no frame_seq.
template <class T>
static void write_list(TraceWriter &w, uint16_t type, bool framed, uint64_t frame_seq, const T *items,
                       size_t n, uint64_t base_tick = 0) {
    ListEncoder l;
    l.begin(base_tick);
    for (size_t i = 0; i < n; ++i) l.add(items[i]);
    if (framed) w.frame_list(type, frame_seq, l);
    else w.dict_list(type, l);
}

void TraceWriter::modules(const ModuleRecord *m, size_t n) { write_list(*this, MT_CHUNK_MODULES, false, 0, m, n); }
void TraceWriter::threads(const ThreadRecord *t, size_t n) { write_list(*this, MT_CHUNK_THREADS, false, 0, t, n); }
void TraceWriter::classes(const ClassRecord *c, size_t n) { write_list(*this, MT_CHUNK_CLASSES, false, 0, c, n); }
void TraceWriter::stacks(const StackRecord *s, size_t n) { write_list(*this, MT_CHUNK_STACKS, false, 0, s, n); }

void TraceWriter::events(uint64_t frame_seq, uint64_t frame_start_tick, const EventRecord *e, size_t n) {
    write_list(*this, MT_CHUNK_EVENTS, true, frame_seq, e, n, frame_start_tick);
}
void TraceWriter::aggregates(uint64_t frame_seq, const AggregateRecord *a, size_t n) {
    write_list(*this, MT_CHUNK_AGGREGATES, true, frame_seq, a, n);
}
void TraceWriter::gc(uint64_t frame_seq, const GcRecord *g, size_t n) {
    write_list(*this, MT_CHUNK_GC, true, frame_seq, g, n);
}
void TraceWriter::deaths(uint64_t frame_seq, const DeathRecord *d, size_t n) {
    write_list(*this, MT_CHUNK_DEATHS, true, frame_seq, d, n);
}

void TraceWriter::marks(uint64_t frame_seq, const MarkRecord *m, size_t n) {
    write_list(*this, MT_CHUNK_MARKS, true, frame_seq, m, n);
}

void TraceWriter::frame(const FrameRecord &f) {
    size_t at = begin_chunk(MT_CHUNK_FRAME);
    ListEncoder::Deltas none;
    encode_entry(batch_, f, none);
    end_chunk(at);
}

void TraceWriter::counters(const CountersRecord &c) {
    size_t at = begin_chunk(MT_CHUNK_COUNTERS);
    ListEncoder::Deltas none;
    encode_entry(batch_, c, none);
    end_chunk(at);
}

void TraceWriter::end(uint32_t reason, const char *message) {
    size_t at = begin_chunk(MT_CHUNK_END);
    ListEncoder::Deltas none;
    encode_entry(batch_, EndRecord{reason, message}, none);
    end_chunk(at);
}

}  // namespace mt::trace
