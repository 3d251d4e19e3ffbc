/* Stand-in for the iOS SDK's <sys/utsname.h> (_SYS_NAMELEN 256). docs/runtime.md "Apple compile check". */
#ifndef MT_SHIM_SYS_UTSNAME_H
#define MT_SHIM_SYS_UTSNAME_H
#ifdef __cplusplus
extern "C" {
#endif
struct utsname {
    char sysname[256];
    char nodename[256];
    char release[256];
    char version[256];
    char machine[256];
};
int uname(struct utsname *name);
#ifdef __cplusplus
}
#endif
#endif
