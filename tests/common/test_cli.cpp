// The host tools' command-line setup on CLI11: what every tool relies on (exit statuses,
// repeatable options, flags without values, "--") checked once here; each tool's own flags
// are checked by its tests (test_cli.cpp, dump_cli_test.py, test_sample_game.cpp, ...).
#include <memtracer/cli.h>

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace {

struct Parsed {
    std::optional<int> code;
    std::vector<std::string> inputs, elfs;
    std::string out;
    unsigned jobs = 1;
    double wait = 10;
    bool force = false;
};

Parsed parse(std::vector<std::string> args) {
    Parsed p;
    mt::cli::Parser cli({"tool", "IN... [--elf F]...", 64, "the page\n"});
    cli.app().add_option("inputs", p.inputs);
    cli.app().add_option("-o,--output", p.out);
    cli.app().add_option("--elf", p.elfs);
    cli.app().add_option("-j,--jobs", p.jobs)->check(mt::cli::range(1, 256));
    cli.app().add_option("--wait", p.wait)->check(mt::cli::seconds());
    cli.app().add_flag("--force", p.force);
    args.insert(args.begin(), "tool");
    std::vector<const char *> argv;
    for (const std::string &a : args) argv.push_back(a.c_str());
    p.code = cli.parse(static_cast<int>(argv.size()), argv.data());
    return p;
}

}  // namespace

TEST_CASE("common cli: options anywhere, repeatable ones take one value each", "[cli]") {
    Parsed p = parse({"a.mt", "--elf", "x.so", "b.mt", "--elf=y.so", "-j4", "-orun.db", "-", "--force"});
    CHECK_FALSE(p.code);
    CHECK(p.inputs == std::vector<std::string>{"a.mt", "b.mt", "-"});
    CHECK(p.elfs == std::vector<std::string>{"x.so", "y.so"});
    CHECK(p.out == "run.db");
    CHECK(p.jobs == 4);
    CHECK(p.force);
}

TEST_CASE("common cli: a single-valued option given twice takes the last value", "[cli]") {
    Parsed p = parse({"a", "-j", "3", "--output", "x.db", "--jobs=5", "-o", "y.db", "--force", "--force"});
    CHECK_FALSE(p.code);
    CHECK(p.jobs == 5);
    CHECK(p.out == "y.db");
    CHECK(p.force);
}

TEST_CASE("common cli: after -- everything is an input", "[cli]") {
    Parsed p = parse({"--", "--force", "-x"});
    CHECK_FALSE(p.code);
    CHECK(p.inputs == std::vector<std::string>{"--force", "-x"});
    CHECK_FALSE(p.force);
}

TEST_CASE("common cli: usage errors exit with the tool's status", "[cli]") {
    CHECK(parse({"--bogus"}).code == 64);
    CHECK(parse({"a", "--elf"}).code == 64);       // needs a value
    CHECK(parse({"a", "--jobs", "0"}).code == 64);  // out of range
    CHECK(parse({"a", "--jobs", "many"}).code == 64);
    CHECK(parse({"a", "--force=1"}).code == 64);    // a flag takes no value
}

TEST_CASE("common cli: a time in seconds is a finite number, 0 or more", "[cli]") {
    CHECK(parse({"a", "--wait", "2.5"}).wait == 2.5);
    CHECK(parse({"a", "--wait", "0"}).wait == 0);
    CHECK_FALSE(parse({"a", "--wait", "30"}).code);
    for (const char *bad : {"-1", "-0.5", "soon", "", "inf", "nan", "1s"}) {
        INFO(bad);
        CHECK(parse({"a", "--wait", bad}).code == 64);
    }
}

TEST_CASE("common cli: --help and --version end the program with 0", "[cli]") {
    CHECK(parse({"--help"}).code == 0);
    CHECK(parse({"-h"}).code == 0);
    CHECK(parse({"--version"}).code == 0);
    CHECK(std::string(mt::cli::project_version()).find('.') != std::string::npos);
}
