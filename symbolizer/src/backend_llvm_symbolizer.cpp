// --backend llvm-symbolizer: persistent `llvm-symbolizer --output-style=JSON --no-demangle`
// processes in stdin mode, one per job, started on first use and kept for every module that
// follows. Each input line names its module ("CODE "<path>:<arch>" 0x<addr>"), so one process
// serves any module; llvm-symbolizer answers one JSON line per input line and flushes it.
#include <llvm/Support/JSON.h>

#include <mutex>
#include <thread>

#include "backend.h"
#include "memtracer/symbolizer/errors.h"
#include "subprocess.h"

#ifndef MT_LLVM_TOOLS_DIR
#define MT_LLVM_TOOLS_DIR "/usr/lib/llvm-19/bin"
#endif

namespace mt::sym {

namespace {

// Parses one JSON answer. Returns false (and sets err) when the line is not an answer for `addr`.
bool parse_answer(const std::string &line, uint64_t addr, SymbolRecord &rec, std::string &err) {
    auto v = llvm::json::parse(line);
    if (!v) {
        err = "unparsable output: " + llvm::toString(v.takeError());
        return false;
    }
    const llvm::json::Object *o = v->getAsObject();
    if (!o) {
        err = "output is not a JSON object";
        return false;
    }
    if (auto a = o->getString("Address"); !a || *a != hex_address(addr)) {
        err = "answer out of step: expected " + hex_address(addr) + ", got " + (a ? a->str() : std::string("no address"));
        return false;
    }
    if (const llvm::json::Object *e = o->getObject("Error")) {
        err = e->getString("Message").value_or("error").str();
        return true;  // an answer, just an unknown one
    }
    const llvm::json::Array *frames = o->getArray("Symbol");
    if (!frames) return true;
    for (const llvm::json::Value &fv : *frames) {
        const llvm::json::Object *f = fv.getAsObject();
        if (!f) continue;
        SourceFrame sf;
        sf.function = f->getString("FunctionName").value_or("").str();
        sf.file = f->getString("FileName").value_or("").str();
        sf.line = static_cast<uint32_t>(f->getInteger("Line").value_or(0));
        sf.column = static_cast<uint32_t>(f->getInteger("Column").value_or(0));
        sf.function_line = static_cast<uint32_t>(f->getInteger("StartLine").value_or(0));
        rec.frames.push_back(std::move(sf));
    }
    normalize(rec);
    return true;
}

class LlvmSymbolizerBackend final : public ToolBackend {
public:
    LlvmSymbolizerBackend(unsigned jobs, std::string tool)
        : ToolBackend({"llvm-symbolizer", {"llvm-symbolizer-19", MT_LLVM_TOOLS_DIR "/llvm-symbolizer", "llvm-symbolizer"},
                       "llvm-symbolizer-19 in PATH", "install llvm-19 or pass --llvm-symbolizer PATH"},
                      jobs, std::move(tool)) {}

    // LLVM's warnings about a file (damaged DWARF) go to the tool's stderr, which is captured:
    // any line refuses the file, as the builtin backend does, instead of hundreds of raw lines.
    void symbolize(const SymbolFile &file, std::span<const uint64_t> addrs, std::span<SymbolRecord> out,
                   const BackendContext &ctx) override {
        start(split_ranges(addrs.size(), jobs_).size());
        for (StderrCapture &c : stderr_) c.take_lines();  // earlier files' lines are not this one's
        std::exception_ptr failure;
        try {
            run(file, addrs, out, ctx);
        } catch (...) {
            failure = std::current_exception();
        }
        std::vector<std::string> lines;
        for (StderrCapture &c : stderr_)
            for (std::string &l : c.take_lines()) lines.push_back(std::move(l));
        if (!lines.empty())
            throw symbols_error(file.path + ": damaged debug info, file refused: " +
                                (children_.empty() ? std::string("llvm-symbolizer") : children_.front().program()) +
                                " reported " + std::to_string(lines.size()) + " problem(s) reading it, the first: " + lines.front());
        if (failure) std::rethrow_exception(failure);
    }

private:
    void run(const SymbolFile &file, std::span<const uint64_t> addrs, std::span<SymbolRecord> out, const BackendContext &ctx) {
        auto ranges = split_ranges(addrs.size(), jobs_);
        std::string module = "\"" + file.path + (file.arch.empty() ? "" : ":" + file.arch) + "\"";
        std::atomic<uint64_t> errors{0};
        run_parallel(ranges.size(), [&](size_t part) {
            Child &child = children_[part];
            auto [begin, end] = ranges[part];
            // Writing all input first would deadlock once both pipes fill; a writer thread
            // feeds the process while this thread reads its answers.
            std::thread writer([&, begin = begin, end = end] {
                std::string chunk;
                for (size_t i = begin; i < end; ++i) {
                    chunk += "CODE " + module + " " + hex_address(addrs[i]) + "\n";
                    if (chunk.size() > 1 << 16 || i + 1 == end) {
                        if (!child.write_all(chunk)) return;
                        chunk.clear();
                    }
                }
            });
            std::string line, err, failure;
            size_t chunk_begin = begin;
            for (size_t i = begin; i < end; ++i) {
                if (!child.read_line(line)) {
                    failure = child.program() + " stopped answering after " + std::to_string(i - begin) + " addresses of " + file.path;
                    break;
                }
                err.clear();
                if (!parse_answer(line, addrs[i], out[i], err)) {
                    failure = child.program() + ": " + err;
                    break;
                }
                if (!err.empty() && errors.fetch_add(1) == 0 && ctx.warn) ctx.warn(file.path + ": " + err);
                if (ctx.done) ctx.done->fetch_add(1, std::memory_order_relaxed);
                if (i + 1 - chunk_begin == kReadyChunk || i + 1 == end) {
                    if (ctx.ready) ctx.ready(chunk_begin, i + 1);
                    chunk_begin = i + 1;
                }
            }
            if (!failure.empty()) {
                child = Child();  // kills it, which also unblocks the writer
                writer.join();
                throw symbols_error(failure);
            }
            writer.join();
        });
    }

    void start(size_t n) {
        std::string exe = executable();
        while (stderr_.size() < n) stderr_.push_back(new_stderr_capture());
        while (children_.size() < n) children_.push_back(spawn_tool({exe, "--output-style=JSON", "--no-demangle"}, stderr_[children_.size()].fd()));
        for (size_t i = 0; i < children_.size(); ++i)
            if (!children_[i].running()) children_[i] = spawn_tool({exe, "--output-style=JSON", "--no-demangle"}, stderr_[i].fd());
    }

    std::vector<Child> children_;
    std::vector<StderrCapture> stderr_;  // one per child, same index
};

}  // namespace

std::unique_ptr<Backend> make_llvm_symbolizer_backend(unsigned jobs, const std::string &tool) {
    return std::make_unique<LlvmSymbolizerBackend>(jobs, tool);
}

}  // namespace mt::sym
