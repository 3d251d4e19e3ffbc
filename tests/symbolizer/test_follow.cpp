// memtracer-symbolize --follow (issue 12): a run.mt that grows while it is ingested goes into
// ONE run, one transaction per batch of whole chunks, and ends up equal to a whole-file ingest
// of the same bytes. The run.mt is the sample game's own (real runtime, real Boehm GC, deaths,
// GC events, markers); the feeder cuts it inside chunks and waits for each progress line.
#include <catch2/catch.hpp>
#include <signal.h>

#include <cstdlib>
#include <filesystem>

#include "follow_feeder.h"
#include "memtracer/format.h"
#include "memtracer/reader.h"
#include "memtracer/store/db.h"
#include "support.h"

#ifdef MT_SAMPLE_GAME_EXE

using mt::test::query;
using mt::test::query1;

namespace {

// FollowReader fed every prefix of a file delivers exactly what read_buffer delivers at once.
struct Recorder : mt::reader::Visitor {
    std::vector<std::string> log;
    void on_header(const mt::reader::Header &h) override { log.push_back("header " + std::to_string(h.info.size())); }
    void on_module(const mt::reader::Module &m) override { log.push_back("module " + m.path); }
    void on_thread(const mt::reader::Thread &t) override { log.push_back("thread " + t.name); }
    void on_class(const mt::reader::Class &c) override { log.push_back("class " + c.name); }
    void on_stack(const mt::reader::Stack &s) override { log.push_back("stack " + std::to_string(s.frames.size())); }
    void on_frame(const mt::reader::Frame &f) override { frames.push_back(f); }
    std::vector<mt::reader::Frame> frames;
};

std::string record_sample_game(const mt::test::TempDir &d, int frames) {
    std::string cmd = std::string(MT_SAMPLE_GAME_EXE) + " --frames " + std::to_string(frames) +
                      " --lifetimes --gc-events --quiet --out " + d.file("game.mt") + " > " + d.file("game.log") + " 2>&1";
    REQUIRE(std::system(cmd.c_str()) == 0);
    return mt::test::read_file(d.file("game.mt"));
}

std::vector<std::string> symbol_args() { return {"--symbols", MT_SAMPLE_GAME_LIBDIR, "--elf", MT_SAMPLE_GAME_EXE}; }

// Rows of one query and not of the other (both ways), over `db` with `other` ATTACHed as w.
std::string rows_only_in_one(const std::string &db, const std::string &other, const std::string &sql_main,
                             const std::string &sql_other) {
    mt::store::Db h = mt::store::Db::open_readonly(db, 10000);
    h.exec("ATTACH DATABASE '" + other + "' AS w");
    std::string out;
    for (auto [a, b, dir] : {std::tuple{sql_main, sql_other, "follow only"}, std::tuple{sql_other, sql_main, "whole only"}}) {
        mt::store::Stmt st = h.prepare("SELECT * FROM (" + a + " EXCEPT " + b + ") LIMIT 3");
        while (st.step()) {
            out += std::string(dir) + ":";
            for (int i = 0; i < st.columns(); ++i) out += " " + (st.null(i) ? std::string("NULL") : st.str(i));
            out += "\n";
        }
    }
    return out;
}

// The same SELECT over main and over w.
std::string differences(const std::string &db, const std::string &other, const std::string &cols, const std::string &from) {
    auto with = [&](const std::string &schema) {
        std::string f = from;
        for (size_t at = f.find("{}"); at != std::string::npos; at = f.find("{}", at)) f.replace(at, 2, schema + ".");
        return "SELECT " + cols + " FROM " + f;
    };
    return rows_only_in_one(db, other, with("main"), with("w"));
}

}  // namespace

