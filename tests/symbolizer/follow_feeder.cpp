#include "follow_feeder.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <random>
#include <sstream>
#include <stdexcept>

#include "memtracer/format.h"

namespace mt::test {

namespace {

uint32_t le32(const std::string &b, size_t at) {
    uint32_t v;
    std::memcpy(&v, b.data() + at, 4);
    return v;
}

}  // namespace

std::vector<ChunkSpan> chunk_spans(const std::string &bytes) {
    std::vector<ChunkSpan> out;
    size_t pos = sizeof(mt_file_header);
    while (pos + sizeof(mt_chunk_header) <= bytes.size()) {
        uint16_t type;
        std::memcpy(&type, bytes.data() + pos + offsetof(mt_chunk_header, type), 2);
        uint64_t end = pos + sizeof(mt_chunk_header) + le32(bytes, pos + offsetof(mt_chunk_header, size));
        if (end > bytes.size()) break;
        out.push_back({pos, end, type});
        pos = end;
    }
    return out;
}

uint64_t frame_chunks_before(const std::string &bytes, uint64_t end) {
    uint64_t n = 0;
    for (const auto &c : chunk_spans(bytes)) n += c.type == MT_CHUNK_FRAME && c.end <= end;
    return n;
}

std::vector<uint64_t> cuts_inside_chunks(const std::string &bytes, size_t pieces, uint32_t seed) {
    std::vector<ChunkSpan> spans = chunk_spans(bytes);
    if (spans.size() < pieces + 2) throw std::runtime_error("too few chunks for the pieces asked");
    std::mt19937 rng(seed);
    // Chunk k (k >= 1, the one after INFO at least) ends inside a piece; the cut lands inside
    // chunk k+1 at a random byte, so the next piece starts mid-chunk.
    std::vector<size_t> ks;
    for (size_t k = 0; k + 1 < spans.size(); ++k) ks.push_back(k);
    std::shuffle(ks.begin(), ks.end(), rng);
    ks.resize(pieces);
    std::sort(ks.begin(), ks.end());
    std::vector<uint64_t> cuts;
    for (size_t k : ks) {
        const ChunkSpan &next = spans[k + 1];
        std::uniform_int_distribution<uint64_t> in(next.offset + 1, next.end - 1);
        cuts.push_back(in(rng));
    }
    return cuts;
}

bool parse_follow_line(const std::string &line, FollowLine &out) {
    std::istringstream in(line);
    std::string word;
    if (!(in >> word) || word != "follow") return false;
    out.fields.clear();
    while (in >> word) {
        size_t eq = word.find('=');
        if (eq == std::string::npos) return false;
        out.fields[word.substr(0, eq)] = word.substr(eq + 1);
    }
    for (const char *k : {"run", "frames", "last_seq", "events", "state"})
        if (!out.fields.count(k)) return false;
    return true;
}

Follower::Follower(const std::string &target, const std::string &db, const std::vector<std::string> &extra)
    : target_(target) {
    std::vector<std::string> argv = {MT_SYMBOLIZE_EXE, target, "--follow", "--db", db, "--follow-poll-ms", "5",
                                     "--no-progress"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    child_ = mt::proc::Child::spawn(argv, err_.fd());
}

void Follower::append(const std::string &bytes, uint64_t from, uint64_t to) {
    int fd = ::open(target_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0) throw std::runtime_error("cannot open " + target_);
    const char *p = bytes.data() + from;
    size_t left = to - from;
    while (left) {
        ssize_t n = ::write(fd, p, left);
        if (n <= 0) break;
        p += n;
        left -= static_cast<size_t>(n);
    }
    ::close(fd);
}

bool Follower::next(FollowLine &line) {
    std::string text;
    while (child_.read_line(text)) {
        lines.push_back(text);
        if (parse_follow_line(text, line)) return true;
    }
    return false;
}

FollowLine Follower::drain() {
    FollowLine line, last;
    while (next(line)) {
        last = line;
        if (line.state() != "live") break;
    }
    return last;
}

void Follower::signal(int sig) { ::kill(child_.pid(), sig); }

int Follower::wait() { return child_.wait(); }

std::string Follower::stderr_text() {
    for (const auto &l : err_.take_lines()) err_text_ += l + "\n";
    return err_text_;
}

}  // namespace mt::test
