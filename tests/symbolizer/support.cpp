#include "support.h"

#include <dlfcn.h>
#include <link.h>
#include <sys/wait.h>
#include <unistd.h>

#include <llvm/Object/BuildID.h>
#include <llvm/Object/MachO.h>
#include <llvm/Object/MachOUniversal.h>
#include <llvm/Object/ObjectFile.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "memtracer/store/db.h"
#include "memtracer/store/schema.h"
#include "object_info.h"
#include "subprocess.h"

namespace fs = std::filesystem;

namespace mt::test {

std::string fixture(const std::string &rel) { return std::string(MT_FIXTURE_DIR) + "/" + rel; }
std::string fixture_src(const std::string &rel) { return std::string(MT_FIXTURE_SRC) + "/" + rel; }

std::string basename(const std::string &path) { return fs::path(path).filename().string(); }

std::string read_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void write_file(const std::string &path, const std::string &data) {
    std::ofstream out(path, std::ios::binary);
    out << data;
}

std::map<std::string, uint32_t> marker_lines(const std::string &source, const std::string &tag) {
    std::map<std::string, uint32_t> out;
    std::istringstream in(read_file(source));
    std::string line;
    for (uint32_t n = 1; std::getline(in, line); ++n) {
        size_t at = line.find(tag);
        if (at == std::string::npos) continue;
        size_t b = at + tag.size(), e = b;
        while (e < line.size() && (isalnum(static_cast<unsigned char>(line[e])) || line[e] == '_')) ++e;
        if (e > b) out[line.substr(b, e - b)] = n;
    }
    if (out.empty()) throw std::runtime_error("no " + tag + " markers in " + source);
    return out;
}

namespace {

struct PhdrQuery {
    std::string path;
    LoadedElf *out;
};

int on_phdr(dl_phdr_info *info, size_t, void *data) {
    auto *q = static_cast<PhdrQuery *>(data);
    if (!info->dlpi_name || fs::path(info->dlpi_name).filename() != fs::path(q->path).filename()) return 0;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const auto &ph = info->dlpi_phdr[i];
        if (ph.p_type != PT_LOAD) continue;
        lo = std::min<uint64_t>(lo, info->dlpi_addr + ph.p_vaddr);
        hi = std::max<uint64_t>(hi, info->dlpi_addr + ph.p_vaddr + ph.p_memsz);
    }
    q->out->bias = info->dlpi_addr;
    q->out->load_address = lo;
    q->out->size = hi - lo;
    return 1;
}

}  // namespace

std::vector<uint8_t> elf_build_id(const std::string &path) {
    auto info = mt::sym::inspect_object(path);
    return info.slices.at(0).id;
}

LoadedElf load_and_run_elf(const std::string &path) {
    // RTLD_LOCAL + a distinct file name per fixture keeps the gcc and clang builds apart.
    void *h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) throw std::runtime_error(std::string("dlopen: ") + dlerror());
    auto run = reinterpret_cast<int (*)(int)>(dlsym(h, "fx_run"));
    auto slots = static_cast<void **>(dlsym(h, "fx_slots"));
    if (!run || !slots) throw std::runtime_error("fixture lacks fx_run/fx_slots");
    run(3);
    LoadedElf e;
    e.path = path;
    for (int i = 0; i < 8; ++i) e.slots.push_back(reinterpret_cast<uint64_t>(slots[i]));
    PhdrQuery q{path, &e};
    dl_iterate_phdr(on_phdr, &q);
    e.build_id = elf_build_id(path);
    return e;  // the library stays loaded: its addresses stay meaningful
}

std::vector<uint8_t> macho_uuid(const std::string &macho, const std::string &arch) {
    auto info = mt::sym::inspect_object(macho);
    for (const auto &s : info.slices)
        if (s.arch == arch) return s.id;
    throw std::runtime_error(macho + ": no " + arch + " slice");
}

