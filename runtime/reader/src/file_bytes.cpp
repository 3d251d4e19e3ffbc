#include "file_bytes.h"

#include <memtracer/reader.h>

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

// Closes the descriptor on every path out of the constructor; the mapping outlives it.
struct Fd {
    int fd;
    ~Fd() { if (fd >= 0) ::close(fd); }
};

}  // namespace

FileBytes::FileBytes(const std::string &path) {
    Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
    if (f.fd < 0) fail(path, "open", errno);
    struct stat st {};
    if (::fstat(f.fd, &st) != 0) fail(path, "stat", errno);
    if (!S_ISREG(st.st_mode)) {
        read_stream(f.fd, path);
        return;
    }
    size_ = static_cast<size_t>(st.st_size);
    if (size_ == 0) return;  // mmap refuses length 0; an empty range is what we want anyway
    map_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, f.fd, 0);
    if (map_ == MAP_FAILED) {
        map_ = nullptr;
        read_stream(f.fd, path);
        return;
    }
    ::madvise(map_, size_, MADV_SEQUENTIAL);
    data_ = static_cast<const uint8_t *>(map_);
}

FileBytes::~FileBytes() {
    if (map_) ::munmap(map_, size_);
}

void FileBytes::read_stream(int fd, const std::string &path) {
    constexpr size_t kBlock = 4u << 20;
    copy_.clear();
    for (;;) {
        size_t used = copy_.size();
        copy_.resize(used + kBlock);
        ssize_t n = ::read(fd, copy_.data() + used, kBlock);
        if (n < 0 && errno == EINTR) {
            copy_.resize(used);
            continue;
        }
        if (n < 0) fail(path, "read", errno);
        copy_.resize(used + static_cast<size_t>(n));
        if (n == 0) break;
    }
    data_ = copy_.data();
    size_ = copy_.size();
}

}  // namespace mt::reader::detail
