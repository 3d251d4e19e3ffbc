// store_test_util.h — a temporary folder for the store tests' database files.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

namespace mt::test {

struct StoreDir {
    std::filesystem::path dir;
    StoreDir() {
        std::string t = (std::filesystem::temp_directory_path() / "mt-store-XXXXXX").string();
        dir = mkdtemp(t.data());
    }
    ~StoreDir() {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
    }
    std::string file(const std::string &name) const { return (dir / name).string(); }
};

}  // namespace mt::test