std::vector<CallSite> arm64_call_sites(const std::string &macho) {
    using namespace llvm::object;
    auto bin = createBinary(macho);
    if (!bin) throw std::runtime_error(llvm::toString(bin.takeError()));
    const ObjectFile *obj = nullptr;
    std::unique_ptr<ObjectFile> slice;
    if (auto *u = llvm::dyn_cast<MachOUniversalBinary>(bin->getBinary())) {
        auto o = u->getMachOObjectForArch("arm64");
        if (!o) throw std::runtime_error(llvm::toString(o.takeError()));
        slice = std::move(*o);
        obj = slice.get();
    } else {
        obj = llvm::cast<ObjectFile>(bin->getBinary());
    }
    std::map<uint64_t, std::string> names;
    for (const SymbolRef &sym : obj->symbols()) {
        auto name = sym.getName();
        auto addr = sym.getAddress();
        if (!name || !addr) {
            llvm::consumeError(name.takeError());
            llvm::consumeError(addr.takeError());
            continue;
        }
        std::string n = name->str();
        if (!n.empty() && n[0] == '_') n.erase(0, 1);
        names[*addr] = n;
    }
    std::vector<CallSite> out;
    for (const SectionRef &sec : obj->sections()) {
        auto name = sec.getName();
        if (!name || *name != "__text") {
            if (!name) llvm::consumeError(name.takeError());
            continue;
        }
        auto contents = sec.getContents();
        if (!contents) throw std::runtime_error(llvm::toString(contents.takeError()));
        uint64_t base = sec.getAddress();
        for (size_t off = 0; off + 4 <= contents->size(); off += 4) {
            uint32_t insn;
            memcpy(&insn, contents->data() + off, 4);
            if ((insn & 0xFC000000u) != 0x94000000u) continue;  // BL imm26
            int64_t imm = static_cast<int64_t>(static_cast<int32_t>(insn << 6) >> 6) * 4;
            uint64_t at = base + off, target = at + static_cast<uint64_t>(imm);
            auto it = names.find(target);
            out.push_back({at, target, it == names.end() ? "" : it->second});
        }
    }
    return out;
}

TempDir::TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "mt-sym-test-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path = tmpl;
}

TempDir::~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
}

RunWriter::RunWriter(const std::string &path, uint32_t arch, uint32_t flags, uint64_t start_unix_ns, uint64_t sample_interval) {
    if (!w.open(path.c_str())) throw std::runtime_error(w.error());
    mt::trace::FileHeaderParams hp;
    hp.arch = arch;
    hp.flags = flags;
    hp.pid = 4242;
    hp.start_unix_ns = start_unix_ns;
    hp.sample_interval_bytes = sample_interval;
    hp.max_stack_depth = 64;
    w.header(hp);
    mt::trace::KeyValue info[] = {{"process", "FixtureGame"}, {"os", "test"}, {"tick_hz", "1000000000"},
                               {"session_label", "symbolizer test"}};
    w.info(info, 4);
}

RunWriter::~RunWriter() { w.close(); }

void RunWriter::module(uint32_t id, uint32_t kind, const std::string &path, uint64_t load, uint64_t size, uint64_t bias,
                       uint64_t text_vmaddr, const std::vector<uint8_t> &build_id) {
    mt::trace::ModuleRecord m{id, kind, path.c_str(), load, size, bias, text_vmaddr, build_id.data(), build_id.size()};
    w.modules(&m, 1);
}

void RunWriter::thread(uint32_t id, uint64_t tid, const std::string &name) {
    mt::trace::ThreadRecord t{id, tid, name.c_str()};
    w.threads(&t, 1);
}

void RunWriter::klass(uint32_t id, const std::string &name, const std::string &ns) {
    mt::trace::ClassRecord c{id, 0x7f0000 + id, name.c_str(), ns.c_str(), 0, 0};
    w.classes(&c, 1);
}

void RunWriter::stack(uint32_t id, const std::vector<uint64_t> &frames) {
    mt::trace::StackRecord s{id, frames.data(), static_cast<uint32_t>(frames.size())};
    w.stacks(&s, 1);
}

void RunWriter::frame(uint64_t seq, const std::vector<mt::trace::EventRecord> &events, const std::vector<mt::trace::GcRecord> &gcs,
                      const std::vector<mt::trace::DeathRecord> &deaths) {
    uint64_t start = 1000 + seq * 16000000, end = start + 16000000;
    if (!events.empty()) w.events(seq, start, events.data(), events.size());
    if (!gcs.empty()) w.gc(seq, gcs.data(), gcs.size());
    if (!deaths.empty()) w.deaths(seq, deaths.data(), deaths.size());
    mt::trace::FrameRecord f;
    f.seq = seq;
    f.index = seq + 100;
    f.start_tick = start;
    f.end_tick = end;
    f.events = events.size();
    for (const auto &e : events) {
        f.requested_bytes += e.size;
        f.gc_bytes += e.gc_size;
    }
    w.frame(f);
}

