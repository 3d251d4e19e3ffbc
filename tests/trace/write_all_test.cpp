// write_all (trace/include/memtracer/write_all.h): the one EINTR/short-write loop behind the
// runtime's TraceWriter and memtracer-capture's run file. Whole buffers arrive even when signals
// interrupt the writes; a failing fd gives its errno (and nothing is thrown or retried forever).
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <thread>
#include <vector>

#include "memtracer/write_all.h"

using mt::trace::write_all;

namespace {

std::vector<uint8_t> pattern(size_t n) {
    std::vector<uint8_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(i * 131 + (i >> 13));
    return v;
}

void on_alarm(int) {}

}  // namespace

TEST_CASE("write_all writes the whole buffer to a file") {
    int fd = memfd_create("write_all", 0);
    REQUIRE(fd >= 0);
    auto data = pattern(3 << 20);
    CHECK(write_all(fd, data.data(), data.size()) == 0);
    CHECK(write_all(fd, data.data(), 0) == 0);
    std::vector<uint8_t> back(data.size() + 1);
    CHECK(pread(fd, back.data(), back.size(), 0) == static_cast<ssize_t>(data.size()));
    back.pop_back();
    CHECK(back == data);
    close(fd);
}

TEST_CASE("write_all gives the errno of a failed write") {
    int full = open("/dev/full", O_WRONLY);
    REQUIRE(full >= 0);
    uint8_t b[16] = {1};
    CHECK(write_all(full, b, sizeof b) == ENOSPC);
    close(full);
    CHECK(write_all(-1, b, sizeof b) == EBADF);
}

// A pipe drained by a slow reader while an interval timer interrupts the writer without
// SA_RESTART: write(2) returns -1/EINTR or a short count whenever a signal lands mid-write. The
// assertion is only that every byte arrives in order, however many signals landed.
TEST_CASE("write_all retries interrupted and short writes") {
    struct sigaction sa {}, old {};
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;  // no SA_RESTART: interrupted writes return early
    REQUIRE(sigaction(SIGALRM, &sa, &old) == 0);
    int p[2];
    REQUIRE(pipe(p) == 0);
    auto data = pattern(8 << 20);
    std::vector<uint8_t> got;
    std::thread reader([&] {
        sigset_t alarm;  // the signals are for the writer's thread
        sigemptyset(&alarm);
        sigaddset(&alarm, SIGALRM);
        pthread_sigmask(SIG_BLOCK, &alarm, nullptr);
        uint8_t buf[4096];
        ssize_t n;
        while ((n = read(p[0], buf, sizeof buf)) != 0) {
            if (n < 0) {
                if (errno == EINTR) continue;
                break;
            }
            got.insert(got.end(), buf, buf + n);
        }
    });
    itimerval every{{0, 200}, {0, 200}};
    REQUIRE(setitimer(ITIMER_REAL, &every, nullptr) == 0);
    int err = write_all(p[1], data.data(), data.size());
    itimerval off{};
    setitimer(ITIMER_REAL, &off, nullptr);
    close(p[1]);
    reader.join();
    close(p[0]);
    sigaction(SIGALRM, &old, nullptr);
    CHECK(err == 0);
    CHECK(got == data);
}
