#include "names.h"
#include "split.h"

#include <llvm/Demangle/Demangle.h>

#include <algorithm>
#include <cctype>
#include <vector>

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
            if (std::string_view("<>$.-=`|[],").find(static_cast<char>(v)) != std::string_view::npos) {
                out += static_cast<char>(v);
                i += 2;
                continue;
            }
        }
        out += s[i];
    }
    return out;
}

bool all_digits(std::string_view s) { return !s.empty() && std::all_of(s.begin(), s.end(), is_digit); }

// A type's C++ name as C# shows it: `List_1` -> List`1, `U3CStartU3Ed__5_1` -> <Start>d__5`1,
// `U3CU3Ec__DisplayClass7_0` -> <>c__DisplayClass7_0 (the C# compiler's own `_0`), arrays
// `ObjectU5BU5D` -> Object[].
std::string type_display(std::string_view cpp) {
    std::string arity;
    std::string_view body = cpp;
    // An array's brackets follow the element type's arity: `KeyValuePair_2U5BU5D` is
    // KeyValuePair`2[], `Int32U5BU2CU5D` Int32[,].
    std::string brackets;
    while (body.ends_with("U5D")) {
        size_t open = body.rfind("U5B");
        if (open == std::string_view::npos || open == 0) break;
        std::string_view inside = body.substr(open + 3, body.size() - open - 6);
        if (!inside.empty() && unescape(inside).find_first_not_of(",*") != std::string::npos) break;
        brackets = "[" + unescape(inside) + "]" + brackets;
        body = body.substr(0, open);
    }
    // The C# compiler's names hold no single '_' except DisplayClass<m>_<n>; a trailing `_<digits>`
    // after the name is the generic arity.
    for (;;) {
        size_t us = body.rfind('_');
        if (us == std::string_view::npos || us == 0 || body[us - 1] == '_' || !all_digits(body.substr(us + 1))) break;
        std::string_view head = body.substr(0, us);
        size_t dc = head.rfind("__DisplayClass");
        if (dc != std::string_view::npos && all_digits(head.substr(dc + 14))) break;  // <>c__DisplayClass7_0
        arity = "`" + std::string(body.substr(us + 1)) + arity;
        body = head;
    }
    return unescape(body) + arity + brackets;
}

// The raw type part of a function name: an identifier (leading '_' allowed: `_SkipUntil`,
// `__BinaryParser`), then `_<digits>` (arity), `__<digits>` (`<Start>d__5`) and, for the C#
// compiler's escaped names (`U3C`...), `__<name>` groups (`<>c__DisplayClass7_0`). Something
// must follow it. Returns its length, 0 if `n` does not start with one.
size_t type_end(std::string_view n) {
    size_t i = 0;
    while (i < n.size() && n[i] == '_') ++i;
    size_t start = i;
    while (i < n.size() && is_alnum(n[i])) ++i;
    if (i == start) return 0;
    bool generated = n.substr(start, 3) == "U3C";
    // Inside <...> of a compiler-generated name '_' is part of it (`<get_stylesheets>d__23`).
    auto open_brackets = [&](size_t end) {
        int d = 0;
        for (size_t p = start; p + 3 <= end; ++p) d += n.substr(p, 3) == "U3C" ? 1 : n.substr(p, 3) == "U3E" ? -1 : 0;
        return d;
    };
    while (generated && open_brackets(i) > 0 && i < n.size() && n[i] == '_') {
        size_t k = i + 1;
        while (k < n.size() && is_alnum(n[k])) ++k;
        i = k;
    }
    for (;;) {
        bool dunder = n.substr(i, 2) == "__";
        size_t j = i + (dunder ? 2 : (i < n.size() && n[i] == '_' ? 1 : 0));
        if (j == i) break;
        size_t k = j;
        while (k < n.size() && is_alnum(n[k])) ++k;
        std::string_view run = n.substr(j, k - j);
        bool more = k < n.size() && n[k] == '_';  // something must follow: the method name
        if (run.empty() || !more) break;
        if (!all_digits(run) && !(dunder && generated)) break;
        i = k;
    }
    return i;
}

// With the generated sources' type names: the longest `<type>_` prefix that is a known type.
size_t known_type_end(std::string_view body, const GeneratedSources &types) {
    body = body.substr(0, body.find("_Tis"));  // a generic instance's arguments are not the type
    for (size_t us = body.rfind('_'); us != std::string_view::npos && us > 0; us = body.rfind('_', us - 1))
        if (us + 1 < body.size() && types.is_type(body.substr(0, us))) return us;
    return 0;
}

