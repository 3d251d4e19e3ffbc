// support.h — shared pieces of the runtime tests: stand-in il2cpp classes (the test binaries
// export il2cpp_class_get_name & co. so the runtime's dlsym finds them), captures with a temp
// file, loading through the reader, and noinline call chains with known shapes.
#pragma once

#include <sys/resource.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "memtracer/format.h"
#include "memtracer/memtracer.h"
#include "memtracer/reader.h"

namespace mtt {

// What an Il2CppClass* points at in these tests.
struct FakeClass {
    const char *name;
    const char *name_space;
    bool value_type;
    int rank;
    int element_size;
};

extern FakeClass kString, kIntArray, kVector3, kPlayer;

std::string temp_path(const std::string &tag);

// Defaults plus the given path; tests change fields before start().
mt_config make_config(const std::string &path);

// Starts a capture or fails the test with mt_last_error().
void start(const mt_config &c);

// Stops the capture (expecting `want`) and loads the file.
mt::reader::Run stop_and_load(const std::string &path, mt_status want = MT_OK);

mt_counters counters();

// All events of all frames, in file order.
std::vector<mt::reader::Event> all_events(const mt::reader::Run &run);

// Calls mt_on_alloc `n` times from one call site (one stack).
void alloc_same_site(int n, FakeClass *k, uint64_t base_addr, uint64_t size);

// A chain of `depth` noinline frames, then mt_on_alloc.
void alloc_at_depth(int depth, void *obj, FakeClass *k, size_t size);

// The disk "fills up" at `bytes` while this lives: RLIMIT_FSIZE makes write(2) fail with EFBIG at
// that size, like a full volume (SIGXFSZ ignored). The old limit and handler come back after.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes);
    ~FileSizeLimit();
    FileSizeLimit(const FileSizeLimit &) = delete;
    FileSizeLimit &operator=(const FileSizeLimit &) = delete;

private:
    struct rlimit old_ {};
    void (*old_handler_)(int) = nullptr;
};

// Game frames from `frame` on (50 allocations at depths 1-7 each, then mt_frame_end) until the
// runtime has disabled itself, however slowly the writer reaches the file's limit; returns the
// next frame number. Gives up only when the runtime has not disabled itself after 5 minutes
// (a writer that stopped writing): the caller's check then fails.
uint64_t frames_until_disabled(uint64_t frame);

// Name of the function containing addr (dladdr; the test binary exports its symbols).
std::string symbol_of(uint64_t addr);

// Runs a command and returns its stdout ("" if it could not run).
std::string run_command(const std::string &cmd);

}  // namespace mtt
