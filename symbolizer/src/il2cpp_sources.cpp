// Generated-source scanning (see il2cpp_sources.h).
#include "il2cpp_sources.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "memtracer/symbolizer/errors.h"
#include "il2cpp_paths.h"
#include "split.h"

namespace mt::sym {

namespace {

bool is_ident(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
bool is_hex_upper(char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F'); }

std::string_view trim_right(std::string_view s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

// "IL2CPP_EXTERN_C IL2CPP_METHOD_ATTR void Foo_Bar_m12 (Foo_t* __this, ...) " -> "Foo_Bar_m12".
std::string_view defined_name(std::string_view signature) {
    size_t paren = signature.find('(');
    if (paren == std::string_view::npos) return {};
    size_t end = paren;
    while (end > 0 && signature[end - 1] == ' ') --end;
    size_t begin = end;
    while (begin > 0 && is_ident(signature[begin - 1])) --begin;
    return signature.substr(begin, end - begin);
}

int64_t method_definition_index(std::string_view line) {
    constexpr std::string_view kPrefix = "// Method Definition Index: ";
    line = trim_right(line);
    if (!line.starts_with(kPrefix)) return -1;
    line.remove_prefix(kPrefix.size());
    int64_t v = -1;
    auto r = std::from_chars(line.data(), line.data() + line.size(), v);
    return r.ec == std::errc() && r.ptr == line.data() + line.size() ? v : -1;
}

// "\t\t//<source_info:C:/Game/Assets/Spawner.cs:21>" -> {"C:/Game/Assets/Spawner.cs", 21}.
std::optional<std::pair<std::string_view, uint32_t>> source_info(std::string_view line) {
    constexpr std::string_view kTag = "//<source_info:";
    size_t at = line.find(kTag);
    if (at == std::string_view::npos || line.back() != '>') return std::nullopt;
    std::string_view body = line.substr(at + kTag.size(), line.size() - at - kTag.size() - 1);
    size_t colon = body.rfind(':');
    if (colon == std::string_view::npos || colon == 0) return std::nullopt;
    uint32_t n = 0;
    auto r = std::from_chars(body.data() + colon + 1, body.data() + body.size(), n);
    if (r.ec != std::errc() || r.ptr != body.data() + body.size()) return std::nullopt;
    return std::pair{body.substr(0, colon), n};
}

// Every "<Name>_t<40 uppercase hex>" not followed by another identifier character.
void collect_types(std::string_view text, std::unordered_set<std::string> &out) {
    for (size_t pos = text.find("_t"); pos != std::string_view::npos; pos = text.find("_t", pos + 2)) {
        size_t h = pos + 2;
        if (h + 40 > text.size()) break;
        size_t k = h;
        while (k < h + 40 && is_hex_upper(text[k])) ++k;
        if (k != h + 40 || (k < text.size() && is_ident(text[k]) && text[k] != '_')) continue;
        size_t b = pos;
        while (b > 0 && is_ident(text[b - 1])) --b;
        // A generic method instance's name holds its arguments' `_t<hex>` too: not a type.
        std::string_view name = text.substr(b, pos - b);
        if (!name.empty() && name.find("_Tis") == std::string_view::npos) out.emplace(name);
    }
}

}  // namespace

void GeneratedSources::add_file(std::string_view path, std::string_view text) {
    int idx = paths_.add(path);
    if (static_cast<size_t>(idx) >= functions_.size()) {
        functions_.resize(static_cast<size_t>(idx) + 1);
        mappings_.resize(static_cast<size_t>(idx) + 1);
    }
    auto &funcs = functions_[static_cast<size_t>(idx)];
    auto &maps = mappings_[static_cast<size_t>(idx)];
    funcs.clear();
    maps.clear();
    collect_types(text, types_);

    std::string_view prev, prev2;  // the two lines above the current one
    GeneratedFunction open;
    bool inside = false;
    uint32_t line_no = 0;
    while (!text.empty()) {
        std::string_view line = trim_right(take_until(text, '\n'));
        ++line_no;
        if (inside) {
            if (auto si = source_info(line)) {
                auto [it, fresh] = cs_file_ids_.try_emplace(std::string(si->first), static_cast<uint32_t>(cs_files_.size()));
                if (fresh) cs_files_.emplace_back(si->first);
                maps.push_back({line_no, it->second, si->second});
            } else if (line == "}") {
                open.last_line = line_no;
                funcs.push_back(std::move(open));
                inside = false;
            }
        } else if (line == "{" && !prev.empty() && prev[0] != ' ' && prev[0] != '\t' && prev[0] != '#' &&
                   !prev.starts_with("//") && prev.find('(') != std::string_view::npos) {
            std::string_view name = defined_name(prev);
            if (!name.empty()) {
                open = GeneratedFunction{line_no - 1, 0, method_definition_index(prev2), std::string(name), {}};
                // Kept for every function: without Method Definition Index comments the method
                // comes from the binary's code registration, and an overload still needs these.
                size_t lp = prev.find('('), rp = prev.rfind(')');
                if (rp != std::string_view::npos && rp > lp) open.parameters = prev.substr(lp + 1, rp - lp - 1);
                inside = true;
            }
        }
        prev2 = prev;
        prev = line;
    }
    for (uint32_t i = 0; i < funcs.size(); ++i)
        by_name_.try_emplace(funcs[i].name, static_cast<uint32_t>(idx), i);
}

GeneratedSources GeneratedSources::scan_dir(const std::string &dir) {
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->path().extension() == ".cpp" && it->is_regular_file(ec)) files.push_back(it->path());
    if (ec) throw symbols_error(dir + ": cannot list: " + ec.message());
    std::sort(files.begin(), files.end());
    GeneratedSources s;
    for (const fs::path &p : files) {
        s.add_file(p.string(), read_symbols_file(p.string()));
    }
    s.generics_ = GenericInstances::scan_dir(dir);
    // Without Il2CppTypeDefinitions.c, instances are linked to their arguments by the methods of
    // theirs the code references (il2cpp_generic_types.h).
    for (const auto &file : s.functions_)
        for (const GeneratedFunction &f : file) s.generics_.add_instance_method(f.name, f.parameters);
    return s;
}

const GeneratedFunction *GeneratedSources::function_at(std::string_view cpp_file, uint32_t line) const {
    int idx = paths_.find(cpp_file);
    if (idx < 0) return nullptr;
    const auto &funcs = functions_[static_cast<size_t>(idx)];
    auto it = std::upper_bound(funcs.begin(), funcs.end(), line,
                               [](uint32_t l, const GeneratedFunction &f) { return l < f.first_line; });
    if (it == funcs.begin()) return nullptr;
    --it;
    return line <= it->last_line ? &*it : nullptr;
}

const GeneratedFunction *GeneratedSources::function_named(std::string_view native) const {
    auto it = by_name_.find(std::string(native));
    return it == by_name_.end() ? nullptr : &functions_[it->second.first][it->second.second];
}

bool GeneratedSources::has_source_info(std::string_view cpp_file) const {
    int idx = paths_.find(cpp_file);
    return idx >= 0 && !mappings_[static_cast<size_t>(idx)].empty();
}

std::optional<CsLocation> GeneratedSources::cs_location(std::string_view cpp_file, uint32_t line) const {
    int idx = paths_.find(cpp_file);
    if (idx < 0) return std::nullopt;
    const GeneratedFunction *fn = function_at(cpp_file, line);
    if (!fn) return std::nullopt;
    const auto &v = mappings_[static_cast<size_t>(idx)];
    auto it = std::upper_bound(v.begin(), v.end(), line, [](uint32_t l, const Mapping &m) { return l < m.cpp_line; });
    if (it != v.begin() && std::prev(it)->cpp_line >= fn->first_line) {
        --it;
    } else {
        it = std::lower_bound(v.begin(), v.end(), fn->first_line, [](const Mapping &m, uint32_t l) { return m.cpp_line < l; });
        if (it == v.end() || it->cpp_line > fn->last_line) return std::nullopt;
    }
    return CsLocation{cs_files_[it->cs_file], it->cs_line};
}

size_t GeneratedSources::functions() const {
    size_t n = 0;
    for (const auto &f : functions_) n += f.size();
    return n;
}

}  // namespace mt::sym
