// encode_bench_export.cpp — a run.mt's events as the EVENTS encoder's input records, in a flat
// file that bench_encode --real and bench_runtime --writer-stream replay (docs/benchmarks.md,
// issue 22 tenth session: is a real capture's event stream periodic, as bench_runtime's, or
// unlearnable, as encode_bench.cpp's synthetic "game" stream?). Read with the project's reader;
// the flat file keeps bench_encode free of it, so encode_bench.sh can still build that one source
// against two trees' headers.
//
// Layout (little-endian, every field uint64_t): "MTEVREC1", the stack count, per stack its
// STACKS shape (class, size, GC size), the frame count, per frame its start tick and event
// count, then that many events (thread, tick, class, stack, size, GC size, address). A frame is
// one EVENTS chunk, as the runtime's writer writes it unless it spills (kChunkSpill), so the
// prediction state restarts at each frame with the frame's start tick as the delta base.
//
//   bench_encode_export run.mt out.evrec
#include <memtracer/reader.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

struct Out {
    FILE *f;
    void put(uint64_t v) { fwrite(&v, sizeof v, 1, f); }
};

struct Collect : mt::reader::Visitor {
    std::vector<mt::reader::Stack> stacks;
    std::vector<mt::reader::Frame> frames;
    void on_stack(const mt::reader::Stack &s) override {
        if (s.id >= stacks.size()) stacks.resize(s.id + 1);
        stacks[s.id] = s;
    }
    void on_frame(const mt::reader::Frame &f) override {
        if (!f.event_list.empty()) frames.push_back(f);
    }
};

}  // namespace

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: bench_encode_export run.mt out.evrec\n");
        return 1;
    }
    Collect c;
    mt::reader::ReadResult r = mt::reader::read_file(argv[1], c);
    if (!r.usable()) {
        fprintf(stderr, "%s: %s\n", argv[1], r.stop_reason.c_str());
        return 2;
    }
    Out o{fopen(argv[2], "wb")};
    if (!o.f) {
        perror(argv[2]);
        return 1;
    }
    fwrite("MTEVREC1", 8, 1, o.f);
    o.put(c.stacks.size());
    for (const auto &s : c.stacks) {
        o.put(s.shape_class);
        o.put(s.shape_size);
        o.put(s.shape_gc_size);
    }
    o.put(c.frames.size());
    uint64_t n = 0;
    for (const auto &f : c.frames) {
        o.put(f.start_tick);
        o.put(f.event_list.size());
        for (const auto &e : f.event_list) {
            for (uint64_t v : {uint64_t{e.thread}, e.tick, uint64_t{e.class_id}, uint64_t{e.stack_id}, e.size, e.gc_size,
                               e.address})
                o.put(v);
        }
        n += f.event_list.size();
    }
    if (fclose(o.f) != 0) {
        perror(argv[2]);
        return 1;
    }
    printf("%llu events in %zu frames, %zu stacks\n", static_cast<unsigned long long>(n), c.frames.size(),
           c.stacks.size());
    return 0;
}
