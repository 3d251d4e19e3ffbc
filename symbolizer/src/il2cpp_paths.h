// il2cpp_paths.h — matching a C++ file path from DWARF with the build machine's path Unity wrote.
//
// il2cpp writes LineNumberMappings.json with the paths of the machine that ran it (a Windows
// editor: "F:\\Game\\Library\\Bee\\artifacts\\iOS\\il2cppOutput\\cpp\\Assembly-CSharp.cpp"; a Mac:
// "/Users/ci/My Game/Library/..."), while the binary's DWARF names the files where Xcode or the
// NDK compiled them (an iOS export's "Il2CppOutputProject/Source/il2cppOutput/..."). A path is
// matched exactly (after '\\' -> '/'), else by file name, the candidate sharing the most trailing
// path components winning.
#ifndef MEMTRACER_SYM_IL2CPP_PATHS_H
#define MEMTRACER_SYM_IL2CPP_PATHS_H

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace mt::sym {

std::string normalize_path(std::string_view p);  // '\\' -> '/'
std::string_view path_basename(std::string_view p);
// The whole of one of Unity's files; throws Error(Symbols) "<path>: cannot open".
std::string read_symbols_file(const std::string &path);
// One of Unity's files read whole and parsed by T::parse(text, path) (Il2CppMetadata, MethodMap,
// LineMap); the parser's errors name the path.
template <class T>
T load_symbols_file(const std::string &path) {
    return T::parse(read_symbols_file(path), path);
}

// Paths added get indices 0, 1, 2...; find() gives the index of the best match or -1.
class PathIndex {
public:
    int add(std::string_view path);  // the existing index when the same path is added again
    int find(std::string_view path) const;
    size_t size() const { return paths_.size(); }
    const std::string &path(int i) const { return paths_[static_cast<size_t>(i)]; }

private:
    std::vector<std::string> paths_;  // normalized
    std::unordered_map<std::string, int> by_path_;
    std::unordered_map<std::string, std::vector<int>> by_basename_;
};

}  // namespace mt::sym

#endif
