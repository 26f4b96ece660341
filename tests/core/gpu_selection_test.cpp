// The one grammar of GPU lists (core/gpu_selection.hpp): --gpu, CUZK_GPU and gpus.devices.

#include "core/gpu_selection.hpp"

#include <gtest/gtest.h>

namespace cuzk {
namespace {

TEST(GpuSelection, AutoOffAndOrdinals) {
  EXPECT_EQ(parse_gpu_selection("auto").value().mode, GpuSelection::Mode::automatic);
  EXPECT_EQ(parse_gpu_selection("off").value().mode, GpuSelection::Mode::off);
  const GpuSelection two = parse_gpu_selection("1,0").value();
  EXPECT_EQ(two.mode, GpuSelection::Mode::list);
  EXPECT_EQ(two.ordinals, (std::vector<unsigned>{1, 0}));  // in the order written
  EXPECT_EQ(to_string(two), "1,0");
  EXPECT_EQ(parse_gpu_selection(to_string(two)).value(), two);
  for (const char* bad : {"", "on", "-1", "1a", " 0", "gpu0", "0,", ",1", "1;2"}) {
    const auto s = parse_gpu_selection(bad);
    ASSERT_FALSE(s.has_value()) << bad;
    EXPECT_EQ(s.error().code, ErrorCode::kInvalidArgument);
    EXPECT_NE(s.error().message.find("expected auto, off or GPU ordinals"), std::string::npos) << s.error().message;
  }
  EXPECT_EQ(parse_gpu_selection("0,1,0").error().message, "GPU 0 is listed twice");
  EXPECT_FALSE(check_gpu_selection(GpuSelection{GpuSelection::Mode::list, {}}).has_value());
}

}  // namespace
}  // namespace cuzk
