/* Stand-in for the iOS SDK's <sys/sysctl.h> (sysctlbyname). docs/runtime.md "Apple compile check". */
#ifndef MT_SHIM_SYS_SYSCTL_H
#define MT_SHIM_SYS_SYSCTL_H
#include <_shim_types.h>
#ifdef __cplusplus
extern "C" {
#endif
int sysctl(int *name, unsigned int namelen, void *oldp, size_t *oldlenp, void *newp, size_t newlen);
int sysctlbyname(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen);
#ifdef __cplusplus
}
#endif
#endif
