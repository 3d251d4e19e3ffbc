// follow_reader.cpp — FollowReader: one Session kept across polls of a growing file. The chunk
// walker stops before an incomplete chunk without consuming it, so the next poll, over the
// grown file, resumes at that chunk's first byte; frame data held for uncommitted frames stays
// in the session's assembler meanwhile.
#include <memtracer/format.h>
#include <memtracer/reader.h>
#include <sys/stat.h>

#include <optional>

#include "file_bytes.h"
#include "header_parse.h"
#include "session.h"

namespace mt::reader {

struct FollowReader::State {
    std::optional<detail::Session> session;
};

FollowReader::FollowReader(Visitor &visitor) : visitor_(visitor), state_(new State) {}

FollowReader::~FollowReader() { delete state_; }

bool FollowReader::poll(const uint8_t *data, size_t size) {
    auto &session = state_->session;
    if (!session) {
        if (size < sizeof(mt_file_header)) return false;
        session.emplace(data, size, detail::parse_file_header(data, size), visitor_);
    } else if (result_.stop == Stop::Corrupt || result_.stop == Stop::End) {
        return true;  // the walker is past a damaged chunk, or the capture is complete: stay there
    } else {
        session->rebind(data, size);
    }
    result_ = session->run(false);
    return true;
}

bool FollowReader::poll_at(const uint8_t *data, size_t size, uint64_t base) {
    auto &session = state_->session;
    if (!session || base != offset()) return false;
    if (result_.stop == Stop::Corrupt || result_.stop == Stop::End) return true;
    session->rebind(data, size, base);
    result_ = session->run(false);
    return true;
}

bool FollowReader::poll_file(const std::string &path) {
    struct stat st;
    if (::stat(path.c_str(), &st) != 0) return false;
    if (static_cast<uint64_t>(st.st_size) < sizeof(mt_file_header) && !state_->session) return false;
    detail::FileBytes bytes(path);
    try {
        return poll(bytes.data(), bytes.size());
    } catch (const FormatError &e) {
        throw FormatError(path + ": " + e.what());
    }
}

uint64_t FollowReader::offset() const {
    return state_->session ? result_.stop_offset : 0;
}

}  // namespace mt::reader
