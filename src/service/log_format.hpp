#pragma once
// The daemon's log lines (logging.format, --log-format): "text" is
// "2026-12-01T22:00:00.123 info <message>" in local time, for people; "json" is one object per
// line, {"ts":"2026-12-01T22:00:00.123Z","level":"info","msg":"<message>"}, in UTC with the
// message JSON-escaped (quotes, backslashes, control characters), for log shippers.

#include <spdlog/formatter.h>

#include <memory>
#include <string>
#include <string_view>

namespace cuzk::service {

// format: "text" or "json" (service::check_config has refused anything else); the formatter for
// spdlog::logger::set_formatter.
std::unique_ptr<spdlog::formatter> log_formatter(std::string_view format);

// `text` as the inside of a JSON string (RFC 8259 §7).
std::string json_escape(std::string_view text);

}  // namespace cuzk::service
