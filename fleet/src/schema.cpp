#include "schema.h"

#include "summaries.h"

#include <memtracer/store/db.h>
#include <memtracer/store/schema.h>

#include <stdexcept>

namespace mt::fleet {

namespace {
const char *kLabelColumns[][2] = {{"project", "String"}, {"platform", "String"}, {"build", "String"},
                                  {"device", "String"},  {"night", "Date"},       {"run_key", "UInt64"},
                                  {"export_id", "UInt64"}};
const char *kOrder = "project, platform, build, device, run_key";

std::string ch_type(const std::string &sqlite_type, bool nullable) {
    std::string t = sqlite_type == "TEXT" ? "String" : sqlite_type == "REAL" ? "Float64" : sqlite_type == "BLOB" ? "String" : "Int64";
    return nullable ? "Nullable(" + t + ")" : t;
}

// store/'s columns of `name`, without run_id (the run's keys replace it).
std::vector<Column> store_columns(store::Db &db, const std::string &name) {
    std::vector<Column> out;
    auto s = db.prepare("SELECT name, type, \"notnull\", pk FROM pragma_table_info(?1) ORDER BY cid");
    s.binds(name);
    while (s.step()) {
        if (s.str(0) == "run_id") continue;
        Column c{s.str(0), ch_type(s.str(1), s.i64(2) == 0 && s.i64(3) == 0), ""};
        for (auto &label : kLabelColumns)
            if (c.name == label[0]) c.source = c.name, c.name = "capture_" + c.name;  // the label keeps the plain name
        out.push_back(c);
    }
    if (out.empty()) throw std::logic_error("store has no table " + name);
    return out;
}

Table per_run(store::Db &db, const std::string &name, const std::string &order_tail, std::vector<Column> extra = {}) {
    Table t{name, store_columns(db, name), "MergeTree()", "toYYYYMM(night)",
            std::string(kOrder) + (order_tail.empty() ? "" : ", " + order_tail), true, true};
    t.columns.insert(t.columns.end(), extra.begin(), extra.end());
    return t;
}

// A per-run table of the fleet's own (not store/'s): `keys`, then the three sums.
Table summary(const std::string &name, std::vector<Column> keys, const std::string &order_tail) {
    for (const char *m : {"count", "requested_bytes", "gc_bytes"}) keys.push_back({m, "Int64"});
    return Table{name, std::move(keys), "MergeTree()", "toYYYYMM(night)", std::string(kOrder) + ", " + order_tail, true, false};
}

Table dict(const std::string &name, std::vector<Column> cols, const std::string &order) {
    return Table{name, std::move(cols), "ReplacingMergeTree()", "", order, false, false};
}

std::vector<Table> build_tables() {
    store::Db db = store::Db::open(":memory:", true);
    db.exec(store::schema_tables_sql());
    std::vector<Table> t;
    for (const char *n : {"run_info", "threads", "modules", "gc_events", "markers", "deaths", "survivors"})
        t.push_back(per_run(db, n, ""));
    t.push_back(per_run(db, "frames", "seq"));
    t.push_back(per_run(db, "allocs", "seq, class_id, stack_id"));
    // The stack's content and site keys on every row: the cross-run answers group and filter by
    // them without joining each run's stacks (ch_fleet.cpp).
    t.push_back(per_run(db, "run_class_stack", "class_id, stack_id", {{"stack_key", "UInt64"}, {"site_key", "UInt64"}}));
    // Per-run summaries, written at export from the run's run_class_stack (exporter.cpp): one
    // row per run and site, per run and class. The trend and the fleet top read these (tens of
    // rows a run) instead of run_class_stack (thousands); like every per-run table they are
    // invisible until the run row exists.
    t.push_back(summary("run_site_sums", {{"site_key", "UInt64"}}, "site_key"));
    t.push_back(summary("run_class_sums", {{"class_key", "UInt64"}, {"class_id", "Int64"}}, "class_key, class_id"));
    t.push_back(per_run(db, "death_sites", "seq"));
    // A stack frame's raw address is per run (ASLR): the viewer's stacks show it.
    // store/'s stack_frames is a view since version 5, whose columns SQLite reports without NOT
    // NULL: the fleet keeps version 4's types (addr_id alone nullable: outside every module).
    Table frames = per_run(db, "stack_frames", "stack_id, pos");
    for (Column &c : frames.columns) c.type = c.name == "addr_id" ? "Nullable(Int64)" : "Int64";
    t.push_back(frames);
    t.push_back(per_run(db, "classes", "class_id", {{"class_key", "UInt64"}}));
    // Without shape_id (schema version 5): the database's own row id of the stack's frames; the
    // fleet keys a stack by its content (stack_key).
    Table stacks = per_run(db, "stacks", "stack_id", {{"stack_key", "UInt64"}, {"site_key", "UInt64"}});
    std::erase_if(stacks.columns, [](const Column &c) { return c.name == "shape_id"; });
    t.push_back(stacks);
    t.push_back(dict("class_dict", {{"class_key", "UInt64"}, {"name", "String"}, {"namespace", "String"},
                                    {"full_name", "String"}, {"flags", "Int64"}, {"element_size", "Int64"}}, "class_key"));
    t.push_back(dict("site_dict", {{"site_key", "UInt64"}, {"function", "String"}, {"file", "String"}, {"line", "Int64"}},
                     "site_key"));
    t.push_back(dict("stack_dict", {{"stack_key", "UInt64"}, {"depth", "Int64"}, {"site_key", "UInt64"}}, "stack_key"));
    t.push_back(dict("stack_frame_dict", {{"stack_key", "UInt64"}, {"pos", "Int64"}, {"addr_key", "UInt64"}},
                     "stack_key, pos"));
    t.push_back(dict("address_dict", {{"addr_key", "UInt64"}, {"build_id", "String"}, {"module_path", "String"},
                                      {"file_address", "Int64"}, {"symbolized", "Int64"}, {"quality", "Int64"}},
                     "addr_key"));
    t.push_back(dict("symbol_dict", {{"addr_key", "UInt64"}, {"depth", "Int64"}, {"function", "String"},
                                     {"demangled", "String"}, {"csharp", "String"}, {"file", "String"},
                                     {"line", "Int64"}, {"column", "Int64"}, {"cs_file", "String"}, {"cs_line", "Int64"}},
                     "addr_key, depth"));
    // The run's own row, written last: every query starts from it, so until it exists the run's
    // other rows are invisible; `run_id` is the fleet's id for it (the viewer's /api/runs id).
    Table runs = per_run(db, "runs", "", {});
    runs.columns.insert(runs.columns.begin(), Column{"run_id", "Int64"});
    t.push_back(runs);
    return t;
}

std::string columns_sql(const Table &t) {
    std::string s;
    if (t.per_run)
        for (auto &c : kLabelColumns) s += std::string(s.empty() ? "" : ", ") + c[0] + " " + c[1];
    for (const Column &c : t.columns) s += (s.empty() ? "" : ", ") + ("`" + c.name + "` ") + c.type;
    return s;
}

std::string create_sql(const Table &t, const std::string &name) {
    return "CREATE TABLE IF NOT EXISTS " + name + " (" + columns_sql(t) + ") ENGINE = " + t.engine +
           (t.partition.empty() ? "" : " PARTITION BY " + t.partition) + " ORDER BY (" + t.order + ")";
}
}  // namespace

const std::vector<Table> &tables() {
    static const std::vector<Table> t = build_tables();
    return t;
}

const Table &table(const std::string &name) {
    for (const Table &t : tables())
        if (t.name == name) return t;
    throw std::logic_error("no ClickHouse table " + name);
}

namespace {
void create_db(ClickHouse &c) { c.execute("CREATE DATABASE IF NOT EXISTS " + c.url().database, "", false); }

void create_tables(Layout &l) {
    if (l.shards.empty()) {
        for (const Table &t : tables()) l.entry.execute(create_sql(t, t.name));
        return;
    }
    for (ClickHouse &s : l.shards) {
        create_db(s);
        for (const Table &t : tables()) s.execute(create_sql(t, t.name + "_local"));
    }
    // Per-run rows shard by run (a run's rows stay together); dictionaries by their key.
    for (const Table &t : tables()) {
        std::string key = t.per_run ? "run_key" : t.columns.front().name;
        l.entry.execute("CREATE TABLE IF NOT EXISTS " + t.name + " AS " + t.name + "_local ENGINE = Distributed(" +
                        l.cluster + ", " + l.entry.url().database + ", " + t.name + "_local, " + key + ")");
    }
}
}  // namespace

int64_t create_schema(Layout &l) {
    create_db(l.entry);
    // Every table there (a shard that is down does not stop an export into a cluster whose schema
    // exists); otherwise the missing ones: a database an earlier version created lacks the tables
    // added since (the per-run summaries).
    std::string names;
    for (const Table &t : tables()) names += (names.empty() ? "" : ", ") + sql_quote(t.name);
    auto have = l.entry.rows("SELECT name, engine FROM system.tables WHERE database = " + sql_quote(l.entry.url().database) +
                             " AND name IN (" + names + ")");
    if (have.size() != tables().size()) {
        // A cluster's tables added to its entry server alone would hold rows no shard has.
        for (auto &r : have)
            if (l.shards.empty() && r.at(1) == "Distributed")
                throw std::invalid_argument(l.entry.url().text + " holds a cluster's Distributed tables: give --cluster and --shard "
                                                                 "to create the tables it lacks on every shard");
        create_tables(l);
    }
    return backfill_summaries(l.entry);
}

}  // namespace mt::fleet
