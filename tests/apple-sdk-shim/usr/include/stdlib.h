/* Stand-in for the iOS SDK's <stdlib.h> (docs/runtime.md "Apple compile check"). */
#ifndef MT_SHIM_STDLIB_H
#define MT_SHIM_STDLIB_H
#include <_shim_types.h>
#ifdef __cplusplus
extern "C" {
#endif
void *malloc(size_t size);
void *calloc(size_t count, size_t size);
void *realloc(void *ptr, size_t size);
void free(void *ptr);
int posix_memalign(void **memptr, size_t alignment, size_t size);
char *getenv(const char *name);
int setenv(const char *name, const char *value, int overwrite);
long strtol(const char *s, char **end, int base);
unsigned long strtoul(const char *s, char **end, int base);
long long strtoll(const char *s, char **end, int base);
unsigned long long strtoull(const char *s, char **end, int base);
double strtod(const char *s, char **end);
int atoi(const char *s);
int atexit(void (*fn)(void));
void exit(int status) __attribute__((noreturn));
void _Exit(int status) __attribute__((noreturn));
void abort(void) __attribute__((noreturn));
const char *getprogname(void);
void setprogname(const char *name);
void qsort(void *base, size_t nel, size_t width, int (*compar)(const void *, const void *));
#ifdef __cplusplus
}
#endif
#endif
