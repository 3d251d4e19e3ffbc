/* Stand-in for the iOS SDK's <dlfcn.h>: RTLD_DEFAULT is ((void *)-2) on Darwin.
 * docs/runtime.md "Apple compile check". */
#ifndef MT_SHIM_DLFCN_H
#define MT_SHIM_DLFCN_H
#ifdef __cplusplus
extern "C" {
#endif
typedef struct dl_info {
    const char *dli_fname;
    void *dli_fbase;
    const char *dli_sname;
    void *dli_saddr;
} Dl_info;
#define RTLD_LAZY 0x1
#define RTLD_NOW 0x2
#define RTLD_LOCAL 0x4
#define RTLD_GLOBAL 0x8
#define RTLD_NOLOAD 0x10
#define RTLD_NODELETE 0x80
#define RTLD_NEXT ((void *)-1)
#define RTLD_DEFAULT ((void *)-2)
void *dlopen(const char *path, int mode);
void *dlsym(void *handle, const char *symbol);
int dlclose(void *handle);
char *dlerror(void);
int dladdr(const void *addr, Dl_info *info);
#ifdef __cplusplus
}
#endif
#endif
