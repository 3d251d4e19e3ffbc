#include "bench_cli.h"

#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>
#include <sys/wait.h>

#include <fstream>
#include <stdexcept>

#include "bench_util.h"

extern char **environ;

namespace mt::bench {

CliRun run_cli(const std::vector<std::string> &argv, const std::string &stdin_path) {
    char report[] = "/tmp/mt-bench-cli-XXXXXX";
    int fd = mkstemp(report);
    if (fd < 0) throw std::runtime_error("mkstemp failed");
    close(fd);
    std::vector<std::string> full = {"/usr/bin/time", "-f", "%e %U %S %M", "-o", report};
    full.insert(full.end(), argv.begin(), argv.end());
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, stdin_path.empty() ? "/dev/null" : stdin_path.c_str(), O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    std::vector<char *> args;
    for (const auto &a : full) args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    double t0 = now_s();
    pid_t pid = 0;
    int err = posix_spawn(&pid, args[0], &fa, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (err) throw std::runtime_error("cannot start /usr/bin/time for " + argv[0]);
    int status = 0;
    if (waitpid(pid, &status, 0) != pid) throw std::runtime_error("waitpid failed for " + argv[0]);
    CliRun r;
    r.wall_s = now_s() - t0;
    std::ifstream in(report);
    double wall = 0, user = 0, sys = 0, kib = 0;
    bool parsed = static_cast<bool>(in >> wall >> user >> sys >> kib);
    unlink(report);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !parsed)
        throw std::runtime_error(argv[0] + " failed (status " + std::to_string(status) + ")");
    r.cpu_s = user + sys;
    r.peak_rss_mib = kib / 1024.0;
    return r;
}

}  // namespace mt::bench
