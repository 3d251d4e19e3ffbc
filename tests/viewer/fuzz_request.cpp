// libFuzzer target for request and query parsing: each input is a request target, answered by
// the query layer over the fixture database and by the static-file resolver over a small page
// folder. Invariants: no crash or sanitizer report, every JSON body parses, errors use the one
// shape with a 4xx status, and a served file always lies inside the page folder.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "../json_dom.h"
#include "memtracer/viewer/query.h"
#include "static_files.h"

namespace fs = std::filesystem;
using namespace mt::viewer;

namespace {
Database &db() {
    static Database d(MT_VIEWER_FIXTURE_DB);
    return d;
}

StaticFiles &files() {
    static StaticFiles f = [] {
        auto root = fs::temp_directory_path() / "mt-viewer-fuzz-web";
        fs::create_directories(root / "assets");
        std::ofstream(root / "index.html") << "<!doctype html>";
        std::ofstream(root / "assets" / "app.js") << "1";
        std::ofstream(root.parent_path() / "mt-viewer-fuzz-secret.txt") << "SECRET";
        return StaticFiles(root);
    }();
    return f;
}

void check_json(const Response &r) {
    if (r.content_type != "application/json") return;
    mt::test::JValue v;
    try {
        v = mt::test::parse_json(r.body);
    } catch (...) {
        std::abort();  // the writer produced invalid JSON
    }
    if (r.status != 200) {
        if (r.status < 400 || r.status >= 500) std::abort();
        if (v["error"]["status"].i() != r.status) std::abort();
    }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    std::string target(reinterpret_cast<const char *>(data), size);
    check_json(handle_target(db(), target));
    if (!target.empty() && target[0] == '/') {
        auto r = files().get(target.substr(0, target.find('?')));
        if (r.status == 200 && r.body.find("SECRET") != std::string::npos) std::abort();
        check_json(r);
    }
    return 0;
}
