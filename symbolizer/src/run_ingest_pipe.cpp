#include "run_ingest_pipe.h"

#include <exception>
#include <optional>
#include <thread>
#include <variant>

#include "batch_queue.h"
#include "frame_aggs.h"
#include "memtracer/format.h"
#include "run_ingest.h"

namespace mt::sym {

namespace {

namespace rd = mt::reader;

struct Done {
    rd::ReadResult result;
    std::exception_ptr error;
};
// Stacks go over in batches, their frames back to back: an item (and a vector) a stack was two
// allocations a stack on each side and a queue slot (docs/benchmarks.md, issue 22, twelfth
// session). A batch is handed over before any other item, so the order of items is the file's.
struct StackBatch {
    std::vector<uint64_t> ids;     // by stack of the batch
    std::vector<uint32_t> depths;  // by stack
    std::vector<uint64_t> frames;  // every stack's frames, in turn
    size_t bytes() const { return ids.capacity() * 8 + depths.capacity() * 4 + frames.capacity() * 8; }
};
using Item = std::variant<rd::Header, rd::Module, rd::Thread, rd::Class, StackBatch, rd::Frame, FrameDigest, Done>;

// 16 items a handoff: the two threads wake each other once per 16 frames, not per frame. At
// most 64 MiB of frames wait: ~15k digested frames of a session-sized run (a digest is a few KiB),
// enough to carry the reader past a stretch of frames that cost the database more than the
// reader (the start of a run); a lifetimes run's whole frames hold their events, so fewer.
using Queue = BatchQueue<Item>;
constexpr size_t kBatch = 16, kBudget = size_t{64} << 20;

template <typename V>
size_t held(const std::vector<V> &v) {
    return v.capacity() * sizeof(V);
}

// The memory a frame (its events if any) holds, for the queue's budget.
size_t held(const rd::Frame &f) {
    return sizeof f + held(f.event_list) + held(f.aggregates) + held(f.gcs) + held(f.deaths) + held(f.marks);
}

// The reading thread's visitor: copies the dictionaries over and digests the frames.
class Forward final : public rd::Visitor {
public:
    Forward(Queue &q, bool split_threads) : q_(q), split_threads_(split_threads) {}
    void on_header(const rd::Header &h) override {
        if (!(h.flags & MT_FILE_FLAG_LIFETIMES)) digester_.emplace(h, split_threads_);
        push_entry(h);
    }
    void on_module(const rd::Module &m) override { push_entry(m); }
    void on_thread(const rd::Thread &t) override { push_entry(t); }
    void on_class(const rd::Class &c) override { push_entry(c); }
    void on_stack(const rd::Stack &s) override {
        stacks_.ids.push_back(s.id);
        stacks_.depths.push_back(static_cast<uint32_t>(s.frames.size()));
        stacks_.frames.insert(stacks_.frames.end(), s.frames.begin(), s.frames.end());
        if (stacks_.frames.size() >= kStackBatchFrames) flush_stacks();
    }
    // The header and dictionary entries: few and small, counted by their size alone; the stacks
    // read before them go first, so the items keep the file's order.
    template <class T>
    void push_entry(const T &entry) {
        flush_stacks();
        q_.push(entry, sizeof entry);
    }
    // The stacks read since the last item: handed over (before any other item, and at the end).
    void flush_stacks() {
        if (stacks_.ids.empty()) return;
        size_t bytes = stacks_.bytes();
        q_.push(std::move(stacks_), bytes);
        stacks_ = StackBatch{};
    }
    void on_frame(const rd::Frame &f) override {
        flush_stacks();
        if (!digester_) return q_.push(f, held(f));
        FrameDigest d;
        digester_->digest(f, d);
        size_t bytes = held(d.frame) + held(d.rows);
        q_.push(std::move(d), bytes);
    }

private:
    static constexpr size_t kStackBatchFrames = 64 * 1024;  // 512 KiB of addresses a batch at most (about)
    Queue &q_;
    bool split_threads_;
    StackBatch stacks_;
    std::optional<FrameDigester> digester_;
};

// Calls the writing side for one item; true at the end of the file.
bool deliver(Item &item, RunIngest &run, Done &done) {
    return std::visit(
        [&](auto &v) {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, rd::Header>) run.on_header(v);
            else if constexpr (std::is_same_v<T, rd::Module>) run.on_module(v);
            else if constexpr (std::is_same_v<T, rd::Thread>) run.on_thread(v);
            else if constexpr (std::is_same_v<T, rd::Class>) run.on_class(v);
            else if constexpr (std::is_same_v<T, StackBatch>) {
                size_t at = 0;
                for (size_t i = 0; i < v.ids.size(); ++i) {
                    run.add_stack(v.ids[i], std::span<const uint64_t>(v.frames).subspan(at, v.depths[i]));
                    at += v.depths[i];
                }
            }
            else if constexpr (std::is_same_v<T, rd::Frame>) run.on_frame(v);
            else if constexpr (std::is_same_v<T, FrameDigest>) run.on_digest(v);
            else {
                done = std::move(v);
                return true;
            }
            return false;
        },
        item);
}

}  // namespace

rd::ReadResult read_pipelined(const std::string &path, RunIngest &run) {
    Queue q(kBatch, kBudget);
    std::thread reader([&q, &path, split = run.splits_threads()] {
        Forward fwd(q, split);
        Done done;
        try {
            done.result = rd::read_file(path, fwd);
        } catch (const Queue::Cancelled &) {
            return;  // the writing side failed and is not reading any more
        } catch (...) {
            done.error = std::current_exception();  // what was read before it still goes over
        }
        try {
            fwd.flush_stacks();
            q.push(std::move(done), sizeof done);
            q.flush();
        } catch (const Queue::Cancelled &) {
        }
    });
    Done done;
    try {
        for (bool end = false; !end;)
            for (Item &item : q.pop())
                if (deliver(item, run, done)) end = true;
    } catch (...) {
        q.cancel();
        reader.join();
        throw;
    }
    reader.join();
    if (done.error) std::rethrow_exception(done.error);
    return std::move(done.result);
}

}  // namespace mt::sym
