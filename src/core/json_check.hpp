#pragma once
// A strict reading of a JSON text (RFC 8259) before a fast reader takes it, for the inputs
// serde_json wrote (a C1): the things simdjson On-Demand does not do, or does not say where.
//   - Syntax, every byte of the text: an error names its byte offset ("at byte 1234: expected
//     ',' or '}' after an object member"), not the field the reader happened to be at.
//   - One document: anything but whitespace after it is refused (On-Demand stops at the end of
//     the value it was asked for).
//   - Duplicate keys in an object are refused with the key's JSON path (serde_json, which wrote
//     the file, refuses them; a lookup would silently take the first).
//   - Keys are compared as JSON says, after their escapes ("\u0073eed" is "seed"). When any key
//     has an escape, `unescaped_keys` is the same text with every key written without escapes
//     (strings that are values are left as they are), for a reader that compares raw key bytes.
// Strings are checked for JSON's escapes and control characters; UTF-8 validity is left to the
// reader (simdjson checks it). Nesting is held on an explicit stack, at most kMaxDepth deep.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "core/expected.hpp"

namespace cuzk {

struct JsonCheck {
  std::optional<std::string> unescaped_keys;  // set only when some key had an escape
};

inline constexpr size_t kJsonMaxDepth = 1024;

// Errors are kInvalidArgument, "<source>: not valid JSON at byte <n>: <what>" or
// "<source>: <json path>: duplicate key (at byte <n>; first at byte <m>)".
Expected<JsonCheck> check_json(std::string_view text, std::string_view source);

}  // namespace cuzk
