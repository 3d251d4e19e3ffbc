/* Stand-in for the iOS SDK's <limits.h>: what <sys/syslimits.h> adds to clang's own limits.h
 * (which includes this one). docs/runtime.md "Apple compile check". */
#ifndef MT_SHIM_LIMITS_H
#define MT_SHIM_LIMITS_H
#define PATH_MAX 1024
#define NAME_MAX 255
#define IOV_MAX 1024
#endif
