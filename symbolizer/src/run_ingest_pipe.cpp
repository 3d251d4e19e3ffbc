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
using Item = std::variant<rd::Header, rd::Module, rd::Thread, rd::Class, rd::Stack, rd::Frame, FrameDigest, Done>;

// 16 items a handoff, at most 4 waiting: a reader faster than the database holds ~80 frames,
// not the run, and the two threads wake each other once per 16 frames, not per frame.
using Queue = BatchQueue<Item>;
constexpr size_t kBatch = 16, kBatches = 4;

// The reading thread's visitor: copies the dictionaries over and digests the frames.
class Forward final : public rd::Visitor {
public:
    Forward(Queue &q, bool split_threads) : q_(q), split_threads_(split_threads) {}
    void on_header(const rd::Header &h) override {
        if (!(h.flags & MT_FILE_FLAG_LIFETIMES)) digester_.emplace(h, split_threads_);
        q_.push(h);
    }
    void on_module(const rd::Module &m) override { q_.push(m); }
    void on_thread(const rd::Thread &t) override { q_.push(t); }
    void on_class(const rd::Class &c) override { q_.push(c); }
    void on_stack(const rd::Stack &s) override { q_.push(s); }
    void on_frame(const rd::Frame &f) override {
        if (!digester_) return q_.push(f);
        FrameDigest d;
        digester_->digest(f, d);
        q_.push(std::move(d));
    }

private:
    Queue &q_;
    bool split_threads_;
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
            else if constexpr (std::is_same_v<T, rd::Stack>) run.on_stack(v);
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
    Queue q(kBatch, kBatches);
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
            q.push(std::move(done));
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
