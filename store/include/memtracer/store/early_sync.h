// early_sync.h — syncs a database's files to disk in the background while a big transaction is
// being written, so its commit does not wait for all of it at once.
//
// A session-sized ingest writes ~100 MB of pages in one transaction; SQLite writes them to the
// file as its page cache spills and at the commit, and the commit's fdatasync then waited for the
// whole 100 MB to reach the disk: 0.3-0.5 s at the end of the ingest with both threads done
// (docs/benchmarks.md, issue 22's fourth session). EarlySync calls fdatasync on the file every
// `period` from a thread of its own, so by the commit only the last pages are still unwritten.
// The waits are the disk's, not the CPU's.
//
// It changes nothing about durability: SQLite has already handed these pages to the kernel,
// which may write them back at any time anyway; the rollback journal (or the WAL) still decides
// what a crash leaves. Best effort and quiet: a file that cannot be opened is not synced.
#ifndef MEMTRACER_STORE_EARLY_SYNC_H
#define MEMTRACER_STORE_EARLY_SYNC_H

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace mt::store {

class EarlySync {
public:
    // Starts syncing the database at `path` and its WAL (when there is one).
    explicit EarlySync(std::string path, std::chrono::milliseconds period = std::chrono::milliseconds(250));
    ~EarlySync();  // stop() if not done yet, then waits for the thread
    EarlySync(const EarlySync &) = delete;
    EarlySync &operator=(const EarlySync &) = delete;

    // Asks the thread to stop without waiting for a sync in flight (call before the commit, whose
    // own sync then overlaps it instead of waiting behind it).
    void stop();
    // Syncs done so far (tests).
    unsigned syncs() const;

private:
    void loop();
    std::string path_;
    std::chrono::milliseconds period_;
    mutable std::mutex mu_;
    std::condition_variable wake_;
    bool stop_ = false;
    unsigned syncs_ = 0;
    std::thread thread_;
};

}  // namespace mt::store

#endif
