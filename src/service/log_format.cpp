#include "service/log_format.hpp"

#include <fmt/format.h>
#include <spdlog/pattern_formatter.h>

namespace cuzk::service {
namespace {

// %* in the JSON pattern: the message, escaped.
class EscapedMessage final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&, spdlog::memory_buf_t& dest) override {
    const std::string escaped = json_escape(std::string_view(msg.payload.data(), msg.payload.size()));
    dest.append(escaped.data(), escaped.data() + escaped.size());
  }
  std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<EscapedMessage>(); }
};

}  // namespace

std::string json_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 8);
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          out += fmt::format("\\u{:04x}", c);
        } else {
          out += ch;  // UTF-8 passes through (RFC 8259 allows it unescaped)
        }
    }
  }
  return out;
}

std::unique_ptr<spdlog::formatter> log_formatter(std::string_view format) {
  if (format == "json") {
    auto f = std::make_unique<spdlog::pattern_formatter>(spdlog::pattern_time_type::utc);
    f->add_flag<EscapedMessage>('*');
    f->set_pattern(R"({"ts":"%Y-%m-%dT%H:%M:%S.%eZ","level":"%l","msg":"%*"})");
    return f;
  }
  return std::make_unique<spdlog::pattern_formatter>("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");
}

}  // namespace cuzk::service
