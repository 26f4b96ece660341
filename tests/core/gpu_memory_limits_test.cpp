// Device memory limits per GPU as users write them (core/gpu_memory_limits.hpp): CUZK_GPU_MEMORY,
// --gpu-memory, gpus.memory_limit.

#include "core/gpu_memory_limits.hpp"

#include <gtest/gtest.h>

namespace cuzk {
namespace {

constexpr size_t kGiBytes = size_t{1} << 30;
constexpr size_t kMiBytes = size_t{1} << 20;

GpuMemoryLimits parsed(std::string_view text) {
  auto limits = parse_gpu_memory_limits(text);
  EXPECT_TRUE(limits.has_value()) << text << ": " << (limits ? "" : limits.error().message);
  return limits ? *limits : GpuMemoryLimits{};
}

std::string limits_error(std::string_view text) {
  const auto limits = parse_gpu_memory_limits(text);
  if (limits) {
    ADD_FAILURE() << "accepted: " << text;
    return {};
  }
  EXPECT_EQ(limits.error().code, ErrorCode::kInvalidArgument);
  return limits.error().message;
}

TEST(GpuMemoryLimits, NothingMeansWhatIsFree) {
  for (const char* text : {"", "0", "  ", "0B"}) {
    const GpuMemoryLimits limits = parsed(text);
    EXPECT_EQ(limits, GpuMemoryLimits{}) << text;
    EXPECT_TRUE(limits.empty()) << text;
    EXPECT_EQ(limits.of(0), 0u);
    EXPECT_EQ(limits.of(7), 0u);
  }
}

TEST(GpuMemoryLimits, OneSizeForEveryGpu) {
  // The plain sizes parse_memory_size takes, unchanged.
  EXPECT_EQ(parsed("16GiB"), (GpuMemoryLimits{16 * kGiBytes, {}}));
  EXPECT_EQ(parsed("24GB").all, 24'000'000'000u);
  EXPECT_EQ(parsed("4096").all, 4096u);
  EXPECT_EQ(parsed(" 512mib ").all, 512 * kMiBytes);
  const GpuMemoryLimits limits = parsed("16GiB");
  EXPECT_FALSE(limits.empty());
  EXPECT_EQ(limits.of(0), 16 * kGiBytes);
  EXPECT_EQ(limits.of(3), 16 * kGiBytes);
}

TEST(GpuMemoryLimits, OneGpuOnly) {
  const GpuMemoryLimits limits = parsed("1=4GiB");
  EXPECT_EQ(limits.all, 0u);
  EXPECT_EQ(limits.by_gpu, (std::map<int, size_t>{{1, 4 * kGiBytes}}));
  EXPECT_FALSE(limits.empty());
  EXPECT_EQ(limits.of(1), 4 * kGiBytes);
  EXPECT_EQ(limits.of(0), 0u);  // the others: what is free
  EXPECT_EQ(limits.of(2), 0u);
}

TEST(GpuMemoryLimits, MixedForms) {
  const GpuMemoryLimits expected{16 * kGiBytes, {{1, 4 * kGiBytes}, {3, 512 * kMiBytes}}};
  for (const char* text : {"16GiB,1=4GiB,3=512MiB", "1=4GiB,16GiB,3=512MiB", "3=512MiB,1=4GiB,16GiB",
                           " 16GiB , 1 = 4GiB,\t3=512MiB "}) {
    const GpuMemoryLimits limits = parsed(text);
    EXPECT_EQ(limits, expected) << text;
    EXPECT_EQ(limits.of(0), 16 * kGiBytes) << text;
    EXPECT_EQ(limits.of(1), 4 * kGiBytes) << text;
    EXPECT_EQ(limits.of(2), 16 * kGiBytes) << text;
    EXPECT_EQ(limits.of(3), 512 * kMiBytes) << text;
  }
  // A GPU's 0 is what is free on that GPU, below a limit for the others.
  const GpuMemoryLimits free_one = parsed("16GiB,0=0");
  EXPECT_EQ(free_one.of(0), 0u);
  EXPECT_EQ(free_one.of(1), 16 * kGiBytes);
  EXPECT_FALSE(free_one.empty());
  EXPECT_TRUE(parsed("0,0=0,5=0").empty());
  EXPECT_EQ(parsed("12=1GiB").of(12), kGiBytes);
}

TEST(GpuMemoryLimits, ErrorsNameTheBadPart) {
  EXPECT_EQ(limits_error("1=4XB"), "gpu memory '1=4XB': unknown unit 'xb'");
  EXPECT_EQ(limits_error("16GiB,1=4XB"), "gpu memory '1=4XB': unknown unit 'xb'");
  EXPECT_EQ(limits_error("16XB"), "gpu memory '16XB': unknown unit 'xb'");
  EXPECT_EQ(limits_error("16 GiB"), "gpu memory '16 GiB': unknown unit ' gib'");
  EXPECT_EQ(limits_error("lots"), "gpu memory 'lots': expected a number with KiB, MiB, GiB, KB, MB or GB");
  EXPECT_EQ(limits_error("99999999999GiB,1=1GiB"), "gpu memory '99999999999GiB': too large");
  EXPECT_EQ(limits_error("x=4GiB"), "gpu memory 'x=4GiB': GPU ordinal 'x': expected a non-negative integer");
  EXPECT_EQ(limits_error("-1=4GiB"), "gpu memory '-1=4GiB': GPU ordinal '-1': expected a non-negative integer");
  EXPECT_EQ(limits_error("1x=4GiB"), "gpu memory '1x=4GiB': GPU ordinal '1x': expected a non-negative integer");
  EXPECT_EQ(limits_error("=4GiB"), "gpu memory '=4GiB': GPU ordinal '': expected a non-negative integer");
  EXPECT_EQ(limits_error("99999999999=4GiB"),
            "gpu memory '99999999999=4GiB': GPU ordinal '99999999999': expected a non-negative integer");
  EXPECT_EQ(limits_error("1="), "gpu memory '1=': no size for GPU 1 (0: what is free)");
  EXPECT_EQ(limits_error("1=4GiB,0=1GiB,1=8GiB"), "gpu memory '1=8GiB': GPU 1 is given twice");
  EXPECT_EQ(limits_error("16GiB,8GiB"), "gpu memory '8GiB': a second size for every GPU (name the GPU: 1=4GiB)");
  for (const char* text : {"16GiB,", ",1=4GiB", "16GiB,,1=4GiB", "16GiB, ,1=4GiB", ","})
    EXPECT_EQ(limits_error(text),
              std::string("gpu memory '") + text + "': an empty part (write sizes such as 16GiB,1=4GiB)")
        << text;
}

TEST(GpuMemoryLimits, Text) {
  EXPECT_EQ(to_string(GpuMemoryLimits{}), "all free");
  EXPECT_EQ(to_string(GpuMemoryLimits{0, {{1, 0}}}), "all free");
  EXPECT_EQ(to_string(parsed("16GiB")), "16.0 GiB");
  EXPECT_EQ(to_string(parsed("16GiB,1=4GiB")), "16.0 GiB, GPU 1: 4.0 GiB");
  EXPECT_EQ(to_string(parsed("3=512MiB,16GiB,1=0")), "16.0 GiB, GPU 1: all free, GPU 3: 0.5 GiB");
  EXPECT_EQ(to_string(parsed("1=4GiB")), "GPU 1: 4.0 GiB, the others all free");
}

}  // namespace
}  // namespace cuzk
