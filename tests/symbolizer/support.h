// support.h — what the symbolizer tests share: expected lines from fixture markers, the ELF
// fixture loaded and run in this process (real return addresses), the BL call sites of the
// arm64 Mach-O fixture, run.mt files written with the runtime's own encoder, and SQLite queries.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "memtracer/format.h"
#include "memtracer/trace_writer.h"

namespace mt::test {

std::string fixture(const std::string &rel);      // built fixture (MT_FIXTURE_DIR/rel)
std::string fixture_src(const std::string &rel);  // fixture source

// Lines of `source` carrying `tag` followed by a name ("@LINE:" + "inner_call", "@CALL " + fn).
std::map<std::string, uint32_t> marker_lines(const std::string &source, const std::string &tag);

// The ELF fixture, dlopen'ed and run once: return addresses of the marked calls.
struct LoadedElf {
    std::string path;
    uint64_t bias = 0;            // load bias: file address = runtime - bias
    uint64_t load_address = 0;    // lowest mapped address
    uint64_t size = 0;            // span of its PT_LOAD segments
    std::vector<uint8_t> build_id;
    std::vector<uint64_t> slots;  // fx_slots[0..7] as recorded (runtime return addresses)
};
LoadedElf load_and_run_elf(const std::string &path);

// BL instructions in the arm64 slice of a Mach-O file: file address of the BL, its target and
// the name of the target symbol (without Mach-O's leading '_').
struct CallSite {
    uint64_t address, target;
    std::string callee;
};
std::vector<CallSite> arm64_call_sites(const std::string &macho);
std::vector<uint8_t> macho_uuid(const std::string &macho, const std::string &arch);
std::vector<uint8_t> elf_build_id(const std::string &path);

// A temporary directory, removed with its contents.
struct TempDir {
    TempDir();
    ~TempDir();
    std::string path;
    std::string file(const std::string &name) const { return path + "/" + name; }
};

// A run.mt built with mt::trace::TraceWriter: header, INFO, then whatever the test adds.
struct RunWriter {
    explicit RunWriter(const std::string &path, uint32_t arch = MT_ARCH_X86_64, uint32_t flags = 0,
                       uint64_t start_unix_ns = 1700000000000000000ull, uint64_t sample_interval = 0);
    ~RunWriter();
    void module(uint32_t id, uint32_t kind, const std::string &path, uint64_t load, uint64_t size, uint64_t bias,
                uint64_t text_vmaddr, const std::vector<uint8_t> &build_id);
    void thread(uint32_t id, uint64_t tid, const std::string &name);
    void klass(uint32_t id, const std::string &name, const std::string &ns);
    void stack(uint32_t id, const std::vector<uint64_t> &frames);
    // One frame of raw events; ticks at 1 GHz so ticks are nanoseconds.
    void frame(uint64_t seq, const std::vector<mt::trace::EventRecord> &events, const std::vector<mt::trace::GcRecord> &gcs = {},
               const std::vector<mt::trace::DeathRecord> &deaths = {});
    void aggregate_frame(uint64_t seq, const std::vector<mt::trace::AggregateRecord> &aggs);
    void end();
    void flush();
    mt::trace::TraceWriter w;
};

// Rows of a query, each column as text ("NULL" for null).
std::vector<std::vector<std::string>> query(const std::string &db, const std::string &sql);
std::string query1(const std::string &db, const std::string &sql);  // first column of first row

// Runs memtracer-symbolize with `args`; returns the exit status, stderr in *err.
int run_tool(const std::vector<std::string> &args, std::string *err = nullptr, std::string *out = nullptr);

std::string basename(const std::string &path);
std::string read_file(const std::string &path);
void write_file(const std::string &path, const std::string &data);

}  // namespace mt::test

#include "backend.h"
#include "memtracer/symbolizer/symbolizer.h"

namespace mt::test {

// Ingests `runs` into `db` through the library (no progress output); warnings are collected.
struct IngestOutcome {
    std::vector<mt::sym::InputResult> results;
    std::vector<std::string> warnings;
};
IngestOutcome ingest(const std::string &db, const std::vector<std::string> &runs, const mt::sym::Config &config,
                     std::unique_ptr<mt::sym::Backend> backend = nullptr);

// Counts what reaches the wrapped backend.
class CountingBackend final : public mt::sym::Backend {
public:
    explicit CountingBackend(std::unique_ptr<mt::sym::Backend> inner, uint64_t *calls, uint64_t *addresses)
        : inner_(std::move(inner)), calls_(calls), addresses_(addresses) {}
    const char *name() const override { return "counting"; }
    using Backend::symbolize;
    void symbolize(const mt::sym::SymbolFile &f, std::span<const uint64_t> a, std::span<mt::sym::SymbolRecord> out,
                   const mt::sym::BackendContext &ctx) override {
        ++*calls_;
        *addresses_ += a.size();
        inner_->symbolize(f, a, out, ctx);
    }

private:
    std::unique_ptr<mt::sym::Backend> inner_;
    uint64_t *calls_, *addresses_;
};

// The ELF fixture as a module of a run (real load address, size, bias and build id).
void add_elf_module(RunWriter &w, uint32_t id, const LoadedElf &elf);

// A run of the ELF fixture with one frame: stack i (its return addresses, innermost first) holds
// one 16-byte allocation of class "Node". `delta`: the library as if loaded that many bytes
// above where it really ran, every module frame moved with it (the file addresses, so the cache
// rows, stay).
void write_stack_run(const std::string &path, LoadedElf elf, uint64_t start_ns,
                     const std::vector<std::vector<uint64_t>> &stacks, uint64_t delta = 0);

}  // namespace mt::test
