// --backend atos (macOS hosts): `atos -o <file> -arch <arch> -l <__TEXT vmaddr> -i -fullPath
// -f <address file>`, several processes in parallel, each on a contiguous share of the
// addresses. Addresses go through a file, so there is no ARG_MAX limit; with -l set to the
// file's own __TEXT vmaddr, atos takes our file addresses unchanged. atos prints demangled names
// only, so `function` holds the demangled name for this backend, and it prints no columns.
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "atos_output.h"
#include "backend.h"
#include "memtracer/symbolizer/errors.h"
#include "subprocess.h"

namespace mt::sym {

namespace {

class TempFile {
public:
    TempFile() {
        const char *dir = getenv("TMPDIR");
        path_ = std::string(dir && *dir ? dir : "/tmp") + "/memtracer-atos-XXXXXX";
        int fd = mkstemp(path_.data());
        if (fd < 0) throw symbols_error("cannot create a temporary file in " + path_);
        close(fd);
    }
    ~TempFile() { unlink(path_.c_str()); }
    TempFile(const TempFile &) = delete;
    TempFile &operator=(const TempFile &) = delete;
    const std::string &path() const { return path_; }

private:
    std::string path_;
};

class AtosBackend final : public ToolBackend {
public:
    AtosBackend(unsigned jobs, std::string tool)
        : ToolBackend({"atos", {"atos"}, "in PATH", "it ships with Xcode"}, jobs, std::move(tool)) {}

    void symbolize(const SymbolFile &file, std::span<const uint64_t> addrs, std::span<SymbolRecord> out,
                   const BackendContext &ctx) override {
        if (file.kind != ObjectKind::MachO)
            throw symbols_error(file.path + ": atos reads Mach-O files only; use --backend builtin for ELF");
        std::string exe = executable();
        auto ranges = split_ranges(addrs.size(), jobs_);
        run_parallel(ranges.size(), [&](size_t part) {
            auto [begin, end] = ranges[part];
            TempFile list;
            {
                std::ofstream f(list.path());
                for (size_t i = begin; i < end; ++i) f << hex_address(addrs[i]) << '\n';
                if (!f) throw symbols_error("cannot write " + list.path());
            }
            std::vector<std::string> argv = {exe, "-o", file.path};
            if (!file.arch.empty()) argv.insert(argv.end(), {"-arch", file.arch});
            argv.insert(argv.end(), {"-l", hex_address(file.slice.text_vmaddr), "-i", "-fullPath", "-f", list.path()});
            Child child = spawn_tool(argv);
            child.close_stdin();
            std::string text = child.read_all();
            int status = child.wait();
            if (status != 0) throw symbols_error(exe + " exited with status " + std::to_string(status) + " on " + file.path);
            auto recs = parse_atos_output(text, end - begin, true);
            for (size_t i = begin; i < end; ++i) {
                out[i] = std::move(recs[i - begin]);
                normalize(out[i]);
            }
            if (ctx.done) ctx.done->fetch_add(end - begin, std::memory_order_relaxed);
            if (ctx.ready) ctx.ready(begin, end);
        });
    }
};

}  // namespace

std::unique_ptr<Backend> make_atos_backend(unsigned jobs, const std::string &tool) {
    return std::make_unique<AtosBackend>(jobs, tool);
}

}  // namespace mt::sym
