// process.h — the host tools' one child-process helper: a child with its stdin and stdout on
// pipes, for the symbolizer backends that drive external tools (llvm-symbolizer, atos) and the
// benchmarks. RAII: the destructor closes the pipes and reaps the child, killing it first if it
// is still running, so no error path leaves a zombie or a blocked tool behind.
// On posix_spawn, not Boost.Process: Boost 1.74's Process forks (its vfork option does not
// link), and a fork from the symbolizer's large address space measured 25-80x slower per
// child (docs/tools.md, "Hand-written on purpose").
#ifndef MEMTRACER_HOST_PROCESS_H
#define MEMTRACER_HOST_PROCESS_H

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mt::proc {

// A child that could not be started: not found, not executable, no pipes or processes left.
struct SpawnError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// An owned file descriptor.
class Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : fd_(fd) {}
    ~Fd() { reset(); }
    Fd(Fd &&o) noexcept : fd_(o.release()) {}
    Fd &operator=(Fd &&o) noexcept {
        if (this != &o) {
            reset();
            fd_ = o.release();
        }
        return *this;
    }
    int get() const { return fd_; }
    int release() {
        int f = fd_;
        fd_ = -1;
        return f;
    }
    void reset();
    explicit operator bool() const { return fd_ >= 0; }

private:
    int fd_ = -1;
};

class Child {
public:
    // Starts argv[0] (searched in PATH unless it holds a '/') with stdin and stdout on pipes;
    // stderr is inherited, or goes to `stderr_fd` when given. Throws SpawnError ("cannot start
    // <argv[0]>: <reason>") if it cannot be started. `blocked_signals` start blocked in the
    // child (its signal mask survives exec): a signal sent before the child has installed its
    // handler then waits until the child unblocks it, instead of killing it by default action.
    static Child spawn(const std::vector<std::string> &argv, int stderr_fd = -1,
                       const std::vector<int> &blocked_signals = {});
    // Starts argv with stdin on /dev/null and stdout and stderr both written to `log_path`
    // (created or truncated): for a job whose output is kept for the user rather than read.
    static Child spawn_logged(const std::vector<std::string> &argv, const std::string &log_path);
    Child() = default;
    Child(Child &&) noexcept;
    Child &operator=(Child &&) noexcept;  // kills and reaps a child still held
    ~Child();

    bool running() const { return pid_ > 0; }  // started and not yet waited for
    int pid() const { return pid_; }  // to signal it from another thread while one waits
    const std::string &program() const { return program_; }
    // Writes all of `data` to the child's stdin; false if the child closed it (never SIGPIPE).
    bool write_all(std::string_view data);
    void close_stdin() { in_.reset(); }
    // Reads one line (without '\n') from stdout; false at end of output.
    bool read_line(std::string &line);
    // Reads everything until end of output.
    std::string read_all();
    // Waits for the exit; returns the exit status, or 128+signal (`*signaled` tells which).
    int wait(bool *signaled = nullptr);

private:
    bool fill();
    void kill_and_reap();
    static int start(const std::vector<std::string> &argv, const void *file_actions, const void *attr = nullptr);
    int pid_ = -1;
    std::string program_;
    Fd in_, out_;
    std::string buf_;
    size_t buf_pos_ = 0;
    bool eof_ = false;
};

// What a child wrote to stderr, collected instead of mixed into ours: an unlinked temporary
// file the child writes to, read back in pieces (a pipe would need a reader thread per child).
class StderrCapture {
public:
    StderrCapture();  // throws SpawnError
    int fd() const { return file_.get(); }
    // The lines written since the last call.
    std::vector<std::string> take_lines();

private:
    Fd file_;
    uint64_t seen_ = 0;
};

// The first of `candidates` that names an executable (absolute/relative path or in PATH); ""
// if none.
std::string find_executable(const std::vector<std::string> &candidates);

}  // namespace mt::proc

#endif
