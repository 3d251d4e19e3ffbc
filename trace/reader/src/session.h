// session.h — one pass over a run.mt whose header is good: walks chunks, decodes each one whole
// (a chunk is used entirely or not at all), keeps the dictionaries' sizes for reference checks,
// commits frames, and says where and why it stopped. Never throws for anything in the file.
#ifndef MEMTRACER_READER_SESSION_H
#define MEMTRACER_READER_SESSION_H

#include "chunk_walker.h"
#include "decode.h"
#include "frame_assembler.h"

#include <memtracer/reader.h>

#include <functional>

namespace mt::reader::detail {

class Session {
public:
    Session(const uint8_t *data, size_t size, Header header, Visitor &visitor);
    // `final`: no more bytes will come, so a header without chunks is still sent. FollowReader
    // passes false, rebinds to the grown file and calls run() again from where it stopped.
    ReadResult run(bool final = true);
    // `data` holds the file's bytes [base, base + size); base is at most where the walk stands.
    void rebind(const uint8_t *data, size_t size, uint64_t base = 0);
    // Called after each chunk with the file offset of the first byte not walked yet: no byte
    // before it is read again (read_file gives those pages back).
    void on_walked(std::function<void(uint64_t)> f) { walked_ = std::move(f); }

private:
    void dispatch(const Chunk &chunk, Cursor &c);
    void on_info(Cursor &c);
    void on_dictionary(uint16_t type, Cursor &c);
    void on_frame_data(uint16_t type, Cursor &c);
    void on_frame(Cursor &c);
    void check_mode(uint16_t frame_data_type) const;
    void check_count(const Frame &fields) const;
    void on_end(const Chunk &chunk, Cursor &c);
    void send_header();

    size_t size_;
    Header header_;
    Visitor &visitor_;
    ChunkWalker walker_;
    FrameAssembler frames_;
    DictSizes dicts_;
    ReadResult result_;
    bool header_sent_ = false;
    bool ended_ = false;
    std::function<void(uint64_t)> walked_;
};

}  // namespace mt::reader::detail

#endif
