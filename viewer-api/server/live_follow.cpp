#include "live_follow.h"

#include <signal.h>

#include <charconv>

#include <memtracer/process.h>

namespace mt::viewer {

namespace {
// The value of `key=` among space-separated fields; nullopt when absent.
std::optional<std::string_view> field(std::string_view line, std::string_view key) {
    size_t pos = 0;
    while (pos < line.size()) {
        size_t end = line.find(' ', pos);
        if (end == std::string_view::npos) end = line.size();
        std::string_view f = line.substr(pos, end - pos);
        if (f.size() > key.size() && f.substr(0, key.size()) == key && f[key.size()] == '=')
            return f.substr(key.size() + 1);
        pos = end + 1;
    }
    return std::nullopt;
}

template <typename T>
bool number(std::optional<std::string_view> s, T &out) {
    if (!s || s->empty()) return false;
    auto r = std::from_chars(s->data(), s->data() + s->size(), out);
    return r.ec == std::errc() && r.ptr == s->data() + s->size();
}
}  // namespace

std::optional<FollowLine> parse_follow_line(std::string_view line) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (line.rfind("follow ", 0) != 0) return std::nullopt;
    FollowLine f;
    auto state = field(line, "state");
    if (!number(field(line, "run"), f.run_id) || !number(field(line, "frames"), f.frames) ||
        !number(field(line, "last_seq"), f.last_seq) || !number(field(line, "events"), f.events) || !state ||
        state->empty())
        return std::nullopt;
    f.state = std::string(*state);
    return f;
}

std::vector<std::string> follow_argv(const std::string &symbolizer, const std::string &run_mt, const std::string &db,
                                     const std::vector<std::string> &symbol_args) {
    std::vector<std::string> a{symbolizer, run_mt, "--follow", "--db", db};
    a.insert(a.end(), symbol_args.begin(), symbol_args.end());
    return a;
}

int FollowIngest::run(const std::vector<std::string> &argv, const OnLine &on_line, std::string &error) {
    try {
        proc::StderrCapture err;
        // SIGTERM/SIGINT blocked until the follower's handler is in place (follow_main.cpp): a
        // finish() that comes while it is still starting is then a stop request, not a kill.
        proc::Child child = proc::Child::spawn(argv, err.fd(), {SIGTERM, SIGINT});
        child.close_stdin();
        pid_ = child.pid();
        if (finish_asked_) ::kill(child.pid(), SIGTERM);  // asked before the child existed
        std::string line;
        while (child.read_line(line))
            if (auto f = parse_follow_line(line)) on_line(*f);
        pid_ = -1;
        int rc = child.wait();
        for (auto &l : err.take_lines())
            if (!l.empty()) error = l;  // the last line says why
        return rc;
    } catch (const std::exception &e) {
        pid_ = -1;
        error = e.what();
        return -1;
    }
}

void FollowIngest::finish() {
    finish_asked_ = true;
    // The child's stdout closes only when it exits, so while pid_ is set it is not reaped yet
    // and the pid cannot name another process.
    if (int p = pid_.load(); p > 0) ::kill(p, SIGTERM);
}

}  // namespace mt::viewer
