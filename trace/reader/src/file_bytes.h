// file_bytes.h — the whole of a run.mt as one read-only byte range, mapped rather than copied so
// a multi-GB capture costs page cache, not heap.
#ifndef MEMTRACER_READER_FILE_BYTES_H
#define MEMTRACER_READER_FILE_BYTES_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "memtracer/noncopyable.h"

namespace mt::reader::detail {

class FileBytes {
public:
    // Throws FormatError naming the path and errno when the file cannot be opened or read, and
    // naming the kind of file when it is not a regular file (FIFO, device, directory, socket).
    explicit FileBytes(const std::string &path);
    ~FileBytes();
    MT_NONCOPYABLE(FileBytes);

    const uint8_t *data() const { return data_; }
    size_t size() const { return size_; }
    // The bytes before `offset` will not be read again: their pages leave this process's
    // resident set (a mapped page counts in RSS until the kernel reclaims it, so a whole-file
    // read of a multi-GB run.mt would otherwise end as large as the file). Works in steps of
    // kReleaseStep; a later read of those bytes would still see them (the kernel maps them again).
    void release_before(uint64_t offset);
    static constexpr size_t kReleaseStep = size_t{32} << 20;

private:
    void read_prefix(int fd, const std::string &path);  // when mmap fails (some file systems)

    const uint8_t *data_ = nullptr;
    size_t size_ = 0;
    void *map_ = nullptr;
    size_t released_ = 0;  // bytes at the start of map_ given back
    std::vector<uint8_t> copy_;
};

}  // namespace mt::reader::detail

#endif
