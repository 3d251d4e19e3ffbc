// stream_check.h — the host validates what a runtime streams the way the reader reads a file
// (trace/reader's FollowReader, not a second set of rules): each chunk, already whole and
// CRC-checked by the StreamParser, is decoded against everything before it before it is stored,
// so the host's run.mt only ever holds what memtracer-dump and the symbolizer accept. Frames out
// of order or twice, an unknown chunk type, a payload that does not decode (CRC recomputed or
// not), a header of a format version this build does not read and anything after END are
// refused with the reader's own sentence.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "memtracer/noncopyable.h"

namespace mt::reader {
class FollowReader;
class Visitor;
}  // namespace mt::reader

namespace mt::live {

class StreamCheck {
public:
    StreamCheck();
    ~StreamCheck();
    MT_NONCOPYABLE(StreamCheck);

    // Starts over from the host file as it is (its whole chunks were checked when stored): a
    // resumed or reconnected capture continues after them. Throws std::runtime_error if that
    // file is not readable as a run.mt prefix.
    void restart(const std::string &path);
    // The 64-byte run.mt header; throws std::runtime_error (e.g. a format version this build
    // does not read).
    void header(std::span<const uint8_t> bytes);
    // One whole chunk that would be stored at file offset `at`; throws std::runtime_error naming
    // what is wrong, and then the chunk must not be stored.
    void chunk(std::span<const uint8_t> bytes, uint64_t at);
    bool ended() const { return ended_; }  // END accepted: nothing may follow

private:
    std::unique_ptr<reader::Visitor> visitor_;
    std::unique_ptr<reader::FollowReader> reader_;
    bool ended_ = false;
};

}  // namespace mt::live
