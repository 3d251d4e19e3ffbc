#include "backend.h"

#include <cinttypes>
#include <cstdio>
#include <exception>
#include <mutex>
#include <thread>

#include "memtracer/symbolizer/errors.h"
#include "subprocess.h"

namespace mt::sym {

std::unique_ptr<Backend> make_builtin_backend(unsigned jobs);
std::unique_ptr<Backend> make_llvm_symbolizer_backend(unsigned jobs, const std::string &tool);
std::unique_ptr<Backend> make_atos_backend(unsigned jobs, const std::string &tool);

std::unique_ptr<Backend> make_backend(const BackendOptions &o) {
    unsigned jobs = o.jobs ? o.jobs : 1;
    switch (o.kind) {
    case BackendKind::Builtin: return make_builtin_backend(jobs);
    case BackendKind::LlvmSymbolizer: return make_llvm_symbolizer_backend(jobs, o.llvm_symbolizer);
    case BackendKind::Atos: return make_atos_backend(jobs, o.atos);
    }
    return nullptr;
}

BackendKind parse_backend_kind(const std::string &name) {
    if (name == "builtin") return BackendKind::Builtin;
    if (name == "llvm-symbolizer") return BackendKind::LlvmSymbolizer;
    if (name == "atos") return BackendKind::Atos;
    throw usage_error("--backend: unknown backend '" + name + "' (builtin, llvm-symbolizer or atos)");
}

std::string ToolBackend::executable() const {
    std::string exe = find_executable(tool_.empty() ? kind_.defaults : std::vector<std::string>{tool_});
    if (exe.empty())
        throw symbols_error(std::string(kind_.name) + " not found (" + (tool_.empty() ? std::string(kind_.where) : tool_) +
                            "); " + kind_.hint);
    return exe;
}

std::string hex_address(uint64_t v) {
    char b[24];
    snprintf(b, sizeof b, "0x%" PRIx64, v);
    return b;
}

std::vector<std::pair<size_t, size_t>> split_ranges(size_t n, unsigned parts) {
    std::vector<std::pair<size_t, size_t>> out;
    if (n == 0) return out;
    size_t p = std::max<size_t>(1, std::min<size_t>(parts, n));
    for (size_t i = 0; i < p; ++i) out.emplace_back(n * i / p, n * (i + 1) / p);
    return out;
}

void run_parallel(size_t count, const std::function<void(size_t)> &fn) {
    if (count == 1) {
        fn(0);
        return;
    }
    std::exception_ptr first;
    std::mutex mu;
    std::vector<std::thread> threads;
    threads.reserve(count);
    for (size_t i = 0; i < count; ++i)
        threads.emplace_back([&, i] {
            try {
                fn(i);
            } catch (...) {
                std::lock_guard<std::mutex> lock(mu);
                if (!first) first = std::current_exception();
            }
        });
    for (auto &t : threads) t.join();
    if (first) std::rethrow_exception(first);
}

void normalize(SymbolRecord &r) {
    for (SourceFrame &f : r.frames) {
        if (f.function == "<invalid>" || f.function == "??") f.function.clear();
        if (f.file == "<invalid>" || f.file == "??") f.file.clear();
    }
    if (r.frames.size() == 1 && r.frames[0].function.empty() && r.frames[0].file.empty() && r.frames[0].line == 0)
        r.frames.clear();
}

}  // namespace mt::sym
