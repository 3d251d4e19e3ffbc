#include "jobs.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <fstream>
#include <random>
#include <vector>

#include <memtracer/reader.h>

#include "memtracer/process.h"
#include "memtracer/store/queries.h"
#include "memtracer/viewer/jobs_view.h"


namespace mt::viewer {

namespace fs = std::filesystem;

namespace {
int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string random_hex() {
    std::random_device rd;
    char buf[17];
    std::snprintf(buf, sizeof buf, "%08x%08x", rd(), rd());
    return buf;
}

// The symbolizer's command line for one upload (memtracer-symbolize --help documents it): append
// to the served database; --salvage keeps the frames before damage in a corrupt capture (a
// truncated one is kept up to its last complete frame anyway), the way a user who uploads a
// capture wants to see whatever of it is good; --symbols DIR is searched for ELF/Mach-O/dSYM by build id, and is
// also given as Unity's IL2CPP symbol folder when it holds MethodMap.tsv or
// LineNumberMappings.json.
std::vector<std::string> symbolizer_argv(const JobConfig &c, const std::string &run) {
    std::vector<std::string> a{c.symbolizer, run, "-o", c.db_path, "--jobs", "2", "--salvage"};
    if (c.symbols_dir.empty()) return a;
    a.insert(a.end(), {"--symbols", c.symbols_dir});
    fs::path d(c.symbols_dir);
    for (auto p : {d, d / "Symbols"})
        if (fs::exists(p / "MethodMap.tsv") || fs::exists(p / "LineNumberMappings.json")) {
            a.insert(a.end(), {"--il2cpp-symbols", c.symbols_dir});
            break;
        }
    return a;
}

std::string tail_line(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "";
    in.seekg(0, std::ios::end);
    auto size = static_cast<int64_t>(in.tellg());
    auto from = std::max<int64_t>(0, size - 4096);
    in.seekg(from);
    std::string s(static_cast<size_t>(size - from), '\0');
    in.read(s.data(), static_cast<std::streamsize>(s.size()));
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
    auto nl = s.find_last_of("\r\n");
    return nl == std::string::npos ? s : s.substr(nl + 1);
}

class NullVisitor : public reader::Visitor {};
}  // namespace

std::string check_run_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return "cannot read the upload";
    // The header decides (magic, version, CRC); damage further in is the symbolizer's to report
    // with its offset, and the job runs it with --salvage, so it keeps every frame before it.
    std::vector<uint8_t> head(64 * 1024);
    in.read(reinterpret_cast<char *>(head.data()), static_cast<std::streamsize>(head.size()));
    head.resize(static_cast<size_t>(in.gcount()));
    try {
        NullVisitor v;
        reader::read_buffer(head.data(), head.size(), v);
    } catch (const reader::FormatError &e) {
        return e.what();
    }
    if (head.size() < 64) return "the upload ends inside the run.mt header (" + std::to_string(head.size()) + " bytes)";
    return "";
}

Jobs::Jobs(JobConfig cfg, std::function<void()> on_done) : cfg_(std::move(cfg)), on_done_(std::move(on_done)) {
    if (!enabled()) return;
    for (auto sub : {"incoming", "runs", "jobs"}) fs::create_directories(fs::path(cfg_.data_dir) / sub);
    thread_ = std::thread([this] { worker(); });
}

Jobs::~Jobs() { stop(); }

void Jobs::stop() {
    {
        std::lock_guard lk(mu_);
        stopping_ = true;
        if (child_pid_ > 0) kill(child_pid_, SIGTERM);
    }
    cv_.notify_all();
    if (thread_.joinable()) thread_.join();
}

std::string Jobs::incoming_path() {
    return (fs::path(cfg_.data_dir) / "incoming" / ("upload-" + random_hex() + ".part")).string();
}

Response Jobs::accept(const std::string &incoming, uint64_t size) {
    std::string why = check_run_file(incoming);
    if (!why.empty()) {
        std::error_code ec;
        fs::remove(incoming, ec);
        return error_response(400, why.rfind("not a run.mt", 0) == 0 ? why : "not a run.mt: " + why, "body");
    }
    std::lock_guard lk(mu_);
    if (stopping_) return error_response(503, "server is shutting down");
    Job j;
    j.id = next_id_++;
    j.file = "runs/" + std::to_string(j.id) + "-" + random_hex() + ".mt";
    j.log = "jobs/" + std::to_string(j.id) + ".log";
    j.size = size;
    j.created_ns = now_ns();
    std::error_code ec;
    fs::rename(incoming, fs::path(cfg_.data_dir) / j.file, ec);
    if (ec) return error_response(500, "cannot store the upload: " + ec.message());
    jobs_[j.id] = j;
    queue_.push_back(j.id);
    cv_.notify_all();
    Response r{202, job_json(view(j)), "application/json", ""};
    return r;
}

