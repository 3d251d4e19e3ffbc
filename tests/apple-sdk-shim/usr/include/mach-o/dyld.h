/* Stand-in for the iOS SDK's <mach-o/dyld.h>: the image list as dyld documents it
 * (_dyld_image_count, _dyld_get_image_header, _dyld_get_image_vmaddr_slide, _dyld_get_image_name,
 * the add/remove-image callbacks). docs/runtime.md "Apple compile check". */
#ifndef MT_SHIM_MACHO_DYLD_H
#define MT_SHIM_MACHO_DYLD_H
#include <stdbool.h>
#include <stdint.h>
#include <mach-o/loader.h>
#ifdef __cplusplus
extern "C" {
#endif
uint32_t _dyld_image_count(void);
const struct mach_header *_dyld_get_image_header(uint32_t image_index);
intptr_t _dyld_get_image_vmaddr_slide(uint32_t image_index);
const char *_dyld_get_image_name(uint32_t image_index);
void _dyld_register_func_for_add_image(void (*func)(const struct mach_header *mh, intptr_t vmaddr_slide));
void _dyld_register_func_for_remove_image(void (*func)(const struct mach_header *mh, intptr_t vmaddr_slide));
int _NSGetExecutablePath(char *buf, uint32_t *bufsize);
#ifdef __cplusplus
}
#endif
#endif
