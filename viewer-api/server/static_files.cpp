#include "static_files.h"

#include <fstream>
#include <sstream>

namespace mt::viewer {

namespace fs = std::filesystem;

StaticFiles::StaticFiles(fs::path root) {
    std::error_code ec;
    root_ = fs::canonical(root, ec);
    if (ec) root_ = fs::absolute(root).lexically_normal();  // missing: every request is a 404
}

const char *content_type_for(const fs::path &p) {
    auto e = p.extension().string();
    if (e == ".html") return "text/html; charset=utf-8";
    if (e == ".js" || e == ".mjs") return "text/javascript; charset=utf-8";
    if (e == ".css") return "text/css; charset=utf-8";
    if (e == ".json" || e == ".map") return "application/json";
    if (e == ".svg") return "image/svg+xml";
    if (e == ".png") return "image/png";
    if (e == ".ico") return "image/x-icon";
    if (e == ".woff2") return "font/woff2";
    return "application/octet-stream";
}

Response StaticFiles::get(const std::string &raw_path) const {
    // Decode first, then judge: "%2e%2e", "%2F" and "..%5c" are the same attack as "../".
    std::string path;
    try {
        path = percent_decode(raw_path, false, "path");
    } catch (const ApiError &e) {
        return error_response(e.status, e.message, "path");
    }
    if (path.empty() || path[0] != '/') return error_response(400, "bad path", "path");
    if (path.find('\\') != std::string::npos) return error_response(400, "backslash in path", "path");
    fs::path rel = fs::path(path.substr(1)).lexically_normal();
    for (const auto &part : rel) {
        auto s = part.string();
        if (s == ".." || (!s.empty() && s[0] == '.' && s != "."))
            return error_response(400, "path leaves the page folder or names a hidden file", "path");
    }
    if (path == "/" || rel.empty() || rel == ".") rel = "index.html";
    std::error_code ec;
    fs::path full = fs::canonical(root_ / rel, ec);
    if (ec || !fs::is_regular_file(full, ec)) return error_response(404, "no such file: " + path);
    // A symlink inside the folder must not lead out of it.
    auto r = root_.string(), f = full.string();
    if (f.size() <= r.size() || f.compare(0, r.size(), r) != 0 || f[r.size()] != '/')
        return error_response(400, "path leaves the page folder", "path");
    std::ifstream in(full, std::ios::binary);
    std::ostringstream body;
    body << in.rdbuf();
    if (!in && !in.eof()) return error_response(500, "cannot read " + path);
    return Response{200, body.str(), content_type_for(full), ""};
}

}  // namespace mt::viewer
