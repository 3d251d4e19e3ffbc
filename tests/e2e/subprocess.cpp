#include "subprocess.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>

extern char **environ;

namespace e2e {

int Child::wait() {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

Child spawn(const std::vector<std::string> &argv, const std::string &stdout_path) {
    std::vector<char *> args;
    for (const auto &a : argv) args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    Child child;
    int rc = posix_spawn(&child.pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) throw std::runtime_error("cannot start " + argv[0]);
    return child;
}

int run(const std::vector<std::string> &argv, const std::string &stdout_path) {
    return spawn(argv, stdout_path).wait();
}

std::string make_temp_dir(const std::string &tag) {
    std::string tmpl = std::filesystem::temp_directory_path().string() + "/mt-" + tag + "-XXXXXX";
    if (mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed for " + tmpl);
    return tmpl;
}

void remove_tree(const std::string &dir) { std::filesystem::remove_all(dir); }

}  // namespace e2e
