/* _shim_types.h — the Darwin base types the other shim headers share (arm64 iOS ABI: LP64,
 * off_t 64-bit, mode_t 16-bit, pthread types opaque structs with a __sig word). A stand-in for
 * the iOS SDK's <sys/_types.h> family; see docs/runtime.md "Apple compile check". */
#ifndef MT_SHIM_TYPES_H
#define MT_SHIM_TYPES_H
#include <stddef.h>
#include <stdint.h>

typedef long ssize_t;
typedef long long off_t;
typedef int pid_t;
typedef unsigned short mode_t;
typedef unsigned int uid_t;
typedef unsigned int gid_t;
typedef long time_t;
typedef int suseconds_t;
typedef unsigned int useconds_t;

struct timespec {
    time_t tv_sec;
    long tv_nsec;
};

struct _opaque_pthread_t;
typedef struct _opaque_pthread_t *pthread_t;
typedef struct { long __sig; char __opaque[56]; } pthread_mutex_t;
typedef struct { long __sig; char __opaque[40]; } pthread_cond_t;
typedef struct { long __sig; char __opaque[56]; } pthread_attr_t;
typedef struct { long __sig; char __opaque[8]; } pthread_mutexattr_t;
typedef struct { long __sig; char __opaque[8]; } pthread_condattr_t;
typedef unsigned long pthread_key_t;
typedef struct { long __sig; char __opaque[8]; } pthread_once_t;
typedef unsigned int sigset_t;
#endif