TEST_CASE("follow: FollowReader over every prefix equals one read of the whole file", "[follow]") {
    mt::test::TempDir d;
    std::string bytes = record_sample_game(d, 20);
    Recorder whole;
    mt::reader::ReadResult r = mt::reader::read_buffer(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size(), whole);
    REQUIRE(r.stop == mt::reader::Stop::End);
    Recorder fed;
    mt::reader::FollowReader follow(fed);
    // Growing by a prime step lands the ends of most polls inside chunks and chunk headers.
    for (size_t n = 0; n < bytes.size(); n = std::min(bytes.size(), n + 97)) {
        follow.poll(reinterpret_cast<const uint8_t *>(bytes.data()), n);
        if (n > sizeof(mt_file_header)) {
            INFO("prefix " << n);
            REQUIRE((follow.result().stop == mt::reader::Stop::Eof || follow.result().stop == mt::reader::Stop::Truncated));
            CHECK(follow.offset() <= n);
        }
    }
    follow.poll(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
    CHECK(follow.result().stop == mt::reader::Stop::End);
    CHECK(follow.result().stop_reason == r.stop_reason);
    CHECK(follow.result().frames == r.frames);
    CHECK(fed.log == whole.log);
    CHECK(fed.frames == whole.frames);
}

namespace {

int64_t count(const std::string &db, const std::string &table) {
    return std::stoll(query1(db, "SELECT count(*) FROM " + table));
}

// Every table of a run, compared row for row; ids that a per-build cache hands out in another
// order (addr_id) are compared through what they name.
void check_equal_runs(const std::string &follow_db, const std::string &whole_db) {
    for (const char *t : {"frames", "allocs", "run_class_stack", "deaths", "death_sites", "survivors", "markers", "classes",
                          "threads", "modules", "gc_events", "run_info", "stacks", "stack_frames", "sites"}) {
        INFO("table " << t);
        CHECK(count(follow_db, t) == count(whole_db, t));
    }
    for (const char *t : {"frames", "allocs", "run_class_stack", "deaths", "death_sites", "survivors", "markers", "classes",
                          "threads", "modules", "gc_events", "run_info"}) {
        INFO("table " << t);
        CHECK(differences(follow_db, whole_db, "*", std::string("{}") + t) == "");
    }
    CHECK(differences(follow_db, whole_db, "s.stack_id, s.depth, si.function, si.file, si.line",
                      "{}stacks s LEFT JOIN {}sites si ON si.site_id = s.site_id") == "");
    CHECK(differences(follow_db, whole_db, "f.stack_id, f.pos, f.address, a.build_id, a.module_path, a.file_address, a.quality",
                      "{}stack_frames f LEFT JOIN {}addresses a ON a.addr_id = f.addr_id") == "");
    CHECK(differences(follow_db, whole_db, "a.file_address, y.depth, y.function, y.demangled, y.csharp, y.file, y.line",
                      "{}addresses a JOIN {}symbols y ON y.addr_id = a.addr_id") == "");
    CHECK(differences(follow_db, whole_db,
                      "source_size, start_unix_ns, pid, process, arch, build_id, mode, sample_interval, tick_hz, frame_count, "
                      "duration_ns, alloc_count, requested_bytes, gc_bytes, dropped, gc_count, has_lifetimes, stop, stop_reason",
                      "{}runs") == "");
}

}  // namespace

TEST_CASE("follow: a run.mt appended in pieces cut inside chunks equals a whole-file ingest", "[follow][sample-game]") {
    mt::test::TempDir d;
    std::string bytes = record_sample_game(d, 60);
    std::vector<std::string> whole_args = {d.file("game.mt"), "-o", d.file("whole.db"), "--no-progress"};
    for (const auto &a : symbol_args()) whole_args.push_back(a);
    std::string err;
    REQUIRE(mt::test::run_tool(whole_args, &err) == 0);

    // Started before the file exists: it waits for the header.
    mt::test::Follower f(d.file("live.mt"), d.file("follow.db"), symbol_args());
    uint64_t at = 0;
    int64_t frames_seen = 0;
    for (uint64_t cut : mt::test::cuts_inside_chunks(bytes, 24, 20261124)) {
        f.append(bytes, at, cut);
        at = cut;
        mt::test::FollowLine line;
        INFO("after byte " << cut << "; " << f.stderr_text());
        REQUIRE(f.next(line));
        CHECK(line.state() == "live");
        CHECK(line.num("frames") >= frames_seen);
        CHECK(line.num("frames") <= static_cast<int64_t>(mt::test::frame_chunks_before(bytes, cut)));
        CHECK(line.num("last_seq") == line.num("frames") - 1);
        frames_seen = line.num("frames");
        // What a reader sees after a commit is a consistent run of the frames so far (the next
        // piece is not written yet, so the run cannot have ended): whole-run tables agree with
        // the per-frame ones, and survivors wait for the end.
        std::string fdb = d.file("follow.db");
        auto consistent = query(fdb,
            "SELECT r.live_state, r.frame_count = (SELECT count(*) FROM frames), "
            "r.alloc_count = (SELECT ifnull(sum(count), 0) FROM allocs), "
            "r.gc_bytes = (SELECT ifnull(sum(gc_bytes), 0) FROM run_class_stack), "
            "(SELECT ifnull(sum(count), 0) FROM allocs) = (SELECT ifnull(sum(count), 0) FROM run_class_stack), "
            "NOT EXISTS (SELECT 1 FROM allocs a WHERE NOT EXISTS (SELECT 1 FROM stacks s WHERE s.stack_id = a.stack_id)), "
            "(SELECT count(*) FROM survivors) FROM runs r");
        REQUIRE(consistent.size() == 1);
        CHECK(consistent[0] == std::vector<std::string>{"live", "1", "1", "1", "1", "1", "0"});
    }
    f.append(bytes, at, bytes.size());
    mt::test::FollowLine last = f.drain();
    INFO(f.stderr_text());
    REQUIRE(f.wait() == 0);
    CHECK(last.state() == "ended");
    CHECK(f.lines.size() >= 25);

    std::string fdb = d.file("follow.db"), wdb = d.file("whole.db");
    CHECK(count(fdb, "runs") == 1);
    CHECK(last.num("frames") == 61);
    CHECK(last.num("last_seq") == 60);
    CHECK(query1(fdb, "SELECT live_state FROM runs") == "ended");
    CHECK(query1(wdb, "SELECT live_state FROM runs") == "");
    CHECK(last.num("run") == std::stoll(query1(fdb, "SELECT run_id FROM runs")));
    // The run has what the comparison is about.
    for (const char *t : {"deaths", "death_sites", "survivors", "gc_events", "stacks", "run_class_stack"}) {
        INFO("table " << t);
        CHECK(count(wdb, t) > 0);
    }
    check_equal_runs(fdb, wdb);

    // One run's worth of rows, not one per batch: the file is about the size of the other.
    auto size = [](const std::string &p) { return static_cast<double>(std::filesystem::file_size(p)); };
    INFO("follow.db " << size(fdb) << " bytes, whole.db " << size(wdb) << " bytes");
    CHECK(size(fdb) <= size(wdb) * 1.25);
    CHECK(size(fdb) >= size(wdb) * 0.8);
}

TEST_CASE("follow: SIGTERM while the writer stopped mid-chunk leaves a cut-off run with every committed frame",
          "[follow][sample-game]") {
    mt::test::TempDir d;
    std::string bytes = record_sample_game(d, 60);
    std::vector<std::string> whole_args = {d.file("game.mt"), "-o", d.file("whole.db"), "--no-progress"};
    for (const auto &a : symbol_args()) whole_args.push_back(a);
    REQUIRE(mt::test::run_tool(whole_args) == 0);

    mt::test::Follower f(d.file("live.mt"), d.file("follow.db"), symbol_args());
    std::vector<uint64_t> cuts = mt::test::cuts_inside_chunks(bytes, 12, 7);
    uint64_t at = 0;
    for (size_t i = 0; i < 6; ++i) {
        f.append(bytes, at, cuts[i]);
        at = cuts[i];
        mt::test::FollowLine line;
        REQUIRE(f.next(line));
    }
    // The writer is gone mid-chunk; whatever is whole was committed (or is taken at the stop).
    f.signal(SIGTERM);
    mt::test::FollowLine last = f.drain();
    INFO(f.stderr_text());
    REQUIRE(f.wait() == 0);
    int64_t expected = static_cast<int64_t>(mt::test::frame_chunks_before(bytes, at));
    REQUIRE(expected > 0);
    CHECK(last.state() == "cut_off");
    CHECK(last.num("frames") == expected);
    std::string fdb = d.file("follow.db"), wdb = d.file("whole.db");
    CHECK(query1(fdb, "SELECT live_state || ' ' || stop || ' ' || frame_count FROM runs") ==
          "cut_off truncated " + std::to_string(expected));
    CHECK(count(fdb, "survivors") > 0);
    // The committed frames are the whole ingest's first frames, row for row.
    std::string upto = " WHERE seq < " + std::to_string(expected);
    CHECK(count(fdb, "frames") == expected);
    for (const char *t : {"frames", "allocs", "deaths", "death_sites", "gc_events", "markers"}) {
        INFO("table " << t);
        CHECK(differences(fdb, wdb, "*", std::string("{}") + t + upto) == "");
    }
}

TEST_CASE("follow: a corrupt chunk stops with an error naming the file and offset, keeping what came before",
          "[follow][sample-game]") {
    mt::test::TempDir d;
    std::string bytes = record_sample_game(d, 30);
    std::vector<mt::test::ChunkSpan> spans = mt::test::chunk_spans(bytes);
    const mt::test::ChunkSpan bad = spans[spans.size() / 2];
    REQUIRE(bad.end - bad.offset > sizeof(mt_chunk_header));
    bytes[bad.offset + sizeof(mt_chunk_header)] ^= 0x5a;  // payload damage: its CRC fails, data follows

    mt::test::Follower f(d.file("live.mt"), d.file("follow.db"), symbol_args());
    f.append(bytes, 0, bytes.size());
    mt::test::FollowLine last = f.drain();
    int status = f.wait();
    std::string err = f.stderr_text();
    INFO(err);
    CHECK(status == 3);
    CHECK(err.find("live.mt: corrupt at offset " + std::to_string(bad.offset)) != std::string::npos);
    CHECK(err.find("CRC mismatch") != std::string::npos);
    int64_t expected = static_cast<int64_t>(mt::test::frame_chunks_before(bytes, bad.offset));
    REQUIRE(expected > 0);
    CHECK(last.state() == "cut_off");
    CHECK(last.num("frames") == expected);
    std::string fdb = d.file("follow.db");
    CHECK(query1(fdb, "SELECT live_state || ' ' || stop || ' ' || frame_count FROM runs") ==
          "cut_off corrupt " + std::to_string(expected));
    CHECK(count(fdb, "frames") == expected);
}

TEST_CASE("follow: a damaged INFO chunk ends with status 3 and leaves no database", "[follow][sample-game]") {
    mt::test::TempDir d;
    std::string bytes = record_sample_game(d, 5);
    std::vector<mt::test::ChunkSpan> spans = mt::test::chunk_spans(bytes);
    REQUIRE(spans.at(0).type == MT_CHUNK_INFO);
    bytes[spans[0].offset + sizeof(mt_chunk_header)] ^= 0x5a;

    mt::test::Follower f(d.file("live.mt"), d.file("follow.db"), symbol_args());
    f.append(bytes, 0, bytes.size());
    mt::test::FollowLine line;
    CHECK_FALSE(f.next(line));  // no commit, no progress line
    CHECK(f.wait() == 3);
    std::string err = f.stderr_text();
    INFO(err);
    CHECK(err.find("live.mt: corrupt at offset 64: CRC mismatch in the INFO chunk") != std::string::npos);
    CHECK(err.find("nothing was written") != std::string::npos);
    CHECK_FALSE(std::filesystem::exists(d.file("follow.db")));
}


TEST_CASE("follow: the follower ends the run as cut off when its parent dies without a signal",
          "[follow][sample-game]") {
    // The live viewer starts --follow as its child; a viewer killed with SIGKILL sends nothing.
    // Here a shell is the parent: it starts the follower and is killed with SIGKILL.
    mt::test::TempDir d;
    std::string bytes = record_sample_game(d, 30);
    std::vector<uint64_t> cuts = mt::test::cuts_inside_chunks(bytes, 6, 3);
    {
        std::FILE *f = std::fopen(d.file("live.mt").c_str(), "wb");
        REQUIRE(f != nullptr);
        REQUIRE(std::fwrite(bytes.data(), 1, cuts[2], f) == cuts[2]);
        std::fclose(f);
    }
    std::string cmd = std::string(MT_SYMBOLIZE_EXE) + " " + d.file("live.mt") + " --follow --db " + d.file("f.db") +
                      " --follow-poll-ms 5 > " + d.file("out.txt") + " 2>&1 &\nwait\n";
    mt::proc::Child shell = mt::proc::Child::spawn({"sh", "-c", cmd});
    auto output = [&] { return mt::test::read_file(d.file("out.txt")); };
    // Waits for states, not for time: the first batch, then the cut-off line (bounded generously).
    auto wait_for = [&](const std::string &text) {
        for (int i = 0; i < 6000 && output().find(text) == std::string::npos; ++i) usleep(10000);
        return output().find(text) != std::string::npos;
    };
    REQUIRE(wait_for("state=live"));
    kill(shell.pid(), SIGKILL);
    shell.wait();
    INFO(output());
    REQUIRE(wait_for("state=cut_off"));
    // The follower wrote its last line after committing; the database says the same.
    std::string fdb = d.file("f.db");
    for (int i = 0; i < 6000 && query1(fdb, "SELECT live_state FROM runs") != "cut_off"; ++i) usleep(10000);
    CHECK(query1(fdb, "SELECT live_state FROM runs") == "cut_off");
    CHECK(query1(fdb, "SELECT count(*) FROM frames") ==
          std::to_string(mt::test::frame_chunks_before(bytes, cuts[2])));
}

#endif
