// The host tools' child-process helper: pipes both ways, exit status and signals, "not found",
// stderr captured apart, and no child outliving its Child.
#include <memtracer/process.h>

#include <catch2/catch.hpp>

#include <signal.h>

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

using mt::proc::Child;
using mt::proc::SpawnError;
using mt::proc::StderrCapture;

TEST_CASE("common process: a child's stdin and stdout are pipes, lines come back in order", "[process]") {
    Child c = Child::spawn({"cat"});
    REQUIRE(c.running());
    CHECK(c.program() == "cat");
    REQUIRE(c.write_all("one\ntwo\nthree"));
    c.close_stdin();
    std::string line;
    REQUIRE(c.read_line(line));
    CHECK(line == "one");
    CHECK(c.read_all() == "two\nthree");
    CHECK(c.wait() == 0);
    CHECK_FALSE(c.running());
}

TEST_CASE("common process: exit status, and 128+signal for a killed child", "[process]") {
    CHECK(Child::spawn({"sh", "-c", "exit 3"}).wait() == 3);
    CHECK(Child::spawn({"sh", "-c", "kill -9 $$"}).wait() == 128 + 9);
}

TEST_CASE("common process: a program that is not there is a SpawnError naming it", "[process]") {
    CHECK_THROWS_AS(Child::spawn({"memtracer-no-such-tool"}), SpawnError);
    CHECK_THROWS_WITH(Child::spawn({"memtracer-no-such-tool"}),
                      Catch::Matchers::Contains("cannot start memtracer-no-such-tool: No such file"));
    CHECK_THROWS_WITH(Child::spawn({"/nonexistent/tool"}), Catch::Matchers::Contains("cannot start /nonexistent/tool"));
    CHECK_THROWS_AS(Child::spawn({"/etc/passwd"}), SpawnError);  // not executable
}

TEST_CASE("common process: stderr goes to a capture, read back line by line", "[process]") {
    StderrCapture err;
    Child c = Child::spawn({"sh", "-c", "echo first >&2; echo out; echo second >&2"}, err.fd());
    CHECK(c.read_all() == "out\n");
    CHECK(c.wait() == 0);
    CHECK(err.take_lines() == std::vector<std::string>{"first", "second"});
    CHECK(err.take_lines().empty());  // only what is new
}

TEST_CASE("common process: a second child does not hold the first one's stdin open", "[process]") {
    Child a = Child::spawn({"cat"});
    Child b = Child::spawn({"cat"});
    REQUIRE(a.write_all("a\n"));
    a.close_stdin();  // cat ends at end of input, which it only sees if b has no copy of the pipe
    CHECK(a.read_all() == "a\n");
    CHECK(a.wait() == 0);
    b.close_stdin();
    CHECK(b.wait() == 0);
}

TEST_CASE("common process: dropping a running child kills and reaps it", "[process]") {
    std::string line;
    long pid = 0;
    {
        Child c = Child::spawn({"sh", "-c", "echo $$; exec sleep 1000"});
        REQUIRE(c.read_line(line));
        pid = std::stol(line);
        REQUIRE(kill(static_cast<pid_t>(pid), 0) == 0);
    }
    errno = 0;
    CHECK(kill(static_cast<pid_t>(pid), 0) == -1);
    CHECK(errno == ESRCH);  // not even a zombie: reaped
}

TEST_CASE("common process: writing to a child that has gone is false, not SIGPIPE", "[process]") {
    Child c = Child::spawn({"true"});
    CHECK(c.read_all().empty());
    std::string big(1 << 20, 'x');
    CHECK_FALSE(c.write_all(big));
    CHECK(c.wait() == 0);
}

TEST_CASE("common process: a logged child writes stdout and stderr to its log, reads /dev/null", "[process]") {
    const std::string log = "/tmp/mt-proc-log-" + std::to_string(::getpid()) + ".log";
    bool signaled = true;
    Child c = Child::spawn_logged({"sh", "-c", "echo out; echo err >&2; cat; exit 3"}, log);
    CHECK(c.pid() > 0);
    CHECK(c.wait(&signaled) == 3);  // `cat` ended at once: stdin is /dev/null
    CHECK_FALSE(signaled);
    std::ifstream in(log);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(text == "out\nerr\n");
    std::remove(log.c_str());

    Child k = Child::spawn_logged({"sh", "-c", "kill -15 $$"}, "/dev/null");
    CHECK(k.wait(&signaled) == 128 + 15);
    CHECK(signaled);
    CHECK_THROWS_WITH(Child::spawn_logged({"memtracer-no-such-tool"}, "/dev/null"),
                      Catch::Matchers::Contains("cannot start memtracer-no-such-tool"));
}
