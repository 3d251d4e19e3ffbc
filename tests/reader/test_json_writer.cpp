// memtracer-dump's JSON writer: escaping and UTF-8 repair, and the document shape it emits.
#include "json_writer.h"

#include <catch2/catch.hpp>

#include <sstream>

using mt::dump::json_quote;
using mt::dump::JsonWriter;

TEST_CASE("reader dump: json_quote escapes what RFC 8259 requires", "[dump][json]") {
    CHECK(json_quote("plain") == "\"plain\"");
    CHECK(json_quote("a\"b\\c") == "\"a\\\"b\\\\c\"");
    CHECK(json_quote("\n\r\t\b\f") == "\"\\n\\r\\t\\b\\f\"");
    CHECK(json_quote(std::string("\x01\x1f\x00", 3)) == "\"\\u0001\\u001f\\u0000\"");
    CHECK(json_quote("/\x7f") == "\"/\x7f\"");  // neither needs escaping
}

TEST_CASE("reader dump: json_quote keeps valid UTF-8 and replaces every invalid byte", "[dump][json]") {
    CHECK(json_quote("Gr\xc3\xb6\xc3\x9f" "e \xe2\x82\xac \xf0\x9f\x98\x80") ==
          "\"Gr\xc3\xb6\xc3\x9f" "e \xe2\x82\xac \xf0\x9f\x98\x80\"");
    CHECK(json_quote("\xff") == "\"\\ufffd\"");
    CHECK(json_quote("\xc0\xaf") == "\"\\ufffd\\ufffd\"");          // overlong '/'
    CHECK(json_quote("\xed\xa0\x80") == "\"\\ufffd\\ufffd\\ufffd\"");  // surrogate U+D800
    CHECK(json_quote("\xf4\x90\x80\x80") == "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");  // above U+10FFFF
    CHECK(json_quote("ab\xe2\x82") == "\"ab\\ufffd\\ufffd\"");      // cut-off sequence
}

TEST_CASE("reader dump: JsonWriter nests objects and arrays with commas in the right places", "[dump][json]") {
    std::ostringstream out;
    {
        JsonWriter j(out);
        j.begin_object().field("n", uint64_t{18446744073709551615u}).field("i", int64_t{-3});
        j.key("a").begin_array().value(true).null().value(1.5).value(2.0 / 3.0, 3).end_array();
        j.key("empty").begin_object().end_object().field("s", "x").end_object();
    }
    CHECK(out.str() == "{\n  \"n\": 18446744073709551615,\n  \"i\": -3,\n  \"a\": [\n    true,\n    null,\n"
                       "    1.5,\n    0.667\n  ],\n  \"empty\": {},\n  \"s\": \"x\"\n}\n");
}
