/* Stand-in for the iOS SDK's <fcntl.h>: Darwin flag values (O_CREAT 0x200, O_CLOEXEC 0x1000000).
 * docs/runtime.md "Apple compile check". */
#ifndef MT_SHIM_FCNTL_H
#define MT_SHIM_FCNTL_H
#include <_shim_types.h>
#ifdef __cplusplus
extern "C" {
#endif
#define O_RDONLY 0x0000
#define O_WRONLY 0x0001
#define O_RDWR 0x0002
#define O_NONBLOCK 0x0004
#define O_APPEND 0x0008
#define O_CREAT 0x0200
#define O_TRUNC 0x0400
#define O_EXCL 0x0800
#define O_CLOEXEC 0x01000000
#define F_GETFD 1
#define F_SETFD 2
#define F_GETFL 3
#define F_SETFL 4
#define F_FULLFSYNC 51
#define FD_CLOEXEC 1
int open(const char *path, int oflag, ...);
int fcntl(int fd, int cmd, ...);
#ifdef __cplusplus
}
#endif
#endif
