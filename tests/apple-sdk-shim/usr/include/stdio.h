/* Stand-in for the iOS SDK's <stdio.h>: FILE is opaque here (Apple's is struct __sFILE) and the
 * standard streams are Apple's __stdinp/__stdoutp/__stderrp. docs/runtime.md "Apple compile check". */
#ifndef MT_SHIM_STDIO_H
#define MT_SHIM_STDIO_H
#include <_shim_types.h>
#include <stdarg.h>
#ifdef __cplusplus
extern "C" {
#endif
typedef struct __sFILE FILE;
extern FILE *__stdinp;
extern FILE *__stdoutp;
extern FILE *__stderrp;
#define stdin __stdinp
#define stdout __stdoutp
#define stderr __stderrp
#define EOF (-1)
FILE *fopen(const char *path, const char *mode);
FILE *fdopen(int fd, const char *mode);
int fclose(FILE *f);
size_t fread(void *ptr, size_t size, size_t n, FILE *f);
size_t fwrite(const void *ptr, size_t size, size_t n, FILE *f);
int fflush(FILE *f);
int fputs(const char *s, FILE *f);
char *fgets(char *s, int n, FILE *f);
int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int fprintf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int snprintf(char *s, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int vsnprintf(char *s, size_t n, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
int vfprintf(FILE *f, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
int sscanf(const char *s, const char *fmt, ...);
FILE *popen(const char *command, const char *mode);
int pclose(FILE *f);
#ifdef __cplusplus
}
#endif
#endif
