// reader-make-real-runs: captures made by the real runtime (mt_start .. mt_stop), for the reader's
// tests, the dump CLI test and the fuzz corpus.
//   reader-make-real-runs DIR                 DIR/real-events.mt and DIR/real-aggregate.mt
//   reader-make-real-runs --until-killed PATH  captures forever; prints "ready" once 3 frames
//                                              are in the file, then waits for SIGKILL
#include "real_runs.h"

#include <memtracer/memtracer.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <unistd.h>

namespace {

struct FakeClass {
    const char *name, *name_space;
    int rank, element_size;
};
FakeClass kClasses[3] = {{"String", "System", 0, 0}, {"Int32[]", "System", 1, 4}, {"Player", "Game", 0, 0}};

}  // namespace

// The il2cpp class API the runtime looks up with dlsym (this binary exports its symbols).
extern "C" {
__attribute__((visibility("default"))) const char *il2cpp_class_get_name(void *k) {
    return static_cast<FakeClass *>(k)->name;
}
__attribute__((visibility("default"))) const char *il2cpp_class_get_namespace(void *k) {
    return static_cast<FakeClass *>(k)->name_space;
}
__attribute__((visibility("default"))) bool il2cpp_class_is_valuetype(void *) { return false; }
__attribute__((visibility("default"))) int il2cpp_class_get_rank(void *k) { return static_cast<FakeClass *>(k)->rank; }
__attribute__((visibility("default"))) int il2cpp_class_array_element_size(void *k) {
    return static_cast<FakeClass *>(k)->element_size;
}
}

namespace {

using namespace mt::test::real;

__attribute__((noinline)) void allocate(uint64_t frame, uint64_t thread) {
    for (uint64_t i = 0; i < kPerThread; ++i)
        mt_on_alloc(reinterpret_cast<void *>(address(frame, thread, i)), &kClasses[class_of(i)], size_of(i));
}

void one_frame(uint64_t frame) {
    allocate(frame, 0);
    std::thread worker([frame] {
        mt_set_thread_name("worker");
        allocate(frame, 1);
    });
    worker.join();
    mt_frame_end(kFirstIndex + frame);
}

bool start(const std::string &path, mt_mode mode) {
    mt_config c;
    mt_config_init(&c);
    c.output_path = path.c_str();
    c.mode = mode;
    c.max_stack_depth = 16;
    c.drain_interval_us = 200;
    c.random_seed = 1;
    c.session_label = "reader real run";
    if (mt_start(&c) == MT_OK) return true;
    std::fprintf(stderr, "mt_start(%s): %s\n", path.c_str(), mt_last_error());
    return false;
}

bool capture(const std::string &path, mt_mode mode) {
    if (!start(path, mode)) return false;
    for (uint64_t f = 0; f < kFrames; ++f) one_frame(f);
    if (mt_stop() == MT_OK) return true;
    std::fprintf(stderr, "mt_stop(%s): %s\n", path.c_str(), mt_last_error());
    return false;
}

int until_killed(const std::string &path) {
    if (!start(path, MT_MODE_EVENTS)) return 1;
    bool told = false;
    for (uint64_t f = 0;; ++f) {
        one_frame(f % 200);  // keeps addresses in the pattern; frame_of() is then f % 200
        mt_counters c;
        if (!told && mt_get_counters(&c) == MT_OK && c.frames_written >= 3) {
            std::printf("ready\n");
            std::fflush(stdout);
            told = true;
        }
    }
}

}  // namespace

int main(int argc, char **argv) {
    if (argc == 3 && std::strcmp(argv[1], "--until-killed") == 0) return until_killed(argv[2]);
    if (argc != 2) {
        std::fprintf(stderr, "usage: reader-make-real-runs DIR | --until-killed PATH\n");
        return 1;
    }
    std::string dir = argv[1];
    return capture(dir + "/real-events.mt", MT_MODE_EVENTS) && capture(dir + "/real-aggregate.mt", MT_MODE_AGGREGATE)
               ? 0
               : 1;
}
