#include "json_mini.h"

#include <cctype>
#include <cstdlib>

namespace mt::test {

namespace {

struct Parser {
    const std::string &s;
    size_t i = 0;

    [[noreturn]] void fail(const std::string &what) {
        throw std::runtime_error("JSON: " + what + " at byte " + std::to_string(i));
    }
    void ws() {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    }
    bool eat(char c) {
        ws();
        if (i < s.size() && s[i] == c) {
            ++i;
            return true;
        }
        return false;
    }
    void expect(char c) {
        if (!eat(c)) fail(std::string("expected '") + c + "'");
    }
    std::string string() {
        expect('"');
        std::string out;
        while (i < s.size() && s[i] != '"') {
            char c = s[i++];
            if (c != '\\') {
                out += c;
                continue;
            }
            if (i >= s.size()) fail("unterminated escape");
            char e = s[i++];
            switch (e) {
                case 'n': out += '\n'; break;
                case 't': out += '\t'; break;
                case 'r': out += '\r'; break;
                case 'b': out += '\b'; break;
                case 'f': out += '\f'; break;
                case 'u': {
                    if (i + 4 > s.size()) fail("short \\u escape");
                    unsigned v = static_cast<unsigned>(std::strtoul(s.substr(i, 4).c_str(), nullptr, 16));
                    i += 4;
                    if (v >= 0x80) fail("non-ASCII \\u escape");
                    out += static_cast<char>(v);
                    break;
                }
                default: out += e;
            }
        }
        expect('"');
        return out;
    }
    Json value() {
        ws();
        Json j;
        if (i >= s.size()) fail("unexpected end");
        char c = s[i];
        if (c == '{') {
            ++i;
            j.kind = Json::Object;
            if (eat('}')) return j;
            do {
                std::string key = string();
                expect(':');
                j.fields[key] = value();
            } while (eat(','));
            expect('}');
        } else if (c == '[') {
            ++i;
            j.kind = Json::Array;
            if (eat(']')) return j;
            do j.items.push_back(value());
            while (eat(','));
            expect(']');
        } else if (c == '"') {
            j.kind = Json::String;
            j.text = string();
        } else if (s.compare(i, 4, "true") == 0 || s.compare(i, 5, "false") == 0) {
            j.kind = Json::Bool;
            j.boolean = s[i] == 't';
            i += j.boolean ? 4 : 5;
        } else if (s.compare(i, 4, "null") == 0) {
            i += 4;
        } else if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
            size_t start = i++;
            while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '.' || s[i] == 'e' ||
                                    s[i] == 'E' || s[i] == '+' || s[i] == '-'))
                ++i;
            j.kind = Json::Number;
            j.text = s.substr(start, i - start);
        } else {
            fail(std::string("unexpected '") + c + "'");
        }
        return j;
    }
};

}  // namespace

const Json &Json::at(const std::string &key) const {
    auto it = fields.find(key);
    if (it == fields.end()) throw std::runtime_error("JSON: no field '" + key + "'");
    return it->second;
}

uint64_t Json::u64() const {
    if (kind != Number && kind != String) throw std::runtime_error("JSON: not a number: " + text);
    return std::strtoull(text.c_str(), nullptr, 0);  // "0x…" addresses are strings
}

Json parse_json(const std::string &text) {
    Parser p{text};
    Json j = p.value();
    p.ws();
    if (p.i != text.size()) p.fail("trailing data");
    return j;
}

}  // namespace mt::test
