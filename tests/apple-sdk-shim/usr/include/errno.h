/* Stand-in for the iOS SDK's <errno.h>: errno is (*__error()), values from <sys/errno.h>.
 * docs/runtime.md "Apple compile check". */
#ifndef MT_SHIM_ERRNO_H
#define MT_SHIM_ERRNO_H
#ifdef __cplusplus
extern "C" {
#endif
extern int *__error(void);
#define errno (*__error())
#ifdef __cplusplus
}
#endif
#define EPERM 1
#define ENOENT 2
#define EINTR 4
#define EIO 5
#define EBADF 9
#define ENOMEM 12
#define EACCES 13
#define EEXIST 17
#define EINVAL 22
#define EFBIG 27
#define ENOSPC 28
#define ESPIPE 29
#define EROFS 30
#define ERANGE 34
#define EAGAIN 35
#define EWOULDBLOCK EAGAIN
#define EINPROGRESS 36
#define ETIMEDOUT 60
#define ENOSYS 78
#endif
