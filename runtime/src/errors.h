// errors.h — errors.cpp: mt_last_error's message and the config check. Internal to the runtime.
#ifndef MEMTRACER_RT_ERRORS_H
#define MEMTRACER_RT_ERRORS_H

#include "memtracer/memtracer.h"

namespace mt::rt {

void set_last_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void clear_last_error();
mt_status validate_config(const mt_config *c);  // names the field and the why on failure

}  // namespace mt::rt

#endif  // MEMTRACER_RT_ERRORS_H