// A generic argument: `AudioSource_t871A...` -> AudioSource, `String_t` -> String; a generic
// class instance with its own arguments when the build's generic instance table is known
// (`KeyValuePair_2_tFC32...` -> KeyValuePair<Object, Int32>), else with its arity (KeyValuePair`2).
std::string generic_argument(std::string_view a, int index, int count, const GeneratedSources *types, int depth = 0) {
    std::string_view full = a;
    if (a.size() > 42 && a.substr(a.size() - 42, 2) == "_t" &&
        std::all_of(a.end() - 40, a.end(), is_hex_upper))
        a.remove_suffix(42);
    else if (a.ends_with("_t"))
        a.remove_suffix(2);
    if (a == "RuntimeObject") return "Object";
    if (a == "Il2CppFullySharedGenericAny") return count == 1 ? "T" : "T" + std::to_string(index + 1);
    std::string shown = type_display(a);
    const std::vector<std::string> *args = types && depth < 8 ? types->generics().arguments(full) : nullptr;
    size_t tick = shown.rfind('`');
    if (!args || tick == std::string::npos || shown.find('[') != std::string::npos ||
        shown.substr(tick + 1) != std::to_string(args->size()))
        return shown;
    shown.resize(tick);
    for (size_t i = 0; i < args->size(); ++i)
        shown += (i ? ", " : "<") + generic_argument((*args)[i], static_cast<int>(i), static_cast<int>(args->size()), types, depth + 1);
    return shown + ">";
}

// `System_Collections_Generic_IEnumeratorU3CSystem_ObjectU3E_get_Current` ->
// System.Collections.Generic.IEnumerator<System.Object>.get_Current; "" if `m` does not start
// with an interface name (I + capital), optionally after namespace components.
std::string explicit_interface(std::string_view m) {
    std::string prefix;
    size_t i = 0;
    while (i < m.size()) {
        size_t k = i;
        while (k < m.size() && is_alnum(m[k])) ++k;
        if (k == i || !std::isupper(static_cast<unsigned char>(m[i]))) return "";
        // Generic arguments of the interface hold '_' for '.': read up to the matching U3E.
        auto depth = [&](size_t end) {
            std::string_view c = m.substr(i, end - i);
            int d = 0;
            for (size_t p = 0; p + 3 <= c.size(); ++p) d += c.substr(p, 3) == "U3C" ? 1 : c.substr(p, 3) == "U3E" ? -1 : 0;
            return d;
        };
        while (depth(k) > 0 && k < m.size() && m[k] == '_') {
            ++k;
            while (k < m.size() && is_alnum(m[k])) ++k;
        }
        if (k >= m.size() || m[k] != '_' || k + 1 >= m.size()) return "";
        std::string comp = unescape(m.substr(i, k - i));
        if (comp.size() > 1 && comp[0] == 'I' && std::isupper(static_cast<unsigned char>(comp[1]))) {
            if (size_t lt = comp.find('<'); lt != std::string::npos)
                std::replace(comp.begin() + static_cast<std::ptrdiff_t>(lt), comp.end(), '_', '.');
            return prefix + comp + "." + unescape(m.substr(k + 1));
        }
        prefix += comp + ".";
        i = k + 1;
    }
    return "";
}

std::string method_display(std::string_view m, const GeneratedSources *types = nullptr) {
    if (m == "_ctor" || m == "_cctor") return "." + std::string(m.substr(1));
    std::vector<std::string_view> args;
    size_t tis = m.find("_Tis");
    std::string_view name = m.substr(0, tis);
    for (size_t p = tis; p != std::string_view::npos;) {
        size_t next = m.find("_Tis", p + 4);
        args.push_back(m.substr(p + 4, next == std::string_view::npos ? std::string_view::npos : next - p - 4));
        p = next;
    }
    std::string out = explicit_interface(name);
    if (out.empty()) out = unescape(name);
    // Lambdas and iterators of constructors: <.cctor>b__5_0, written `U3C_cctorU3E`.
    for (const char *ctor : {"<_ctor>", "<_cctor>"})
        for (size_t at = out.find(ctor); at != std::string::npos; at = out.find(ctor, at)) out[at + 1] = '.';
    if (!args.empty()) {
        out += '<';
        for (size_t a = 0; a < args.size(); ++a)
            out += (a ? ", " : "") + generic_argument(args[a], static_cast<int>(a), static_cast<int>(args.size()), types);
        out += '>';
    }
    return out;
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
    // LLVM 19's D demangler reads its input with strlen although it takes a string_view, so the
    // demangler only ever sees a NUL-terminated copy: a view into a symbol table or a caller's
    // buffer need not end in NUL (the names fuzzer found a heap over-read with "_D..." input).
    const std::string terminated(raw);
    std::string d = llvm::demangle(terminated);
    if (d == raw) {
        // Mach-O symbol tables add a '_' in front of every name.
        if (raw.size() > 2 && raw[0] == '_' && raw[1] == '_' && raw[2] == 'Z') {
            d = llvm::demangle(terminated.c_str() + 1);
            if (d != raw.substr(1)) return d;
        }
        return "";
    }
    return d;
}

std::string plain_function_name(std::string_view raw) {
    if (raw.find('(') != std::string_view::npos || raw.find("::") != std::string_view::npos)
        return std::string(base_name_of_demangled(raw));
    std::string d = demangle(raw);
    return d.empty() ? std::string(raw) : std::string(base_name_of_demangled(d));
}

