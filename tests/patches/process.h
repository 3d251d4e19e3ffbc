// process.h — runs a command for a test and captures what it printed (stdout and stderr
// together) and how it ended; extra environment variables can be given.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace mt::test {

struct ProcessResult {
    int exit_code = -1;  // or 128 + signal
    std::string output;  // stdout and stderr, interleaved
};

ProcessResult run_process(const std::vector<std::string> &argv, const std::map<std::string, std::string> &env = {});

}  // namespace mt::test
