// libFuzzer target (MEMTRACER_FUZZ=ON, clang): a fake game speaking the live wire protocol
// (memtracer/stream_proto.h, tests/live/fake_game.h) streams each input, CRCs recomputed so the
// framing passes and only the content is wrong, to the real capture link (run_capture, what
// memtracer-capture runs and memtracer-viewer --live embeds through LiveLink) over loopback.
// Whatever the input, what is stored must hold the reader's invariants:
//  - the host file is a byte prefix of the stream, and the reader reads it without damage (eof
//    or end, never corrupt): a refused chunk is never stored;
//  - exit 0 ("capture complete") only when the reader reads END there and nothing followed it;
//  - a stream the reader reads whole to its END is a complete capture, byte for byte;
//  - the viewer's live ingest publishes a frame when LiveLink reports it: each report's stored
//    size is a prefix the reader reads with exactly that many frames, in order.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "memtracer/live/capture.h"
#include "fake_game.h"
#include "memtracer/live/live_link.h"
#include "memtracer/reader.h"

namespace {

void require(bool ok, const char *what) {
    if (!ok) {
        std::fprintf(stderr, "fuzz_live_stream: invariant broken: %s\n", what);
        __builtin_trap();
    }
}

std::string slurp(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

struct Null : mt::reader::Visitor {};

// The reader over bytes: nullopt when even the header is refused.
std::optional<mt::reader::ReadResult> read(const std::string &b) {
    Null v;
    try {
        return mt::reader::read_buffer(reinterpret_cast<const uint8_t *>(b.data()), b.size(), v);
    } catch (const mt::reader::FormatError &) {
        return std::nullopt;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    std::string stream(reinterpret_cast<const char *>(data), size);
    mt::livetest::fix_crcs(stream);
    static const std::string out = "/tmp/mt-fuzz-live-" + std::to_string(getpid()) + ".mt";
    unlink(out.c_str());

    std::vector<std::pair<uint64_t, uint64_t>> published;  // (seq, stored bytes) per LiveLink frame
    mt::live::LiveLink link;
    link.on_frame = [&](const mt::live::StoredFrame &f) { published.emplace_back(f.frame.seq, f.stored_bytes); };
    int rc;
    {
        mt::livetest::FakeGame game(stream);
        mt::live::CaptureOptions o;
        o.address = game.addr();
        o.out = out;
        o.token = "t";
        o.wait_seconds = 5;
        o.link = &link;
        rc = mt::live::run_capture(o);
    }
    std::string stored = slurp(out);
    require(stream.compare(0, stored.size(), stored) == 0, "the host file is a prefix of the stream");
    auto r = read(stored);
    if (stored.size() >= 64) {
        require(r.has_value(), "a stored header is one the reader reads");
        require(r->stop == mt::reader::Stop::Eof || r->stop == mt::reader::Stop::End, "the host file reads without damage");
    }
    if (rc == 0) require(r && r->stop == mt::reader::Stop::End, "exit 0 only with END stored");
    auto whole = read(stream);
    if (whole && whole->stop == mt::reader::Stop::End && whole->stop_offset == stream.size())
        require(rc == 0 && stored == stream, "a whole valid capture is stored complete");
    for (size_t i = 0; i < published.size(); ++i) {
        require(published[i].first == i, "frames are published densely, in order");
        auto p = read(stored.substr(0, published[i].second));
        require(p && p->frames == i + 1, "each published prefix reads with exactly its frames");
    }
    require(!r || r->frames == published.size(), "every stored frame was published");
    return 0;
}
