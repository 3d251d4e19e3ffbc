// write_all.h — writes a whole buffer to a file descriptor: retries EINTR and short writes. Shared
// by everything that appends run.mt bytes with write(2) (TraceWriter, so the runtime's writer
// thread, and memtracer-capture's run file). Plain POSIX, no standard library: the runtime uses it.
#ifndef MEMTRACER_WRITE_ALL_H
#define MEMTRACER_WRITE_ALL_H

#include <errno.h>
#include <stddef.h>
#include <unistd.h>

namespace mt::trace {

// 0 when all `len` bytes were written, else the errno of the failed write (EIO for a write that
// wrote nothing). On failure some leading bytes may have been written: the caller cuts them off.
inline int write_all(int fd, const void *data, size_t len) {
    const char *p = static_cast<const char *>(data);
    while (len > 0) {
        ssize_t n = ::write(fd, p, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return n < 0 ? errno : EIO;
        p += n;
        len -= static_cast<size_t>(n);
    }
    return 0;
}

}  // namespace mt::trace

#endif
