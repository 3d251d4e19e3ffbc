// stream_check.cpp — see stream_check.h.
#include "stream_check.h"

#include <stdexcept>

#include "memtracer/reader.h"

namespace mt::live {

StreamCheck::StreamCheck() : visitor_(std::make_unique<reader::Visitor>()) {}

StreamCheck::~StreamCheck() = default;

void StreamCheck::restart(const std::string &path) {
    reader_ = std::make_unique<reader::FollowReader>(*visitor_);
    ended_ = false;
    try {
        if (!reader_->poll_file(path)) return;  // not even a header yet: it comes from the stream
    } catch (const reader::FormatError &e) {
        throw std::runtime_error(std::string("cannot continue the capture: ") + e.what());
    }
    const reader::ReadResult &r = reader_->result();
    if (r.stop == reader::Stop::End)
        throw std::runtime_error(path + " already holds a complete capture (END); nothing more may be stored in it");
    if (r.stop != reader::Stop::Eof)
        throw std::runtime_error("cannot continue the capture in " + path + ": " + r.stop_reason);
}

void StreamCheck::header(std::span<const uint8_t> bytes) {
    reader_ = std::make_unique<reader::FollowReader>(*visitor_);
    ended_ = false;
    try {
        reader_->poll(bytes.data(), bytes.size());
    } catch (const reader::FormatError &e) {
        throw std::runtime_error(std::string("the runtime sent a run.mt header this host cannot read: ") + e.what());
    }
}

void StreamCheck::chunk(std::span<const uint8_t> bytes, uint64_t at) {
    if (ended_)
        throw std::runtime_error("the runtime sent a chunk at offset " + std::to_string(at) +
                                 " after the END chunk; a capture ends at END");
    if (!reader_ || !reader_->poll_at(bytes.data(), bytes.size(), at))
        throw std::runtime_error("the runtime sent a chunk at offset " + std::to_string(at) +
                                 " that does not follow what this host holds");
    const reader::ReadResult &r = reader_->result();
    if (r.stop == reader::Stop::End) {
        ended_ = true;
        return;
    }
    if (r.stop != reader::Stop::Eof || reader_->offset() != at + bytes.size())
        throw std::runtime_error("the runtime sent a chunk the reader refuses: " + r.stop_reason);
}

}  // namespace mt::live
