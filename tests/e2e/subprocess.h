// subprocess.h — just enough process control for end-to-end tests: spawn, wait, run.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace e2e {

struct Child {
    pid_t pid = -1;
    int wait();  // exit code, or 128 + signal
};

Child spawn(const std::vector<std::string> &argv, const std::string &stdout_path = "/dev/null");
int run(const std::vector<std::string> &argv, const std::string &stdout_path = "/dev/null");
std::string make_temp_dir(const std::string &tag);
void remove_tree(const std::string &dir);

}  // namespace e2e
