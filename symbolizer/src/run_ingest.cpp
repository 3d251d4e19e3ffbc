#include "run_ingest.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <filesystem>

#include "memtracer/store/batch_insert.h"
#include "memtracer/store/db.h"
#include "memtracer/store/shapes.h"
#include "memtracer/store/writer_sql.h"
#include "memtracer/symbolizer/errors.h"
#include "memtracer/format.h"
#include "object_info.h"
#include "symbol_chains.h"

namespace mt::sym {

namespace {

int64_t unix_now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string module_label(const mt::reader::Module &m, uint64_t file_address) {
    char off[32];
    snprintf(off, sizeof off, "+0x%" PRIx64, file_address);
    return std::filesystem::path(m.path).filename().string() + off;
}

}  // namespace

RunIngest::RunIngest(store::Db &db, RunSource source, SymbolLocator &locator, bool force, Warn warn)
    : db_(db), source_(std::move(source)), locator_(locator), force_(force), warn_(std::move(warn)),
      module_(db.prepare(store::sql::kInsertModule)),
      thread_(db.prepare(store::sql::kUpsertThread)),
      class_(db.prepare(store::sql::kInsertClass)) {}

void RunIngest::on_header(const mt::reader::Header &h) {
    header_ = h;
    store::Stmt dup = db_.prepare(store::sql::kFindSameRun);
    dup.bind(1, h.start_unix_ns).bind(2, h.pid).bind(3, source_.size);
    if (dup.step() && !force_)
        throw input_error(source_.path + ": already in the database as run " + std::to_string(dup.i64(0)) +
                          " (same start time, pid and size); --force adds it again");
    bool aggregate = (h.flags & MT_FILE_FLAG_AGGREGATE) != 0;
    store::Stmt run = db_.prepare(
        store::sql::kInsertRun);
    run.bind(1, source_.path).bind(2, source_.size).bind(3, unix_now_ns()).bind(4, h.start_unix_ns).bind(5, h.pid);
    run.bind(6, h.info_value("process")).bind(7, h.info_value("device")).bind(8, h.info_value("os"));
    std::string arch = h.info_value("arch");
    if (arch.empty()) arch = h.arch == MT_ARCH_ARM64 ? "arm64" : h.arch == MT_ARCH_X86_64 ? "x86_64" : "";
    run.bind(9, arch).bind(10, h.info_value("session_label")).bind(11, aggregate ? "aggregate" : "events");
    run.bind(12, h.sample_interval_bytes).bind(13, h.tick_hz).bind(14, (h.flags & MT_FILE_FLAG_LIFETIMES) ? 1 : 0).run();
    run_id_ = db_.last_insert_rowid();
    store::Stmt info = db_.prepare(store::sql::kInsertRunInfo);
    for (const auto &[k, v] : h.info) info.bind(1, run_id_).bind(2, k).bind(3, v).run();
    writer_ = std::make_unique<FrameWriter>(db_, run_id_, h, split_threads_);
}

void RunIngest::on_module(const mt::reader::Module &m) {
    std::optional<SymbolFile> file = locator_.find(m, header_.arch, force_);
    module_.bind(1, run_id_).bind(2, m.id).bind(3, m.kind == MT_MODULE_MACHO ? "macho" : "elf").bind(4, m.path);
    module_.bind(5, m.load_address).bind(6, m.size).bind(7, m.bias).bind(8, m.text_vmaddr).bind(9, hex_id(m.build_id));
    if (file && !file->slice.has_debug_info)
        warn_(m.path + ": symbolized without debug info: " + file->path +
              " has a symbol table only (function names, no file:line or inlined frames)");
    if (file) module_.bind(10, file->path);
    else module_.bind_null(10);
    module_.run();
    modules_.add(m);
    symbol_files_.push_back(std::move(file));
    module_use_.push_back(0);
}

void RunIngest::on_thread(const mt::reader::Thread &t) {
    thread_.bind(1, run_id_).bind(2, t.id).bind(3, t.os_tid).bind(4, t.name).run();
}

void RunIngest::on_class(const mt::reader::Class &c) {
    std::string full = c.name_space.empty() ? c.name : c.name_space + "." + c.name;
    class_.bind(1, run_id_).bind(2, c.id).bind(3, c.klass).bind(4, c.name).bind(5, c.name_space).bind(6, full);
    class_.bind(7, c.flags).bind(8, c.element_size).run();
}

void RunIngest::on_stack(const mt::reader::Stack &s) { add_stack(s.id, s.frames); }

void RunIngest::add_stack(uint64_t id, std::span<const uint64_t> frames) {
    if (id >= stacks_.size()) stacks_.resize(id + 1);
    // A stack defined again (a damaged file) points at its new frames; the old ones stay unused.
    stacks_[id] = {frames_.size(), static_cast<uint32_t>(frames.size()), 0};
    frames_.insert(frames_.end(), frames.begin(), frames.end());
}

void RunIngest::on_frame(const mt::reader::Frame &f) {
    writer_->add(f);
    last_seq_ = static_cast<int64_t>(f.seq);
    frames_read_.fetch_add(1, std::memory_order_relaxed);
}

void RunIngest::on_digest(FrameDigest &d) {
    writer_->add(d);
    last_seq_ = static_cast<int64_t>(d.frame.seq);
    frames_read_.fetch_add(1, std::memory_order_relaxed);
}

std::vector<PartitionWork> RunIngest::resolve_addresses(AddressCache &cache) {
    part_of_.resize(modules_.modules().size(), nullptr);
    std::vector<PartitionWork> work;
    std::vector<bool> in_work(modules_.modules().size(), false);  // this call's modules
    auto partition_for = [&](int idx) -> AddressCache::Partition & {
        if (!part_of_[idx]) {
            const auto &m = modules_.modules()[idx];
            part_of_[idx] = &cache.partition(hex_id(m.build_id), cache_module_path(m));
        }
        if (!in_work[idx]) {
            in_work[idx] = true;
            bool listed = false;
            for (const auto &w : work) listed |= w.partition == part_of_[idx];
            if (!listed) work.push_back({part_of_[idx], symbol_files_[idx] ? &*symbol_files_[idx] : nullptr});
        }
        return *part_of_[idx];
    };
    // Each frame's module and address first (partitions loaded in stack order, as the work list
    // wants them), then each partition's addresses interned at once (AddressCache::intern_all:
    // sorted, merged with the loaded rows), then the results set in stack order.
    std::vector<int32_t> module_of;  // by frame, in stack order; -1 outside every module
    std::vector<std::pair<AddressCache::Partition *, std::vector<AddressCache::Lookup>>> lookups;
    size_t new_frames = 0;
    for (size_t id = stacks_written_; id < stacks_.size(); ++id) new_frames += stacks_[id].depth;
    module_of.reserve(new_frames);
    // The last frame's module, when no other overlaps it: most frames are in the module the one
    // before was in, and it answers them without the search.
    int last = -1;
    for (size_t id = stacks_written_; id < stacks_.size(); ++id) {
        for (uint64_t raw : raw(stacks_[id])) {
            ++frame_addresses_;
            int idx = last >= 0 && modules_.modules()[static_cast<size_t>(last)].contains(raw) ? last : modules_.find(raw);
            if (idx != last) last = modules_.alone(idx) ? idx : -1;
            module_of.push_back(idx);
            if (idx < 0) {
                ++outside_modules_;
                continue;
            }
            AddressCache::Partition *part = &partition_for(idx);
            size_t k = 0;
            while (k < lookups.size() && lookups[k].first != part) ++k;
            if (k == lookups.size()) {
                lookups.emplace_back(part, std::vector<AddressCache::Lookup>{});
                lookups.back().second.reserve(new_frames);
            }
            lookups[k].second.push_back({file_address(modules_.modules()[idx], raw), static_cast<uint32_t>(module_of.size() - 1)});
        }
    }
    std::vector<AddressCache::Interned> interned(module_of.size());
    for (auto &[part, ls] : lookups) cache.intern_all(*part, ls, interned);
    size_t frame = 0;
    refs_.resize(frames_.size());
    ids_.resize(frames_.size());
    for (size_t id = stacks_written_; id < stacks_.size(); ++id) {
        const StackFrames &s = stacks_[id];
        for (size_t pos = 0; pos < s.depth; ++pos, ++frame) {
            int idx = module_of[frame];
            FrameRef &ref = refs_[s.first + pos];
            int64_t &addr = ids_[s.first + pos];
            ref = FrameRef{};
            addr = 0;
            if (idx < 0) continue;
            const AddressCache::Interned &in = interned[frame];
            module_use_[idx] += in.first;
            ref = {idx, in.row};
            addr = in.addr_id;  // 0 for a row new in this run: write_shapes fills it in
        }
    }
    cache.assign_ids();
    return work;
}

int64_t RunIngest::addr_id(const FrameRef &r) const {
    return r.module < 0 ? 0 : part_of_[r.module]->rows[r.row].addr_id;
}

void RunIngest::write_shapes(AddressCache &cache) {
    // Was 240k stack_frames rows for a warm run of 24k stacks, 55% of its instructions (SQLite's
    // per-row cost); now one key lookup per stack (docs/benchmarks.md, issue 22, eleventh session).
    store::ShapeWriter shapes(db_, run_id_);
    std::vector<store::ShapeFrame> frames;
    shapes.expect(stacks_.size() - stacks_written_);
    for (uint32_t id = stacks_written_; id < stacks_.size(); ++id) {
        StackFrames &s = stacks_[id];
        const std::span<const uint64_t> raws = raw(s);
        const std::span<const FrameRef> rs = refs(s);
        const std::span<int64_t> is = ids(s);
        frames.resize(s.depth);
        for (size_t pos = 0; pos < s.depth; ++pos) {
            store::ShapeFrame &f = frames[pos];
            f = store::ShapeFrame{raws[pos], 0, 0, 0};
            const FrameRef &r = rs[pos];
            if (r.module < 0) continue;
            // Rows new in this run got their ids after resolve_addresses: read them from the
            // cache now (a likely cache miss: once per frame, kept for write_stacks).
            if (!is[pos]) is[pos] = addr_id(r);
            AddressCache::Partition &part = *part_of_[r.module];
            f.addr_id = is[pos];
            f.module_key = cache.module_key(part);
            f.file_address = part.rows[r.row].file_address;
        }
        s.shape = shapes.shape_of(frames);
    }
    shapes.flush();
}

void RunIngest::write_stacks(AddressCache &cache) {
    // Site choice is sites.h's (StackSites), over each address's summary (AddressFacts), kept per
    // cache row: the summary an earlier ingest stored (address_sites, schema version
    // 4), else its chain's, read back from symbol_frames. The summaries made here are stored with
    // the site ids this call gives them (cache.flush()), so the next ingest of these stacks reads
    // no chain (docs/benchmarks.md, issue 22, seventh session).
    SymbolChains chains(db_);
    StackSites sites;
    std::vector<AddressFacts> facts;                    // by the index in facts_of
    std::vector<std::vector<int32_t>> facts_of(part_of_.size());  // by module, then cache row; -1: none yet
    std::vector<FrameRef> summarized;                   // rows whose facts this call made from their chains
    auto slot = [&](const FrameRef &r) -> int32_t & {
        std::vector<int32_t> &v = facts_of[static_cast<size_t>(r.module)];
        if (v.size() < part_of_[r.module]->rows.size()) v.resize(part_of_[r.module]->rows.size(), -1);
        return v[r.row];
    };
    auto from_chain = [&](const FrameRef &r, std::span<const SymbolRow> chain) {
        int32_t &i = slot(r);
        i = static_cast<int32_t>(facts.size());
        facts.push_back(sites.summarize(chain));
        summarized.push_back(r);
    };
    {
        // Every stack's first address in a module is asked for (the machinery trim starts there,
        // and it is usually the site): those without a stored summary have their chains read up
        // front, in addr_id order.
        std::vector<std::pair<int64_t, FrameRef>> first;
        for (uint32_t id = stacks_written_; id < stacks_.size(); ++id) {
            const StackFrames &s = stacks_[id];
            const std::span<const int64_t> is = ids(s);
            for (size_t pos = 0; pos < s.depth; ++pos)
                if (is[pos]) {
                    const FrameRef &r = refs_[s.first + pos];
                    if (part_of_[r.module]->stored_sites(r.row).facts < 0) first.emplace_back(is[pos], r);
                    break;
                }
        }
        std::sort(first.begin(), first.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
        std::vector<int64_t> ids;
        ids.reserve(first.size());
        for (const auto &f : first) ids.push_back(f.first);
        size_t next = 0;
        chains.read_each(std::move(ids), [&](int64_t a, std::span<const SymbolRow> chain) {
            while (first[next].first != a) ++next;  // read_each goes in addr_id order, each id once
            if (slot(first[next].second) < 0) from_chain(first[next].second, chain);
        });
    }
    const StackFrames *stack = nullptr;  // the stack being picked
    StackSites::FactsAt at = [&](size_t pos, bool need_chain) -> const AddressFacts * {
        const FrameRef &r = refs_[stack->first + pos];
        if (r.module < 0) return nullptr;
        int32_t i = slot(r);
        if (i >= 0 && !need_chain) return &facts[static_cast<size_t>(i)];
        const AddressCache::Partition &part = *part_of_[r.module];
        if (StoredSites stored = part.stored_sites(r.row); i < 0 && stored.facts >= 0) {
            i = slot(r) = static_cast<int32_t>(facts.size());
            facts.push_back(sites.from_stored(stored));
        } else {
            // Not summarized yet, or the stored summary lacks a site a rule needs.
            from_chain(r, chains.read(part.rows[r.row].addr_id));
            i = slot(r);
        }
        return &facts[static_cast<size_t>(i)];
    };
    std::unordered_map<std::string, int64_t> unnamed_ids;  // rule (3)'s labels
    store::Stmt add_site = db_.prepare(store::sql::kInsertSite);
    store::Stmt get_site = db_.prepare(store::sql::kFindSite);
    auto store_site = [&](const Site &site) {
        // Looked up first: a warm run's sites are all there already (one statement, not an
        // insert that does nothing and then the lookup).
        get_site.bind(1, site.function).bind(2, site.file).bind(3, site.line);
        bool found = get_site.step();
        int64_t id = found ? get_site.i64(0) : 0;
        get_site.reset();
        if (found) return id;
        add_site.bind(1, site.function).bind(2, site.file).bind(3, site.line).run();
        if (db_.changes() != 1) throw database_error("site neither found nor inserted: " + site.function);
        return db_.last_insert_rowid();
    };
    store::BatchInsert ins(db_, store::sql::kInsertStacks, store::BatchInsert::Leading{{run_id_}});
    for (uint32_t id = stacks_written_; id < stacks_.size(); ++id) {
        const StackFrames &s = stacks_[id];
        stack = &s;
        StackSites::Pick pick = sites.pick(s.depth, at);
        ins.add(id).add(static_cast<int64_t>(s.depth));
        ins.add(static_cast<int64_t>(sites.machinery(s.depth, at)));
        if (pick.index >= 0) {
            if (!sites.site_id(pick.index)) sites.set_site_id(pick.index, store_site(sites.sites()[static_cast<size_t>(pick.index)]));
            ins.add(sites.site_id(pick.index));
        } else if (pick.index == StackSites::Pick::kUnnamed) {
            const FrameRef &r = refs_[s.first + pick.unnamed_pos];
            Site site{module_label(modules_.modules()[r.module], part_of_[r.module]->rows[r.row].file_address), "", 0};
            auto [it, fresh] = unnamed_ids.try_emplace(site.function, 0);
            if (fresh) it->second = store_site(site);
            ins.add(it->second);
        } else {
            ins.add_null();
        }
        s.shape ? ins.add(s.shape) : ins.add_null();
        ins.end_row();
    }
    ins.flush();
    // The summaries made here, with the ids of the sites stored by now (a site no stack picked is
    // stored as -1: the next ingest reads that chain again only if a rule needs that site).
    for (const FrameRef &r : summarized)
        cache.set_sites(*part_of_[r.module], r.row, sites.stored(facts[static_cast<size_t>(slot(r))]));
    stacks_written_ = static_cast<uint32_t>(stacks_.size());
}

int RunIngest::main_module() const {
    const auto &mods = modules_.modules();
    for (std::string_view name : {"UnityFramework", "libil2cpp", "GameAssembly"})
        for (size_t i = 0; i < mods.size(); ++i)
            if (std::filesystem::path(mods[i].path).filename().string().find(name) != std::string::npos)
                return static_cast<int>(i);
    int best = mods.empty() ? -1 : 0;
    for (size_t i = 0; i < mods.size(); ++i)
        if (module_use_[i] > module_use_[best]) best = static_cast<int>(i);
    return best;
}

void RunIngest::finish(const mt::reader::ReadResult &r) {
    writer_->finish();
    update_run(r);
}

void RunIngest::flush_batch(const mt::reader::ReadResult &r) {
    writer_->flush();
    update_run(r);
}

uint64_t RunIngest::frames_written() const { return writer_ ? writer_->totals().frames : 0; }

void RunIngest::update_run(const mt::reader::ReadResult &r) {
    const RunTotals &t = writer_->totals();
    int main = main_module();
    store::Stmt up = db_.prepare(
        store::sql::kFinishRun);
    up.bind(1, run_id_).bind(2, main >= 0 ? hex_id(modules_.modules()[main].build_id) : std::string());
    up.bind(3, t.frames).bind(4, t.any_frame ? writer_->ns(t.last_tick) : 0).bind(5, t.alloc_count);
    up.bind(6, t.requested_bytes).bind(7, t.gc_bytes).bind(8, t.dropped).bind(9, t.gc_count);
    std::string reason = r.stop_reason;
    if (r.stop == mt::reader::Stop::End && reason.empty()) reason = r.end_message;
    up.bind(10, mt::reader::stop_name(r.stop)).bind(11, reason).run();
}

const RunTotals &RunIngest::totals() const { return writer_->totals(); }

size_t RunIngest::modules_with_symbols() const {
    size_t n = 0;
    for (const auto &f : symbol_files_) n += f.has_value();
    return n;
}

}  // namespace mt::sym
