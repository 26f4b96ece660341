// check_json against RFC 8259 cases (each offset follows from the text), the duplicate-key and
// escaped-key rules, and the depth bound.
#include "core/json_check.hpp"

#include <gtest/gtest.h>

#include <string>

namespace cuzk {
namespace {

std::string check_error(std::string_view text) {
  const auto r = check_json(text, "t");
  return r ? std::string("ok") : r.error().message;
}

TEST(JsonCheck, AcceptsJson) {
  for (const char* ok : {"{}", "[]", " 0 ", "-0.5e+3", "1E9", "\"a\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00\"", "true",
                         "null", "[false,{\"a\":[1,{\"b\":{}}]}]", "{\"a\":1,\"b\":{\"a\":2}}"}) {
    EXPECT_EQ(check_error(ok), "ok") << ok;
  }
}

TEST(JsonCheck, NamesTheOffsetOfEachSyntaxError) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "t: not valid JSON at byte 0: expected a value, the text ends"},
      {"[1,]", "t: not valid JSON at byte 3: expected a value, got ']'"},
      {"[1 2]", "t: not valid JSON at byte 3: expected ',' or ']' after an array element, got '2'"},
      {"{\"a\" 1}", "t: not valid JSON at byte 5: expected ':' after a key, got '1'"},
      {"{\"a\":1,}", "t: not valid JSON at byte 7: expected a key string, got '}'"},
      {"{1:2}", "t: not valid JSON at byte 1: expected a key string, got '1'"},
      {"[01]", "t: not valid JSON at byte 1: bad number: leading zero"},
      {"[1.]", "t: not valid JSON at byte 3: bad number: no digit after '.'"},
      {"[-]", "t: not valid JSON at byte 1: bad number: no digit"},
      {"[1e]", "t: not valid JSON at byte 3: bad number: no digit in the exponent"},
      {"[tru]", "t: not valid JSON at byte 1: expected a value, got 't'"},
      {"\"a\tb\"", "t: not valid JSON at byte 2: control character byte 0x09 in a string"},
      {"\"\\x\"", "t: not valid JSON at byte 1: bad escape \\x"},
      {"\"\\udc00\"", "t: not valid JSON at byte 1: lone low surrogate \\u escape"},
      {"\"\\ud800x\"", "t: not valid JSON at byte 1: high surrogate \\u escape not followed by a low one"},
      {"\"abc", "t: not valid JSON at byte 0: string not closed before the text ends"},
      {"{} {}", "t: not valid JSON at byte 3: content after the JSON document ('{')"},
      {"[1]]", "t: not valid JSON at byte 3: content after the JSON document (']')"},
      {"{\"a\":[1,2", "t: not valid JSON at byte 9: expected ',' or ']', the text ends"},
  };
  for (const auto& [text, want] : cases) EXPECT_EQ(check_error(text), want) << text;
}

TEST(JsonCheck, RefusesDuplicateKeysWithTheirPath) {
  EXPECT_EQ(check_error("{\"a\":1,\"a\":2}"), "t: a: duplicate key (at byte 7; first at byte 1)");
  EXPECT_EQ(check_error("{\"x\":[{},{\"p\":{\"q\":1,\"r\":2,\"q\":3}}]}"),
            "t: x[1].p.q: duplicate key (at byte 27; first at byte 15)");
  EXPECT_EQ(check_error("{\"seed\":1,\"\\u0073eed\":2}"), "t: seed: duplicate key (at byte 10; first at byte 1)");
  // Same keys in sibling objects are not duplicates.
  EXPECT_EQ(check_error("[{\"a\":1},{\"a\":1}]"), "ok");
}

TEST(JsonCheck, RewritesEscapedKeysOnly) {
  const auto r = check_json("{\"\\u0073eed\":\"\\u0073\",\"k\\\"\\n\":1,\"\\ud83d\\ude00\":2}", "t");
  ASSERT_TRUE(r);
  ASSERT_TRUE(r->unescaped_keys);
  EXPECT_EQ(*r->unescaped_keys, "{\"seed\":\"\\u0073\",\"k\\\"\\u000a\":1,\"\xf0\x9f\x98\x80\":2}");
  EXPECT_FALSE(check_json("{\"seed\":\"\\u0073\"}", "t")->unescaped_keys);
}

TEST(JsonCheck, BoundsTheDepth) {
  EXPECT_EQ(check_error(std::string(kJsonMaxDepth, '[') + std::string(kJsonMaxDepth, ']')), "ok");
  EXPECT_EQ(check_error(std::string(kJsonMaxDepth + 1, '[')), "t: not valid JSON at byte 1024: nested deeper than 1024");
  EXPECT_NE(check_error(std::string(1'000'000, '[')).find("nested deeper"), std::string::npos);
}

}  // namespace
}  // namespace cuzk
