// static_exe.h — what static_dlsym.cpp offers a static executable beyond dlsym (see there).
#pragma once

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// The name of the function of this executable's .symtab that holds address, or NULL: dladdr's
// answer, which glibc cannot give in a static executable.
const char *mt_static_exe_function_at(uintptr_t address);

#ifdef __cplusplus
}
#endif
