#include "memtracer/symbolizer/symbolizer.h"

#include <sys/resource.h>

#include <chrono>
#include <filesystem>

#include "address_cache.h"
#include "backend.h"
#include "il2cpp_symbols.h"
#include "memtracer/store/db.h"
#include "memtracer/store/early_sync.h"
#include "memtracer/store/schema.h"
#include "memtracer/symbolizer/errors.h"
#include "object_info.h"
#include "run_ingest.h"
#include "run_ingest_pipe.h"
#include "sites.h"
#include "symbol_locator.h"
#include "symbolize_pass.h"

namespace mt::sym {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void add_il2cpp_code_registration(Il2CppSymbols &il2cpp, const Config &config) {
    std::vector<std::string> files = config.elfs;
    for (const auto &d : config.symbol_dirs) {
        std::error_code ec;
        for (std::filesystem::recursive_directory_iterator it(d, ec), end; !ec && it != end; it.increment(ec))
            if (it->is_regular_file(ec)) files.push_back(it->path().string());
    }
    // A Mach-O binary's symbols are in its dSYM (Xcode strips the binary).
    std::vector<std::string> dsym_files;
    for (const auto &d : config.dsyms) {
        std::error_code ec;
        if (!std::filesystem::is_directory(d, ec)) dsym_files.push_back(d);
        else for (std::string &f : dsym_dwarf_files(d)) dsym_files.push_back(std::move(f));
    }
    for (const auto &f : files) il2cpp.add_code_registration(f, dsym_files);
}

double process_cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    auto s = [](const timeval &t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
    return s(u.ru_utime) + s(u.ru_stime);
}

}  // namespace

Symbolizer::Symbolizer(const Config &config, Progress &progress, Warn warn)
    : config_(config), progress_(progress), warn_(std::move(warn)), locator_(std::make_unique<SymbolLocator>(warn_)) {
    for (const auto &d : config_.dsyms) locator_->add_dsym(d);
    for (const auto &e : config_.elfs) locator_->add_elf(e);
    for (const auto &d : config_.symbol_dirs) locator_->add_dir(d);
    if (!config_.il2cpp_dir.empty())
        il2cpp_ = std::make_unique<Il2CppSymbols>(Il2CppSymbols::load_dir(config_.il2cpp_dir));
    // The binaries' method pointer tables link functions to the metadata (il2cpp_code_registration.h)
    // whenever the metadata is there: generated sources exported without source mapping carry no
    // Method Definition Index comments, and those that do still omit them on some functions.
    if (il2cpp_ && il2cpp_->metadata) add_il2cpp_code_registration(*il2cpp_, config_);
    backend_ = make_backend(config_.backend);
}

Symbolizer::~Symbolizer() = default;

Backend &Symbolizer::backend() { return *backend_; }
void Symbolizer::set_backend(std::unique_ptr<Backend> b) { backend_ = std::move(b); }
SymbolLocator &Symbolizer::locator() { return *locator_; }
std::vector<std::string> Symbolizer::unused_symbol_files() const { return locator_->unused_explicit(); }

InputResult Symbolizer::ingest(store::Db &db, const std::string &run_path) {
    InputResult res;
    std::error_code ec;
    uint64_t size = std::filesystem::file_size(run_path, ec);
    if (ec) throw input_error(run_path + ": cannot read: " + ec.message());

    store::Transaction tx(db);
    store::EarlySync early_sync(db.path());  // the pages written so far reach the disk before the commit
    auto t0 = std::chrono::steady_clock::now();
    RunIngest run(db, {run_path, size}, *locator_, config_.force, warn_);
    run.split_threads(config_.threads);
    mt::reader::ReadResult r;
    {
        Progress::Phase phase(progress_, "read " + std::filesystem::path(run_path).filename().string(), 0,
                              run.frames_read(), "frames");
        try {
            r = read_pipelined(run_path, run);
        } catch (const mt::reader::FormatError &e) {
            throw input_error(std::string(e.what()) + "; nothing was written");
        }
    }
    if (r.stop == mt::reader::Stop::Corrupt) {
        std::string where = run_path + ": corrupt at offset " + std::to_string(r.stop_offset) + ": " + r.stop_reason;
        if (!config_.salvage)
            throw input_error(where + "; nothing was written (--salvage keeps the " + std::to_string(r.frames) +
                              " frames before it)");
        warn_(where + "; keeping the " + std::to_string(r.frames) + " frames before it (--salvage)");
    } else if (r.stop != mt::reader::Stop::End) {
        std::string where = r.stop_reason.empty() ? " at offset " + std::to_string(r.stop_offset) : ": " + r.stop_reason;
        warn_(run_path + ": the capture stops without its END chunk (" + mt::reader::stop_name(r.stop) + where + "); its " +
              std::to_string(r.frames) + " complete frames are used" +
              (r.uncommitted_events ? ", " + std::to_string(r.uncommitted_events) + " events of an unfinished frame are not" : ""));
    }
    res.read_seconds = seconds_since(t0);

    check_site_rules(db);  // before the cache loads stored site summaries
    AddressCache cache(db);
    auto t3 = symbolize_new_stacks(db, run, cache, res, config_.resymbolize);
    run.finish(r);
    store::create_secondary_indexes(db);
    early_sync.stop();  // the commit's own sync need not wait behind one in flight
    tx.commit();
    res.finish_seconds = seconds_since(t3);
    describe(run, r, res);
    return res;
}

// The stacks defined since the last call: cached addresses, the symbolize pass on what the cache
// lacks, then the stacks' shapes, sites and stacks rows. Returns when the writing started (timings).
std::chrono::steady_clock::time_point Symbolizer::symbolize_new_stacks(store::Db &db, RunIngest &run, AddressCache &cache,
                                                                       InputResult &res, bool resymbolize) {
    auto t1 = std::chrono::steady_clock::now();
    double cpu1 = process_cpu_seconds();
    std::vector<PartitionWork> work = run.resolve_addresses(cache);
    res.resolve_seconds += seconds_since(t1);
    double cpu2 = process_cpu_seconds();
    res.resolve_cpu_seconds += cpu2 - cpu1;
    auto t2 = std::chrono::steady_clock::now();
    Enricher enricher(il2cpp_.get());
    symbolize_partitions(db, cache, work, *backend_, enricher, progress_, warn_, res.symbols, resymbolize);
    res.symbolize_seconds += seconds_since(t2);
    res.symbolize_cpu_seconds += process_cpu_seconds() - cpu2;

    auto t3 = std::chrono::steady_clock::now();
    run.write_shapes(cache);
    run.write_stacks(cache);
    // After the sites: the new rows go in with their site summaries (no UPDATE of rows just written).
    cache.flush();
    return t3;
}

void Symbolizer::describe(const RunIngest &run, const mt::reader::ReadResult &r, InputResult &res) {
    res.run_id = run.run_id();
    res.stop = r.stop;
    res.stop_reason = r.stop_reason;
    res.totals = run.totals();
    res.stacks = run.stacks();
    res.frame_addresses = run.frame_addresses();
    res.outside_modules = run.outside_modules();
    res.modules_with_symbols = run.modules_with_symbols();
}

}  // namespace mt::sym
