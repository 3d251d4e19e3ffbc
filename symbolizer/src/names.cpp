#include "names.h"

#include <llvm/Demangle/Demangle.h>

#include <algorithm>
#include <cctype>

namespace mt::sym {

namespace {

bool is_hex_upper(char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F'); }
bool is_alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Position of the `_m<hash>` marker, npos if none. The marker is the last `_m` followed by at
// least 4 uppercase hex digits (or digits) and then either the end or a `_Suffix`.
size_t hash_marker(std::string_view n) {
    for (size_t pos = n.rfind("_m"); pos != std::string_view::npos && pos > 0; pos = n.rfind("_m", pos - 1)) {
        size_t end = pos + 2;
        while (end < n.size() && is_hex_upper(n[end])) ++end;
        if (end - (pos + 2) >= 4 && (end == n.size() || n[end] == '_')) return pos;
    }
    return std::string_view::npos;
}

// IL2CPP escapes characters that cannot appear in C++ identifiers as U<2 hex digits>.
std::string unescape(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == 'U' && i + 2 < s.size() && is_hex_upper(s[i + 1]) && is_hex_upper(s[i + 2])) {
            int v = std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16);
            if (v == '<' || v == '>' || v == '$' || v == '.' || v == '-' || v == '=' || v == '`' || v == '|') {
                out += static_cast<char>(v);
                i += 2;
                continue;
            }
        }
        out += s[i];
    }
    return out;
}

// The type part: an identifier, then any `_<digits>` groups (generic arity: List_1 = List`1)
// and `__<digits>` groups (`<Start>d__5`). Compiler-generated types (escaped names starting
// with '<') also keep `__<name>` and `_<digits>` as written (`<>c__DisplayClass7_0`). Returns
// its length, 0 if `n` does not start with one.
size_t type_part(std::string_view n, std::string &type) {
    size_t i = 0;
    while (i < n.size() && is_alnum(n[i])) ++i;
    if (i == 0) return 0;
    bool generated = n.substr(0, 3) == "U3C";
    type = unescape(n.substr(0, i));
    for (;;) {
        bool dunder = n.substr(i, 2) == "__";
        size_t j = i + (dunder ? 2 : (i < n.size() && n[i] == '_' ? 1 : 0));
        if (j == i) break;
        size_t k = j;
        while (k < n.size() && is_alnum(n[k])) ++k;
        std::string_view run = n.substr(j, k - j);
        bool digits = !run.empty() && std::all_of(run.begin(), run.end(), is_digit);
        bool more = k < n.size() && n[k] == '_';  // something must follow: the method name
        if (run.empty() || !more) break;
        if (digits) type += dunder ? "__" + std::string(run) : (generated ? "_" : "`") + std::string(run);
        else if (dunder && generated) type += "__" + unescape(run);
        else break;
        i = k;
    }
    return i;
}

std::string_view base_name_of_demangled(std::string_view d) {
    // "ns::Cls::fn(int, char)" -> "fn"; IL2CPP functions are plain identifiers, so anything with
    // templates or operators is not one of them anyway.
    size_t paren = d.find('(');
    if (paren != std::string_view::npos) d = d.substr(0, paren);
    size_t colons = d.rfind("::");
    if (colons != std::string_view::npos) d = d.substr(colons + 2);
    return d;
}

}  // namespace

std::string demangle(std::string_view raw) {
    // Only names that look mangled go to the demangler (it returns a copy of anything else, and
    // most IL2CPP names are plain C names).
    std::string_view body = raw.size() > 1 && raw[0] == '_' && raw[1] == '_' ? raw.substr(1) : raw;
    bool itanium = body.substr(0, 2) == "_Z", rust = body.substr(0, 2) == "_R" || body.substr(0, 3) == "_ZN",
         dlang = body.substr(0, 2) == "_D", msvc = !raw.empty() && raw[0] == '?';
    if (!itanium && !rust && !dlang && !msvc) return "";
    std::string d = llvm::demangle(raw);
    if (d == raw) {
        // Mach-O symbol tables add a '_' in front of every name.
        if (raw.size() > 2 && raw[0] == '_' && raw[1] == '_' && raw[2] == 'Z') {
            d = llvm::demangle(raw.substr(1));
            if (d != raw.substr(1)) return d;
        }
        return "";
    }
    return d;
}

std::string il2cpp_csharp_name(std::string_view name) {
    if (name.find('(') != std::string_view::npos || name.find("::") != std::string_view::npos)
        name = base_name_of_demangled(name);
    if (!name.empty() && name[0] == '_' && name.size() > 1 && name[1] != '_') name.remove_prefix(1);  // Mach-O '_'
    size_t marker = hash_marker(name);
    if (marker == std::string_view::npos) return "";
    std::string_view body = name.substr(0, marker);
    std::string type;
    size_t t = type_part(body, type);
    if (t == 0 || t >= body.size() || body[t] != '_') return "";
    std::string_view method = body.substr(t + 1);
    if (method.empty()) return "";
    std::string m;
    if (method == "_ctor" || method == "_cctor") m = "." + std::string(method.substr(1));
    else m = unescape(method);
    return type + "." + m;
}

std::string display_name(const std::string &raw, const std::string &demangled, const std::string &csharp) {
    if (!csharp.empty()) return csharp;
    if (!demangled.empty()) return demangled;
    return raw;
}

}  // namespace mt::sym
