// symbolizer.h — the library's front door: configure once (symbol files, backend, IL2CPP side
// files), then ingest run.mt files into an open database, one transaction per input, so a failed
// input leaves the database exactly as it was. memtracer-symbolize is a thin main over this.
#ifndef MEMTRACER_SYM_SYMBOLIZER_H
#define MEMTRACER_SYM_SYMBOLIZER_H

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "memtracer/reader.h"
#include "memtracer/store/db.h"
#include "memtracer/symbolizer/follow.h"
#include "memtracer/symbolizer/options.h"
#include "memtracer/symbolizer/progress.h"
#include "memtracer/symbolizer/results.h"

namespace mt::sym {

// The library's insides, named here only as the members the front door holds.
class AddressCache;
class Backend;
class RunIngest;
class SymbolLocator;
struct Il2CppSymbols;

class Symbolizer {
public:
    using Warn = std::function<void(const std::string &)>;
    // Loads symbol candidates and IL2CPP files; throws Error(Symbols/Usage) on bad ones.
    Symbolizer(const Config &config, Progress &progress, Warn warn);
    ~Symbolizer();

    // Ingests one run.mt. Throws Error(Input/Symbols/Database); the database is then unchanged.
    InputResult ingest(store::Db &db, const std::string &run_path);
    // Ingests a run.mt that is still being written into one run, a transaction per batch of
    // whole chunks (follow.h, docs/symbolizer.md "--follow"). Throws Error(Input) for a bad
    // header or a corrupt chunk, after committing the frames before it.
    InputResult follow(store::Db &db, const std::string &run_path, const FollowOptions &options);

    // Symbol files named explicitly (--dsym/--elf) that no module of the inputs used: worth a warning.
    std::vector<std::string> unused_symbol_files() const;

    // The library's insides (backend.h, symbol_locator.h), for tests.
    Backend &backend();
    void set_backend(std::unique_ptr<Backend> b);  // tests: counting wrappers
    SymbolLocator &locator();

private:
    // `resymbolize`: every address the new stacks use goes to the backend again.
    std::chrono::steady_clock::time_point symbolize_new_stacks(store::Db &db, RunIngest &run, AddressCache &cache,
                                                               InputResult &res, bool resymbolize);
    static void describe(const RunIngest &run, const mt::reader::ReadResult &r, InputResult &res);

    Config config_;
    Progress &progress_;
    Warn warn_;
    std::unique_ptr<SymbolLocator> locator_;
    std::unique_ptr<Il2CppSymbols> il2cpp_;  // null: no --il2cpp-symbols
    std::unique_ptr<Backend> backend_;
};

}  // namespace mt::sym

#endif
