// live_process.cpp — see live_process.h.
#include "live_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char **environ;

namespace mt::livetest {

Child::Child(const std::vector<std::string> &argv, const std::string &log_path, bool stdin_pipe) : log_path_(log_path) {
    std::vector<char *> args;
    for (const auto &a : argv) args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    int pipefd[2] = {-1, -1};
    if (stdin_pipe) {
        if (pipe2(pipefd, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
        posix_spawn_file_actions_adddup2(&fa, pipefd[0], 0);
    } else {
        posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    }
    posix_spawn_file_actions_addopen(&fa, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    int rc = posix_spawn(&pid_, args[0], &fa, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (stdin_pipe) {
        close(pipefd[0]);
        stdin_fd_ = pipefd[1];
    }
    if (rc != 0) throw std::runtime_error("cannot start " + argv[0]);
}

Child::~Child() {
    if (stdin_fd_ >= 0) close(stdin_fd_);
    if (pid_ > 0 && status_ < 0) {
        ::kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
    }
}

void Child::write_line(const std::string &line) {
    std::string l = line + "\n";
    if (::write(stdin_fd_, l.data(), l.size()) != static_cast<ssize_t>(l.size())) throw std::runtime_error("stdin write");
}

void Child::kill9() { ::kill(pid_, SIGKILL); }

int Child::wait(std::chrono::seconds bound) {
    if (status_ >= 0) return status_;
    auto deadline = std::chrono::steady_clock::now() + bound;
    for (;;) {
        int st = 0;
        pid_t r = waitpid(pid_, &st, WNOHANG);
        if (r == pid_) {
            status_ = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
            return status_;
        }
        if (std::chrono::steady_clock::now() > deadline) return -1;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

std::string Child::log() const { return read_text(log_path_); }

bool eventually(const std::function<bool()> &cond, std::chrono::seconds bound) {
    auto deadline = std::chrono::steady_clock::now() + bound;
    while (!cond()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
}

std::string read_text(const std::string &path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

std::string temp_dir(const std::string &tag) {
    std::string t = "/tmp/mt-live-" + tag + "-XXXXXX";
    if (!mkdtemp(t.data())) throw std::runtime_error("mkdtemp failed");
    return t;
}

RemoveOnExit::~RemoveOnExit() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
}

}  // namespace mt::livetest
