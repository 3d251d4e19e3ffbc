// remove_at_exit.h — a test's scratch folders go when its process ends (ctest runs a process per
// test case) instead of piling up in /tmp run after run. Only the process that made them removes
// them: a forked child that exits normally leaves its parent's folders alone.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <mutex>
#include <system_error>
#include <vector>

namespace mt::test {

inline void remove_at_exit(const std::filesystem::path &dir) {
    struct Registry {
        pid_t owner = getpid();
        std::mutex m;
        std::vector<std::filesystem::path> dirs;
        ~Registry() {
            if (getpid() != owner) return;
            for (const auto &d : dirs) {
                std::error_code ec;  // best effort: a folder already gone is fine
                std::filesystem::remove_all(d, ec);
            }
        }
    };
    static Registry registry;
    std::lock_guard<std::mutex> lock(registry.m);
    registry.dirs.push_back(dir);
}

}  // namespace mt::test
