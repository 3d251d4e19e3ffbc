// il2cpp_image.h — "find the loaded image that exports symbol X and give me symbol Y from it".
//
// Unity loads libil2cpp in ways a plain dlsym(RTLD_DEFAULT) does not see: Android dlopens
// libil2cpp.so and each plug-in with RTLD_LOCAL; on Apple, RTLD_DEFAULT skips images opened
// RTLD_LOCAL. So after the global scope, every loaded image is asked by its own handle
// (ELF: dl_iterate_phdr for the paths, then dlopen(path, RTLD_NOLOAD) + dlsym; Apple: the dyld
// image list). Never on a hot path: it walks the images and takes the loader's locks.
#ifndef MEMTRACER_RT_IL2CPP_IMAGE_H
#define MEMTRACER_RT_IL2CPP_IMAGE_H

namespace mt::rt {

// Y from the first image (the global scope first) that exports `anchor`; NULL if none does or
// that image lacks `name`. The image stays loaded as long as the game keeps it (RTLD_NOLOAD).
void *image_symbol(const char *anchor, const char *name);

// An il2cpp export wherever libil2cpp is: the global scope (by name), else the image exporting
// il2cpp_init (every libil2cpp does), else the one exporting the MemTracer bridge.
void *il2cpp_export(const char *name);

}  // namespace mt::rt

#endif  // MEMTRACER_RT_IL2CPP_IMAGE_H
