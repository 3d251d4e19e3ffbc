#include "exporter.h"

#include <memtracer/store/db.h>
#include <memtracer/viewer/fleet_backend.h>

#include <chrono>
#include <ctime>
#include <initializer_list>
#include <map>
#include <random>
#include <unordered_map>
#include <unordered_set>

namespace mt::fleet {

uint64_t content_key(std::initializer_list<std::string_view> fields) {
    uint64_t h = 14695981039346656037ull;
    auto mix = [&](std::string_view s) {
        for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    };
    for (std::string_view f : fields) {
        mix(std::to_string(f.size()) + ":");  // "ab","c" and "a","bc" differ
        mix(f);
    }
    return h;
}

namespace {
std::string num(int64_t v) { return std::to_string(v); }

// A batch of TabSeparated rows for one table, sent when it grows past a few MB.
class Batch {
public:
    Batch(ClickHouse &c, const Table &t, std::string prefix) : c_(c), t_(t), prefix_(std::move(prefix)) {}
    ~Batch() = default;
    std::string &row() {
        if (!buf_.empty()) buf_ += '\n';
        buf_ += prefix_;
        ++rows_;
        return buf_;
    }
    void end_row() {
        if (buf_.size() > (8u << 20)) flush();
    }
    void flush() {
        if (buf_.empty()) return;
        std::string cols;
        if (t_.per_run) cols = "project, platform, build, device, night, run_key, export_id";
        for (const Column &col : t_.columns) cols += (cols.empty() ? "`" : ", `") + col.name + "`";
        c_.execute("INSERT INTO " + t_.name + " (" + cols + ") FORMAT TabSeparated", buf_ + "\n");
        buf_.clear();
    }
    int64_t rows() const { return rows_; }

private:
    ClickHouse &c_;
    const Table &t_;
    std::string prefix_, buf_;
    int64_t rows_ = 0;
};

void field(std::string &out, const store::Stmt &s, int col, const Column &c, bool first) {
    if (!first) out += '\t';
    if (s.null(col)) {
        out += "\\N";
        return;
    }
    if (c.type.find("String") != std::string::npos) {
        append_tsv(out, s.blob(col));  // TEXT or BLOB: the bytes as stored
    } else if (c.type.find("Float") != std::string::npos) {
        out += std::to_string(s.f64(col));
    } else {
        out += num(s.i64(col));
    }
}

struct Run {
    int64_t id = 0;
    uint64_t key = 0;
    Labels labels;
};

}  // namespace

std::string utc_date(int64_t start_unix_ns) { return viewer::fleet_night(start_unix_ns); }

namespace {

Run identify(store::Db &db, int64_t run, const Labels &given) {
    auto s = db.prepare("SELECT start_unix_ns, pid, process, device, os, build_id, source_size, frame_count FROM runs WHERE run_id=?");
    s.binds(run);
    if (!s.step()) throw std::runtime_error(db.path() + " has no run " + num(run));
    Run r;
    r.id = run;
    // What identifies the capture wherever its run.db lies: when, which process, which build.
    r.key = content_key({num(s.i64(0)), num(s.i64(1)), s.text(2), s.text(3), s.text(5), num(s.i64(6)), num(s.i64(7))});
    r.labels = given;
    auto pick = [](std::string &v, std::string_view capture) {
        if (v.empty()) v = std::string(capture);
    };
    pick(r.labels.project, s.text(2));
    pick(r.labels.platform, s.text(4));
    pick(r.labels.build, s.text(5));
    pick(r.labels.device, s.text(3));
    if (r.labels.night.empty()) r.labels.night = utc_date(s.i64(0));
    return r;
}

// The per-run table `t` from store/'s table of the same name: its columns, the run's prefix.
int64_t copy_table(store::Db &db, ClickHouse &c, const Table &t, const std::string &prefix, int64_t run,
                   const std::function<void(std::string &, const store::Stmt &)> &extra = {}) {
    std::string cols;
    size_t n = 0;
    for (const Column &col : t.columns) {
        if (col.name == "class_key" || col.name == "stack_key" || col.name == "site_key" || col.name == "run_id") continue;
        cols += (cols.empty() ? "\"" : ", \"") + col.from() + "\"";
        ++n;
    }
    // A view too: stack_frames is one since schema version 5.
    auto exists = db.prepare("SELECT count(*) FROM sqlite_master WHERE type IN ('table', 'view') AND name=?");
    exists.binds(t.name);
    exists.step();
    if (exists.i64(0) == 0) return 0;  // a database from before the table: nothing of it to send
    auto s = db.prepare("SELECT " + cols + " FROM " + t.name + " WHERE run_id=?");
    s.binds(run);
    Batch b(c, t, prefix);
    while (s.step()) {
        std::string &out = b.row();
        size_t k = 0;
        for (const Column &col : t.columns) {
            if (k == n) break;
            if (col.name == "run_id") continue;
            field(out, s, static_cast<int>(k), col, k == 0);  // the prefix ends with a tab
            ++k;
        }
        if (extra) extra(out, s);
        b.end_row();
    }
    b.flush();
    return b.rows();
}
std::string key_text(uint64_t k) { return std::to_string(k); }
// Text fields after what a row already has, each behind a tab, escaped for TSV.
void append_texts(std::string &out, std::initializer_list<std::string_view> fields) {
    for (std::string_view f : fields) {
        out += '\t';
        append_tsv(out, f);
    }
}

// Classes: the run's ids with their content key, and the class once per key in class_dict.
// `keys`: each class_id's content key, for the run's class sums.
int64_t export_classes(store::Db &db, ClickHouse &c, int64_t run, const std::string &prefix,
                       std::unordered_map<int64_t, uint64_t> &keys) {
    Batch dict(c, table("class_dict"), "");
    // class_id, klass, name, namespace, full_name, flags, element_size (store/'s order)
    int64_t n = copy_table(db, c, table("classes"), prefix, run, [&](std::string &out, const store::Stmt &s) {
        uint64_t k = content_key({s.text(4), s.text(2), s.text(3), num(s.i64(5)), num(s.i64(6))});
        keys[s.i64(0)] = k;
        out += '\t' + key_text(k);
        std::string &d = dict.row();
        d += key_text(k);
        append_texts(d, {s.text(2), s.text(3), s.text(4)});
        d += '\t' + num(s.i64(5)) + '\t' + num(s.i64(6));
        dict.end_row();
    });
    dict.flush();
    return n + dict.rows();
}

// Stacks: keyed by their site and their frames' address keys (build, module, file address), so
// the same code path in the same build is one key on every device, whatever ASLR did.
// `keys`: each stack_id's (stack key, site key), for run_class_stack.
int64_t export_stacks(store::Db &db, ClickHouse &c, int64_t run, const std::string &prefix,
                      std::unordered_map<int64_t, std::pair<uint64_t, uint64_t>> &keys) {
    std::unordered_map<int64_t, std::vector<uint64_t>> frames;  // stack_id -> addr keys by pos
    std::unordered_map<int64_t, uint64_t> addr_keys;             // addr_id -> key
    std::unordered_set<uint64_t> raw_written;                    // raw addresses' keys given a row
    Batch addrs(c, table("address_dict"), ""), syms(c, table("symbol_dict"), ""), sites(c, table("site_dict"), ""),
        stacks(c, table("stack_dict"), ""), sframes(c, table("stack_frame_dict"), "");
    auto f = db.prepare("SELECT sf.stack_id, sf.address, sf.addr_id, a.build_id, a.module_path, a.file_address, "
                        "a.symbolized, a.quality FROM stack_frames sf LEFT JOIN addresses a ON a.addr_id = sf.addr_id "
                        "WHERE sf.run_id=? ORDER BY sf.stack_id, sf.pos");
    f.binds(run);
    while (f.step()) {
        uint64_t k = 0;
        if (f.null(2)) {
            k = content_key({"raw", num(f.i64(1))});  // outside every module: only its address says what it is
            // Its row says so (no module, the raw address as file address): a frame name needs it.
            if (raw_written.insert(k).second) {
                std::string &a = addrs.row();
                a += key_text(k) + "\t\t\t" + num(f.i64(1)) + "\t0\t0";
                addrs.end_row();
            }
        } else if (auto it = addr_keys.find(f.i64(2)); it != addr_keys.end()) {
            k = it->second;
        } else {
            k = content_key({f.text(3), f.text(4), num(f.i64(5))});
            addr_keys.emplace(f.i64(2), k);
            std::string &a = addrs.row();
            a += key_text(k);
            append_texts(a, {f.text(3), f.text(4)});
            a += '\t' + num(f.i64(5)) + '\t' + num(f.i64(6)) + '\t' + num(f.i64(7));
            addrs.end_row();
        }
        frames[f.i64(0)].push_back(k);
    }
    addrs.flush();
    auto sy = db.prepare("SELECT addr_id, depth, function, demangled, csharp, file, line, \"column\", cs_file, cs_line "
                         "FROM symbols WHERE addr_id IN (SELECT DISTINCT addr_id FROM stack_frames WHERE run_id=?)");
    sy.binds(run);
    while (sy.step()) {
        std::string &o = syms.row();
        o += key_text(addr_keys[sy.i64(0)]) + '\t' + num(sy.i64(1));
        append_texts(o, {sy.text(2), sy.text(3), sy.text(4), sy.text(5)});
        o += '\t' + num(sy.i64(6)) + '\t' + num(sy.i64(7));
        append_texts(o, {sy.text(8)});
        o += '\t' + num(sy.i64(9));
        syms.end_row();
    }
    syms.flush();
    std::unordered_map<int64_t, uint64_t> site_keys;
    auto si = db.prepare("SELECT site_id, function, file, line FROM sites WHERE site_id IN "
                         "(SELECT site_id FROM stacks WHERE run_id=? AND site_id IS NOT NULL)");
    si.binds(run);
    while (si.step()) {
        uint64_t k = content_key({si.text(1), si.text(2), num(si.i64(3))});
        site_keys.emplace(si.i64(0), k);
        std::string &o = sites.row();
        o += key_text(k);
        append_texts(o, {si.text(1), si.text(2)});
        o += '\t' + num(si.i64(3));
        sites.end_row();
    }
    sites.flush();
    // stack_id, depth, site_id (store/'s order), then stack_key, site_key (0: no game code)
    int64_t n = copy_table(db, c, table("stacks"), prefix, run, [&](std::string &out, const store::Stmt &s) {
        uint64_t site = s.null(2) ? 0 : site_keys[s.i64(2)];
        std::string joined = key_text(site);
        const auto &fr = frames[s.i64(0)];
        for (uint64_t a : fr) joined += "," + key_text(a);
        uint64_t k = content_key({"stack", joined});
        keys[s.i64(0)] = {k, site};
        out += '\t' + key_text(k) + '\t' + key_text(site);
        std::string &o = stacks.row();
        o += key_text(k) + '\t' + num(s.i64(1)) + '\t' + key_text(site);
        stacks.end_row();
        for (size_t pos = 0; pos < fr.size(); ++pos) {
            std::string &x = sframes.row();
            x += key_text(k) + '\t' + num(static_cast<int64_t>(pos)) + '\t' + key_text(fr[pos]);
            sframes.end_row();
        }
    });
    stacks.flush();
    sframes.flush();
    return n + addrs.rows() + syms.rows() + sites.rows() + stacks.rows() + sframes.rows();
}

struct Sums {
    int64_t count = 0, requested_bytes = 0, gc_bytes = 0;
};

// The run's summaries (schema.cpp: run_site_sums, run_class_sums) from its run_class_stack rows:
// key columns as text, then the three sums.
int64_t write_sums(ClickHouse &c, const std::string &name, const std::string &prefix, const std::map<std::string, Sums> &sums) {
    Batch b(c, table(name), prefix);
    for (const auto &[key, v] : sums) {
        b.row() += key + '\t' + num(v.count) + '\t' + num(v.requested_bytes) + '\t' + num(v.gc_bytes);
        b.end_row();
    }
    b.flush();
    return b.rows();
}

int64_t export_run_rows(store::Db &db, ClickHouse &c, int64_t run, const std::string &prefix) {
    int64_t rows = 0;
    for (const Table &t : tables())
        if (t.per_run && t.from_store && t.name != "runs" && t.name != "classes" && t.name != "stacks" && t.name != "run_class_stack")
            rows += copy_table(db, c, t, prefix, run);
    std::unordered_map<int64_t, std::pair<uint64_t, uint64_t>> keys;
    std::unordered_map<int64_t, uint64_t> class_keys;
    rows += export_classes(db, c, run, prefix, class_keys) + export_stacks(db, c, run, prefix, keys);
    // run_class_stack with its stack's keys: store/'s columns, then stack_key, site_key.
    const Table &rcs = table("run_class_stack");
    std::map<std::string, int> col;  // store/'s column -> its place in the SELECT
    for (const Column &cc : rcs.columns)
        if (cc.name != "stack_key" && cc.name != "site_key" && cc.name != "run_id") col.emplace(cc.name, static_cast<int>(col.size()));
    const int stack_col = col.at("stack_id"), class_col = col.at("class_id"), count_col = col.at("count"),
              bytes_col = col.at("requested_bytes"), gc_col = col.at("gc_bytes");
    std::map<std::string, Sums> by_site, by_class;
    rows += copy_table(db, c, rcs, prefix, run, [&](std::string &out, const store::Stmt &s) {
        auto it = keys.find(s.i64(stack_col));
        auto k = it == keys.end() ? std::pair<uint64_t, uint64_t>{0, 0} : it->second;
        out += '\t' + key_text(k.first) + '\t' + key_text(k.second);
        // A class id the run's classes never named keeps class key 0 and its id ("<class N>").
        int64_t cls = s.i64(class_col);
        auto ck = class_keys.find(cls);
        std::string class_key = ck == class_keys.end() ? "0\t" + num(cls) : key_text(ck->second) + "\t0";
        for (Sums *v : {&by_site[key_text(k.second)], &by_class[class_key]}) {
            v->count += s.i64(count_col);
            v->requested_bytes += s.i64(bytes_col);
            v->gc_bytes += s.i64(gc_col);
        }
    });
    return rows + write_sums(c, "run_site_sums", prefix, by_site) + write_sums(c, "run_class_sums", prefix, by_class);
}

}  // namespace

void export_database(Layout &l, const std::string &db_path, const Labels &labels, std::optional<int64_t> only,
                     const std::function<void(const ExportResult &)> &done) {
    store::Db db = store::Db::open_readonly(db_path, 5000);
    create_schema(l);
    ClickHouse &c = l.entry;
    std::vector<int64_t> runs;
    auto rs = db.prepare("SELECT run_id FROM runs ORDER BY run_id");
    while (rs.step()) runs.push_back(rs.i64(0));
    std::mt19937_64 rng(std::random_device{}() ^ static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
    for (int64_t id : runs) {
        if (only && id != *only) continue;
        Run r = identify(db, id, labels);
        ExportResult res{id, r.key, 0, false, 0};
        auto have = c.rows("SELECT run_id FROM runs WHERE run_key = " + std::to_string(r.key) + " LIMIT 1 SETTINGS skip_unavailable_shards = 1");
        // (A shard that is down may hold it: then the export's first insert fails, naming it.)
        if (!have.empty()) {
            res.skipped = true;
            res.fleet_run_id = std::stoll(have[0][0]);
            done(res);
            continue;
        }
        const uint64_t export_id = rng();
        std::string prefix;
        for (const std::string *v : {&r.labels.project, &r.labels.platform, &r.labels.build, &r.labels.device, &r.labels.night}) {
            append_tsv(prefix, *v);
            prefix += '\t';
        }
        prefix += std::to_string(r.key) + "\t" + std::to_string(export_id) + "\t";
        res.rows += export_run_rows(db, c, r.id, prefix);
        // Last: the run's own row, with the fleet's next id. Until this insert the run is not there.
        auto next = c.rows("SELECT max(run_id) FROM runs");
        res.fleet_run_id = (next.empty() || next[0][0].empty() ? 0 : std::stoll(next[0][0])) + 1;
        res.rows += copy_table(db, c, table("runs"), prefix + std::to_string(res.fleet_run_id) + "\t", r.id);
        done(res);
    }
}

}  // namespace mt::fleet
