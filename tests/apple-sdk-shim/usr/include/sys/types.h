/* Stand-in for the iOS SDK's <sys/types.h> (docs/runtime.md "Apple compile check"). */
#ifndef MT_SHIM_SYS_TYPES_H
#define MT_SHIM_SYS_TYPES_H
#include <_shim_types.h>
#endif
