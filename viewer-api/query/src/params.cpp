#include "params.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "memtracer/json.h"

namespace mt::viewer {

namespace {
int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string shown(std::string_view s) {  // a value quoted in an error message, cut short
    std::string out;
    append_json_string(out, s.substr(0, 64));
    if (s.size() > 64) out.insert(out.size() - 1, "...");
    return out;
}
}  // namespace

std::string percent_decode(std::string_view s, bool plus_is_space, const std::string &what) {
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        if (c == '%') {
            int hi = i + 2 < s.size() ? hexval(s[i + 1]) : -1;
            int lo = i + 2 < s.size() ? hexval(s[i + 2]) : -1;
            if (hi < 0 || lo < 0)
                throw ApiError{400, "bad percent escape in " + (what.empty() ? std::string("path") : what), what};
            c = static_cast<char>(hi * 16 + lo);
            i += 2;
        } else if (c == '+' && plus_is_space) {
            c = ' ';
        }
        if (c == '\0') throw ApiError{400, "NUL byte in " + (what.empty() ? std::string("path") : what), what};
        out += c;
    }
    return out;
}

Request parse_target(std::string_view target, std::string method) {
    Request r;
    r.method = std::move(method);
    if (target.empty() || target[0] != '/') throw ApiError{400, "request target must start with '/'", ""};
    auto q = target.find('?');
    r.path = percent_decode(target.substr(0, q), false, "");
    if (q == std::string_view::npos) return r;
    std::string_view rest = target.substr(q + 1);
    auto hash = rest.find('#');
    if (hash != std::string_view::npos) rest = rest.substr(0, hash);
    while (!rest.empty()) {
        auto amp = rest.find('&');
        std::string_view part = rest.substr(0, amp);
        rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
        if (part.empty()) continue;
        auto eq = part.find('=');
        std::string name = percent_decode(part.substr(0, eq), true, "query");
        std::string value = eq == std::string_view::npos ? "" : percent_decode(part.substr(eq + 1), true, name);
        if (name.empty()) throw ApiError{400, "query parameter without a name", "query"};
        r.params.emplace_back(std::move(name), std::move(value));
        if (r.params.size() > 64) throw ApiError{400, "too many query parameters (at most 64)", "query"};
    }
    return r;
}

Params::Params(const Request &req, std::initializer_list<std::string_view> allowed) : req_(req) {
    for (size_t i = 0; i < req.params.size(); ++i) {
        const auto &name = req.params[i].first;
        bool known = false;
        for (auto a : allowed) known = known || a == name;
        if (!known) {
            std::string list;
            for (auto a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
            throw ApiError{400, "unknown parameter " + shown(name) + (list.empty() ? "; this endpoint takes none" : "; this endpoint takes: " + list), name};
        }
        for (size_t j = 0; j < i; ++j)
            if (req.params[j].first == name) throw ApiError{400, "parameter given twice", name};
    }
}

std::optional<std::string_view> Params::get(std::string_view name) const {
    for (const auto &[k, v] : req_.params)
        if (k == name) return std::string_view(v);
    return std::nullopt;
}

int64_t parse_int(std::string_view s, int64_t min, int64_t max, const std::string &what) {
    int64_t v = 0;
    auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size())
        throw ApiError{400, what + " must be an integer, got " + shown(s), what};
    if (v < min || v > max)
        throw ApiError{400, what + " must be between " + std::to_string(min) + " and " + std::to_string(max) +
                                ", got " + std::to_string(v), what};
    return v;
}

std::optional<int64_t> Params::opt_int(std::string_view name, int64_t min, int64_t max) const {
    auto v = get(name);
    if (!v) return std::nullopt;
    return parse_int(*v, min, max, std::string(name));
}

int64_t Params::integer(std::string_view name, int64_t def, int64_t min, int64_t max) const {
    return opt_int(name, min, max).value_or(def);
}

std::optional<double> Params::opt_real(std::string_view name, double min, double max) const {
    auto v = get(name);
    if (!v) return std::nullopt;
    std::string s(*v);
    char *end = nullptr;
    double d = s.empty() ? NAN : std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(d))
        throw ApiError{400, std::string(name) + " must be a number, got " + shown(*v), std::string(name)};
    if (d < min || d > max)
        throw ApiError{400, std::string(name) + " must be between " + std::to_string(min) + " and " + std::to_string(max),
                       std::string(name)};
    return d;
}

std::string_view Params::choice(std::string_view name, std::initializer_list<std::string_view> options,
                                std::string_view def) const {
    auto v = get(name);
    if (!v) return def;
    std::string list;
    for (auto o : options) {
        if (o == *v) return o;
        list += (list.empty() ? "" : ", ") + std::string(o);
    }
    throw ApiError{400, std::string(name) + " must be one of " + list + ", got " + shown(*v), std::string(name)};
}

bool Params::flag(std::string_view name, bool def) const {
    auto v = get(name);
    if (!v) return def;
    if (*v == "1" || *v == "true" || v->empty()) return true;
    if (*v == "0" || *v == "false") return false;
    throw ApiError{400, std::string(name) + " must be 0/1 or true/false, got " + shown(*v), std::string(name)};
}

}  // namespace mt::viewer
