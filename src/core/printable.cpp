#include "core/printable.hpp"

#include <fmt/format.h>

namespace cuzk {
namespace {

// The longest prefix of `text` of at most `max_bytes` that does not end inside a UTF-8 sequence.
size_t utf8_cut(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return text.size();
  size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // a continuation byte
  return cut;
}

}  // namespace

std::string printable(std::string_view text, size_t max_bytes) {
  const size_t keep = utf8_cut(text, max_bytes);
  std::string out;
  out.reserve(keep + 16);
  for (const char ch : text.substr(0, keep)) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\\': out += "\\\\"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          out += fmt::format("\\x{:02x}", c);
        } else {
          out += ch;
        }
    }
  }
  if (keep < text.size()) out += fmt::format(" ... ({} bytes)", text.size());
  return out;
}

std::string bounded(std::string text, size_t max_bytes) {
  const size_t keep = utf8_cut(text, max_bytes);
  if (keep == text.size()) return text;
  const size_t size = text.size();
  text.resize(keep);
  text += fmt::format(" ... ({} bytes)", size);
  text.shrink_to_fit();
  return text;
}

}  // namespace cuzk
