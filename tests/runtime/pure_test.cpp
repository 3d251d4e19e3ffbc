// The runtime's thread-free pieces on the real call stack of whatever CPU runs the test: the
// frame-pointer walk of a noinline chain (names by dladdr, or the executable's .symtab when it is
// static), the tick counter, PAC stripping of a plain address, and the fast CRC against codec.h.
#include <catch2/catch.hpp>

#include <dlfcn.h>
#include <pthread.h>

#include <string>

#include "clock.h"
#include "memtracer/codec.h"
#include "crc_fast.h"
#include "unwind.h"
#ifdef MT_TEST_STATIC_EXE
#include "static_exe.h"
#endif

namespace {

uintptr_t g_lo, g_hi;
uint64_t g_frames[16];
uint32_t g_depth;

std::string name_of(uint64_t pc) {
    Dl_info i;
    if (dladdr(reinterpret_cast<void *>(pc), &i) && i.dli_sname) return i.dli_sname;
#ifdef MT_TEST_STATIC_EXE
    if (const char *s = mt_static_exe_function_at(pc)) return s;  // no dynamic symbols to ask
#endif
    return "";
}

}  // namespace

extern "C" {
__attribute__((visibility("default"), noinline)) void pure_leaf() {
    g_depth = mt::rt::fp_walk(reinterpret_cast<uintptr_t>(__builtin_return_address(0)),
                              *static_cast<uintptr_t *>(__builtin_frame_address(0)), g_lo, g_hi, g_frames, 16);
    asm volatile("" ::: "memory");
}
__attribute__((visibility("default"), noinline)) void pure_mid() {
    pure_leaf();
    asm volatile("" ::: "memory");
}
__attribute__((visibility("default"), noinline)) void pure_top() {
    pure_mid();
    asm volatile("" ::: "memory");
}
}

TEST_CASE("fp walk of a real noinline chain on this CPU", "[pure]") {
    pthread_attr_t a;
    void *addr;
    size_t size;
    REQUIRE(pthread_getattr_np(pthread_self(), &a) == 0);
    pthread_attr_getstack(&a, &addr, &size);
    pthread_attr_destroy(&a);
    g_lo = reinterpret_cast<uintptr_t>(addr);
    g_hi = g_lo + size;
    pure_top();
    REQUIRE(g_depth >= 3);
    CHECK(name_of(g_frames[0]) == "pure_mid");  // frame 0: the call site in the caller
    CHECK(name_of(g_frames[1]) == "pure_top");
    CHECK(mt::rt::hash_frames(g_frames, g_depth) != 0);
}

TEST_CASE("ticks never go backwards and PAC strip keeps a plain address", "[pure]") {
    uint64_t t0 = mt::rt::now_ticks();
    uint64_t t1 = mt::rt::now_ticks();
    CHECK(t1 >= t0);
    uintptr_t plain = reinterpret_cast<uintptr_t>(&pure_top);
    CHECK(mt::rt::strip_pac(plain) == plain);
}

TEST_CASE("fast CRC-32C equals the table CRC on this CPU", "[pure]") {
    unsigned char buf[1000];
    for (int i = 0; i < 1000; ++i) buf[i] = static_cast<unsigned char>(i * 7 + 3);
    for (size_t n : {0, 1, 8, 13, 999, 1000})
        CHECK(mt::trace::crc32c_fast(0, buf, n) == mt::codec::crc32c_update(0, buf, n));
}
