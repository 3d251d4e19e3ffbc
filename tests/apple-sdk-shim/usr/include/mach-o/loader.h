/* Stand-in for the iOS SDK's <mach-o/loader.h>: the image headers dyld hands out.
 * docs/runtime.md "Apple compile check". */
#ifndef MT_SHIM_MACHO_LOADER_H
#define MT_SHIM_MACHO_LOADER_H
#include <stdint.h>
typedef int cpu_type_t;
typedef int cpu_subtype_t;
struct mach_header {
    uint32_t magic;
    cpu_type_t cputype;
    cpu_subtype_t cpusubtype;
    uint32_t filetype;
    uint32_t ncmds;
    uint32_t sizeofcmds;
    uint32_t flags;
};
struct mach_header_64 {
    uint32_t magic;
    cpu_type_t cputype;
    cpu_subtype_t cpusubtype;
    uint32_t filetype;
    uint32_t ncmds;
    uint32_t sizeofcmds;
    uint32_t flags;
    uint32_t reserved;
};
#define MH_MAGIC 0xfeedface
#define MH_MAGIC_64 0xfeedfacf
#endif
