// json.h — the endpoints' JSON writer is the host tools' one (common/include/memtracer/json.h);
// these names keep endpoint code as it was.
#ifndef MEMTRACER_VIEWER_JSON_H
#define MEMTRACER_VIEWER_JSON_H

#include <memtracer/json.h>

namespace mt::viewer {

using mt::append_json_string;
using mt::Json;

}  // namespace mt::viewer

#endif
