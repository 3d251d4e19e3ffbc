// utf8.h — strict UTF-8 validation lives with the host tools' JSON writer; the text printer
// uses the same one so both printers replace the same bytes.
#ifndef MEMTRACER_DUMP_UTF8_H
#define MEMTRACER_DUMP_UTF8_H

#include <memtracer/json.h>

namespace mt::dump {

using mt::utf8_len;

}  // namespace mt::dump

#endif
