// A frame's data spans chunks (writer.h kChunkSpill): one frame in which a single collection finds
// hundreds of thousands of objects dead, with real Boehm GC and lifetimes on. Its DEATHS used to be
// one chunk per frame, grown until the commit; a long enough frame (measured on Unity's runtime:
// 3 million events and 5,000 collections in one stalled frame) passed MT_MAX_CHUNK_PAYLOAD and the
// capture disabled itself. Now the list is written out in pieces: this test asserts that the frame
// came out as several DEATHS chunks (one chunk before the fix) and that the reader joined them back
// into the frame whole, every death once, against the events of the same run.
#include <catch2/catch.hpp>

#include <gc/gc.h>

#include <cstdio>
#include <map>
#include <set>

#include "chunk_scan.h"
#include "support.h"

namespace {

constexpr int kDropped = 400000;  // ~5 bytes a death: about twice kChunkSpill (1 MiB)

// The addresses live only in malloc memory, never scanned, so all of them can die. No collection
// runs meanwhile: one would free some and hand their addresses out again (one address, two lives).
__attribute__((noinline)) void alloc_dropped(std::set<uint64_t> *out) {
    GC_disable();
    for (int i = 0; i < kDropped; ++i) {
        void *obj = GC_MALLOC_ATOMIC(16);
        mt_on_alloc(obj, &mtt::kString, 16);
        out->insert(reinterpret_cast<uint64_t>(obj));
    }
    GC_enable();
    asm volatile("" ::: "memory");
}

__attribute__((noinline)) void clear_stack() {
    volatile char buf[64 * 1024];
    for (size_t i = 0; i < sizeof buf; ++i) buf[i] = 0;
}

// DEATHS chunks per frame_seq, read with the independent scan (not the reader).
std::map<uint64_t, int> deaths_chunks(const std::vector<uint8_t> &bytes) {
    auto raw = mt::test::scan(bytes);
    REQUIRE(raw.chunks_ok);
    std::map<uint64_t, int> n;
    for (const auto &c : raw.chunks) {
        if (c.type != MT_CHUNK_DEATHS) continue;
        mt::test::Cur cur(c.payload);
        ++n[cur.u()];
    }
    return n;
}

}  // namespace

TEST_CASE("chunk spill: one frame's deaths span several DEATHS chunks and are read back whole", "[lifetimes]") {
    GC_INIT();
    std::string path = mtt::temp_path("spill");
    mt_config c = mtt::make_config(path);
    c.flags = MT_FLAG_LIFETIMES;
    c.mode = MT_MODE_EVENTS;
    c.on_full = MT_ON_FULL_BLOCK;
    mtt::start(c);
    std::set<uint64_t> dropped;
    alloc_dropped(&dropped);
    clear_stack();
    REQUIRE(mt_frame_end(0) == MT_OK);
    GC_gcollect();  // frame 1: one collection finds (nearly) every object dead
    REQUIRE(mt_frame_end(1) == MT_OK);
    REQUIRE(mt_stop() == MT_OK);
    auto bytes = mt::test::slurp(path);
    auto run = mt::reader::load_file(path);
    std::remove(path.c_str());
    INFO("reader stop: " << run.result.stop_reason);
    REQUIRE(run.result.usable());

    REQUIRE(dropped.size() == static_cast<size_t>(kDropped));
    REQUIRE(mtt::all_events(run).size() == static_cast<size_t>(kDropped));
    std::set<uint64_t> died;
    uint64_t in_frame1 = 0;
    for (const auto &f : run.frames)
        for (const auto &d : f.deaths) {
            CHECK(dropped.count(d.address) == 1);
            CHECK(died.insert(d.address).second);  // joined once: no chunk read twice
            if (f.seq == 1) ++in_frame1;
        }
    // Boehm is conservative: a stale pointer can keep a few alive; most must die in frame 1.
    INFO(in_frame1 << " of " << kDropped << " died in frame 1");
    REQUIRE(in_frame1 > static_cast<uint64_t>(kDropped) * 9 / 10);
    auto per_frame = deaths_chunks(bytes);
    for (const auto &[seq, n] : per_frame) UNSCOPED_INFO("frame " << seq << ": " << n << " DEATHS chunks");
    CHECK(per_frame[1] >= 2);
}
