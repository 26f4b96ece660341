// Memory sizes as users write them (core/memory_size.hpp): flags, CUZK_GPU_MEMORY, the config.

#include "core/memory_size.hpp"

#include <gtest/gtest.h>

namespace cuzk {
namespace {

constexpr size_t kGiB = size_t{1} << 30;

TEST(MemorySize, ParsesWhatUsersWrite) {
  EXPECT_EQ(parse_memory_size("16GiB").value(), 16 * kGiB);
  EXPECT_EQ(parse_memory_size("512MiB").value(), 512u << 20);
  EXPECT_EQ(parse_memory_size("24GB").value(), 24'000'000'000u);
  EXPECT_EQ(parse_memory_size("4096").value(), 4096u);
  EXPECT_EQ(parse_memory_size("16gib").value(), 16 * kGiB);
  EXPECT_EQ(parse_memory_size("").value(), 0u);
  EXPECT_EQ(parse_memory_size("0").value(), 0u);
  for (const char* bad : {"GiB", "16 GiB", "16TiB", "-1GiB", "99999999999999999999GiB", "1e9"}) {
    const auto e = parse_memory_size(bad);
    ASSERT_FALSE(e.has_value()) << bad;
    EXPECT_NE(e.error().message.find(bad), std::string::npos) << e.error().message;
  }
}

TEST(MemorySize, PrintsGiB) {
  EXPECT_EQ(gib_text(kGiB * 3 / 2), "1.5 GiB");
  EXPECT_EQ(gib_text(0), "0.0 GiB");
}

TEST(MemorySize, ExactTextUsesTheLargestUnitThatDivides) {
  EXPECT_EQ(exact_size_text(2048), "2KiB");
  EXPECT_EQ(exact_size_text(uint64_t{32} << 30), "32GiB");
  EXPECT_EQ(exact_size_text(uint64_t{64} << 30), "64GiB");
  EXPECT_EQ(exact_size_text(uint64_t{512} << 20), "512MiB");
  EXPECT_EQ(exact_size_text(3 * 1024 + 1), "3073B");
  EXPECT_EQ(exact_size_text(0), "0B");
}

}  // namespace
}  // namespace cuzk
