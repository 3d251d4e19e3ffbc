// cli.h — memtracer-symbolize's command line: parsing into a Config and the --help page.
#ifndef MEMTRACER_SYM_CLI_H
#define MEMTRACER_SYM_CLI_H

#include <optional>
#include <string>
#include <vector>

#include "memtracer/symbolizer/symbolizer.h"

namespace mt::sym {

struct CliOptions {
    Config config;
    std::vector<std::string> inputs;
    std::string output;        // "" = beside the (single) input
    bool quiet = false, no_progress = false;
    bool follow = false;       // --follow: one growing input, into one run
    int follow_poll_ms = 100;
};

// Fills `o`; returns the exit status when parsing ends the program: --help, --version (0) or a
// usage error (ExitCode::Usage, said on stderr). --version names `schema_version`.
std::optional<int> parse_cli(int argc, char **argv, CliOptions &o, int schema_version);

// run.mt -> run.db beside it.
std::string default_output(const std::string &input);

const char *help_text();

}  // namespace mt::sym

#endif
