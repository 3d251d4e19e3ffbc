// Generic class instances' arguments from Il2CppTypeDefinitions.c and
// Il2CppGenericInstDefinitions.c, or linked through the referenced methods of each instance
// (see il2cpp_generic_types.h).
#include "il2cpp_generic_types.h"

#include <charconv>
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

// The identifier at the start of `s` (after blanks and '&').
std::string_view leading_ident(std::string_view s) {
    size_t b = s.find_first_not_of(" \t&");
    if (b == std::string_view::npos) return {};
    size_t e = b;
    while (e < s.size() && is_ident(s[e])) ++e;
    return s.substr(b, e - b);
}

// "11870, 166, -1 }," (a g_Il2CppMethodSpecTable row after its "{ ") -> 166, the classInst column.
bool spec_row(std::string_view line, int32_t &class_inst) {
    int32_t v[3];
    const char *p = line.data(), *end = line.data() + line.size();
    for (int i = 0; i < 3; ++i) {
        auto r = std::from_chars(p, end, v[i]);
        if (r.ec != std::errc()) return false;
        p = r.ptr;
        if (i < 2) {
            if (end - p < 2 || p[0] != ',' || p[1] != ' ') return false;
            p += 2;
        }
    }
    class_inst = v[1];
    return true;
}

// A generated function's name without the suffixes of its copies: `_gshared` (the shared code of
// the instance's own method, whose name keeps the method's hash), `_inline`, `_AdjustorThunk`.
std::string_view method_of_function(std::string_view f) {
    for (std::string_view suffix : {"_AdjustorThunk", "_inline", "_gshared"})
        if (f.ends_with(suffix)) f.remove_suffix(suffix.size());
    return f;
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
        std::string name(rest.substr(0, name_end));
        linked_.erase(name);
        defined_.insert(name);
        class_inst_.insert_or_assign(std::move(name), std::string(rest.substr(b, e - b)));
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
    // "const Il2CppGenericInst* const g_Il2CppGenericInstTable[2287] = \n{\n\t&GenInst_X,\n...};"
    size_t table = text.rfind("g_Il2CppGenericInstTable[");  // the definition, after the extern
    if (table == std::string_view::npos) return;
    size_t open = text.find('{', table), close = text.find("};", table);
    if (open == std::string_view::npos || close == std::string_view::npos || close < open) return;
    inst_table_.clear();
    each_line(text.substr(open, close - open), "\t&", [&](std::string_view rest) {
        inst_table_.emplace_back(leading_ident(rest));
    });
}

void GenericInstances::add_method_specs(std::string_view text) {
    size_t table = text.rfind("g_Il2CppMethodSpecTable[");  // the definition, after the extern
    if (table == std::string_view::npos) return;
    spec_class_inst_.clear();
    each_line(text.substr(table), "{ ", [&](std::string_view rest) {
        int32_t class_inst = -1;
        if (spec_row(rest, class_inst)) spec_class_inst_.push_back(class_inst);
    });
}

void GenericInstances::add_metadata_usages(std::string_view text) {
    // "RuntimeMethod* Name_RuntimeMethod_var = (RuntimeMethod*)(uintptr_t)3221227699;"
    constexpr std::string_view kVar = "_RuntimeMethod_var = (RuntimeMethod*)(uintptr_t)";
    each_line(text, "RuntimeMethod* ", [&](std::string_view rest) {
        size_t v = rest.find(kVar);
        if (v == std::string_view::npos) return;
        uint32_t token = 0;
        const char *p = rest.data() + v + kVar.size();
        if (std::from_chars(p, rest.data() + rest.size(), token).ec != std::errc()) return;
        constexpr uint32_t kMethodRef = 6;  // kIl2CppMetadataUsageMethodRef: an index into the method specs
        if ((token >> 29) != kMethodRef) return;
        method_specs_.insert_or_assign(std::string(rest.substr(0, v)), (token & 0x1FFFFFFEu) >> 1);
    });
}

void GenericInstances::add_instance_method(std::string_view function, std::string_view parameters) {
    // "KeyValuePair_2_tFC32...* __this, ..." -> KeyValuePair_2_tFC32...
    std::string_view self = leading_ident(parameters);
    if (self.empty() || self == "RuntimeObject" || !parameters.substr(self.size()).starts_with("* __this")) return;
    auto spec = method_specs_.find(std::string(method_of_function(function)));
    if (spec == method_specs_.end() || spec->second >= spec_class_inst_.size()) return;
    int32_t ci = spec_class_inst_[spec->second];
    if (ci < 0 || static_cast<size_t>(ci) >= inst_table_.size()) return;
    std::string type(self);
    if (defined_.count(type) || ambiguous_.count(type)) return;
    const std::string &inst = inst_table_[static_cast<size_t>(ci)];
    auto [it, fresh] = linked_.try_emplace(type, inst);
    if (fresh) {
        class_inst_.insert_or_assign(type, inst);
    } else if (it->second != inst) {  // two methods of one type, two argument lists: neither is known
        linked_.erase(it);
        class_inst_.erase(type);
        ambiguous_.insert(std::move(type));
    }
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
    if (!fs::is_regular_file(insts, ec)) return g;
    if (fs::is_regular_file(types, ec)) g.add_type_definitions(read_symbols_file(types.string()));
    g.add_generic_insts(read_symbols_file(insts.string()));
    fs::path specs = fs::path(dir) / "Il2CppGenericMethodDefinitions.c", usages = fs::path(dir) / "Il2CppMetadataUsage.c";
    if (fs::is_regular_file(specs, ec) && fs::is_regular_file(usages, ec)) {
        g.add_method_specs(read_symbols_file(specs.string()));
        g.add_metadata_usages(read_symbols_file(usages.string()));
    }
    return g;
}

}  // namespace mt::sym
