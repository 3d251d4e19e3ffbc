/* Stand-in for the iOS SDK's <sys/mman.h>: MAP_ANON 0x1000, and no MAP_POPULATE (Darwin has
 * none: code that uses it must say so). docs/runtime.md "Apple compile check". */
#ifndef MT_SHIM_SYS_MMAN_H
#define MT_SHIM_SYS_MMAN_H
#include <_shim_types.h>
#ifdef __cplusplus
extern "C" {
#endif
#define PROT_NONE 0x00
#define PROT_READ 0x01
#define PROT_WRITE 0x02
#define PROT_EXEC 0x04
#define MAP_SHARED 0x0001
#define MAP_PRIVATE 0x0002
#define MAP_FIXED 0x0010
#define MAP_ANON 0x1000
#define MAP_ANONYMOUS MAP_ANON
#define MAP_FAILED ((void *)-1)
#define MADV_NORMAL 0
#define MADV_DONTNEED 4
#define MADV_FREE 5
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t offset);
int munmap(void *addr, size_t len);
int mprotect(void *addr, size_t len, int prot);
int madvise(void *addr, size_t len, int advice);
#ifdef __cplusplus
}
#endif
#endif
