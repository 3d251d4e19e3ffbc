// run_file.h — the host's copy of run.mt, kill-tolerant like the runtime's: whole checked chunks
// only, each appended with write(2), never rewritten. Reopened with resume, a file cut by a kill
// of the host is trimmed back to its last whole chunk, and that size is the resume point.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "memtracer/noncopyable.h"

namespace mt::live {

class RunFile {
public:
    RunFile() = default;
    ~RunFile();
    MT_NONCOPYABLE(RunFile);

    // resume: keep an existing file's whole chunks (throws std::runtime_error saying why not).
    void open(const std::string &path, bool resume);
    uint64_t size() const { return size_; }
    bool has_header() const { return size_ >= 64; }
    const std::array<uint8_t, 64> &header() const { return header_; }
    // The runtime's start offset: cut back to it (never forward).
    void truncate_to(uint64_t offset);
    void append(std::span<const uint8_t> bytes);  // throws on a write error

private:
    int fd_ = -1;
    std::string path_;
    uint64_t size_ = 0;
    std::array<uint8_t, 64> header_{};
};

}  // namespace mt::live
