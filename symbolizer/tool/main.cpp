// memtracer-symbolize: a thin main over the memtracer_symbolizer library. Errors end here: each
// becomes one message and the exit status documented in --help.
#include <malloc.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "cli.h"
#include "memtracer/symbolizer/errors.h"
#include "follow_main.h"
#include "memtracer/store/db.h"
#include "memtracer/store/schema.h"
#include "memtracer/symbolizer/symbolizer.h"

using namespace mt::sym;

namespace {

std::string summary(const std::string &input, const std::string &db, const InputResult &r) {
    const SymbolizeStats &s = r.symbols;
    char line[1024];
    snprintf(line, sizeof line,
             "%s -> %s (run %lld): %llu frames, %s allocations, %llu stacks; %llu addresses: %llu symbolized now, "
             "%llu from the cache, %llu without symbols, %llu outside every module; %zu module(s) with symbols; "
             "read %.2fs, resolve %.2fs, symbolize %.2fs, finish %.2fs",
             input.c_str(), db.c_str(), static_cast<long long>(r.run_id), static_cast<unsigned long long>(r.totals.frames),
             Progress::human(static_cast<double>(r.totals.alloc_count)).c_str(), static_cast<unsigned long long>(r.stacks),
             static_cast<unsigned long long>(s.addresses), static_cast<unsigned long long>(s.sent_to_backend),
             static_cast<unsigned long long>(s.cache_hits), static_cast<unsigned long long>(s.no_symbols),
             static_cast<unsigned long long>(r.outside_modules), r.modules_with_symbols, r.read_seconds,
             r.resolve_seconds, r.symbolize_seconds, r.finish_seconds);
    return line;
}

}  // namespace

int main(int argc, char **argv) {
    // Symbolizing frees and reallocates many large blocks; glibc's default would hand them back
    // to the kernel and fault them in again (measured: a fifth of the CPU time on big inputs).
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_MMAP_THRESHOLD, 1 << 28);
    CliOptions o;
    if (auto code = parse_cli(argc, argv, o, mt::store::kSchemaVersion)) return *code;

    Progress progress(Progress::detect(stderr, !o.quiet && !o.no_progress));
    auto warn = [&](const std::string &m) { progress.message("memtracer-symbolize: warning: " + m); };
    auto error = [&](const std::string &m) { progress.message("memtracer-symbolize: error: " + m); };
    int status = 0;
    try {
        Symbolizer sym(o.config, progress, warn);
        if (o.follow) return run_follow(o, sym, progress);
        mt::store::OpenedDb odb = mt::store::open_database(o.output);
        size_t committed = 0;
        for (const std::string &input : o.inputs) {
            try {
                InputResult r = sym.ingest(odb.db, input);
                ++committed;
                if (!o.quiet) progress.message(summary(input, o.output, r));
            } catch (const Error &e) {
                error(e.what());
                if (!status) status = static_cast<int>(e.code);
            } catch (const mt::store::Error &e) {
                error(e.what());
                if (!status) status = static_cast<int>(database_error(e).code);
            }
        }
        for (const std::string &f : sym.unused_symbol_files())
            warn(f + " matched no module of the input(s)");
        if (odb.created && committed == 0) {
            odb.db.close();
            mt::store::remove_database(o.output);  // a database we created for nothing is not left behind
        } else {
            mt::store::finish_database(odb.db);
        }
    } catch (const Error &e) {
        error(e.what());
        return static_cast<int>(e.code);
    } catch (const mt::store::Error &e) {
        error(e.what());
        return static_cast<int>(database_error(e).code);
    } catch (const std::exception &e) {
        error(std::string("internal: ") + e.what());
        return static_cast<int>(ExitCode::Failure);
    }
    return status;
}
