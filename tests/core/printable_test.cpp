// core/printable.hpp: client text made safe for one log line (control bytes escaped) and bounded
// (cut at a UTF-8 boundary, saying how long it was).

#include "core/printable.hpp"

#include <gtest/gtest.h>

#include <string>

namespace cuzk {
namespace {

TEST(Printable, ControlBytesBackslashAndDelAreEscaped) {
  using namespace std::string_literals;
  EXPECT_EQ(printable("id\n2026-12-01 info forged\r\t\\"s + '\0' + "\x1b\x7f", 100),
            "id\\n2026-12-01 info forged\\r\\t\\\\\\x00\\x1b\\x7f");
  EXPECT_EQ(printable("wdpost-1000-0-0a0b0c0d \"q\" é", 100), "wdpost-1000-0-0a0b0c0d \"q\" é");  // kept as it is
}

TEST(Printable, LongTextIsCutSayingItsLength) {
  EXPECT_EQ(printable(std::string(300, 'a'), 256), std::string(256, 'a') + " ... (300 bytes)");
  EXPECT_EQ(bounded(std::string(1 << 20, 'b'), 4096), std::string(4096, 'b') + " ... (1048576 bytes)");
  EXPECT_EQ(bounded("short", 4096), "short");
  EXPECT_EQ(printable(std::string(256, 'a'), 256), std::string(256, 'a'));  // exactly the limit: whole
}

TEST(Printable, TheCutNeverSplitsAUtf8Sequence) {
  // "é" is C3 A9: a cut after 256 bytes would keep its first byte alone.
  const std::string text = std::string(255, 'a') + "\xc3\xa9" + "zz";
  EXPECT_EQ(printable(text, 256), std::string(255, 'a') + " ... (259 bytes)");
  EXPECT_EQ(bounded(text, 256), std::string(255, 'a') + " ... (259 bytes)");
  EXPECT_EQ(bounded(text, 257), std::string(255, 'a') + "\xc3\xa9 ... (259 bytes)");
}

}  // namespace
}  // namespace cuzk
