// symbolizer.h — the library's front door: configure once (symbol files, backend, IL2CPP side
// files), then ingest run.mt files into an open database, one transaction per input, so a failed
// input leaves the database exactly as it was. memtracer-symbolize is a thin main over this.
#ifndef MEMTRACER_SYM_SYMBOLIZER_H
#define MEMTRACER_SYM_SYMBOLIZER_H

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "address_cache.h"
#include "backend.h"
#include "follow.h"
#include "frame_writer.h"
#include "il2cpp_symbols.h"
#include "memtracer/reader.h"
#include "progress.h"
#include "store_use.h"
#include "symbol_locator.h"
#include "symbolize_pass.h"

namespace mt::sym {

class RunIngest;

struct Config {
    std::vector<std::string> dsyms, elfs, symbol_dirs;
    std::string il2cpp_dir;           // "" = none
    BackendOptions backend;
    bool force = false;               // use symbol files whose id does not match; re-ingest a run
    bool salvage = false;             // keep the frames before a corrupt chunk instead of failing
    bool resymbolize = false;         // symbolize every address again, cached answers or not
};

struct InputResult {
    int64_t run_id = 0;
    mt::reader::Stop stop = mt::reader::Stop::End;
    std::string stop_reason;
    RunTotals totals;
    SymbolizeStats symbols;
    uint64_t stacks = 0, frame_addresses = 0, outside_modules = 0;
    size_t modules_with_symbols = 0;
    double read_seconds = 0;       // reading run.mt: dictionaries, frames, allocations
    double resolve_seconds = 0;    // each stack frame to its cached address (new rows interned)
    double symbolize_seconds = 0;  // the backend on what the cache lacks, symbols rows
    double finish_seconds = 0;     // stack_frames, sites, stacks, totals, indexes, commit
    double resolve_cpu_seconds = 0, symbolize_cpu_seconds = 0;  // CPU of this process (all threads)
};

class Symbolizer {
public:
    using Warn = std::function<void(const std::string &)>;
    // Loads symbol candidates and IL2CPP files; throws Error(Symbols/Usage) on bad ones.
    Symbolizer(const Config &config, Progress &progress, Warn warn);
    ~Symbolizer();

    // Ingests one run.mt. Throws Error(Input/Symbols/Database); the database is then unchanged.
    InputResult ingest(Db &db, const std::string &run_path);
    // Ingests a run.mt that is still being written into one run, a transaction per batch of
    // whole chunks (follow.h, docs/symbolizer.md "--follow"). Throws Error(Input) for a bad
    // header or a corrupt chunk, after committing the frames before it.
    InputResult follow(Db &db, const std::string &run_path, const FollowOptions &options);

    Backend &backend() { return *backend_; }
    void set_backend(std::unique_ptr<Backend> b) { backend_ = std::move(b); }  // tests: counting wrappers
    SymbolLocator &locator() { return locator_; }

private:
    // `resymbolize`: every address the new stacks use goes to the backend again.
    std::chrono::steady_clock::time_point symbolize_new_stacks(Db &db, RunIngest &run, AddressCache &cache,
                                                               InputResult &res, bool resymbolize);
    static void describe(const RunIngest &run, const mt::reader::ReadResult &r, InputResult &res);

    Config config_;
    Progress &progress_;
    Warn warn_;
    SymbolLocator locator_;
    std::optional<Il2CppSymbols> il2cpp_;
    std::unique_ptr<Backend> backend_;
};

}  // namespace mt::sym

#endif
