#include "core/base64.hpp"

#include <gtest/gtest.h>

#include <string>

namespace cuzk {
namespace {

std::vector<uint8_t> bytes_of(std::string_view s) { return {s.begin(), s.end()}; }

// RFC 4648 §10 test vectors.
TEST(Base64, Rfc4648Vectors) {
  const std::pair<const char*, const char*> vectors[] = {
      {"", ""}, {"f", "Zg=="}, {"fo", "Zm8="}, {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"},
  };
  for (const auto& [plain, encoded] : vectors) {
    EXPECT_EQ(base64_encode(bytes_of(plain)), encoded) << plain;
    EXPECT_EQ(base64_decode(encoded).value(), bytes_of(plain)) << encoded;
  }
}

// Every byte value in every position of the 3-byte group, and all three padding cases; '+' and
// '/' (62, 63) occur, which a URL-safe alphabet would get wrong.
TEST(Base64, RoundTripsAllBytes) {
  std::vector<uint8_t> data;
  for (int i = 0; i < 256 * 3 + 2; ++i) data.push_back(static_cast<uint8_t>(i * 7 + (i >> 8)));
  for (size_t n = 0; n <= data.size(); n += 1 + n / 3) {
    const std::span<const uint8_t> part(data.data(), n);
    const std::string text = base64_encode(part);
    ASSERT_EQ(text.size(), (n + 2) / 3 * 4);
    EXPECT_EQ(base64_decode(text).value(), std::vector<uint8_t>(part.begin(), part.end())) << n;
  }
  EXPECT_EQ(base64_encode(std::vector<uint8_t>{0xfb, 0xff}), "+/8=");
}

TEST(Base64, RejectsBadInputNamingTheOffset) {
  struct Case {
    const char* text;
    const char* message;
  } cases[] = {
      {"Zm9", "length 3 is not a multiple of 4"},
      {"Zm9vY", "length 5 is not a multiple of 4"},
      {"Zm-v", "bad character '-' at offset 2"},   // URL-safe alphabet
      {"Zm9v\nYmFy", "length 9"},
      {"Zm9vYm_y", "bad character '_' at offset 6"},
      {"Zm 9", "bad byte 0x20 at offset 2"},
      {"Z===", "'=' before the end at offset 1"},
      {"Zg==Zg==", "'=' before the end at offset 2"},
      {"====", "'=' before the end at offset 0"},
      {"Zh==", "nonzero trailing bits at offset 1"},  // 'h' leaves bits set below the byte
      {"Zm9=", "nonzero trailing bits at offset 2"},
  };
  for (const auto& c : cases) {
    const auto r = base64_decode(c.text);
    ASSERT_FALSE(r) << c.text;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
    EXPECT_NE(r.error().message.find(c.message), std::string::npos) << c.text << ": " << r.error().message;
  }
  const std::string high = std::string("Zm9") + static_cast<char>(0xc3);
  EXPECT_NE(base64_decode(high).error().message.find("bad byte 0xc3 at offset 3"), std::string::npos);
}

}  // namespace
}  // namespace cuzk