void Jobs::worker() {
    for (;;) {
        int64_t id;
        {
            std::unique_lock lk(mu_);
            cv_.wait(lk, [&] { return stopping_ || !queue_.empty(); });
            if (stopping_) {
                for (auto q : queue_) {
                    jobs_[q].state = "failed", jobs_[q].error = "server shut down before it ran";
                    discard_upload(jobs_[q]);
                }
                return;
            }
            id = queue_.front();
            queue_.pop_front();
        }
        run_job(id);
    }
}

void Jobs::run_job(int64_t id) {
    std::string run_path, log_path;
    {
        std::lock_guard lk(mu_);
        auto &j = jobs_[id];
        j.state = "running";
        j.started_ns = now_ns();
        run_path = fs::absolute(fs::path(cfg_.data_dir) / j.file).string();
        log_path = (fs::path(cfg_.data_dir) / j.log).string();
    }
    // The child is started under the lock so that stop() either sees its pid or has already
    // refused the start; it is waited for outside the lock.
    mt::proc::Child child;
    std::string spawn_error;
    {
        std::lock_guard lk(mu_);
        if (stopping_) {
            spawn_error = std::strerror(ECANCELED);
        } else {
            try {
                child = mt::proc::Child::spawn_logged(symbolizer_argv(cfg_, run_path), log_path);
                child_pid_ = child.pid();
            } catch (const mt::proc::SpawnError &e) {
                spawn_error = e.what();
            }
        }
    }
    bool signaled = false;
    const int code = spawn_error.empty() ? child.wait(&signaled) : -1;
    // Before the job's end is published: whoever sees it done (or failed) and asks again is
    // answered from the database as the symbolizer left it.
    if (on_done_) on_done_();
    std::lock_guard lk(mu_);
    child_pid_ = 0;
    auto &j = jobs_[id];
    j.finished_ns = now_ns();
    if (!spawn_error.empty()) {
        j.state = "failed";
        j.error = spawn_error.rfind("cannot start", 0) == 0 ? spawn_error : "cannot start " + cfg_.symbolizer + ": " + spawn_error;
        return discard_upload(j);
    }
    if (signaled) {
        j.state = "failed";
        j.error = "symbolizer killed by signal " + std::to_string(code - 128);
        return discard_upload(j);
    }
    j.exit_code = code;
    if (j.exit_code != 0) {
        j.state = "failed";
        j.error = "symbolizer exited with " + std::to_string(j.exit_code) + ": " + tail_line(log_path);
        return discard_upload(j);
    }
    // Which run the symbolizer added: store/ finds it by the run.mt path the symbolizer recorded.
    std::string why;
    try {
        j.run_id = store::newest_run_for_source(cfg_.db_path, run_path).value_or(-1);
    } catch (const store::Error &e) {
        why = " (" + e.message() + ")";
    }
    j.state = j.run_id >= 0 ? "done" : "failed";
    if (j.run_id < 0) j.error = "symbolizer succeeded but no run for " + run_path + " is in " + cfg_.db_path + why;
    if (j.state == "failed") discard_upload(j);
}

// A failed job's upload is no use to anyone, and kept it would let failing uploads fill the
// disk; its log (small) stays for GET /api/jobs/{id}. Called with mu_ held.
void Jobs::discard_upload(Job &j) {
    std::error_code ec;
    fs::remove(fs::path(cfg_.data_dir) / j.file, ec);
    j.file_removed = true;
}

std::string Jobs::progress(const Job &j) const {
    if (j.state == "queued") return "waiting for the symbolizer";
    return tail_line((fs::path(cfg_.data_dir) / j.log).string());
}

JobView Jobs::view(const Job &j) const {
    return JobView{j.id, j.state, j.file, j.file_removed, j.size, j.created_ns, j.started_ns, j.finished_ns,
                   j.run_id, j.exit_code, progress(j), j.error};
}

std::vector<JobView> Jobs::page(int64_t offset, int64_t limit, int64_t &total) {
    std::lock_guard lk(mu_);
    total = static_cast<int64_t>(jobs_.size());
    std::vector<JobView> out;
    int64_t i = 0;
    for (auto it = jobs_.rbegin(); it != jobs_.rend() && i < offset + limit; ++it, ++i)  // newest first
        if (i >= offset) out.push_back(view(it->second));
    return out;
}

std::optional<JobView> Jobs::find(int64_t id) {
    std::lock_guard lk(mu_);
    auto it = jobs_.find(id);
    if (it == jobs_.end()) return std::nullopt;
    return view(it->second);
}

}  // namespace mt::viewer
