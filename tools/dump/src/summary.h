// summary.h — what memtracer-dump prints, gathered in one pass: dictionaries in full, one row per
// committed frame (event lists kept only for the frames shown with --events), totals over all
// frames, and how the file ended. Memory stays proportional to frames, not events.
#ifndef MEMTRACER_DUMP_SUMMARY_H
#define MEMTRACER_DUMP_SUMMARY_H

#include <memtracer/reader.h>

#include <cstdint>
#include <string>
#include <vector>

namespace mt::dump {

struct Options {
    std::string path;
    bool json = false;
    bool events = false;
    uint64_t frames = 20;  // frames shown; UINT64_MAX with --all-frames
};

struct FrameRow {
    reader::Frame frame;  // lists empty unless shown with --events
    uint64_t records = 0, gcs = 0, deaths = 0;  // list sizes as read
};

// Every mark of the run, shown whatever --frames says: there are few and they name the frames worth
// a look.
struct MarkRow {
    uint64_t seq = 0, index = 0, tick = 0, frame_start_tick = 0;
    std::string label;
};

struct Totals {
    uint64_t ticks = 0, events = 0, records = 0, requested_bytes = 0, gc_bytes = 0, dropped = 0, gcs = 0,
             deaths = 0, max_heap = 0;
};

struct Summary {
    reader::Header header;
    std::vector<reader::Module> modules;
    std::vector<reader::Thread> threads;
    std::vector<reader::Class> classes;
    uint64_t stacks = 0, stack_frames = 0, max_stack_depth = 0;
    std::vector<FrameRow> rows;  // the first opts.frames committed frames
    std::vector<MarkRow> marks;
    uint64_t committed = 0;
    Totals totals;
    reader::ReadResult result;
};

class SummaryCollector : public reader::Visitor {
public:
    SummaryCollector(Summary &s, const Options &opts) : s_(s), opts_(opts) {}
    void on_header(const reader::Header &h) override { s_.header = h; }
    void on_module(const reader::Module &m) override { s_.modules.push_back(m); }
    void on_thread(const reader::Thread &t) override;
    void on_class(const reader::Class &c) override { s_.classes.push_back(c); }
    void on_stack(const reader::Stack &st) override;
    void on_frame(const reader::Frame &f) override;

private:
    Summary &s_;
    const Options &opts_;
};

}  // namespace mt::dump

#endif
