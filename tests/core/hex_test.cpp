#include "core/hex.hpp"

#include <gtest/gtest.h>

namespace cuzk {
namespace {

TEST(Hex, RoundTrip) {
  const std::vector<uint8_t> bytes{0x00, 0x01, 0xab, 0xff, 0x10};
  EXPECT_EQ(to_hex(bytes), "0001abff10");
  EXPECT_EQ(from_hex("0001abff10").value(), bytes);
  EXPECT_EQ(from_hex("0x0001ABFF10").value(), bytes);
  EXPECT_TRUE(from_hex("").value().empty());
}

TEST(Hex, RejectsBadInputNamingTheOffset) {
  auto odd = from_hex("abc");
  ASSERT_FALSE(odd);
  EXPECT_EQ(odd.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(odd.error().message.find("odd number of digits"), std::string::npos);
  auto bad = from_hex("0x00g1");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("offset 4"), std::string::npos) << bad.error().message;
}

}  // namespace
}  // namespace cuzk
