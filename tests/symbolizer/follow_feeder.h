// follow_feeder.h — drives `memtracer-symbolize --follow` the way a capture would: the run.mt
// is appended in pieces cut inside chunks, and after each piece the feeder waits for the
// follower's next progress line, so what the follower sees does not depend on timing.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "memtracer/process.h"

namespace mt::test {

// Where each chunk of a run.mt ends, and its type.
struct ChunkSpan {
    uint64_t offset = 0, end = 0;
    uint16_t type = 0;
};
std::vector<ChunkSpan> chunk_spans(const std::string &bytes);
uint64_t frame_chunks_before(const std::string &bytes, uint64_t end);  // FRAME chunks ending at or before `end`

// `pieces` cut points, each inside a chunk (never on a boundary), strictly increasing, each
// piece completing at least one chunk, the first one after the INFO chunk; seeded.
std::vector<uint64_t> cuts_inside_chunks(const std::string &bytes, size_t pieces, uint32_t seed);

// A parsed progress line: "follow run=1 frames=3 last_seq=2 events=40 state=live".
struct FollowLine {
    std::map<std::string, std::string> fields;
    int64_t num(const std::string &k) const { return std::stoll(fields.at(k)); }
    const std::string &state() const { return fields.at("state"); }
};
bool parse_follow_line(const std::string &line, FollowLine &out);

class Follower {
public:
    // Starts memtracer-symbolize `target` --follow --db `db` --follow-poll-ms 5 plus `extra`.
    Follower(const std::string &target, const std::string &db, const std::vector<std::string> &extra);
    // Appends bytes [from, to) of `bytes` to the followed file in one write.
    void append(const std::string &bytes, uint64_t from, uint64_t to);
    // The next progress line; false when the follower's output ended first.
    bool next(FollowLine &line);
    // Reads lines until one with state != live (or the end); returns the last line read.
    FollowLine drain();
    void signal(int sig);
    int wait();
    std::string stderr_text();
    std::vector<std::string> lines;  // every line read, for messages

private:
    std::string target_;
    mt::proc::StderrCapture err_;
    mt::proc::Child child_;
    std::string err_text_;
};

}  // namespace mt::test
