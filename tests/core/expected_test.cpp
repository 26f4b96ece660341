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

Expected<void> check_even(int v) {
  if (v % 2 != 0) return corruption(std::to_string(v) + " is odd");
  return {};
}

TEST(Expected, VoidHoldsSuccessOrError) {
  EXPECT_TRUE(check_even(2));
  EXPECT_NO_THROW(check_even(2).value());
  auto bad = check_even(3);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, ErrorCode::kCorruption);
  EXPECT_THROW(bad.value(), Exception);
}

}  // namespace
}  // namespace cuzk
