/* Stand-in for the iOS SDK's <unistd.h> (docs/runtime.md "Apple compile check"). */
#ifndef MT_SHIM_UNISTD_H
#define MT_SHIM_UNISTD_H
#include <_shim_types.h>
#ifdef __cplusplus
extern "C" {
#endif
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define _SC_PAGESIZE 29
#define _SC_NPROCESSORS_ONLN 58
ssize_t read(int fd, void *buf, size_t n);
ssize_t write(int fd, const void *buf, size_t n);
ssize_t pread(int fd, void *buf, size_t n, off_t offset);
ssize_t pwrite(int fd, const void *buf, size_t n, off_t offset);
off_t lseek(int fd, off_t offset, int whence);
int close(int fd);
int fsync(int fd);
int ftruncate(int fd, off_t length);
int unlink(const char *path);
int access(const char *path, int mode);
ssize_t readlink(const char *path, char *buf, size_t size);
pid_t getpid(void);
pid_t getppid(void);
unsigned int sleep(unsigned int seconds);
int usleep(useconds_t usec);
long sysconf(int name);
int isatty(int fd);
char *getcwd(char *buf, size_t size);
int dup(int fd);
int dup2(int fd, int fd2);
int pipe(int fds[2]);
#ifdef __cplusplus
}
#endif
#endif
