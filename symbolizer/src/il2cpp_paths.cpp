#include "il2cpp_paths.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "memtracer/symbolizer/errors.h"

namespace mt::sym {

namespace {

// Number of trailing path components two normalized paths share.
size_t common_suffix_components(std::string_view a, std::string_view b) {
    size_t n = 0;
    while (!a.empty() && !b.empty()) {
        if (path_basename(a) != path_basename(b)) break;
        ++n;
        size_t sa = a.rfind('/'), sb = b.rfind('/');
        if (sa == std::string_view::npos || sb == std::string_view::npos) break;
        a = a.substr(0, sa);
        b = b.substr(0, sb);
    }
    return n;
}

}  // namespace

std::string normalize_path(std::string_view p) {
    std::string s(p);
    std::replace(s.begin(), s.end(), '\\', '/');
    return s;
}

std::string_view path_basename(std::string_view p) {
    size_t slash = p.rfind('/');
    return slash == std::string_view::npos ? p : p.substr(slash + 1);
}

int PathIndex::add(std::string_view path) {
    std::string p = normalize_path(path);
    if (auto it = by_path_.find(p); it != by_path_.end()) return it->second;
    int idx = static_cast<int>(paths_.size());
    by_basename_[std::string(path_basename(p))].push_back(idx);
    by_path_.emplace(p, idx);
    paths_.push_back(std::move(p));
    return idx;
}

int PathIndex::find(std::string_view path) const {
    std::string p = normalize_path(path);
    if (auto it = by_path_.find(p); it != by_path_.end()) return it->second;
    auto it = by_basename_.find(std::string(path_basename(p)));
    if (it == by_basename_.end()) return -1;
    int best = -1;
    size_t best_len = 0;
    for (int idx : it->second) {
        size_t n = common_suffix_components(p, paths_[static_cast<size_t>(idx)]);
        if (n > best_len) {
            best = idx;
            best_len = n;
        }
    }
    return best;
}

std::string read_symbols_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw symbols_error(path + ": cannot open");
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace mt::sym