std::string_view strip_copy_suffix(std::string_view name) {
    for (std::string_view suffix : {"_inline", "_AdjustorThunk"})
        if (name.size() > suffix.size() && name.ends_with(suffix)) return name.substr(0, name.size() - suffix.size());
    return name;
}

std::string il2cpp_csharp_name(std::string_view name, const GeneratedSources *types) {
    if (name.find('(') != std::string_view::npos || name.find("::") != std::string_view::npos)
        name = base_name_of_demangled(name);
    // No Mach-O '_' to strip: LLVM's symbolizer and atos hand names over without it, and a leading
    // '_' belongs to the C# type (`_SkipUntil__ctor_m...`).
    size_t marker = hash_marker(name);
    if (marker == std::string_view::npos) return "";
    std::string_view body = name.substr(0, marker);
    size_t t = types ? known_type_end(body, *types) : 0;
    if (t == 0) t = type_end(body);
    if (t == 0 || t >= body.size() || body[t] != '_') return "";
    std::string_view method = body.substr(t + 1);
    if (method.empty()) return "";
    return type_display(body.substr(0, t)) + "." + method_display(method, types);
}

std::string il2cpp_parameter_types(std::string_view cpp, const GeneratedSources *types) {
    std::string out;
    for (const std::string &p : il2cpp_parameter_list(cpp, types)) out += (out.empty() ? "" : ", ") + p;
    return "(" + out + ")";
}

std::vector<std::string> il2cpp_parameter_list(std::string_view cpp, const GeneratedSources *types) {
    static const std::pair<std::string_view, std::string_view> kBuiltin[] = {
        {"bool", "Boolean"}, {"int8_t", "SByte"}, {"uint8_t", "Byte"}, {"int16_t", "Int16"}, {"uint16_t", "UInt16"},
        {"Il2CppChar", "Char"}, {"int32_t", "Int32"}, {"uint32_t", "UInt32"}, {"int64_t", "Int64"}, {"uint64_t", "UInt64"},
        {"float", "Single"}, {"double", "Double"}, {"intptr_t", "IntPtr"}, {"uintptr_t", "UIntPtr"},
        {"RuntimeObject", "Object"}, {"String_t", "String"}, {"RuntimeArray", "Array"}, {"Type_t", "Type"},
        {"Il2CppFullySharedGenericAny", "T"}};
    std::vector<std::string> out;
    while (!cpp.empty()) {
        std::string_view p = take_until(cpp, ',');
        while (!p.empty() && p.front() == ' ') p.remove_prefix(1);
        while (!p.empty() && p.back() == ' ') p.remove_suffix(1);
        size_t sp = p.rfind(' ');
        if (sp == std::string_view::npos) continue;
        std::string_view name = p.substr(sp + 1), type = p.substr(0, sp);
        // Full generic sharing returns a shared value through a pointer after the parameters.
        if (name == "__this" || name == "method" || name == "il2cppRetVal" || type.find("RuntimeMethod") != std::string_view::npos)
            continue;
        if (type.starts_with("const ")) type.remove_prefix(6);
        int stars = 0;
        while (!type.empty() && (type.back() == '*' || type.back() == ' ')) stars += type.back() == '*', type.remove_suffix(1);
        // Classes are passed as pointers and structs by value, so a pointer to a primitive and a
        // second pointer to anything else is a `ref` (the name does not say whether a `X_t<hash>*`
        // is a class or a ref struct: read as a class).
        bool value = false;
        std::string shown;
        for (auto [c, cs] : kBuiltin)
            if (type == c) shown = cs, value = !(c == "RuntimeObject" || c == "String_t" || c == "RuntimeArray" || c == "Type_t");
        if (shown.empty()) shown = generic_argument(type, 0, 1, types);
        if (!value && stars > 0) --stars;
        out.push_back(std::string(stars > 0 ? "ref " : "") + shown);
    }
    return out;
}

std::string il2cpp_type_method(std::string_view name) {
    size_t marker = hash_marker(name);
    if (marker == std::string_view::npos) return "";
    std::string_view body = name.substr(0, marker);
    return std::string(body.substr(0, body.find("_Tis")));
}

std::string il2cpp_generic_arguments(std::string_view name, const GeneratedSources *types) {
    size_t marker = hash_marker(name);
    if (marker == std::string_view::npos) return "";
    std::string_view body = name.substr(0, marker);
    size_t tis = body.find("_Tis");
    if (tis == std::string_view::npos) return "";
    std::string full = method_display(body.substr(tis), types);  // "<A, B>" after an empty method name
    size_t lt = full.find('<');
    return lt == std::string::npos ? "" : full.substr(lt);
}

std::string display_name(const std::string &raw, const std::string &demangled, const std::string &csharp) {
    if (!csharp.empty()) return csharp;
    if (!demangled.empty()) return demangled;
    return raw;
}

}  // namespace mt::sym
