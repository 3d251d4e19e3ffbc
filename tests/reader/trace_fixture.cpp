#include "trace_fixture.h"

#include "memtracer/codec.h"

#include <memtracer/format.h>

#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <sys/mman.h>
#include <unistd.h>

namespace mt::test {

MemTrace::MemTrace() : fd_(memfd_create("run.mt", MFD_CLOEXEC)) {
    if (fd_ < 0) throw std::runtime_error("memfd_create failed");
    w.attach(fd_);
}

MemTrace::~MemTrace() { ::close(fd_); }

void MemTrace::chunk() {
    if (!w.flush()) throw std::runtime_error(w.error());
    boundaries.push_back(w.bytes_written());
}

std::vector<uint8_t> MemTrace::bytes() const {
    std::vector<uint8_t> out(w.bytes_written());
    if (pread(fd_, out.data(), out.size(), 0) != static_cast<ssize_t>(out.size()))
        throw std::runtime_error("pread of the memfd failed");
    return out;
}

namespace {

// Writes each chunk through the real encoder and mirrors it into the Run a reader must return.
class SampleBuilder {
public:
    explicit SampleBuilder(const SampleOptions &opt) : opt_(opt) {}
    Sample build();

private:
    void header();
    void dictionaries();
    void late_dictionaries(uint64_t after_seq);
    void frame(uint64_t seq);
    void frame_data(uint64_t seq, uint64_t start, int chunk);
    void events(uint64_t seq, uint64_t start, const std::vector<trace::EventRecord> &ev);
    void commit(uint64_t seq, uint64_t index, uint64_t start);
    void finish();

