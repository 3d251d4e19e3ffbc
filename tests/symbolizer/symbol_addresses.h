// symbol_addresses.h — the address of every named symbol of an object file, for the tests that
// put a function's address into a capture.
#ifndef MEMTRACER_TEST_SYMBOL_ADDRESSES_H
#define MEMTRACER_TEST_SYMBOL_ADDRESSES_H

#include <llvm/Object/ObjectFile.h>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

namespace mt::test {

inline std::map<std::string, uint64_t> symbol_addresses(const std::string &path) {
    std::map<std::string, uint64_t> out;
    auto bin = llvm::object::ObjectFile::createObjectFile(path);
    if (!bin) {
        llvm::consumeError(bin.takeError());
        throw std::runtime_error(path + ": not an object file");
    }
    for (const auto &sym : bin->getBinary()->symbols()) {
        auto name = sym.getName();
        auto addr = sym.getAddress();
        if (name && addr) out[name->str()] = *addr;
        if (!name) llvm::consumeError(name.takeError());
        if (!addr) llvm::consumeError(addr.takeError());
    }
    return out;
}

}  // namespace mt::test

#endif
