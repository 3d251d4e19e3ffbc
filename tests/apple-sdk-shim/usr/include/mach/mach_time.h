/* Stand-in for the iOS SDK's <mach/mach_time.h> (mach_absolute_time, mach_timebase_info).
 * docs/runtime.md "Apple compile check". */
#ifndef MT_SHIM_MACH_MACH_TIME_H
#define MT_SHIM_MACH_MACH_TIME_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
struct mach_timebase_info {
    uint32_t numer;
    uint32_t denom;
};
typedef struct mach_timebase_info *mach_timebase_info_t;
typedef struct mach_timebase_info mach_timebase_info_data_t;
typedef int kern_return_t;
uint64_t mach_absolute_time(void);
uint64_t mach_continuous_time(void);
kern_return_t mach_timebase_info(mach_timebase_info_t info);
#ifdef __cplusplus
}
#endif
#endif
