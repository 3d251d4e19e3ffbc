/* Stand-in for the iOS SDK's <string.h>: ISO C and POSIX declarations as Apple's libc has them
 * (strerror_r is the XSI int-returning one). docs/runtime.md "Apple compile check". */
#ifndef MT_SHIM_STRING_H
#define MT_SHIM_STRING_H
#include <_shim_types.h>
#ifdef __cplusplus
extern "C" {
#endif
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *b, int c, size_t len);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t maxlen);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strcpy(char *dst, const char *src);
char *strncpy(char *dst, const char *src, size_t n);
char *strcat(char *dst, const char *src);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *big, const char *little);
char *strdup(const char *s);
char *strerror(int errnum);
int strerror_r(int errnum, char *buf, size_t len);
size_t strlcpy(char *dst, const char *src, size_t size);
#ifdef __cplusplus
}
#endif
#endif
