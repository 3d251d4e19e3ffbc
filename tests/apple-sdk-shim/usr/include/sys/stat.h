/* Stand-in for the iOS SDK's <sys/stat.h>: the 64-bit-inode struct stat of arm64 Darwin.
 * docs/runtime.md "Apple compile check". */
#ifndef MT_SHIM_SYS_STAT_H
#define MT_SHIM_SYS_STAT_H
#include <_shim_types.h>
#ifdef __cplusplus
extern "C" {
#endif
struct stat {
    int32_t st_dev;
    mode_t st_mode;
    uint16_t st_nlink;
    uint64_t st_ino;
    uid_t st_uid;
    gid_t st_gid;
    int32_t st_rdev;
    struct timespec st_atimespec, st_mtimespec, st_ctimespec, st_birthtimespec;
    off_t st_size;
    int64_t st_blocks;
    int32_t st_blksize;
    uint32_t st_flags;
    uint32_t st_gen;
    int32_t st_lspare;
    int64_t st_qspare[2];
};
#define S_IFMT 0170000
#define S_IFDIR 0040000
#define S_IFREG 0100000
#define S_IFCHR 0020000
#define S_ISDIR(m) (((m) & S_IFMT) == S_IFDIR)
#define S_ISREG(m) (((m) & S_IFMT) == S_IFREG)
#define S_ISCHR(m) (((m) & S_IFMT) == S_IFCHR)
int stat(const char *path, struct stat *buf);
int fstat(int fd, struct stat *buf);
int lstat(const char *path, struct stat *buf);
int mkdir(const char *path, mode_t mode);
#ifdef __cplusplus
}
#endif
#endif
