// run_ingest.h — one run.mt into the database, as a reader Visitor: the run's dictionaries and
// frames stream into their tables while the file is read; stacks are kept until the end, when
// every module is known, and then mapped to cached addresses, symbolized and given their sites.
// All of it happens inside the caller's transaction.
//
// A followed run (--follow) goes through the same steps once per batch of chunks, each batch in
// its own transaction: resolve_addresses/write_shapes/write_stacks take the stacks defined
// since the previous batch only, and flush_batch() leaves the run's totals right for the frames
// so far. A stack is resolved against the modules known when its batch commits (the runtime
// writes a module before the stacks in it).
#ifndef MEMTRACER_SYM_RUN_INGEST_H
#define MEMTRACER_SYM_RUN_INGEST_H

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "address_cache.h"
#include "address_map.h"
#include "frame_writer.h"
#include "memtracer/reader.h"
#include "sites.h"
#include "memtracer/store/db.h"
#include "symbol_locator.h"
#include "symbolize_pass.h"

namespace mt::sym {

struct RunSource {
    std::string path;   // as given on the command line
    uint64_t size = 0;
};

class RunIngest final : public mt::reader::Visitor {
public:
    using Warn = std::function<void(const std::string &)>;
    RunIngest(store::Db &db, RunSource source, SymbolLocator &locator, bool force, Warn warn);

    void on_header(const mt::reader::Header &h) override;
    void on_module(const mt::reader::Module &m) override;
    void on_thread(const mt::reader::Thread &t) override;
    void on_class(const mt::reader::Class &c) override;
    void on_stack(const mt::reader::Stack &s) override;
    // on_stack's work: stack `id`'s frames (the pipe's batches of stacks, run_ingest_pipe.h).
    void add_stack(uint64_t id, std::span<const uint64_t> frames);
    void on_frame(const mt::reader::Frame &f) override;
    // A frame whose events were summed on the reading thread (run_ingest_pipe.h).
    void on_digest(FrameDigest &d);  // sorts d's rows

    // After reading: every new stack frame's cached address (interning new ones), and the work
    // list for the symbolize pass.
    std::vector<PartitionWork> resolve_addresses(AddressCache &cache);
    // Each new stack's shape (schema version 5: stack_shapes, shape_frames, run_biases; after
    // resolve_addresses and the symbolize pass): found by its key, or written once. A warm run of
    // a known build finds every shape and writes no frame rows, only the run's module biases.
    void write_shapes(AddressCache &cache);
    // After symbolizing: sites and stacks rows; the stacks count as written from then on. The site
    // summaries it makes go to `cache` (written by its flush(), after this).
    void write_stacks(AddressCache &cache);
    // Totals and stop state into the runs row; run_class_stack and survivors.
    void finish(const mt::reader::ReadResult &r);
    // After a batch of a followed run: pending allocs, run_class_stack so far, the runs row.
    void flush_batch(const mt::reader::ReadResult &r);
    uint64_t frames_written() const;
    int64_t last_seq() const { return last_seq_; }  // -1 before the first frame

    // Rows per allocating thread (default) or, false, per (class, stack) only (--no-threads).
    void split_threads(bool on) { split_threads_ = on; }
    bool splits_threads() const { return split_threads_; }
    int64_t run_id() const { return run_id_; }
    bool has_header() const { return writer_ != nullptr; }
    const RunTotals &totals() const;
    const std::atomic<uint64_t> &frames_read() const { return frames_read_; }
    uint64_t stacks() const { return stacks_.size(); }
    uint64_t frame_addresses() const { return frame_addresses_; }
    uint64_t outside_modules() const { return outside_modules_; }
    size_t modules_with_symbols() const;

private:
    struct FrameRef {
        int32_t module = -1;  // -1: outside every module
        uint32_t row = 0;     // row in the module's cache partition
    };
    // A stack's frames are frames_[first, first + depth) of the run's one array (and of refs_
    // and ids_): a vector per stack was three allocations a stack (its addresses, their cache
    // rows, their ids) and their frees, about 30M instructions for a warm run's 24k stacks
    // (docs/benchmarks.md, issue 22, twelfth session).
    struct StackFrames {
        size_t first = 0;
        uint32_t depth = 0;
        int64_t shape = 0;  // its stack_shapes row (0: no frames), after write_shapes
    };
    std::span<const uint64_t> raw(const StackFrames &s) const { return {frames_.data() + s.first, s.depth}; }
    std::span<const FrameRef> refs(const StackFrames &s) const { return {refs_.data() + s.first, s.depth}; }
    // Each frame's addr_id (0: outside every module); complete after write_shapes.
    std::span<int64_t> ids(const StackFrames &s) { return {ids_.data() + s.first, s.depth}; }
    std::span<const int64_t> ids(const StackFrames &s) const { return {ids_.data() + s.first, s.depth}; }
    int64_t addr_id(const FrameRef &r) const;
    int main_module() const;
    void update_run(const mt::reader::ReadResult &r);

    store::Db &db_;
    RunSource source_;
    SymbolLocator &locator_;
    bool force_;
    Warn warn_;
    mt::reader::Header header_;
    int64_t run_id_ = 0;
    AddressMap modules_;
    std::vector<std::optional<SymbolFile>> symbol_files_;  // by index in modules_
    std::vector<uint64_t> module_use_;                     // used addresses per module
    std::vector<StackFrames> stacks_;                      // by stack id
    std::vector<uint64_t> frames_;                         // every stack's raw addresses, back to back
    std::vector<FrameRef> refs_;                           // by index in frames_ (resolve_addresses)
    std::vector<int64_t> ids_;                             // by index in frames_
    uint32_t stacks_written_ = 0;                          // stacks_ before it are in the database
    std::vector<AddressCache::Partition *> part_of_;       // by module index
    std::unique_ptr<FrameWriter> writer_;
    store::Stmt module_, thread_, class_;
    std::atomic<uint64_t> frames_read_{0};
    uint64_t frame_addresses_ = 0, outside_modules_ = 0;
    int64_t last_seq_ = -1;
    bool split_threads_ = true;
};

}  // namespace mt::sym

#endif
