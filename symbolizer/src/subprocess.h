// subprocess.h — the backends' child processes are the host tools' one helper
// (common/include/memtracer/process.h); a tool that cannot start is a symbols problem here
// (exit status 4), said as Error(Symbols).
#ifndef MEMTRACER_SYM_SUBPROCESS_H
#define MEMTRACER_SYM_SUBPROCESS_H

#include <memtracer/process.h>

#include <string>
#include <vector>

#include "memtracer/symbolizer/errors.h"

namespace mt::sym {

using proc::Child;
using proc::find_executable;
using proc::StderrCapture;

inline Child spawn_tool(const std::vector<std::string> &argv, int stderr_fd = -1) {
    try {
        return Child::spawn(argv, stderr_fd);
    } catch (const proc::SpawnError &e) {
        throw symbols_error(e.what());
    }
}

inline StderrCapture new_stderr_capture() {
    try {
        return StderrCapture();
    } catch (const proc::SpawnError &e) {
        throw symbols_error(e.what());
    }
}

}  // namespace mt::sym

#endif
