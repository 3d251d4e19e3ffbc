// viewer_process.h — memtracer-viewer as a child process of a test: spawn it, read the port it
// prints, read its log.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "viewer_test_util.h"

extern char **environ;

namespace mt::test {

struct Child {
    pid_t pid = 0;
    FILE *out = nullptr;
    std::string err_path;
};

// Starts MT_VIEWER_BIN DB --port 0 --threads 2 EXTRA..., stdout on a pipe, stderr to a log
// file. `fsize_limit` > 0: the child runs under RLIMIT_FSIZE with SIGXFSZ at its default action
// (which kills), so only the server's own handling keeps it alive past the limit.
inline Child spawn_viewer(const std::vector<std::string> &extra, const std::string &db = fixture_db(),
                          uint64_t fsize_limit = 0) {
    static int serial = 0;
    std::vector<std::string> args{MT_VIEWER_BIN, db, "--port", "0", "--threads", "2"};
    args.insert(args.end(), extra.begin(), extra.end());
    std::vector<char *> argv;
    for (auto &a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    Child c;
    c.err_path = "viewer-process-" + std::to_string(getpid()) + "-" + std::to_string(++serial) + ".log";
    int err = open(c.err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    REQUIRE(err >= 0);
    c.pid = fork();  // not posix_spawn: the child sets its own limit; only async-signal-safe calls follow
    REQUIRE(c.pid >= 0);
    if (c.pid == 0) {
        dup2(fds[1], 1);
        dup2(err, 2);
        close(fds[0]);
        if (fsize_limit) {
            struct rlimit rl{fsize_limit, fsize_limit};
            setrlimit(RLIMIT_FSIZE, &rl);
        }
        signal(SIGXFSZ, SIG_DFL);
        signal(SIGPIPE, SIG_DFL);
        execv(argv[0], argv.data());
        _exit(127);
    }
    close(err);
    close(fds[1]);
    c.out = fdopen(fds[0], "r");
    return c;
}

// The port from the "serving ... on http://HOST:PORT/" line.
inline uint16_t read_port(Child &c) {
    char line[512] = {0};
    REQUIRE(std::fgets(line, sizeof line, c.out) != nullptr);
    std::string s = line;
    INFO(s);
    auto at = s.find("http://");
    REQUIRE(at != std::string::npos);
    auto slash = s.find('/', at + 7);
    auto colon = s.rfind(':', slash);
    REQUIRE(colon > at + 7);
    return static_cast<uint16_t>(std::stoi(s.substr(colon + 1)));
}

// Whether the child is still running (not exited, not killed).
inline bool alive(const Child &c) {
    int status = 0;
    return waitpid(c.pid, &status, WNOHANG) == 0;
}

// SIGTERM, then its exit status (-signal when killed by one).
inline int stop(Child &c) {
    kill(c.pid, SIGTERM);
    int status = 0;
    waitpid(c.pid, &status, 0);
    if (c.out) fclose(c.out);
    c.out = nullptr;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

inline std::string slurp(const std::string &path) {
    std::string s;
    if (FILE *f = std::fopen(path.c_str(), "r")) {
        char buf[4096];
        size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
        std::fclose(f);
    }
    return s;
}
// Runs memtracer-viewer ARGS to completion: (exit status, stdout and stderr together).
inline std::pair<int, std::string> run_cli(const std::string &args) {
    std::string cmd = std::string(MT_VIEWER_BIN) + " " + args + " 2>&1";
    FILE *p = popen(cmd.c_str(), "r");
    std::string out;
    char buf[512];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    int st = pclose(p);
    return {WEXITSTATUS(st), out};
}

}  // namespace mt::test
