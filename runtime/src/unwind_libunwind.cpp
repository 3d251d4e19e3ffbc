// unwind_libunwind.cpp — the libunwind unwinder (MEMTRACER_LIBUNWIND). Slower than the frame-
// pointer walk but right through code built without frame pointers, using .eh_frame.
#include "memtracer/memtracer.h"
#include "unwind.h"

#if defined(MT_HAVE_LIBUNWIND)
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#endif

namespace mt::rt {

bool libunwind_available() {
#if defined(MT_HAVE_LIBUNWIND)
    return true;
#else
    return false;
#endif
}

// unw_backtrace starts inside the tracer; its frames above ra0 are dropped. If ra0 is not found
// (an inlining difference), a fixed count of tracer frames is skipped instead.
uint32_t libunwind_capture(uintptr_t ra0, uint64_t *out, uint32_t max) {
#if defined(MT_HAVE_LIBUNWIND)
    constexpr int kTracerFrames = 6;
    void *buf[MT_MAX_STACK_DEPTH + kTracerFrames + 2];
    int want = static_cast<int>(max) + kTracerFrames + 2;
    int n = unw_backtrace(buf, want);
    int first = -1;
    for (int i = 0; i < n && i <= kTracerFrames + 1; ++i) {
        if (reinterpret_cast<uintptr_t>(buf[i]) == ra0) {
            first = i;
            break;
        }
    }
    if (first < 0) {
        out[0] = ra0;
        return 1;
    }
    uint32_t d = 0;
    for (int i = first; i < n && d < max; ++i) out[d++] = strip_pac(reinterpret_cast<uintptr_t>(buf[i]));
    return d;
#else
    (void)ra0;
    (void)out;
    (void)max;
    return 0;
#endif
}

}  // namespace mt::rt
