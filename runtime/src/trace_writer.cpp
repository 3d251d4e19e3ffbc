// trace_writer.cpp — see trace_writer.h. Chunks are assembled in place in the batch buffer: the
// 16-byte header is reserved first and patched with size and CRC once the payload is known.
#include "trace_writer.h"

#include "crc_fast.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

namespace mt::rt {

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

void ListEncoder::begin(uint64_t base_tick) {
    body_.reset();
    count_ = 0;
    prev_tick_ = base_tick;
    prev_addr_ = 0;
}

void ListEncoder::add(const ModuleRecord &m) {
    body_.put_u(m.id);
    body_.put_u(m.kind);
    body_.put_cstr(m.path);
    body_.put_u(m.load_address);
    body_.put_u(m.size);
    body_.put_u(m.bias);
    body_.put_u(m.text_vmaddr);
    body_.put_u(m.build_id_size);
    body_.put_bytes(m.build_id, m.build_id_size);
    ++count_;
}

void ListEncoder::add(const ThreadRecord &t) {
    body_.put_u(t.id);
    body_.put_u(t.os_tid);
    body_.put_cstr(t.name);
    ++count_;
}

void ListEncoder::add(const ClassRecord &c) {
    body_.put_u(c.id);
    body_.put_u(c.klass);
    body_.put_cstr(c.name);
    body_.put_cstr(c.name_space);
    body_.put_u(c.flags);
    body_.put_u(c.element_size);
    ++count_;
}

void ListEncoder::add(const StackRecord &s) {
    body_.put_u(s.id);
    body_.put_u(s.depth);
    uint64_t prev = 0;
    for (uint32_t i = 0; i < s.depth; ++i) {
        body_.put_s(static_cast<int64_t>(s.frames[i] - prev));
        prev = s.frames[i];
    }
    ++count_;
}

void ListEncoder::add(const EventRecord &e) {
    body_.put_u(e.thread);
    body_.put_s(static_cast<int64_t>(e.tick - prev_tick_));
    body_.put_u(e.class_id);
    body_.put_u(e.stack_id);
    body_.put_u(e.size);
    body_.put_s(static_cast<int64_t>(e.gc_size - e.size));
    body_.put_s(static_cast<int64_t>(e.address - prev_addr_));
    prev_tick_ = e.tick;
    prev_addr_ = e.address;
    ++count_;
}

void ListEncoder::add(const AggregateRecord &a) {
    body_.put_u(a.class_id);
    body_.put_u(a.stack_id);
    body_.put_u(a.count);
    body_.put_u(a.requested_bytes);
    body_.put_u(a.gc_bytes);
    body_.put_u(a.samples);
    ++count_;
}

void ListEncoder::add(const GcRecord &g) {
    body_.put_u(g.start_tick);
    body_.put_u(g.end_tick);
    body_.put_u(g.heap_size);
    body_.put_u(g.free_bytes);
    body_.put_u(g.reclaimed_bytes);
    body_.put_u(g.gc_no);
    ++count_;
}

void ListEncoder::add(const DeathRecord &d) {
    body_.put_s(static_cast<int64_t>(d.address - prev_addr_));
    body_.put_u(d.alloc_frame_seq);
    body_.put_u(d.class_id);
    body_.put_u(d.stack_id);
    body_.put_u(d.gc_size);
    prev_addr_ = d.address;
    ++count_;
}

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
    const uint8_t *p = batch_.data();
    size_t left = batch_.size();
    while (left > 0) {
        ssize_t n = ::write(fd_, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            int err = n < 0 ? errno : EIO;
            // Cut the partial batch off so the file still ends on a chunk boundary. Devices
            // such as /dev/full cannot be truncated; there nothing reached the disk anyway.
            if (ftruncate(fd_, static_cast<off_t>(written_)) == 0) lseek(fd_, static_cast<off_t>(written_), SEEK_SET);
            fail("write to", err);
            batch_.reset();
            return false;
        }
        p += n;
        left -= static_cast<size_t>(n);
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
    codec::put_le32(h, MT_CHUNK_MAGIC);
    codec::put_le16(h + 4, type);
    codec::put_le16(h + 6, 0);
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
    codec::put_le32(h + 8, size);
    codec::put_le32(h + 12, chunk_crc_fast(codec::get_le16(h + 4), 0, size, h + sizeof(mt_chunk_header)));
}

void TraceWriter::header(const FileHeaderParams &p) {
    uint8_t *h = batch_.reserve(sizeof(mt_file_header));
    if (!h) return;
    memset(h, 0, sizeof(mt_file_header));
    memcpy(h, MT_FORMAT_MAGIC, 8);
    codec::put_le32(h + 8, MT_FORMAT_VERSION);
    codec::put_le32(h + 12, sizeof(mt_file_header));
    for (int i = 0; i < 8; ++i) h[16 + i] = static_cast<uint8_t>(p.start_unix_ns >> (8 * i));
    for (int i = 0; i < 8; ++i) h[24 + i] = static_cast<uint8_t>(p.sample_interval_bytes >> (8 * i));
    codec::put_le32(h + 32, p.flags);
    codec::put_le32(h + 36, p.pid ? p.pid : static_cast<uint32_t>(getpid()));
    codec::put_le16(h + 40, p.pointer_size);
    codec::put_le16(h + 42, p.max_stack_depth);
    codec::put_le32(h + 44, p.arch);
    codec::put_le32(h + 60, codec::crc32c_update(0, h, 60));
    batch_.commit(sizeof(mt_file_header));
}

void TraceWriter::info(const KeyValue *kv, size_t n) {
    size_t at = begin_chunk(MT_CHUNK_INFO);
    batch_.put_u(n);
    for (size_t i = 0; i < n; ++i) {
        batch_.put_cstr(kv[i].key);
        batch_.put_cstr(kv[i].value);
    }
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

template <class T>
static void encode_all(ListEncoder &l, const T *items, size_t n, uint64_t base_tick = 0) {
    l.begin(base_tick);
    for (size_t i = 0; i < n; ++i) l.add(items[i]);
}

void TraceWriter::modules(const ModuleRecord *m, size_t n) {
    ListEncoder l;
    encode_all(l, m, n);
    dict_list(MT_CHUNK_MODULES, l);
}

void TraceWriter::threads(const ThreadRecord *t, size_t n) {
    ListEncoder l;
    encode_all(l, t, n);
    dict_list(MT_CHUNK_THREADS, l);
}

void TraceWriter::classes(const ClassRecord *c, size_t n) {
    ListEncoder l;
    encode_all(l, c, n);
    dict_list(MT_CHUNK_CLASSES, l);
}

void TraceWriter::stacks(const StackRecord *s, size_t n) {
    ListEncoder l;
    encode_all(l, s, n);
    dict_list(MT_CHUNK_STACKS, l);
}

void TraceWriter::events(uint64_t frame_seq, uint64_t frame_start_tick, const EventRecord *e, size_t n) {
    ListEncoder l;
    encode_all(l, e, n, frame_start_tick);
    frame_list(MT_CHUNK_EVENTS, frame_seq, l);
}

void TraceWriter::aggregates(uint64_t frame_seq, const AggregateRecord *a, size_t n) {
    ListEncoder l;
    encode_all(l, a, n);
    frame_list(MT_CHUNK_AGGREGATES, frame_seq, l);
}

void TraceWriter::gc(uint64_t frame_seq, const GcRecord *g, size_t n) {
    ListEncoder l;
    encode_all(l, g, n);
    frame_list(MT_CHUNK_GC, frame_seq, l);
}

void TraceWriter::deaths(uint64_t frame_seq, const DeathRecord *d, size_t n) {
    ListEncoder l;
    encode_all(l, d, n);
    frame_list(MT_CHUNK_DEATHS, frame_seq, l);
}

void TraceWriter::frame(const FrameRecord &f) {
    size_t at = begin_chunk(MT_CHUNK_FRAME);
    const uint64_t fields[] = {f.seq, f.index, f.start_tick, f.end_tick, f.events, f.requested_bytes,
                               f.gc_bytes, f.dropped, f.heap_size, f.free_bytes, f.flags};
    for (uint64_t v : fields) batch_.put_u(v);
    end_chunk(at);
}

void TraceWriter::counters(const mt_counters &c) {
    size_t at = begin_chunk(MT_CHUNK_COUNTERS);
    const uint64_t fields[] = {c.allocations_seen, c.events_recorded, c.events_dropped, c.events_sampled_out,
                               c.events_written, c.bytes_written, c.frames_written, c.stacks_known,
                               c.classes_known, c.threads_known, c.last_flush_unix_ns,
                               c.last_flush_duration_ns, c.reentrant_skipped, c.running, c.paused,
                               c.disabled, c.reserved};
    for (uint64_t v : fields) batch_.put_u(v);
    end_chunk(at);
}

void TraceWriter::end(uint32_t reason, const char *message) {
    size_t at = begin_chunk(MT_CHUNK_END);
    batch_.put_u(reason);
    batch_.put_cstr(message);
    end_chunk(at);
}

}  // namespace mt::rt
