#include "tree.h"

#include "../remove_at_exit.h"

#include <stdlib.h>
#include <sys/stat.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace mt::test {

std::string read_file(const fs::path &p) {
    std::ifstream in(p, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + p.string());
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void write_file(const fs::path &p, const std::string &bytes) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out << bytes;
    if (!out) throw std::runtime_error("cannot write " + p.string());
}

Tree snapshot(const fs::path &root) {
    Tree t;
    for (const auto &e : fs::recursive_directory_iterator(root)) {
        struct stat st;
        if (lstat(e.path().c_str(), &st) != 0) throw std::runtime_error("cannot stat " + e.path().string());
        FileState s;
        s.mode = st.st_mode & 07777;
        if (e.is_regular_file()) s.bytes = read_file(e.path());
        t[fs::relative(e.path(), root).string() + (e.is_directory() ? "/" : "")] = s;
    }
    return t;
}

std::string first_difference(const Tree &a, const Tree &b) {
    for (const auto &[path, s] : a) {
        auto it = b.find(path);
        if (it == b.end()) return path + " disappeared";
        if (it->second.bytes != s.bytes) return path + " changed content";
        if (it->second.mode != s.mode) return path + " changed mode";
    }
    for (const auto &[path, s] : b)
        if (!a.count(path)) return path + " appeared";
    return "";
}

fs::path make_temp_dir(const std::string &tag) {
    std::string tmpl = (fs::temp_directory_path() / ("mt-" + tag + "-XXXXXX")).string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed for " + tmpl);
    remove_at_exit(tmpl);
    return tmpl;
}

}  // namespace mt::test
