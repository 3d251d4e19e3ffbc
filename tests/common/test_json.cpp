// The host tools' one JSON writer: escaping and UTF-8 repair, and the two document shapes
// (compact for the viewer's endpoints, pretty for memtracer-dump --json).
#include <memtracer/json.h>

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>

using mt::Json;
using mt::json_quote;
using mt::JsonStyle;

TEST_CASE("common json: strings are escaped as RFC 8259 requires", "[json]") {
    CHECK(json_quote("plain") == "\"plain\"");
    CHECK(json_quote("a\"b\\c") == "\"a\\\"b\\\\c\"");
    CHECK(json_quote("\n\r\t\b\f") == "\"\\n\\r\\t\\b\\f\"");
    CHECK(json_quote(std::string("\x01\x1f\x00", 3)) == "\"\\u0001\\u001f\\u0000\"");
    CHECK(json_quote("/\x7f") == "\"/\x7f\"");  // neither needs escaping
}

TEST_CASE("common json: valid UTF-8 is kept and every invalid byte replaced", "[json]") {
    CHECK(json_quote("Gr\xc3\xb6\xc3\x9f" "e \xe2\x82\xac \xf0\x9f\x98\x80") ==
          "\"Gr\xc3\xb6\xc3\x9f" "e \xe2\x82\xac \xf0\x9f\x98\x80\"");
    CHECK(json_quote("\xff") == "\"\\ufffd\"");
    CHECK(json_quote("\xc0\xaf") == "\"\\ufffd\\ufffd\"");                        // overlong '/'
    CHECK(json_quote("\xed\xa0\x80") == "\"\\ufffd\\ufffd\\ufffd\"");             // surrogate U+D800
    CHECK(json_quote("\xf4\x90\x80\x80") == "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");  // above U+10FFFF
    CHECK(json_quote("ab\xe2\x82") == "\"ab\\ufffd\\ufffd\"");                    // cut-off sequence
}

TEST_CASE("common json: pretty style indents two spaces, one value a line", "[json]") {
    Json j(JsonStyle::pretty);
    j.obj().kv("n", uint64_t{18446744073709551615u}).kv("i", int64_t{-3});
    j.key("a").arr().val(true).null().val(1.5).val(2.0 / 3.0, 3).end_arr();
    j.key("empty").obj().end_obj().kv("s", "x").end_obj();
    CHECK(j.done());
    CHECK(j.take() == "{\n  \"n\": 18446744073709551615,\n  \"i\": -3,\n  \"a\": [\n    true,\n    null,\n"
                      "    1.5,\n    0.667\n  ],\n  \"empty\": {},\n  \"s\": \"x\"\n}");
}

TEST_CASE("common json: compact style has no whitespace at all", "[json]") {
    Json j;
    j.obj().kv("n", 1).arr("list").val("a").val(uint64_t{2}).obj().end_obj().arr().end_arr().end_arr();
    j.obj("o").kv("d", 0.1).kv("inf", std::numeric_limits<double>::infinity()).end_obj();
    j.key("r").raw_value("[1,2]").end_obj();
    CHECK(j.take() == R"({"n":1,"list":["a",2,{},[]],"o":{"d":0.1,"inf":null},"r":[1,2]})");
}

TEST_CASE("common json: every integer type is a number, never a character", "[json]") {
    Json j;
    j.arr().val(uint8_t{65}).val(int8_t{-1}).val(uint16_t{7}).val(uint32_t{4000000000u}).val(-5LL).val(false);
    CHECK(j.end_arr().take() == "[65,-1,7,4000000000,-5,false]");
}

TEST_CASE("common json: doubles shortest, fixed or %.17g", "[json]") {
    Json j;
    j.arr().val(24000000.0).val(24000000.0, 2).val_g17(24000000.0).val_g17(0.1).val_g17(-1.0 / 0.0).end_arr();
    CHECK(j.take() == "[2.4e+07,24000000.00,24000000,0.10000000000000001,null]");
}

TEST_CASE("common json: a caller can write the text out in pieces", "[json]") {
    Json j(JsonStyle::pretty);
    std::string out;
    j.obj().arr("rows");
    for (int i = 0; i < 2; ++i) {
        j.obj().kv("i", i).end_obj();
        out += j.raw();
        j.raw().clear();
    }
    j.end_arr().end_obj();
    out += j.take();
    CHECK(out == "{\n  \"rows\": [\n    {\n      \"i\": 0\n    },\n    {\n      \"i\": 1\n    }\n  ]\n}");
}
