// cli.h — every host tool's command line, on CLI11 and set up one way: -h/--help, --version
// (the CMake project version), and usage errors that name the option, print the tool's usage
// line and exit with the tool's documented usage status. Adding a flag is one line in the
// tool's own options file:
//     cli.app().add_flag("--events", o.events, "also list each frame's events");
//     cli.app().add_option("--frames", o.frames, "first N frames")->check(mt::cli::range(0, 1000));
#ifndef MEMTRACER_HOST_CLI_H
#define MEMTRACER_HOST_CLI_H

#include <CLI/CLI.hpp>

#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <vector>

namespace mt::cli {

struct Tool {
    std::string name;        // "memtracer-dump": the prefix of every message
    std::string usage;       // "run.mt [--json] ...": the synopsis after "usage: <name> "
    int usage_exit;          // each tool keeps the status its docs and tests give for a bad command line
    std::string help_page{};  // the full --help text; "" = CLI11's generated one
    std::string version{};    // the --version line; "" = "<name> <project version>"
    bool help_to_stderr = false;  // memtracer-viewer has always printed its usage there
};

class Parser {
public:
    explicit Parser(Tool tool);
    CLI::App &app() { return app_; }

    // Parses argv. Returns the exit status when parsing ends the program (--help, --version: 0;
    // a usage error: tool.usage_exit, after "<name>: <why>" and the usage line on stderr);
    // nullopt when the tool should run. Every message starts with the option it is about:
    // "--x: unknown option", "--mode: needs a value", "'x': unexpected argument".
    std::optional<int> parse(int argc, const char *const *argv);
    // A usage error the tool finds after parsing (a missing input, a bad combination):
    // printed as the parser's own; returns tool.usage_exit.
    int usage_error(const std::string &why) const;

private:
    Tool tool_;
    CLI::App app_;
    bool help_ = false, version_ = false;
};

// Validators for option values; CLI11 puts the option's name first: "--jobs: 'zero' is not a
// whole number in [1, 256]", "--hook: 'inline' is not patch or profiler".
CLI::Validator range(uint64_t lo, uint64_t hi);  // a decimal integer in [lo, hi]
CLI::Validator seconds();  // a time in seconds, 0 or more ("0", "2.5"); "'-1' is not a number of seconds >= 0"
CLI::Validator one_of(std::vector<std::string> choices);

// The project version (CMake PROJECT_VERSION).
const char *project_version();

// A tool whose command line is a plain CLI11 App with CLI11's own messages (memtracer-report's
// subcommands, memtracer-export) rather than a Parser:
// set_version(app, name): --version prints "<name> <project version>".
void set_version(CLI::App &app, const std::string &name);
// parse_app(app, argc, argv, usage_exit): the exit status when parsing ends the program (--help,
// --version: 0; a usage error: usage_exit, after CLI11's message on stderr); nullopt when the tool
// should run.
std::optional<int> parse_app(CLI::App &app, int argc, const char *const *argv, int usage_exit);

// What a tool's main says in its catch blocks: "<tool>: <what>" on stderr; returns `status`, the
// exit status that kind of error has (so the catch is one line: return fail(...)).
int fail(const std::string &tool, const std::exception &e, int status);

}  // namespace mt::cli

#endif