void RunWriter::aggregate_frame(uint64_t seq, const std::vector<mt::trace::AggregateRecord> &aggs) {
    uint64_t start = 1000 + seq * 16000000;
    w.aggregates(seq, aggs.data(), aggs.size());
    mt::trace::FrameRecord f;
    f.seq = seq;
    f.index = seq;
    f.start_tick = start;
    f.end_tick = start + 16000000;
    for (const auto &a : aggs) {
        f.events += a.count;
        f.requested_bytes += a.requested_bytes;
        f.gc_bytes += a.gc_bytes;
    }
    w.frame(f);
}

void RunWriter::end() { w.end(MT_END_STOPPED, "stopped"); }

void RunWriter::flush() {
    if (!w.flush()) throw std::runtime_error(w.error());
}

std::vector<std::vector<std::string>> query(const std::string &db, const std::string &sql) {
    mt::store::Db h = mt::store::Db::open_readonly(db, 10000);
    mt::store::Stmt st = h.prepare(sql);
    std::vector<std::vector<std::string>> rows;
    while (st.step()) {
        std::vector<std::string> row;
        for (int i = 0; i < st.columns(); ++i) row.push_back(st.null(i) ? "NULL" : st.str(i));
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string query1(const std::string &db, const std::string &sql) {
    auto rows = query(db, sql);
    if (rows.empty() || rows[0].empty()) throw std::runtime_error("no row for " + sql);
    return rows[0][0];
}

int run_tool(const std::vector<std::string> &args, std::string *err, std::string *out) {
    TempDir td;
    std::string errf = td.file("stderr"), outf = td.file("stdout");
    pid_t pid = fork();
    if (pid == 0) {
        FILE *e = freopen(errf.c_str(), "w", stderr);
        FILE *o = freopen(outf.c_str(), "w", stdout);
        (void)e;
        (void)o;
        std::vector<char *> argv;
        std::string exe = MT_SYMBOLIZE_EXE;
        argv.push_back(exe.data());
        std::vector<std::string> copy = args;
        for (auto &a : copy) argv.push_back(a.data());
        argv.push_back(nullptr);
        execv(exe.c_str(), argv.data());
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    if (err) *err = read_file(errf);
    if (out) *out = read_file(outf);
    if (getenv("MT_TEST_SHOW_TOOL_OUTPUT")) fprintf(stderr, "$ memtracer-symbolize ...\n%s", read_file(errf).c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}


IngestOutcome ingest(const std::string &db, const std::vector<std::string> &runs, const mt::sym::Config &config,
                     std::unique_ptr<mt::sym::Backend> backend) {
    IngestOutcome out;
    mt::sym::Progress progress(mt::sym::Progress::Style::Off);
    mt::sym::Symbolizer sym(config, progress, [&](const std::string &w) { out.warnings.push_back(w); });
    if (backend) sym.set_backend(std::move(backend));
    auto odb = mt::store::open_database(db);
    for (const auto &r : runs) out.results.push_back(sym.ingest(odb.db, r));
    mt::store::finish_database(odb.db);
    return out;
}

void add_elf_module(RunWriter &w, uint32_t id, const LoadedElf &elf) {
    w.module(id, MT_MODULE_ELF, elf.path, elf.load_address, elf.size, elf.bias, elf.load_address - elf.bias, elf.build_id);
}

void write_stack_run(const std::string &path, LoadedElf elf, uint64_t start_ns,
                     const std::vector<std::vector<uint64_t>> &stacks, uint64_t delta) {
    elf.load_address += delta;
    elf.bias += delta;
    RunWriter w(path, MT_ARCH_X86_64, 0, start_ns);
    add_elf_module(w, 0, elf);
    w.thread(0, 1, "main");
    w.klass(0, "Node", "Game");
    std::vector<mt::trace::EventRecord> ev;
    for (uint32_t i = 0; i < stacks.size(); ++i) {
        w.stack(i, stacks[i]);
        ev.push_back({0, 1001 + i, 0, i, 16, 16, 0x1000 + 16u * i});
    }
    w.frame(0, ev);
    w.end();
    w.flush();
}

}  // namespace mt::test
