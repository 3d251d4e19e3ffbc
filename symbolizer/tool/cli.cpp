#include "cli.h"

#include <memtracer/cli.h>

#include <algorithm>
#include <filesystem>
#include <thread>

#include "memtracer/symbolizer/errors.h"

namespace mt::sym {

const char *help_text() {
    return R"(NAME
    memtracer-symbolize - turn MemTracer captures (run.mt) into a symbolized SQLite database

SYNOPSIS
    memtracer-symbolize RUN.mt... [--dsym BUNDLE.dSYM]... [--elf FILE]... [--symbols DIR]...
                        [-o DB] [--il2cpp-symbols DIR] [--backend builtin|llvm-symbolizer|atos]
                        [--jobs N] [--force] [--resymbolize] [--salvage] [--no-threads] [--quiet] [--no-progress]
    memtracer-symbolize RUN.mt --follow [--db DB] [--follow-poll-ms MS] [symbol options]

DESCRIPTION
    Reads each RUN.mt, maps every recorded return address to its module (by the module table
    the runtime recorded) and symbolizes it with the given symbol files: function, file, line,
    column and the chain of inlined frames, plus the readable C# name of IL2CPP methods. Writes
    runs, frames, allocations, GC events, lifetimes and allocation sites into DB (schema:
    docs/schema.md).

    Each input is one transaction: a corrupt capture, a symbol file that does not match or any
    other failure leaves the database as it was. A capture that ends without its END chunk
    (process killed) is ingested up to its last complete frame, with a warning saying where it
    stops.

    Every frame is a return address; the address looked up is one before it, inside the call
    instruction, so every frame reports the line of its call. Symbol files must carry the
    build id (ELF) or UUID (Mach-O) the run recorded for the module; files are matched by that
    id, then by file name, and a name match with another id is refused. Addresses in modules
    without a symbol file are kept as module+offset.

    The addresses table is a cache per build: a later run of the same build symbolizes only the
    addresses no earlier run has seen, plus those whose answer had no debug info (symbol table
    names only) when this run's symbol file has debug info and did not give that answer: a
    complete dSYM upgrades what one missing an object file answered. Several inputs, or an
    existing DB, hold several runs.

    A symbol file whose DWARF is damaged (LLVM reports errors reading it) is refused, naming the
    file and the first error; the input fails with status 4 and the database is left as it was.

OPTIONS
    --follow
        RUN.mt is still being written (memtracer-capture ADDR -o run.mt): ingest it into one
        run as it grows, one transaction per batch of whole chunks, printing one line per
        commit on stdout: "follow run=ID frames=N last_seq=SEQ events=N state=live|ended|cut_off".
        Ends at the END chunk (state=ended) or on SIGTERM/SIGINT (state=cut_off), status 0; a
        corrupt chunk ends it with status 3, keeping what was committed. docs/symbolizer.md.
    --follow-poll-ms MS
        How often --follow looks at the file. Default: 100.
    -o, --output, --db DB
        Database to create or append to. Default: the input with .db for .mt (run.mt ->
        run.db, beside it); required with several inputs.
    --dsym BUNDLE
        A .dSYM bundle (the Mach-O files in its Contents/Resources/DWARF; .DS_Store and ._*
        files there are skipped) or a DWARF file. Repeatable.
    --elf FILE
        An ELF (or Mach-O) file with symbols, e.g. an unstripped libil2cpp.so. Repeatable.
        For a Mach-O binary its dSYM is used too: X.dSYM beside it, or Xcode's
        X.framework.dSYM beside X.framework. X.framework itself names its binary.
    --symbols DIR
        A directory searched recursively for ELF/Mach-O files and dSYMs, matched to modules by
        build id / UUID, then by file name (Android: every .so of a build at once). Repeatable.
        A name match with another id is skipped with a warning (an error for --dsym/--elf).
    --il2cpp-symbols DIR
        Unity's IL2CPP files for C# names and file:line: an iOS Xcode export or Android Gradle
        export root, the il2cpp output folder (il2cppOutput, Library/Bee/.../il2cppOutput/cpp)
        or its Symbols/. Reads the generated *.cpp, Symbols/LineNumberMappings.json,
        MethodMap.tsv and global-metadata.dat (Data/Managed/Metadata/) where present.
    --backend builtin|llvm-symbolizer|atos
        builtin (default): LLVM's DWARF reader in this process, --jobs threads.
        llvm-symbolizer: persistent llvm-symbolizer processes (--jobs of them).
        atos: Apple's atos (macOS, Mach-O only), --jobs processes in parallel.
    --llvm-symbolizer PATH, --atos PATH
        The executable the backend runs (default: llvm-symbolizer-19 / atos in PATH).
    -j, --jobs N
        Threads or processes for symbolization. Default: the number of CPUs.
    --force
        Use a symbol file whose id does not match the module (and cache its answers), and
        ingest a capture that the database already holds.
    --resymbolize
        Symbolize every address of the input(s) again with the given symbol files, replacing
        the cached answers whatever their quality.
    --salvage
        For a corrupt capture, keep the frames before the damage instead of failing.
    --no-threads
        Do not split allocations per allocating thread: one row per (frame, class, stack), a
        database about a quarter smaller (docs/schema.md), but the viewer's thread filter then
        answers 400 for the run.
    -q, --quiet
        No progress and no summary; warnings and errors are still printed.
    --no-progress
        No progress display.
    -h, --help
        This page.
    --version
        Print the version.

EXIT STATUS
    0   every input was ingested (possibly with warnings, e.g. a truncated capture)
    1   unexpected internal failure
    2   bad command line
    3   an input could not be ingested: unreadable, not a run.mt, unknown format version,
        corrupt (without --salvage), or already in the database (without --force)
    4   symbols: unreadable or damaged symbol file, build id / UUID mismatch (without --force),
        backend tool missing or failing, malformed MethodMap.tsv / LineNumberMappings.json
    5   database: cannot open or write, not a MemTracer database, or a newer schema
    With several inputs each is its own transaction; the status is that of the first failure,
    and the inputs ingested before and after it stay in the database.

EXAMPLES
    iOS, one capture, writes run.db beside run.mt:
        memtracer-symbolize run.mt --dsym UnityFramework.dSYM

    Android, every library of the build at once, with C# names and lines:
        memtracer-symbolize run.mt --symbols build/symbols/arm64-v8a \
            --il2cpp-symbols Library/Bee/artifacts/Android/il2cppOutput/cpp -o run.db

    One database for a team, appending over time (the second run of a build reuses the
    symbols of the first):
        memtracer-symbolize monday.mt tuesday.mt -o team.db --elf libil2cpp.so
        memtracer-symbolize wednesday.mt -o team.db --elf libil2cpp.so

    Cross-check with LLVM's own tool:
        memtracer-symbolize run.mt --elf libil2cpp.so --backend llvm-symbolizer -o check.db
)";
}

