#include "symbolize_pass.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <chrono>
#include <numeric>
#include <tuple>

#include "address_map.h"
#include "memtracer/store/batch_insert.h"
#include "memtracer/store/db.h"
#include "memtracer/store/writer_sql.h"
#include "names.h"

namespace mt::sym {

Enricher::Memo::iterator Enricher::entry(const std::string &function) const {
    auto [it, fresh] = names_.try_emplace(function);
    Derived &n = it->second;
    if (fresh) {
        n.demangled = demangle(function);
        const std::string &plain = n.demangled.empty() ? function : n.demangled;
        if (il2cpp_) {
            n.csharp = il2cpp_->csharp_name(function);
            // A raw Mach-O symbol-table name carries an extra '_' (LLVM and atos drop it already).
            if (n.csharp.empty() && function.size() > 1 && function[0] == '_')
                n.csharp = il2cpp_->csharp_name(std::string_view(function).substr(1));
        }
        if (n.csharp.empty()) n.csharp = il2cpp_csharp_name(plain, il2cpp_ && il2cpp_->sources ? &*il2cpp_->sources : nullptr);
    }
    return it;
}

Enricher::Names Enricher::names(const std::string &function) const {
    auto it = entry(function);
    return {it->first, it->second.demangled, it->second.csharp};
}

Enricher::NameIds Enricher::name_ids(const std::string &function, StringIds &strings) const {
    auto it = entry(function);
    Derived &n = it->second;
    if (n.ids_from != strings.generation()) {
        n.ids = {strings.id(it->first), strings.id(n.demangled), strings.id(n.csharp)};
        n.ids_from = strings.generation();
    }
    return n.ids;
}

std::pair<std::string, uint32_t> Enricher::cs_location(const SourceFrame &f) const {
    if (il2cpp_)
        if (auto loc = il2cpp_->cs_location(f.file, f.line, f.function_line)) return {loc->file, loc->line};
    return {};
}

SymbolRow Enricher::row(SourceFrame &&f) const {
    SymbolRow r;
    Names n = names(f.function);
    std::tie(r.cs_file, r.cs_line) = cs_location(f);
    r.function = std::move(f.function);
    r.file = std::move(f.file);
    r.line = f.line;
    r.column = f.column;
    r.demangled = n.demangled;
    r.csharp = n.csharp;
    return r;
}

namespace {

// Ranges of kReadyChunk answers a backend may have waiting to be stored (about 32k answers).
constexpr size_t kMaxQueued = 64;

// The ids of the previous stored address's frame at one depth. The backend answers in address
// order, so consecutive addresses are mostly in one function and the same inlined helpers: a
// frame's function and file usually equal the previous address's at the same depth, and
// comparing them is cheaper than hashing both into the memos (the names are long mangled ones).
struct LastFrame {
    bool set = false;
    std::string function, file;
    Enricher::NameIds names{};
    int64_t file_id = 0;
};

struct Job {
    AddressCache::Partition *part;
    const SymbolFile *file;
    std::vector<uint32_t> rows;     // indices into part->rows, sorted by address
    std::vector<uint64_t> lookups;  // lookup address of each
};

}  // namespace

void symbolize_partitions(store::Db &db, AddressCache &cache, const std::vector<PartitionWork> &work, Backend &backend,
                          const Enricher &enricher, Progress &progress,
                          const std::function<void(const std::string &)> &warn, SymbolizeStats &stats,
                          bool resymbolize) {
    std::vector<Job> jobs;
    uint64_t total = 0;
    for (const PartitionWork &w : work) {
        Job job{w.partition, w.file, {}, {}};
        Quality q = w.file ? w.file->slice.quality() : Quality::None;
        for (uint32_t i = 0; i < w.partition->rows.size(); ++i) {
            const CachedAddress &a = w.partition->rows[i];
            if (!a.used) continue;
            ++stats.addresses;
            if (!w.file) {
                ++stats.no_symbols;
            } else if (!needs_symbolizing(a, q, w.file->fingerprint, resymbolize)) {
                ++stats.cache_hits;
            } else {
                job.rows.push_back(i);
            }
        }
        if (job.rows.empty()) continue;
        std::sort(job.rows.begin(), job.rows.end(), [&](uint32_t a, uint32_t b) {
            return w.partition->rows[a].file_address < w.partition->rows[b].file_address;
        });
        for (uint32_t i : job.rows) job.lookups.push_back(lookup_address(w.partition->rows[i].file_address));
        total += job.rows.size();
        jobs.push_back(std::move(job));
    }
    if (jobs.empty()) return;

    StringIds strings(db);
    std::vector<LastFrame> last;  // by depth; valid with `strings`
    store::Stmt del = db.prepare(store::sql::kDeleteSymbols);
    store::BatchInsert ins(db, store::sql::kInsertSymbols, 10);
    std::atomic<uint64_t> done{0};
    Progress::Phase phase(progress, "symbolize", total, done);
    for (Job &job : jobs) {
        const bool file_has_dwarf = job.file->slice.quality() == Quality::DebugInfo;
        uint64_t weak = 0;  // answers without debug info from a file that has some
        std::vector<SymbolRecord> recs(job.lookups.size());
        // The backend runs on its own thread(s) and hands over finished ranges; this thread
        // stores them meanwhile, so SQLite's work overlaps the symbolization.
        // At most kMaxQueued ranges wait to be stored: a backend that runs ahead of SQLite
        // waits rather than holding every answer of the module in memory at once (the
        // process's peak), and on two cores its pause leaves the storing thread the CPU.
        std::mutex mu;
        std::condition_variable cv, room;
        std::deque<std::pair<size_t, size_t>> ready;
        bool finished = false, storing = true;
        std::exception_ptr failure;
        BackendContext ctx{&done, warn, [&](size_t b, size_t e) {
                               {
                                   std::unique_lock<std::mutex> lock(mu);
                                   room.wait(lock, [&] { return ready.size() < kMaxQueued || !storing; });
                                   ready.emplace_back(b, e);
                               }
                               cv.notify_one();
                           }};
        auto t0 = std::chrono::steady_clock::now();
        double backend_seconds = 0;
        std::thread worker([&] {
            try {
                backend.symbolize(*job.file, job.lookups, recs, ctx);
            } catch (...) {
                failure = std::current_exception();
            }
            backend_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            {
                std::lock_guard<std::mutex> lock(mu);
                finished = true;
            }
            cv.notify_one();
        });
        struct Join {  // also when storing failed: the backend must not wait for room then
            std::thread &t;
            std::mutex &mu;
            bool &storing;
            std::condition_variable &room;
            ~Join() {
                {
                    std::lock_guard<std::mutex> lock(mu);
                    storing = false;
                }
                room.notify_all();
                t.join();
            }
        } join{worker, mu, storing, room};
        for (;;) {
            std::pair<size_t, size_t> range;
            {
                std::unique_lock<std::mutex> lock(mu);
                cv.wait(lock, [&] { return !ready.empty() || finished; });
                if (ready.empty()) break;
                range = ready.front();
                ready.pop_front();
            }
            room.notify_one();
            for (size_t k = range.first; k < range.second; ++k) {
                CachedAddress &a = job.part->rows[job.rows[k]];
                if (a.symbolized) {  // a better file answers again
                    ins.flush();
                    del.bind(1, a.addr_id).run();
                }
                SymbolRecord &rec = recs[k];
                if (rec.frames.empty()) ++stats.unknown;
                const Quality q = answer_quality(rec);
                weak += file_has_dwarf && q == Quality::SymbolTable;
                for (size_t depth = 0; depth < rec.frames.size(); ++depth) {
                    // Names and file names repeat from address to address: each is stored once
                    // (the strings table) and the row holds their ids (the enricher's memo).
                    const SourceFrame &f = rec.frames[depth];
                    if (last.size() <= depth) last.resize(depth + 1);
                    LastFrame &l = last[depth];
                    if (!l.set || l.function != f.function) {
                        l.names = enricher.name_ids(f.function, strings);
                        l.function = f.function;
                    }
                    if (!l.set || l.file != f.file) {
                        l.file_id = strings.id(f.file);
                        l.file = f.file;
                    }
                    l.set = true;
                    const Enricher::NameIds &n = l.names;
                    auto [cs_file, cs_line] = enricher.cs_location(f);
                    ins.add(a.addr_id).add(static_cast<int64_t>(depth)).add(n.function).add(n.demangled).add(n.csharp);
                    ins.add(l.file_id).add(f.line).add(f.column).add(strings.id(cs_file)).add(cs_line).end_row();
                }
                rec = SymbolRecord();  // stored: free it
                cache.mark_symbolized(*job.part, job.rows[k], q, job.file->fingerprint);
            }
        }
        if (failure) std::rethrow_exception(failure);
        if (weak) {
            // A dSYM missing an object file, a library linked with code built without -g: say
            // so, since those frames show names without file:line until a better file arrives.
            warn(job.part->module_path + ": " + std::to_string(weak) + " of " + std::to_string(job.rows.size()) +
                 " addresses have no debug info in " + job.file->path +
                 " (symbol table names only; a symbol file of this build with their debug info upgrades them)");
            stats.without_debug_info += weak;
        }
        stats.backend_seconds += backend_seconds;
        ++stats.backend_calls;
        stats.sent_to_backend += job.lookups.size();
    }
    ins.flush();
}

}  // namespace mt::sym
