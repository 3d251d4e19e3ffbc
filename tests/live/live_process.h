// live_process.h — child processes for the live tests: spawned with stderr (and stdout) to a log
// file and, optionally, a pipe on stdin; waited for with a bound, killed by pid.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace mt::livetest {

class Child {
public:
    Child() = default;
    Child(const std::vector<std::string> &argv, const std::string &log_path, bool stdin_pipe = false);
    ~Child();
    Child(const Child &) = delete;
    Child &operator=(const Child &) = delete;

    pid_t pid() const { return pid_; }
    void write_line(const std::string &line);  // to its stdin pipe
    void kill9();
    // Exit code (128 + signal when killed); -1 if it has not ended within `bound`.
    int wait(std::chrono::seconds bound = std::chrono::seconds(60));
    std::string log() const;

private:
    pid_t pid_ = -1;
    int stdin_fd_ = -1;
    int status_ = -1;
    std::string log_path_;
};

// Polls cond every 20 ms until true or `bound` passed (a generous bound: never the thing tested).
bool eventually(const std::function<bool()> &cond, std::chrono::seconds bound = std::chrono::seconds(60));

std::string read_text(const std::string &path);
std::string temp_dir(const std::string &tag);

// Removes a test's directory when the test ends (declare it before the processes using it).
struct RemoveOnExit {
    std::string dir;
    ~RemoveOnExit();
};

}  // namespace mt::livetest
