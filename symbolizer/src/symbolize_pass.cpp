#include "symbolize_pass.h"

#include <algorithm>
#include <chrono>
#include <numeric>

#include "address_map.h"
#include "names.h"

namespace mt::sym {

SymbolRow Enricher::row(const SourceFrame &f) const {
    SymbolRow r;
    r.function = f.function;
    r.file = f.file;
    r.line = f.line;
    r.column = f.column;
    r.demangled = demangle(f.function);
    const std::string &plain = r.demangled.empty() ? r.function : r.demangled;
    if (il2cpp_ && il2cpp_->methods) {
        std::string_view native = f.function;
        if (native.size() > 1 && native[0] == '_' && native[1] != '_') native.remove_prefix(1);
        if (const std::string *cs = il2cpp_->methods->csharp_name(native)) r.csharp = *cs;
    }
    if (r.csharp.empty()) r.csharp = il2cpp_csharp_name(plain);
    if (il2cpp_ && il2cpp_->lines)
        if (auto loc = il2cpp_->lines->lookup(f.file, f.line)) {
            r.cs_file = loc->file;
            r.cs_line = loc->line;
        }
    return r;
}

namespace {

struct Job {
    AddressCache::Partition *part;
    const SymbolFile *file;
    std::vector<uint32_t> rows;     // indices into part->rows, sorted by address
    std::vector<uint64_t> lookups;  // lookup address of each
};

}  // namespace

void symbolize_partitions(Db &db, AddressCache &cache, const std::vector<PartitionWork> &work, Backend &backend,
                          const Enricher &enricher, Progress &progress,
                          const std::function<void(const std::string &)> &warn, SymbolizeStats &stats) {
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
            } else if (a.symbolized && a.quality >= q) {
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

    Stmt del = db.prepare("DELETE FROM symbols WHERE addr_id = ?1");
    Stmt ins = db.prepare("INSERT INTO symbols(addr_id, depth, function, demangled, csharp, file, line, column, cs_file, cs_line) "
                          "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
    std::atomic<uint64_t> done{0};
    Progress::Phase phase(progress, "symbolize", total, done);
    BackendContext ctx{&done, warn};
    for (Job &job : jobs) {
        auto t0 = std::chrono::steady_clock::now();
        std::vector<SymbolRecord> recs = backend.symbolize(*job.file, job.lookups, ctx);
        stats.backend_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        ++stats.backend_calls;
        stats.sent_to_backend += job.lookups.size();
        Quality q = job.file->slice.quality();
        for (size_t k = 0; k < job.rows.size(); ++k) {
            CachedAddress &a = job.part->rows[job.rows[k]];
            if (a.symbolized) del.bind(1, a.addr_id).run();  // a better file answers again
            const SymbolRecord &rec = recs[k];
            if (rec.frames.empty()) ++stats.unknown;
            for (size_t depth = 0; depth < rec.frames.size(); ++depth) {
                SymbolRow r = enricher.row(rec.frames[depth]);
                ins.bind(1, a.addr_id).bind(2, static_cast<int64_t>(depth)).bind(3, r.function).bind(4, r.demangled);
                ins.bind(5, r.csharp).bind(6, r.file).bind(7, r.line).bind(8, r.column).bind(9, r.cs_file);
                ins.bind(10, r.cs_line).run();
            }
            cache.mark_symbolized(*job.part, job.rows[k], q);
        }
    }
}

}  // namespace mt::sym
