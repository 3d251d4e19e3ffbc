// death_sites on a real capture: the sample game with --lifetimes --leak-from through the tool.
// Every death's link to its allocation must add up: per (frame, class) to the deaths table, per
// (class, stack) allocations - linked deaths = survivors, and the leak site never dies.
#include <catch2/catch.hpp>

#ifdef MT_SAMPLE_GAME_EXE
#include <cstdlib>
#include <map>
#include <tuple>

#include "support.h"

using mt::test::query;
using mt::test::query1;

namespace {
struct Triple {
    int64_t age, count, gc_bytes;
};
std::vector<Triple> decode_hex(const std::string &hex) {
    std::vector<uint8_t> b;
    for (size_t i = 0; i + 1 < hex.size(); i += 2) b.push_back(static_cast<uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
    std::vector<Triple> out;
    size_t i = 0;
    auto next = [&] {
        uint64_t v = 0;
        for (int shift = 0;; shift += 7) {
            REQUIRE(i < b.size());
            v |= static_cast<uint64_t>(b[i] & 0x7F) << shift;
            if (!(b[i++] & 0x80)) return static_cast<int64_t>(v);
        }
    };
    while (i < b.size()) {
        Triple t{};
        t.age = next();
        t.count = next();
        t.gc_bytes = next();
        out.push_back(t);
    }
    return out;
}
}  // namespace

TEST_CASE("symbolizer: death_sites link every death to its allocation site and frame", "[sample-game][lifetimes]") {
    mt::test::TempDir d;
    std::string cmd = std::string(MT_SAMPLE_GAME_EXE) + " --frames 120 --leak-from 40 --lifetimes --gc-events --quiet " +
                      "--ring-bytes 16777216 --block-when-full --out " + d.file("run.mt") + " > " + d.file("game.log") +
                      " 2>&1";
    REQUIRE(std::system(cmd.c_str()) == 0);
    std::string err;
    int rc = mt::test::run_tool({d.file("run.mt"), "--symbols", MT_SAMPLE_GAME_LIBDIR, "--elf", MT_SAMPLE_GAME_EXE, "--no-progress"}, &err);
    INFO(err);
    REQUIRE(rc == 0);
    std::string db = d.file("run.db");
    REQUIRE(query1(db, "SELECT count(*) FROM death_sites") != "0");

    std::map<std::pair<int64_t, int64_t>, std::pair<int64_t, int64_t>> by_frame_class;     // seq, class
    std::map<std::pair<int64_t, int64_t>, int64_t> died_by_cs;                              // class, stack
    for (const auto &r : query(db, "SELECT seq, class_id, stack_id, hex(ages) FROM death_sites")) {
        int64_t seq = std::stoll(r[0]), cls = std::stoll(r[1]), stack = std::stoll(r[2]);
        int64_t last_age = -1;
        for (const auto &t : decode_hex(r[3])) {
            CHECK(t.age > last_age);  // ascending, no age twice
            CHECK(t.age <= seq);      // allocated in a frame of the run
            CHECK(t.count > 0);
            last_age = t.age;
            auto &c = by_frame_class[{seq, cls}];
            c.first += t.count;
            c.second += t.gc_bytes;
            died_by_cs[{cls, stack}] += t.count;
        }
    }
    auto deaths = query(db, "SELECT seq, class_id, count, gc_bytes FROM deaths");
    REQUIRE(deaths.size() == by_frame_class.size());
    for (const auto &r : deaths) {
        auto &c = by_frame_class[{std::stoll(r[0]), std::stoll(r[1])}];
        CHECK(c.first == std::stoll(r[2]));
        CHECK(c.second == std::stoll(r[3]));
    }
    // Allocated - died = surviving, per (class, stack), exactly (every allocation recorded).
    auto rows = query(db,
                      "SELECT r.class_id, r.stack_id, sum(r.count), (SELECT ifnull(sum(s.count), 0) FROM survivors s "
                      "WHERE s.run_id=r.run_id AND s.class_id=r.class_id AND s.stack_id=r.stack_id) "
                      "FROM run_class_stack r GROUP BY r.run_id, r.class_id, r.stack_id");  // rows per thread
    for (const auto &r : rows) {
        INFO("class " << r[0] << " stack " << r[1]);
        CHECK(std::stoll(r[2]) - died_by_cs[{std::stoll(r[0]), std::stoll(r[1])}] == std::stoll(r[3]));
    }
    // The leak: one Single[] a frame for frames 40..119, none ever dies.
    std::string leak_stacks =
        "SELECT st.stack_id FROM stacks st JOIN sites s ON s.site_id=st.site_id WHERE s.function='LeakyCache.Remember'";
    CHECK(query1(db, "SELECT sum(count) FROM survivors s JOIN classes c USING(run_id, class_id) WHERE c.full_name="
                     "'System.Single[]' AND s.stack_id IN (" + leak_stacks + ")") == "80");
    CHECK(query1(db, "SELECT count(*) FROM death_sites WHERE class_id=(SELECT class_id FROM classes WHERE "
                     "full_name='System.Single[]') AND stack_id IN (" + leak_stacks + ")") == "0");
    // survivors.frames: the leak's allocation frames (40, 41, ...) before the last frame with deaths.
    int64_t last_gc = std::stoll(query1(db, "SELECT max(seq) FROM death_sites"));
    REQUIRE(last_gc > 40);
    CHECK(query1(db, "SELECT frames FROM survivors s JOIN classes c USING(run_id, class_id) WHERE c.full_name="
                     "'System.Single[]' AND s.stack_id IN (" + leak_stacks + ")") == std::to_string(last_gc - 40));
}
#endif
