#include "bench_util.h"

#include <llvm/Support/JSON.h>

#include <sys/resource.h>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <thread>

#include "backend.h"
#include <memtracer/process.h>
#include "memtracer/trace_writer.h"

namespace mt::bench {

namespace {

using mt::sym::hex_address;

mt::sym::SymbolRecord parse_json(const std::string &line) {
    mt::sym::SymbolRecord r;
    auto v = llvm::json::parse(line);
    if (!v) throw std::runtime_error("llvm-symbolizer output: " + llvm::toString(v.takeError()));
    const auto *frames = v->getAsObject()->getArray("Symbol");
    if (frames)
        for (const auto &f : *frames) {
            const auto &o = *f.getAsObject();
            r.frames.push_back({o.getString("FunctionName").value_or("").str(), o.getString("FileName").value_or("").str(),
                                static_cast<uint32_t>(o.getInteger("Line").value_or(0)),
                                static_cast<uint32_t>(o.getInteger("Column").value_or(0))});
        }
    mt::sym::normalize(r);
    return r;
}

}  // namespace

namespace {
double cpu_of(int who) {
    rusage u{};
    getrusage(who, &u);
    auto s = [](const timeval &t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
    return s(u.ru_utime) + s(u.ru_stime);
}
}  // namespace

double cpu_self() { return cpu_of(RUSAGE_SELF); }
double cpu_children() { return cpu_of(RUSAGE_CHILDREN); }

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void write_address_run(const std::string &path, const std::string &lib, const std::vector<uint8_t> &build_id,
                       uint64_t bias, uint64_t size, const std::vector<uint64_t> &return_addrs, uint64_t start_ns) {
    mt::trace::TraceWriter w;
    if (!w.open(path.c_str())) throw std::runtime_error(w.error());
    mt::trace::FileHeaderParams hp;
    hp.start_unix_ns = start_ns;
    hp.arch = MT_ARCH_X86_64;
    w.header(hp);
    mt::trace::KeyValue info[] = {{"tick_hz", "1000000000"}, {"process", "bench"}};
    w.info(info, 2);
    mt::trace::ModuleRecord m{0, MT_MODULE_ELF, lib.c_str(), bias, size, bias, 0, build_id.data(), build_id.size()};
    w.modules(&m, 1);
    mt::trace::ThreadRecord t{0, 1, "main"};
    w.threads(&t, 1);
    mt::trace::ClassRecord c{0, 0x1000, "Object", "System", 0, 0};
    w.classes(&c, 1);
    std::vector<uint64_t> frames;
    std::vector<mt::trace::EventRecord> events;
    uint32_t id = 0;
    for (size_t i = 0; i < return_addrs.size(); i += 10) {
        frames.clear();
        for (size_t k = i; k < std::min(i + 10, return_addrs.size()); ++k) frames.push_back(return_addrs[k] + bias);
        mt::trace::StackRecord s{id, frames.data(), static_cast<uint32_t>(frames.size())};
        w.stacks(&s, 1);
        events.push_back({0, 1000 + id, 0, id, 32, 32, 0x100000 + 32ull * id});
        ++id;
        if (!w.flush()) throw std::runtime_error(w.error());
    }
    w.events(0, 1000, events.data(), events.size());
    mt::trace::FrameRecord f;
    f.start_tick = 1000;
    f.end_tick = 1000 + id + 1;
    f.events = events.size();
    w.frame(f);
    w.end(MT_END_STOPPED, "bench");
    if (!w.flush()) throw std::runtime_error(w.error());
}

void write_event_run(const std::string &path, uint64_t events, uint64_t frames, uint32_t stacks, uint32_t classes) {
    mt::trace::TraceWriter w;
    if (!w.open(path.c_str())) throw std::runtime_error(w.error());
    mt::trace::FileHeaderParams hp;
    hp.start_unix_ns = 1700000000000000000ull;
    hp.arch = MT_ARCH_X86_64;
    hp.flags = MT_FILE_FLAG_GC_EVENTS;
    w.header(hp);
    mt::trace::KeyValue info[] = {{"tick_hz", "1000000000"}, {"process", "bench-ingest"}};
    w.info(info, 2);
    const uint64_t load = 0x7f0000000000;
    uint8_t id[20] = {1, 2, 3};
    mt::trace::ModuleRecord m{0, MT_MODULE_ELF, "/data/app/lib/arm64/libil2cpp.so", load, 0x4000000, load, 0, id, sizeof id};
    w.modules(&m, 1);
    std::vector<std::string> names;
    for (uint32_t t = 0; t < 8; ++t) {
        names.push_back("worker " + std::to_string(t));
        mt::trace::ThreadRecord tr{t, 100 + t, names.back().c_str()};
        w.threads(&tr, 1);
    }
    std::vector<std::string> cls;
    for (uint32_t c = 0; c < classes; ++c) cls.push_back("Class" + std::to_string(c));
    for (uint32_t c = 0; c < classes; ++c) {
        mt::trace::ClassRecord cr{c, 0x1000 + c, cls[c].c_str(), "Game", 0, 0};
        w.classes(&cr, 1);
    }
    std::mt19937_64 rng(7);
    for (uint32_t s = 0; s < stacks; ++s) {
        uint64_t fr[12];
        for (auto &f : fr) f = load + 0x1000 + (rng() % 0x3000000);
        mt::trace::StackRecord sr{s, fr, 12};
        w.stacks(&sr, 1);
    }
    // Allocation sites are skewed: a few hot (class, stack) pairs make most allocations.
    std::vector<std::pair<uint32_t, uint32_t>> sites;
    for (uint32_t i = 0; i < stacks; ++i) sites.push_back({static_cast<uint32_t>(rng() % classes), i});
    std::vector<double> weights;
    for (uint32_t i = 0; i < stacks; ++i) weights.push_back(1.0 / (1 + i));
    std::discrete_distribution<uint32_t> pick(weights.begin(), weights.end());
    uint64_t per_frame = events / frames, addr = 0x7e0000000000;
    std::vector<mt::trace::EventRecord> ev;
    for (uint64_t seq = 0; seq < frames; ++seq) {
        uint64_t start = 1000 + seq * 16666666;
        ev.clear();
        uint64_t req = 0, gcb = 0;
        for (uint64_t i = 0; i < per_frame; ++i) {
            auto [c, s] = sites[pick(rng)];
            uint64_t size = 16 + (rng() % 512);
            ev.push_back({static_cast<uint32_t>(i % 8), start + i * 1000, c, s, size, (size + 15) & ~15ull, addr += 64});
            req += size;
            gcb += (size + 15) & ~15ull;
        }
        for (size_t k = 0; k < ev.size(); k += 4096) w.events(seq, start, ev.data() + k, std::min<size_t>(4096, ev.size() - k));
        if (seq % 50 == 49) {
            mt::trace::GcRecord g{start + 1000, start + 900000, 64 << 20, 8 << 20, 48 << 20, seq / 50};
            w.gc(seq, &g, 1);
        }
        mt::trace::FrameRecord f;
        f.seq = seq;
        f.index = seq;
        f.start_tick = start;
        f.end_tick = start + 16666666;
        f.events = per_frame;
        f.requested_bytes = req;
        f.gc_bytes = gcb;
        w.frame(f);
        if (!w.flush()) throw std::runtime_error(w.error());
    }
    w.end(MT_END_STOPPED, "bench");
    if (!w.flush()) throw std::runtime_error(w.error());
}

std::vector<double> per_process(const std::string &tool, const std::string &lib, const std::vector<uint64_t> &lookups) {
    std::vector<double> secs;
    for (uint64_t a : lookups) {
        double t0 = now_s();
        auto c = mt::proc::Child::spawn({tool, "--obj=" + lib, "--output-style=JSON", "--no-demangle", hex_address(a)});
        c.close_stdin();
        std::string out = c.read_all();
        if (c.wait() != 0 || out.empty()) throw std::runtime_error("llvm-symbolizer failed on " + hex_address(a));
        secs.push_back(now_s() - t0);
    }
    return secs;
}

double streaming(const std::string &tool, const std::string &lib, const std::vector<uint64_t> &lookups,
                 std::vector<mt::sym::SymbolRecord> *records) {
    double t0 = now_s();
    auto c = mt::proc::Child::spawn({tool, "--obj=" + lib, "--output-style=JSON", "--no-demangle"});
    std::thread writer([&] {
        std::string chunk;
        for (size_t i = 0; i < lookups.size(); ++i) {
            chunk += hex_address(lookups[i]) + "\n";
            if (chunk.size() > (1 << 16) || i + 1 == lookups.size()) {
                c.write_all(chunk);
                chunk.clear();
            }
        }
        c.close_stdin();
    });
    std::string line;
    std::vector<std::string> lines;
    lines.reserve(lookups.size());
    while (c.read_line(line)) lines.push_back(line);
    writer.join();
    c.wait();
    double secs = now_s() - t0;
    if (lines.size() != lookups.size()) throw std::runtime_error("llvm-symbolizer answered " + std::to_string(lines.size()) + " lines");
    if (records) {
        records->clear();
        for (const auto &l : lines) records->push_back(parse_json(l));
    }
    return secs;
}

}  // namespace mt::bench
