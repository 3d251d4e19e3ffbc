// Generic class instances' arguments from Il2CppTypeDefinitions.c and
// Il2CppGenericInstDefinitions.c (see il2cpp_generic_types.h).
#include "il2cpp_generic_types.h"

#include <filesystem>

#include "il2cpp_paths.h"

namespace mt::sym {

namespace {

bool is_ident(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Each line of `text` starting with `prefix`, the rest of the line handed to `fn`.
template <typename Fn>
void each_line(std::string_view text, std::string_view prefix, Fn fn) {
    for (size_t at = 0; at < text.size();) {
        size_t end = text.find('\n', at);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(at, end - at);
        if (line.starts_with(prefix)) fn(line.substr(prefix.size()));
        at = end + 1;
    }
}

// `Int32_t680F..._0_0_0` -> `Int32_t680F...`: the Il2CppType's three trailing numbers dropped.
// "" for a generic parameter (`..._gp_0_0_0_0`) or anything else.
std::string type_of_il2cpp_type(std::string_view t) {
    for (int k = 0; k < 3; ++k) {
        size_t us = t.rfind('_');
        if (us == std::string_view::npos || us + 1 >= t.size()) return "";
        for (char c : t.substr(us + 1))
            if (c < '0' || c > '9') return "";
        t = t.substr(0, us);
    }
    size_t us = t.rfind('_');
    if (t.find("_gp_") != std::string_view::npos && us != std::string_view::npos && t.substr(0, us).ends_with("_gp")) return "";
    return std::string(t);
}

}  // namespace

void GenericInstances::add_type_definitions(std::string_view text) {
    // "Il2CppGenericClass X_GenericClass = { &Def_0_0_0, { &GenInst_Y, NULL }, NULL };"
    each_line(text, "Il2CppGenericClass ", [&](std::string_view rest) {
        size_t name_end = rest.find("_GenericClass = {");
        size_t inst = rest.find("{ &GenInst_", name_end);
        if (name_end == std::string_view::npos || inst == std::string_view::npos) return;
        size_t b = inst + 3, e = b;
        while (e < rest.size() && is_ident(rest[e])) ++e;
        class_inst_.emplace(std::string(rest.substr(0, name_end)), std::string(rest.substr(b, e - b)));
    });
}

void GenericInstances::add_generic_insts(std::string_view text) {
    // "static const Il2CppType* GenInst_Y_Types[] = { (&A_0_0_0), (&B_0_0_0) };"
    each_line(text, "static const Il2CppType* GenInst_", [&](std::string_view rest) {
        size_t name_end = rest.find("_Types[] = {");
        if (name_end == std::string_view::npos) return;
        std::vector<std::string> args;
        for (size_t at = rest.find("(&", name_end); at != std::string_view::npos; at = rest.find("(&", at + 2)) {
            size_t e = at + 2;
            while (e < rest.size() && is_ident(rest[e])) ++e;
            std::string t = type_of_il2cpp_type(rest.substr(at + 2, e - at - 2));
            if (t.empty()) return;  // a generic parameter: this instance stays unresolved
            args.push_back(std::move(t));
        }
        if (!args.empty()) inst_args_.emplace("GenInst_" + std::string(rest.substr(0, name_end)), std::move(args));
    });
}

const std::vector<std::string> *GenericInstances::arguments(std::string_view cpp_type) const {
    auto c = class_inst_.find(std::string(cpp_type));
    if (c == class_inst_.end()) return nullptr;
    auto a = inst_args_.find(c->second);
    return a == inst_args_.end() ? nullptr : &a->second;
}

GenericInstances GenericInstances::scan_dir(const std::string &dir) {
    namespace fs = std::filesystem;
    GenericInstances g;
    std::error_code ec;
    fs::path types = fs::path(dir) / "Il2CppTypeDefinitions.c", insts = fs::path(dir) / "Il2CppGenericInstDefinitions.c";
    if (!fs::is_regular_file(types, ec) || !fs::is_regular_file(insts, ec)) return g;
    g.add_type_definitions(read_symbols_file(types.string()));
    g.add_generic_insts(read_symbols_file(insts.string()));
    return g;
}

}  // namespace mt::sym
