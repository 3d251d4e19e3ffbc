// il2cpp_code_registration_walk.h — the walk over a binary's Il2CppCodeGenModule tables shared by
// the ELF and the Mach-O readers (il2cpp_code_registration.h). Internal to the symbolizer.
#ifndef MEMTRACER_SYM_IL2CPP_CODE_REGISTRATION_WALK_H
#define MEMTRACER_SYM_IL2CPP_CODE_REGISTRATION_WALK_H

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "il2cpp_code_registration.h"
#include "names.h"

namespace mt::sym {

// `image` reads the file's memory as the loader leaves it: pointer(addr), u32(addr),
// c_string(addr) (nullopt outside the file's data), ptr_size(), code_address(pointer).
// `modules`: each *_CodeGenModule symbol and its address; `functions`: address -> names.
template <class Image>
void walk_code_gen_modules(const Image &image, const std::vector<std::pair<std::string, uint64_t>> &modules,
                           const std::multimap<uint64_t, std::string> &functions, const Il2CppMetadata &metadata,
                           const std::string &path, CodeRegistration &out) {
    const uint64_t p = image.ptr_size();
    for (const auto &[symbol, addr] : modules) {
        ++out.modules;
        auto fail = [&](const std::string &what) {
            if (out.problem.empty()) out.problem = path + ": " + symbol + ": " + what;
        };
        // moduleName, methodPointerCount (padded to a pointer), methodPointers.
        auto name_ptr = image.pointer(addr);
        auto count = image.u32(addr + p);
        auto table = image.pointer(addr + 2 * p);
        if (!name_ptr || !count || !table) {
            fail("the module lies outside the file's data (a split debug file has none)");
            continue;
        }
        auto module_name = image.c_string(*name_ptr);
        if (!module_name) {
            fail("its moduleName points outside the file's data");
            continue;
        }
        bool matched = false;
        for (uint32_t i = 0; i < *count; ++i) {
            auto fn = image.pointer(*table + i * p);
            if (!fn) {
                fail("its method pointer " + std::to_string(i) + " lies outside the file's data");
                break;
            }
            if (*fn == 0) continue;  // abstract, or no code generated
            ++out.pointers;
            int64_t method = metadata.method_by_token(*module_name, i + 1);
            if (method < 0) continue;
            matched = true;
            std::string spelled = Il2CppMetadata::cpp_escape(metadata.raw_type_name(metadata.declaring_type(method))) + "_" +
                                  Il2CppMetadata::cpp_escape(metadata.raw_method_name(method));
            // Only a symbol spelling the method's Type_Method takes it: under identical code
            // folding the one symbol left at an address may be another method's.
            auto [b, e] = functions.equal_range(image.code_address(*fn));
            for (auto it = b; it != e; ++it)
                if (il2cpp_type_method(it->second) == spelled) out.method_of_symbol.emplace(it->second, method);
        }
        out.modules_matched += matched;
    }
}

}  // namespace mt::sym

#endif
