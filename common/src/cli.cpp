#include "memtracer/cli.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string_view>

namespace mt::cli {

// MEMTRACER_VERSION: mt_version() in cmake/memtracer_build.cmake.
const char *project_version() { return MEMTRACER_VERSION; }

int fail(const std::string &tool, const std::exception &e, int status) {
    std::cerr << tool << ": " << e.what() << "\n";
    return status;
}

void set_version(CLI::App &app, const std::string &name) {
    app.set_version_flag("--version", name + " " + project_version());
}

std::optional<int> parse_app(CLI::App &app, int argc, const char *const *argv, int usage_exit) {
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError &e) {
        return app.exit(e) == 0 ? 0 : usage_exit;
    }
    return std::nullopt;
}

Parser::Parser(Tool tool) : tool_(std::move(tool)), app_(tool_.name) {
    // Our own -h/--help and --version flags: CLI11's would throw through parse() before the
    // tool's page could be printed, and its version flag cannot name the schema.
    app_.set_help_flag();
    app_.add_flag("-h,--help", help_, "print this help and exit");
    app_.add_flag("--version", version_, "print the version and exit");
    // Leftovers are reported by parse() in our words, not CLI11's ExtrasError.
    app_.allow_extras();
}

int Parser::usage_error(const std::string &why) const {
    std::fprintf(stderr, "%s: %s\nusage: %s %s\n(%s --help lists every option)\n", tool_.name.c_str(), why.c_str(),
                 tool_.name.c_str(), tool_.usage.c_str(), tool_.name.c_str());
    return tool_.usage_exit;
}

std::optional<int> Parser::parse(int argc, const char *const *argv) {
    // A repeatable option takes one value per occurrence: "--elf a.so run.mt" keeps run.mt an
    // input, as every tool's hand-written parser did.
    // A flag takes no value: "--force=1" is a usage error, as it was.
    for (CLI::Option *o : app_.get_options()) {
        if (o->get_expected_max() > 1 && !o->get_positional()) o->allow_extra_args(false);
        // A single-valued option given twice: the last one counts, as in the hand-written
        // parsers (tests append "--workers 3" to a base command line that has "--workers 2").
        if (o->get_expected_max() == 1) o->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
        if (o->get_expected_max() == 0) o->disable_flag_override();
    }
    for (int i = 1; i < argc; ++i) {
        std::string_view a = argv[i];
        if (a == "--") break;
        size_t eq = a.find('=');
        if (a.rfind("--", 0) != 0 || eq == std::string_view::npos) continue;
        std::string name(a.substr(0, eq));
        const CLI::Option *o = app_.get_option_no_throw(name);
        if (o && o->get_expected_max() == 0) return usage_error(name + ": takes no value");
    }
    try {
        app_.parse(argc, argv);
    } catch (const CLI::ArgumentMismatch &e) {
        // CLI11 says "--mode: 1 required TEXT missing"; ours name the option the same way.
        std::string what = e.what();
        size_t colon = what.find(':');
        if (!help_ && !version_)
            return usage_error(what.find(" missing") != std::string::npos && colon != std::string::npos
                                   ? what.substr(0, colon) + ": needs a value"
                                   : what);
    } catch (const CLI::ParseError &e) {
        if (!help_ && !version_) return usage_error(e.what());
    }
    if (help_) {
        std::string page = tool_.help_page.empty() ? app_.help() : tool_.help_page;
        std::fputs(page.c_str(), tool_.help_to_stderr ? stderr : stdout);
        return 0;
    }
    if (version_) {
        std::string line = tool_.version.empty() ? tool_.name + " " + project_version() : tool_.version;
        std::printf("%s\n", line.c_str());
        return 0;
    }
    for (const std::string &rest : app_.remaining()) {
        if (rest == "--") continue;
        if (rest.size() > 1 && rest[0] == '-') return usage_error(rest + ": unknown option");
        return usage_error("'" + rest + "': unexpected argument");
    }
    return std::nullopt;
}

CLI::Validator range(uint64_t lo, uint64_t hi) {
    return CLI::Validator(
        [lo, hi](std::string &v) -> std::string {
            uint64_t n = 0;
            auto r = std::from_chars(v.data(), v.data() + v.size(), n);
            if (v.empty() || r.ec != std::errc() || r.ptr != v.data() + v.size() || n < lo || n > hi)
                return "'" + v + "' is not a whole number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
            return "";
        },
        "N");
}

CLI::Validator seconds() {
    return CLI::Validator(
        [](std::string &v) -> std::string {
            double s = 0;
            auto r = std::from_chars(v.data(), v.data() + v.size(), s);
            if (v.empty() || r.ec != std::errc() || r.ptr != v.data() + v.size() || !std::isfinite(s) || s < 0)
                return "'" + v + "' is not a number of seconds >= 0";
            return "";
        },
        "SECONDS");
}

CLI::Validator one_of(std::vector<std::string> choices) {
    std::string names;
    for (size_t i = 0; i < choices.size(); ++i)
        names += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + choices[i];
    return CLI::Validator(
        [choices, names](std::string &v) -> std::string {
            for (const std::string &c : choices)
                if (v == c) return "";
            return "'" + v + "' is not " + names;
        },
        names);
}

}  // namespace mt::cli
