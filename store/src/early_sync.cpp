#include "memtracer/store/early_sync.h"

#include <fcntl.h>
#include <unistd.h>

namespace mt::store {

namespace {

// fdatasync through a descriptor of our own: on Linux it writes back the file's dirty pages,
// whoever wrote them (SQLite's descriptor stays SQLite's).
bool sync_file(const std::string &path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    bool ok = ::fdatasync(fd) == 0;
    ::close(fd);
    return ok;
}

}  // namespace

EarlySync::EarlySync(std::string path, std::chrono::milliseconds period)
    : path_(std::move(path)), period_(period), thread_([this] { loop(); }) {}

EarlySync::~EarlySync() {
    stop();
    thread_.join();
}

void EarlySync::stop() {
    std::lock_guard lock(mu_);
    stop_ = true;
    wake_.notify_all();
}

unsigned EarlySync::syncs() const {
    std::lock_guard lock(mu_);
    return syncs_;
}

void EarlySync::loop() {
    std::unique_lock lock(mu_);
    while (!wake_.wait_for(lock, period_, [&] { return stop_; })) {
        lock.unlock();
        unsigned n = sync_file(path_);
        n += sync_file(path_ + "-wal");
        lock.lock();
        syncs_ += n;
    }
}

}  // namespace mt::store
