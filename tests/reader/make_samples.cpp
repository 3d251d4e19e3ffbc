// reader-make-samples DIR: writes the fixture runs as files for the dump CLI tests and the fuzz
// corpus: complete.mt, aggregate.mt, eof.mt (no END), truncated.mt (cut inside the last frame),
// corrupt.mt (a flipped payload byte mid-file), foreign.mt, version7.mt, tiny.mt: the
// smallest useful run, whose bytes docs/format.md walks through, and the intact-but-contradictory
// files of damaged_samples.h (dup-events.mt, mode-aggregate-with-events.mt, ...), which are also
// the reader fuzzer's seeds for those checks (copied into tests/reader/corpus).
#include "damaged_samples.h"
#include "trace_fixture.h"

#include "memtracer/codec.h"

#include <memtracer/format.h>

#include <cstdio>
#include <string>

using namespace mt;

namespace {

std::vector<uint8_t> tiny() {
    test::MemTrace t;
    trace::FileHeaderParams hp;
    hp.start_unix_ns = 1700000000000000000ull;
    hp.pid = 4242;
    hp.max_stack_depth = 64;
    hp.arch = MT_ARCH_ARM64;
    hp.flags = MT_FILE_FLAG_GC_EVENTS;
    t.w.header(hp);
    trace::KeyValue info{"tick_hz", "24000000"};
    t.w.info(&info, 1);
    trace::ThreadRecord th{0, 771, "main"};
    t.w.threads(&th, 1);
    trace::ClassRecord cl{0, 0x10a0, "String", "System", MT_CLASS_STRING, 0};
    t.w.classes(&cl, 1);
    uint64_t pcs[2] = {0x100004a8c, 0x100004a00};
    trace::StackRecord st{0, pcs, 2};
    t.w.stacks(&st, 1);
    trace::EventRecord ev[2] = {{0, 1010, 0, 0, 26, 32, 0x7f0000c040}, {0, 1003, 0, 0, 40, 48, 0x7f0000c000}};
    t.w.events(0, 1000, ev, 2);
    trace::FrameRecord f;
    f.seq = 0, f.index = 1, f.start_tick = 1000, f.end_tick = 1400, f.events = 2, f.requested_bytes = 66;
    f.gc_bytes = 80, f.heap_size = 4 << 20, f.free_bytes = 1 << 20;
    t.w.frame(f);
    t.w.end(MT_END_STOPPED, "");
    t.chunk();
    return t.bytes();
}

}  // namespace

int main(int argc, char **argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: reader-make-samples DIR\n");
        return 1;
    }
    std::string dir = std::string(argv[1]) + "/";
    test::Sample s = test::make_sample();
    test::write_all(dir + "complete.mt", s.bytes);
    test::write_all(dir + "aggregate.mt", test::make_sample({.aggregate = true}).bytes);
    test::write_all(dir + "eof.mt", test::make_sample({.with_end = false}).bytes);
    std::vector<uint8_t> cut(s.bytes.begin(), s.bytes.begin() + static_cast<long>(s.frame_ends[4] - 5));
    test::write_all(dir + "truncated.mt", cut);
    std::vector<uint8_t> bad = s.bytes;
    bad[s.frame_ends[1] + 20] ^= 0x40;
    test::write_all(dir + "corrupt.mt", bad);
    test::write_all(dir + "foreign.mt", {'P', 'K', 3, 4, 20, 0, 0, 0, 8, 0});
    std::vector<uint8_t> v7 = test::header_bytes();
    codec::put_le32(v7.data() + 8, 7);
    test::fix_header_crc(v7);
    test::write_all(dir + "version7.mt", v7);
    test::write_all(dir + "tiny.mt", tiny());
    for (const test::Damaged &d : test::damaged_samples()) test::write_all(dir + d.name, d.bytes);
    return 0;
}
