#include "core/expected.hpp"

#include <gtest/gtest.h>

#include <string>

namespace cuzk {
namespace {

Expected<int> parse_positive(int v) {
  if (v <= 0) return invalid_argument("value " + std::to_string(v) + " is not positive");
  return v;
}

TEST(Expected, HoldsValueOrError) {
  auto ok = parse_positive(3);
  ASSERT_TRUE(ok);
  EXPECT_EQ(*ok, 3);
  auto bad = parse_positive(-1);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(bad.error().to_string(), "invalid argument: value -1 is not positive");
}

TEST(Expected, ValueOfAnErrorThrowsTheError) {
  auto bad = parse_positive(0);
  try {
    static_cast<void>(bad.value());
    FAIL() << "value() of an error did not throw";
  } catch (const Exception& e) {
    EXPECT_EQ(e.error().message, "value 0 is not positive");
    EXPECT_STREQ(e.what(), "invalid argument: value 0 is not positive");
  }
}

}  // namespace
}  // namespace cuzk