std::string default_output(const std::string &input) {
    std::filesystem::path p(input);
    p.replace_extension(".db");
    return p.string();
}

std::optional<int> parse_cli(int argc, char **argv, CliOptions &o, int schema_version) {
    mt::cli::Parser cli({"memtracer-symbolize", "RUN.mt... [-o DB] [--elf FILE]... [--dsym BUNDLE]... [--symbols DIR]...",
                         static_cast<int>(ExitCode::Usage), help_text(),
                         std::string("memtracer-symbolize ") + mt::cli::project_version() + " (schema " +
                             std::to_string(schema_version) + ")"});
    o.config.backend.jobs = std::max(1u, std::thread::hardware_concurrency());
    std::string backend;
    CLI::App &app = cli.app();
    app.add_option("inputs", o.inputs, "run.mt files");
    app.add_option("-o,--output,--db", o.output, "database to create or append to");
    app.add_option("--dsym", o.config.dsyms, "a .dSYM bundle or DWARF file");
    app.add_option("--elf", o.config.elfs, "an ELF or Mach-O file with symbols");
    app.add_option("--symbols", o.config.symbol_dirs, "a directory of symbol files");
    app.add_option("--il2cpp-symbols", o.config.il2cpp_dir, "Unity's IL2CPP output");
    app.add_option("--backend", backend, "builtin|llvm-symbolizer|atos");
    app.add_option("--llvm-symbolizer", o.config.backend.llvm_symbolizer, "the llvm-symbolizer to run");
    app.add_option("--atos", o.config.backend.atos, "the atos to run");
    app.add_option("-j,--jobs", o.config.backend.jobs, "threads or processes")->check(mt::cli::range(1, 256));
    app.add_flag("--force", o.config.force, "use mismatched symbols, ingest a run again");
    app.add_flag("--salvage", o.config.salvage, "keep the frames before the damage");
    app.add_flag("--resymbolize", o.config.resymbolize, "symbolize every address again");
    bool no_threads = false;
    app.add_flag("--no-threads", no_threads, "one row per (class, stack), not per allocating thread");
    app.add_flag("-q,--quiet", o.quiet, "no progress and no summary");
    app.add_flag("--no-progress", o.no_progress, "no progress display");
    app.add_flag("--follow", o.follow, "ingest a growing run.mt into one run");
    app.add_option("--follow-poll-ms", o.follow_poll_ms, "poll period of --follow")->check(mt::cli::range(1, 60000));
    if (auto code = cli.parse(argc, argv)) return code;
    o.config.threads = !no_threads;
    try {
        if (!backend.empty()) o.config.backend.kind = parse_backend_kind(backend);
    } catch (const Error &e) {
        return cli.usage_error(e.what());
    }
    if (o.inputs.empty()) return cli.usage_error("no input: give one or more run.mt files (see --help)");
    if (o.follow && o.inputs.size() > 1) return cli.usage_error("--follow takes one run.mt");
    if (o.output.empty()) {
        if (o.inputs.size() > 1) return cli.usage_error("several inputs need -o DB to name the database");
        o.output = default_output(o.inputs[0]);
    }
    return std::nullopt;
}

}  // namespace mt::sym
