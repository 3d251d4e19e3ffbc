// viewer_test_util.h — shared by the viewer's Catch2 tests: the fixture path, a request helper
// that parses every body, and direct SQL for independent expectations.
#pragma once

#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>

#include "json_dom.h"
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
    sqlite3 *db = nullptr;
    REQUIRE(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
    sqlite3_stmt *s = nullptr;
    INFO(sql << ": " << sqlite3_errmsg(db));
    REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(s) == SQLITE_ROW);
    int64_t v = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    sqlite3_close(db);
    return v;
}

}  // namespace mt::test
