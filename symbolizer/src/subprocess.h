// subprocess.h — a child process with pipes, for the backends that drive external tools
// (llvm-symbolizer, atos). RAII: the destructor closes the pipes and reaps the child, killing
// it first if it is still running, so no error path leaves a zombie or a blocked tool behind.
#ifndef MEMTRACER_SYM_SUBPROCESS_H
#define MEMTRACER_SYM_SUBPROCESS_H

#include <string>
#include <string_view>
#include <vector>

namespace mt::sym {

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
    // Starts argv[0] (searched in PATH) with stdin and stdout on pipes; stderr is inherited, or
    // goes to `stderr_fd` when given. Throws Error(Symbols) if it cannot be started.
    static Child spawn(const std::vector<std::string> &argv, int stderr_fd = -1);
    Child() = default;
    Child(Child &&) noexcept;
    Child &operator=(Child &&) noexcept;
    ~Child();

    bool running() const { return pid_ > 0; }
    const std::string &program() const { return program_; }
    // Writes all of `data` to the child's stdin; false if the child closed it.
    bool write_all(std::string_view data);
    void close_stdin() { in_.reset(); }
    // Reads one line (without '\n') from stdout; false at end of output.
    bool read_line(std::string &line);
    // Reads everything until end of output.
    std::string read_all();
    // Waits for the exit; returns the exit status, or 128+signal.
    int wait();

private:
    bool fill();
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
    StderrCapture();  // throws Error(Symbols)
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

}  // namespace mt::sym

#endif
