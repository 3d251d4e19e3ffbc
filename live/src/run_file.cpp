// run_file.cpp — see run_file.h.
#include "run_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "memtracer/codec.h"
#include "memtracer/format.h"
#include "memtracer/write_all.h"

namespace mt::live {

namespace {

[[noreturn]] void fail(const std::string &what, const std::string &path) {
    throw std::runtime_error(what + " " + path + ": " + std::strerror(errno));
}

// The end of the last whole chunk whose CRC matches (0 when even the header is not whole).
uint64_t whole_prefix(int fd, uint64_t size, std::array<uint8_t, 64> &header) {
    if (size < 64 || pread(fd, header.data(), 64, 0) != 64) return 0;
    if (std::memcmp(header.data(), MT_FORMAT_MAGIC, 8) != 0 ||
        codec::crc32c_update(0, header.data(), 60) != codec::get_le32(header.data() + 60))
        return 0;
    uint64_t at = 64;
    std::vector<uint8_t> payload;
    for (;;) {
        uint8_t h[sizeof(mt_chunk_header)];
        if (at + sizeof h > size || pread(fd, h, sizeof h, static_cast<off_t>(at)) != static_cast<ssize_t>(sizeof h))
            return at;
        uint32_t len = codec::get_le32(h + 8);
        if (codec::get_le32(h) != MT_CHUNK_MAGIC || len > MT_MAX_CHUNK_PAYLOAD || at + sizeof h + len > size) return at;
        payload.resize(len);
        if (pread(fd, payload.data(), len, static_cast<off_t>(at + sizeof h)) != static_cast<ssize_t>(len)) return at;
        if (codec::chunk_crc(codec::get_le16(h + 4), codec::get_le16(h + 6), len, payload.data()) != codec::get_le32(h + 12))
            return at;
        at += sizeof h + len;
    }
}

}  // namespace

RunFile::~RunFile() {
    if (fd_ >= 0) ::close(fd_);
}

void RunFile::open(const std::string &path, bool resume) {
    path_ = path;
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | (resume ? 0 : O_TRUNC), 0644);
    if (fd_ < 0) fail("cannot create", path);
    struct stat st {};
    if (fstat(fd_, &st) != 0) fail("cannot stat", path);
    size_ = resume ? whole_prefix(fd_, static_cast<uint64_t>(st.st_size), header_) : 0;
    truncate_to(size_);
}

void RunFile::truncate_to(uint64_t offset) {
    if (offset > size_) throw std::runtime_error("the runtime resumes at byte " + std::to_string(offset) + " but " +
                                                 path_ + " holds only " + std::to_string(size_));
    if (ftruncate(fd_, static_cast<off_t>(offset)) != 0 || lseek(fd_, static_cast<off_t>(offset), SEEK_SET) < 0)
        fail("cannot truncate", path_);
    size_ = offset;
}

void RunFile::append(std::span<const uint8_t> bytes) {
    if (size_ == 0 && bytes.size() >= 64) std::memcpy(header_.data(), bytes.data(), 64);
    if (int err = trace::write_all(fd_, bytes.data(), bytes.size())) {
        // As the runtime does: cut the partial chunk off, the file stays a valid prefix.
        if (ftruncate(fd_, static_cast<off_t>(size_)) == 0) lseek(fd_, static_cast<off_t>(size_), SEEK_SET);
        errno = err;
        fail("write to", path_);
    }
    size_ += bytes.size();
}

}  // namespace mt::live