    SampleOptions opt_;
    MemTrace t_;
    Sample s_;
    std::map<uint64_t, reader::Frame> pending_;
};

void SampleBuilder::header() {
    trace::FileHeaderParams hp;
    hp.start_unix_ns = 1700000000123456789ull;
    hp.flags = MT_FILE_FLAG_GC_EVENTS | MT_FILE_FLAG_LIFETIMES | (opt_.aggregate ? MT_FILE_FLAG_AGGREGATE : 0);
    hp.pid = 4242;
    hp.max_stack_depth = 16;
    hp.arch = MT_ARCH_X86_64;
    t_.w.header(hp);
    t_.chunk();
    reader::Header &h = s_.expected.header;
    h.version = MT_FORMAT_VERSION;
    h.start_unix_ns = hp.start_unix_ns;
    h.flags = hp.flags;
    h.pid = hp.pid;
    h.pointer_size = 8;
    h.max_stack_depth = 16;
    h.arch = MT_ARCH_X86_64;
    h.info = {{"process", "SampleGame"}, {"os", "Linux"}, {"tick_hz", "1000000"},
              {"mode", opt_.aggregate ? "aggregate" : "events"},
              {"session_label", "level \"1\"\n\tGr\xc3\xb6\xc3\x9f" "e \\ \x01"}};
    h.tick_hz = 1e6;
    std::vector<trace::KeyValue> kv;
    for (auto &[k, v] : h.info) kv.push_back({k.c_str(), v.c_str()});
    t_.w.info(kv.data(), kv.size());
    t_.chunk();
}

const uint8_t kBuildId[20] = {0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
const uint64_t kPcs[][3] = {{0x55550000a123, 0x555500009000, 0x55550000b000},
                            {0x7f1200001000, 0x55550000a000, 0},
                            {0x555500001111, 0, 0},
                            {0x55550000c000, 0x55550000c100, 0x55550000c004}};

void SampleBuilder::dictionaries() {
    trace::ModuleRecord m[2] = {{0, MT_MODULE_ELF, "/opt/game/libil2cpp.so", 0x555500000000, 0x100000, 0x555500000000, 0,
                              kBuildId, 20},
                             {1, MT_MODULE_MACHO, "/usr/lib/libc.so.6", 0x7f1200000000, 0x200000, 0x7f1200000000,
                              0x1000, kBuildId, 16}};
    trace::ThreadRecord th[2] = {{0, 4242, "main"}, {1, 4243, "worker"}};
    trace::ClassRecord cl[3] = {{0, 0x7f0000001000, "String", "System", MT_CLASS_STRING, 0},
                             {1, 0x7f0000002000, "Int32[]", "System", MT_CLASS_ARRAY, 4},
                             {2, 0x7f0000003000, "Enemy", "Game", 0, 0}};
    trace::StackRecord st[4] = {{0, kPcs[0], 3}, {1, kPcs[1], 2}, {2, kPcs[2], 1}, {3, kPcs[3], 3}};
    t_.w.modules(m, 2);
    t_.w.threads(th, 2);
    t_.w.classes(cl, 3);
    t_.w.stacks(st, 4);
    t_.chunk();  // one write, four chunks: the boundaries inside it are recorded below
    reader::Run &r = s_.expected;
    for (auto &x : m) r.modules.push_back({x.id, x.kind, x.path, x.load_address, x.size, x.bias, x.text_vmaddr,
                                           std::vector<uint8_t>(x.build_id, x.build_id + x.build_id_size)});
    for (auto &x : th) r.threads.push_back({x.id, x.os_tid, x.name});
    for (auto &x : cl) r.classes.push_back({x.id, x.klass, x.name, x.name_space, x.flags, x.element_size});
    for (auto &x : st) r.stacks.push_back({x.id, std::vector<uint64_t>(x.frames, x.frames + x.depth)});
}

// After frame 1: a thread renamed and one added; after frame 2: a module and a class loaded.
void SampleBuilder::late_dictionaries(uint64_t after_seq) {
    reader::Run &r = s_.expected;
    if (after_seq == 1) {
        // An invalid UTF-8 byte in a name: dump's JSON must still be valid.
        trace::ThreadRecord th[2] = {{1, 4243, "worker-renamed"}, {2, 4250, "loader\xff"}};
        t_.w.threads(th, 2);
        r.threads[1].name = "worker-renamed";
        r.threads.push_back({2, 4250, "loader\xff"});
    } else if (after_seq == 2) {
        trace::ModuleRecord m{2, MT_MODULE_ELF, "/opt/game/libplugin.so", 0x7f3300000000, 0x8000, 0x7f3300000000, 0,
                           nullptr, 0};
        trace::ClassRecord cl{3, 0x7f0000004000, "Bullet", "Game.Weapons", MT_CLASS_VALUE_TYPE, 0};
        t_.w.modules(&m, 1);
        t_.chunk();
        t_.w.classes(&cl, 1);
        r.modules.push_back({2, MT_MODULE_ELF, m.path, m.load_address, m.size, m.bias, 0, {}});
        r.classes.push_back({3, cl.klass, cl.name, cl.name_space, cl.flags, 0});
    } else {
        return;
    }
    t_.chunk();
}

void SampleBuilder::events(uint64_t seq, uint64_t start, const std::vector<trace::EventRecord> &ev) {
    t_.w.events(seq, start, ev.data(), ev.size());
    for (auto &e : ev)
        pending_[seq].event_list.push_back({e.thread, e.tick, e.class_id, e.stack_id, e.size, e.gc_size, e.address});
}

void SampleBuilder::frame_data(uint64_t seq, uint64_t start, int chunk) {
    uint32_t th = seq >= 2 ? 2 : 1, cl = seq >= 3 ? 3 : 2;
    if (opt_.aggregate) {
        trace::AggregateRecord a[2] = {{cl, 3, 10 + seq, 320 + seq, 480, 10 + seq},
                                    {0, static_cast<uint32_t>(chunk), 1, 24, 32, 1}};
        t_.w.aggregates(seq, a, 2);
        for (auto &x : a)
            pending_[seq].aggregates.push_back({x.class_id, x.stack_id, x.count, x.requested_bytes, x.gc_bytes,
                                                x.samples});
        return;
    }
    uint64_t base = 0x7f4400000000 + seq * 0x10000 + static_cast<uint64_t>(chunk) * 0x800;
    // Ticks go backwards between threads and addresses jump down: negative zigzag deltas.
    events(seq, start, {{0, start + 5, 0, 0, 32, 48, base + 0x100},
                        {th, start + 3, 1, 1, 100, 112, base},
                        {0, start + 900 + seq, cl, 2, 24, 32, base + 0x7000},
                        {th, start + 901, 0, 3, 0, 16, base - 0x20}});
}

void SampleBuilder::commit(uint64_t seq, uint64_t index, uint64_t start) {
    reader::Frame f = std::move(pending_[seq]);
    pending_.erase(seq);
    f.seq = seq;
    f.index = index;
    f.start_tick = start;
    f.end_tick = start + 16000;
    f.events = opt_.aggregate ? 0 : f.event_list.size();
    for (auto &a : f.aggregates) f.events += a.count;
    for (auto &e : f.event_list) f.requested_bytes += e.size, f.gc_bytes += e.gc_size;
    f.dropped = seq == 4 ? 3 : 0;
    f.heap_size = 1u << 20;
    f.free_bytes = (1u << 19) - seq;
    f.flags = seq == 5 ? MT_FRAME_FINAL : 0;
    trace::FrameRecord r;
    r.seq = f.seq, r.index = f.index, r.start_tick = f.start_tick, r.end_tick = f.end_tick;
    r.events = f.events, r.requested_bytes = f.requested_bytes, r.gc_bytes = f.gc_bytes, r.dropped = f.dropped;
    r.heap_size = f.heap_size, r.free_bytes = f.free_bytes, r.flags = f.flags;
    t_.w.frame(r);
    t_.chunk();
    s_.frame_ends.push_back(t_.boundaries.back());
    s_.expected.frames.push_back(std::move(f));
}

void SampleBuilder::frame(uint64_t seq) {
    uint64_t start = 1000 + seq * 16667, index = 100 + seq * 2;
    if (seq != 3 && seq != 5) {  // frame 3 is empty; frame 5's data came with frame 4
        frame_data(seq, start, 0);
        t_.chunk();
        frame_data(seq, start, 1);
        t_.chunk();
    }
    if (seq == 2 || seq == 4) {
        trace::GcRecord g{start + 100, start + 400, 1u << 20, 1u << 18, 4096 * seq, seq};
        t_.w.gc(seq, &g, 1);
        t_.chunk();
        pending_[seq].gcs.push_back({g.start_tick, g.end_tick, g.heap_size, g.free_bytes, g.reclaimed_bytes, g.gc_no});
    }
    if (seq == 2 || seq == 3) {  // frame 3 has nothing but its mark
        trace::MarkRecord m{start + 50, seq == 2 ? "level loaded" : "boss spawned"};
        t_.w.marks(seq, &m, 1);
        t_.chunk();
        pending_[seq].marks.push_back({m.tick, m.label});
    }
    if (seq == 4) {
        trace::DeathRecord d[2] = {{0x7f4400010100, 1, 0, 0, 48}, {0x7f4400000000, 0, 1, 1, 112}};
        t_.w.deaths(seq, d, 2);
        t_.chunk();
        for (auto &x : d) pending_[seq].deaths.push_back({x.address, x.alloc_frame_seq, x.class_id, x.stack_id, x.gc_size});
        frame_data(5, 1000 + 5 * 16667, 0);  // next frame's data before this frame's commit
        t_.chunk();
    }
    commit(seq, index, start);
    late_dictionaries(seq);
}

void SampleBuilder::finish() {
    reader::ReadResult &res = s_.expected.result;
    res.frames = s_.expected.frames.size();
    if (!opt_.with_end) {
        res.stop = reader::Stop::Eof;
        res.stop_offset = t_.boundaries.back();
        return;
    }
    trace::CountersRecord c{};
    c.allocations_seen = 40, c.events_recorded = 38, c.events_dropped = 3, c.events_written = 36;
    c.frames_written = 6, c.stacks_known = 4, c.classes_known = 4, c.threads_known = 3, c.running = 0;
    t_.w.counters(c);
    t_.chunk();
    t_.w.end(MT_END_STOPPED, "mt_stop");
    t_.chunk();
    res.has_counters = true;
    res.counters = {40, 38, 3, 0, 36, 0, 6, 4, 4, 3, 0, 0, 0, 0, 0, 0, 0};
    res.stop = reader::Stop::End;
    res.stop_offset = t_.boundaries.back();
    res.end_reason = MT_END_STOPPED;
    res.end_message = "mt_stop";
}

Sample SampleBuilder::build() {
    header();
    dictionaries();
    for (uint64_t seq = 0; seq < 6; ++seq) frame(seq);
    finish();
    s_.bytes = t_.bytes();
    s_.boundaries = t_.boundaries;
    return std::move(s_);
}

}  // namespace

Sample make_sample(const SampleOptions &opt) {
    Sample s = SampleBuilder(opt).build();
    s.boundaries = map_chunks(s.bytes).boundaries;  // the dictionaries went out in one flush
    return s;
}

ChunkMap map_chunks(const std::vector<uint8_t> &bytes) {
    ChunkMap m;
    for (uint64_t at = sizeof(mt_file_header); at < bytes.size();) {
        m.boundaries.push_back(at);
        uint16_t type = codec::get_le16(bytes.data() + at + 4);
        at += sizeof(mt_chunk_header) + codec::get_le32(bytes.data() + at + 8);
        if (type == MT_CHUNK_FRAME) m.frame_ends.push_back(at);
    }
    m.boundaries.push_back(bytes.size());
    return m;
}

std::vector<uint8_t> header_bytes(uint32_t flags) {
    MemTrace t;
    trace::FileHeaderParams hp;
    hp.flags = flags;
    t.w.header(hp);
    t.chunk();
    return t.bytes();
}

Payload &Payload::u(uint64_t v) {
    uint8_t tmp[codec::kMaxVarint];
    b.insert(b.end(), tmp, tmp + codec::put_varint(tmp, v));
    return *this;
}
Payload &Payload::s(int64_t v) { return u(codec::zigzag(v)); }
Payload &Payload::str(const std::string &v) {
    u(v.size());
    b.insert(b.end(), v.begin(), v.end());
    return *this;
}
Payload &Payload::raw(std::initializer_list<uint8_t> bytes) {
    b.insert(b.end(), bytes);
    return *this;
}

void raw_chunk(std::vector<uint8_t> &out, uint16_t type, const std::vector<uint8_t> &payload) {
    uint8_t h[sizeof(mt_chunk_header)];
    uint32_t size = static_cast<uint32_t>(payload.size());
    codec::put_le32(h, MT_CHUNK_MAGIC);
    codec::put_le16(h + 4, type);
    codec::put_le16(h + 6, 0);
    codec::put_le32(h + 8, size);
    codec::put_le32(h + 12, codec::chunk_crc(type, 0, size, payload.data()));
    out.insert(out.end(), h, h + sizeof h);
    out.insert(out.end(), payload.begin(), payload.end());
}

void fix_header_crc(std::vector<uint8_t> &file) {
    codec::put_le32(file.data() + 60, codec::crc32c_update(0, file.data(), 60));
}

std::vector<uint8_t> read_all(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_all(const std::string &path, const std::vector<uint8_t> &bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace mt::test
