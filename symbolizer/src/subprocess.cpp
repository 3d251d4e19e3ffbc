#include "subprocess.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "errors.h"

extern char **environ;

namespace mt::sym {

void Fd::reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

Child Child::spawn(const std::vector<std::string> &argv, int stderr_fd) {
    int in_pipe[2], out_pipe[2];
    if (pipe2(in_pipe, O_CLOEXEC) != 0) throw symbols_error(std::string("pipe: ") + strerror(errno));
    Fd in_r(in_pipe[0]), in_w(in_pipe[1]);
    if (pipe2(out_pipe, O_CLOEXEC) != 0) throw symbols_error(std::string("pipe: ") + strerror(errno));
    Fd out_r(out_pipe[0]), out_w(out_pipe[1]);

    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in_r.get(), 0);
    posix_spawn_file_actions_adddup2(&fa, out_w.get(), 1);
    if (stderr_fd >= 0) posix_spawn_file_actions_adddup2(&fa, stderr_fd, 2);
    std::vector<char *> args;
    for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = -1;
    int rc = posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) throw symbols_error("cannot start " + argv[0] + ": " + strerror(rc));

    Child c;
    c.pid_ = pid;
    c.program_ = argv[0];
    c.in_ = std::move(in_w);
    c.out_ = std::move(out_r);
    return c;
}

StderrCapture::StderrCapture() {
    const char *dir = getenv("TMPDIR");
    std::string tmpl = std::string(dir && *dir ? dir : "/tmp") + "/memtracer-stderr-XXXXXX";
    int fd = mkostemp(tmpl.data(), O_CLOEXEC);
    if (fd < 0) throw symbols_error("cannot create a temporary file in " + tmpl + ": " + strerror(errno));
    unlink(tmpl.c_str());  // only the descriptors keep it
    file_ = Fd(fd);
}

std::vector<std::string> StderrCapture::take_lines() {
    // The child shares the file offset; pread leaves it alone.
    std::string text;
    char buf[4096];
    for (ssize_t n; (n = pread(file_.get(), buf, sizeof buf, static_cast<off_t>(seen_ + text.size()))) > 0;)
        text.append(buf, static_cast<size_t>(n));
    seen_ += text.size();
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) lines.push_back(line);
    return lines;
}

Child::Child(Child &&o) noexcept { *this = std::move(o); }

Child &Child::operator=(Child &&o) noexcept {
    if (this == &o) return *this;
    if (pid_ > 0) {
        in_.reset();
        out_.reset();
        kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
    }
    pid_ = o.pid_;
    o.pid_ = -1;
    program_ = std::move(o.program_);
    in_ = std::move(o.in_);
    out_ = std::move(o.out_);
    buf_ = std::move(o.buf_);
    buf_pos_ = o.buf_pos_;
    eof_ = o.eof_;
    return *this;
}

Child::~Child() {
    if (pid_ <= 0) return;
    in_.reset();
    out_.reset();
    // A child still running here was abandoned on an error path; it must not outlive us.
    int status;
    if (waitpid(pid_, &status, WNOHANG) == 0) {
        kill(pid_, SIGKILL);
        waitpid(pid_, &status, 0);
    }
}

bool Child::write_all(std::string_view data) {
    // A child that exits early must give an error, not kill us with SIGPIPE.
    static const bool ignore_sigpipe = [] { signal(SIGPIPE, SIG_IGN); return true; }();
    (void)ignore_sigpipe;
    while (!data.empty()) {
        ssize_t n = ::write(in_.get(), data.data(), data.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        data.remove_prefix(static_cast<size_t>(n));
    }
    return true;
}

bool Child::fill() {
    if (eof_) return false;
    if (buf_pos_ > 0) {
        buf_.erase(0, buf_pos_);
        buf_pos_ = 0;
    }
    char tmp[65536];
    for (;;) {
        ssize_t n = ::read(out_.get(), tmp, sizeof tmp);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            eof_ = true;
            return false;
        }
        buf_.append(tmp, static_cast<size_t>(n));
        return true;
    }
}

bool Child::read_line(std::string &line) {
    for (;;) {
        size_t nl = buf_.find('\n', buf_pos_);
        if (nl != std::string::npos) {
            line.assign(buf_, buf_pos_, nl - buf_pos_);
            buf_pos_ = nl + 1;
            return true;
        }
        if (!fill()) {
            if (buf_pos_ < buf_.size()) {
                line.assign(buf_, buf_pos_);
                buf_pos_ = buf_.size();
                return true;
            }
            return false;
        }
    }
}

std::string Child::read_all() {
    while (fill()) {
    }
    std::string rest = buf_.substr(buf_pos_);
    buf_.clear();
    buf_pos_ = 0;
    return rest;
}

int Child::wait() {
    if (pid_ <= 0) return -1;
    in_.reset();
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    out_.reset();
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return -1;
}

std::string find_executable(const std::vector<std::string> &candidates) {
    auto executable = [](const std::string &p) { return access(p.c_str(), X_OK) == 0; };
    const char *path_env = getenv("PATH");
    for (const std::string &c : candidates) {
        if (c.empty()) continue;
        if (c.find('/') != std::string::npos) {
            if (executable(c)) return c;
            continue;
        }
        std::istringstream dirs(path_env ? path_env : "");
        std::string dir;
        while (std::getline(dirs, dir, ':'))
            if (!dir.empty() && executable(dir + "/" + c)) return dir + "/" + c;
    }
    return "";
}

}  // namespace mt::sym
