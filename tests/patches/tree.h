// tree.h — folder snapshots for the patch tests: every file's bytes and mode, so "byte for byte
// identical" and "nothing changed" are exact comparisons.
#pragma once

#include <filesystem>
#include <map>
#include <string>

namespace mt::test {

struct FileState {
    std::string bytes;
    unsigned mode = 0;
    bool operator==(const FileState &) const = default;
};
using Tree = std::map<std::string, FileState>;  // relative path -> state

Tree snapshot(const std::filesystem::path &root);
std::string first_difference(const Tree &a, const Tree &b);  // "" when identical
std::filesystem::path make_temp_dir(const std::string &tag);
std::string read_file(const std::filesystem::path &p);
void write_file(const std::filesystem::path &p, const std::string &bytes);

}  // namespace mt::test
