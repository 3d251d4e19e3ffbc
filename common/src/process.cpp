#include "memtracer/process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>

extern char **environ;

namespace mt::proc {

void Fd::reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
}

namespace {

// Both ends close-on-exec: a child started later (the backends start several, from several
// threads) must not hold another child's stdin open, or that child never sees end of input.
std::pair<Fd, Fd> make_pipe() {
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) throw SpawnError(std::string("pipe: ") + strerror(errno));
    return {Fd(p[0]), Fd(p[1])};
}

struct FileActions {
    posix_spawn_file_actions_t fa;
    FileActions() { posix_spawn_file_actions_init(&fa); }
    ~FileActions() { posix_spawn_file_actions_destroy(&fa); }
};

struct SpawnAttr {
    posix_spawnattr_t a;
    SpawnAttr() { posix_spawnattr_init(&a); }
    ~SpawnAttr() { posix_spawnattr_destroy(&a); }
};

}  // namespace

// Spawns argv with the given posix_spawn file actions; returns the pid or throws SpawnError.
int Child::start(const std::vector<std::string> &argv, const void *file_actions, const void *attr) {
    if (argv.empty()) throw SpawnError("cannot start a child: no program given");
    // Checked first as well: under qemu-user (the arm64 stage) posix_spawn cannot report a
    // failed exec, and the child would just exit 127.
    if (argv[0].find('/') != std::string::npos ? access(argv[0].c_str(), X_OK) != 0 : find_executable({argv[0]}).empty())
        throw SpawnError("cannot start " + argv[0] + ": " + strerror(argv[0].find('/') != std::string::npos ? errno : ENOENT));
    std::vector<char *> args;
    for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = -1;
    // glibc reports a failed exec (not found, not executable) here, not as exit status 127.
    int rc = posix_spawnp(&pid, args[0], static_cast<const posix_spawn_file_actions_t *>(file_actions),
                          static_cast<const posix_spawnattr_t *>(attr),
                          args.data(), environ);
    if (rc != 0) throw SpawnError("cannot start " + argv[0] + ": " + strerror(rc));
    return pid;
}

Child Child::spawn(const std::vector<std::string> &argv, int stderr_fd, const std::vector<int> &blocked_signals) {
    auto [in_r, in_w] = make_pipe();
    auto [out_r, out_w] = make_pipe();
    FileActions actions;
    // dup2 into 0/1/2 clears close-on-exec on the child's copies only.
    posix_spawn_file_actions_adddup2(&actions.fa, in_r.get(), 0);
    posix_spawn_file_actions_adddup2(&actions.fa, out_w.get(), 1);
    if (stderr_fd >= 0) posix_spawn_file_actions_adddup2(&actions.fa, stderr_fd, 2);
    SpawnAttr attr;
    if (!blocked_signals.empty()) {
        sigset_t mask;
        sigemptyset(&mask);
        for (int s : blocked_signals) sigaddset(&mask, s);
        posix_spawnattr_setsigmask(&attr.a, &mask);
        posix_spawnattr_setflags(&attr.a, POSIX_SPAWN_SETSIGMASK);
    }
    Child c;
    c.pid_ = start(argv, &actions.fa, &attr.a);
    c.program_ = argv[0];
    c.in_ = std::move(in_w);
    c.out_ = std::move(out_r);
    return c;
}

Child Child::spawn_logged(const std::vector<std::string> &argv, const std::string &log_path) {
    FileActions actions;
    posix_spawn_file_actions_addopen(&actions.fa, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions.fa, 1, 2);
    posix_spawn_file_actions_addopen(&actions.fa, 0, "/dev/null", O_RDONLY, 0);
    Child c;
    c.pid_ = start(argv, &actions.fa);
    c.program_ = argv.front();
    return c;
}

void Child::kill_and_reap() {
    if (pid_ <= 0) return;
    in_.reset();
    out_.reset();
    int status;
    if (waitpid(pid_, &status, WNOHANG) == 0) {
        kill(pid_, SIGKILL);
        while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
    }
    pid_ = -1;
}

Child::Child(Child &&o) noexcept { *this = std::move(o); }

Child &Child::operator=(Child &&o) noexcept {
    if (this == &o) return *this;
    kill_and_reap();
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

// A child still running here was abandoned on an error path; it must not outlive us.
Child::~Child() { kill_and_reap(); }

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

// Raw read() into a 64 KiB buffer: 2-3x faster per line than an istream over the pipe
// (Boost.Process's ipstream measured 200-300 ms for 1M llvm-symbolizer-sized lines, this 80-110).
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

int Child::wait(bool *signaled) {
    if (signaled) *signaled = false;
    if (pid_ <= 0) return -1;
    in_.reset();
    int status = 0;
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    out_.reset();
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) {
        if (signaled) *signaled = true;
        return 128 + WTERMSIG(status);
    }
    return -1;
}

StderrCapture::StderrCapture() {
    const char *dir = getenv("TMPDIR");
    std::string tmpl = std::string(dir && *dir ? dir : "/tmp") + "/memtracer-stderr-XXXXXX";
    int fd = mkostemp(tmpl.data(), O_CLOEXEC);
    if (fd < 0) throw SpawnError("cannot create a temporary file in " + tmpl + ": " + strerror(errno));
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

}  // namespace mt::proc
