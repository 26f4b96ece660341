// service/log_format.hpp: a JSON log line parses (simdjson, an independent parser) back to the
// message as logged, whatever it holds; the text format keeps the message as it is.

#include "service/log_format.hpp"

#include <gtest/gtest.h>
#include <simdjson.h>
#include <spdlog/logger.h>
#include <spdlog/sinks/ostream_sink.h>

#include <sstream>

namespace cuzk::service {
namespace {

std::string logged(std::string_view format, spdlog::level::level_enum level, const std::string& message) {
  std::ostringstream out;
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(out);
  spdlog::logger log("test", sink);
  log.set_formatter(log_formatter(format));
  log.log(level, message);
  return out.str();
}

TEST(LogFormat, JsonLinesParseBackToTheMessage) {
  const std::string message = "job=j-1 request_id=\"porep-1000-7\" path=C:\\x\nsecond line\t\x01 \xc3\xa9 end";
  const std::string line = logged("json", spdlog::level::warn, message);
  ASSERT_FALSE(line.empty());
  EXPECT_EQ(line.back(), '\n');
  EXPECT_EQ(line.find('\n'), line.size() - 1) << "one line per record";
  simdjson::dom::parser parser;
  simdjson::dom::element e;
  ASSERT_EQ(parser.parse(line).get(e), simdjson::SUCCESS) << line;
  EXPECT_EQ(std::string(std::string_view(e["msg"].get_string())), message);
  EXPECT_EQ(std::string(std::string_view(e["level"].get_string())), "warning");
  const std::string ts(std::string_view(e["ts"].get_string()));
  ASSERT_EQ(ts.size(), 24u) << ts;  // 2026-12-01T22:00:00.123Z
  EXPECT_EQ(ts[10], 'T');
  EXPECT_EQ(ts.back(), 'Z');
}

TEST(LogFormat, EscapesControlCharacters) {
  EXPECT_EQ(json_escape("a\"b\\c\n\r\t\x1f"), "a\\\"b\\\\c\\n\\r\\t\\u001f");
  EXPECT_EQ(json_escape("plain \xc3\xa9"), "plain \xc3\xa9");
}

TEST(LogFormat, TextKeepsTheMessage) {
  const std::string line = logged("text", spdlog::level::info, "listening on \"x\"");
  EXPECT_NE(line.find(" info listening on \"x\"\n"), std::string::npos) << line;
}

}  // namespace
}  // namespace cuzk::service
