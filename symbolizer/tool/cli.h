// cli.h — memtracer-symbolize's command line: parsing into a Config and the --help page.
#ifndef MEMTRACER_SYM_CLI_H
#define MEMTRACER_SYM_CLI_H

#include <string>
#include <vector>

#include "symbolizer.h"

namespace mt::sym {

struct CliOptions {
    Config config;
    std::vector<std::string> inputs;
    std::string output;        // "" = beside the (single) input
    bool help = false, version = false, quiet = false, no_progress = false;
};

// Throws Error(Usage) with a one-line reason.
CliOptions parse_cli(int argc, char **argv);

// run.mt -> run.db beside it.
std::string default_output(const std::string &input);

const char *help_text();

}  // namespace mt::sym

#endif
