// viewer_test_util.h — shared by the viewer's Catch2 tests: the fixture path, a request helper
// that parses every body, and direct SQL for independent expectations.
#pragma once

#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>

#include "../json_dom.h"
#include "memtracer/store/db.h"
#include "memtracer/viewer/query.h"

namespace mt::test {

inline std::string fixture_db() { return MT_VIEWER_FIXTURE_DB; }

// The real database made by the sample game + symbolizer (CTest fixture), "" when absent.
inline std::string real_db() {
    const char *p = std::getenv("MT_VIEWER_REAL_DB");
    return p ? p : "";
}

struct Answer {
    int status;
    JValue json;
    std::string body;
};

inline Answer ask(viewer::Database &db, const std::string &target) {
    auto r = viewer::handle_target(db, target);
    Answer a{r.status, {}, r.body};
    if (r.content_type == "application/json") {
        INFO(target << " -> " << r.body.substr(0, 300));
        REQUIRE_NOTHROW(a.json = parse_json(r.body));
    }
    return a;
}

// 200 and its JSON, or the test fails showing the body.
inline JValue ok(viewer::Database &db, const std::string &target) {
    auto a = ask(db, target);
    INFO(target << " -> " << a.body.substr(0, 400));
    REQUIRE(a.status == 200);
    return a.json;
}

// An error answer in the one error shape; returns its param ("" if none).
inline std::string error_param(viewer::Database &db, const std::string &target, int status) {
    auto a = ask(db, target);
    INFO(target << " -> " << a.body);
    REQUIRE(a.status == status);
    REQUIRE(a.json["error"]["status"].i() == status);
    REQUIRE(!a.json["error"]["message"].str().empty());
    return a.json["error"].has("param") ? a.json["error"]["param"].str() : "";
}

// One integer from SQL run directly on the file: expectations independent of the query layer.
inline int64_t sql_int(const std::string &path, const std::string &sql) {
    INFO(sql);
    mt::store::Db db = mt::store::Db::open_readonly(path, 5000);
    mt::store::Stmt s = db.prepare(sql);
    REQUIRE(s.step());
    return s.i64(0);
}

}  // namespace mt::test
