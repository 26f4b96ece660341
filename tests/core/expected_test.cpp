#include "core/expected.hpp"

#include <gtest/gtest.h>

#include <new>
#include <stdexcept>
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

// capture, the one boundary where exceptions become values: a cuzk::Exception keeps its code
// (the engine decides by it whether to retry elsewhere), others are kInternal or, for memory,
// kResourceExhausted; values and Expected pass through.
TEST(Capture, KeepsTheCodeOfWhatWasThrown) {
  const auto input = capture([]() -> int { throw Exception(corruption("proof.bin: offset 96: not on the curve")); });
  ASSERT_FALSE(input.has_value());
  EXPECT_EQ(input.error().code, ErrorCode::kCorruption);
  EXPECT_EQ(input.error().message, "proof.bin: offset 96: not on the curve");
  const auto other = capture([]() -> int { throw std::runtime_error("CUDA error: an illegal memory access"); });
  EXPECT_EQ(other.error().code, ErrorCode::kInternal);
  EXPECT_EQ(other.error().message, "CUDA error: an illegal memory access");
  EXPECT_EQ(capture([]() -> int { throw std::bad_alloc(); }).error().code, ErrorCode::kResourceExhausted);
  EXPECT_EQ(capture([]() -> int { throw 7; }).error().code, ErrorCode::kInternal);
  EXPECT_EQ(capture([] { return 5; }).value(), 5);
  const Expected<int> passed = capture([]() -> Expected<int> { return Error{ErrorCode::kNotFound, "x"}; });
  EXPECT_EQ(passed.error().code, ErrorCode::kNotFound);  // an Expected is not wrapped twice
  EXPECT_TRUE(capture([] {}).has_value());
}

TEST(Capture, FaultOfEachCode) {
  for (ErrorCode c : {ErrorCode::kInvalidArgument, ErrorCode::kCorruption, ErrorCode::kIo, ErrorCode::kNotFound,
                      ErrorCode::kUnsupported})
    EXPECT_EQ(fault_of(c), Fault::input) << to_string(c);
  for (ErrorCode c : {ErrorCode::kInternal, ErrorCode::kVerifyFailed, ErrorCode::kResourceExhausted,
                      ErrorCode::kUnavailable})
    EXPECT_EQ(fault_of(c), Fault::device) << to_string(c);
  EXPECT_EQ(fault_of(ErrorCode::kCancelled), Fault::cancelled);
}

}  // namespace
}  // namespace cuzk
