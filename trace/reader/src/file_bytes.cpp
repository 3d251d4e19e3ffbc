#include "file_bytes.h"

#include <memtracer/reader.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mt::reader::detail {
namespace {

[[noreturn]] void fail(const std::string &path, const char *what, int err) {
    throw FormatError("cannot " + std::string(what) + " '" + path + "': " + std::strerror(err));
}

const char *kind_of(mode_t m) {
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISDIR(m)) return "a directory";
    if (S_ISSOCK(m)) return "a socket";
    return "not a file";
}

// Only a regular file has a size to stop at: a FIFO or a terminal may never end, /dev/zero
// never does. Refused from fstat alone, so no read can block or grow without bound.
void require_regular(const std::string &path, const struct stat &st) {
    if (!S_ISREG(st.st_mode))
        throw FormatError("cannot read '" + path + "': it is " + kind_of(st.st_mode) +
                          ", not a regular file (the reader maps a finished or growing run.mt; a pipe or device "
                          "has no size to read up to)");
}

// Closes the descriptor on every path out of the constructor; the mapping outlives it.
struct Fd {
    int fd;
    ~Fd() { if (fd >= 0) ::close(fd); }
};

}  // namespace

FileBytes::FileBytes(const std::string &path) {
    // O_NONBLOCK: opening a FIFO without a writer would otherwise wait forever before the
    // check below could refuse it. It changes nothing for a regular file.
    Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
    if (f.fd < 0) fail(path, "open", errno);
    struct stat st {};
    if (::fstat(f.fd, &st) != 0) fail(path, "stat", errno);
    require_regular(path, st);
    size_ = static_cast<size_t>(st.st_size);
    if (size_ == 0) return;  // mmap refuses length 0; an empty range is what we want anyway
    map_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, f.fd, 0);
    if (map_ == MAP_FAILED) {
        map_ = nullptr;
        read_prefix(f.fd, path);
        return;
    }
    ::madvise(map_, size_, MADV_SEQUENTIAL);
    data_ = static_cast<const uint8_t *>(map_);
}

void FileBytes::release_before(uint64_t offset) {
    if (!map_ || offset < released_ + kReleaseStep) return;
    size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
    size_t end = static_cast<size_t>(std::min<uint64_t>(offset, size_)) / page * page;
    if (end <= released_) return;
    ::madvise(static_cast<uint8_t *>(map_) + released_, end - released_, MADV_DONTNEED);
    released_ = end;
}

FileBytes::~FileBytes() {
    if (map_) ::munmap(map_, size_);
}

// The size fstat gave, no more: a capture still being written keeps growing, and what was there
// at open is a consistent prefix (as with the mapping). Ends early if the file shrank.
void FileBytes::read_prefix(int fd, const std::string &path) {
    copy_.resize(size_);
    size_t used = 0;
    while (used < size_) {
        ssize_t n = ::pread(fd, copy_.data() + used, size_ - used, static_cast<off_t>(used));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) fail(path, "read", errno);
        if (n == 0) break;
        used += static_cast<size_t>(n);
    }
    copy_.resize(used);
    data_ = copy_.data();
    size_ = copy_.size();
}

}  // namespace mt::reader::detail
