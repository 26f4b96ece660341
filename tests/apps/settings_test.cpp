// The app's settings (apps/cuzk/settings.hpp): a flag over its environment variable, an empty
// one as unset, errors naming where the bad text came from, each GPU's limit.

#include "settings.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

namespace cuzk::app {
namespace {

namespace fs = std::filesystem;
constexpr size_t kGiB = size_t{1} << 30;

struct CleanEnv {
  CleanEnv() { clear(); }
  ~CleanEnv() { clear(); }
  static void clear() {
    for (const char* v : {"CUZK_GPU", "CUZK_GPU_MEMORY", "FIL_PROOFS_PARAMETER_CACHE"}) unsetenv(v);
  }
};

TEST(Settings, GpuFlagsOverTheEnvironment) {
  CleanEnv env;
  setenv("CUZK_GPU", "1", 1);
  setenv("CUZK_GPU_MEMORY", "16GiB", 1);
  groth16::GpuChoice c = gpu_choice_setting("", "").value();
  EXPECT_EQ(c.kind, groth16::GpuChoice::Kind::device);
  EXPECT_EQ(c.ordinal, 1);
  EXPECT_EQ(c.memory_limit, 16 * kGiB);
  c = gpu_choice_setting("0", "").value();  // the flag's GPU, the environment's limit
  EXPECT_EQ(c.ordinal, 0);
  EXPECT_EQ(c.memory_limit, 16 * kGiB);
  c = gpu_choice_setting("", "24GiB").value();
  EXPECT_EQ(c.ordinal, 1);
  EXPECT_EQ(c.memory_limit, 24 * kGiB);
  setenv("CUZK_GPU_MEMORY", "lots", 1);
  const auto bad = gpu_choice_setting("", "");
  ASSERT_FALSE(bad.has_value());
  EXPECT_EQ(bad.error().message.rfind("CUZK_GPU_MEMORY: ", 0), 0u) << bad.error().message;
  EXPECT_FALSE(gpu_choice_setting("0", "").has_value());  // a malformed variable fails under the other flag too
  unsetenv("CUZK_GPU_MEMORY");
  const auto bad_flag = gpu_choice_setting("", "16XB");
  ASSERT_FALSE(bad_flag.has_value());
  EXPECT_EQ(bad_flag.error().message.rfind("--gpu-memory: ", 0), 0u) << bad_flag.error().message;
  setenv("CUZK_GPU", "gpu0", 1);
  EXPECT_EQ(gpu_choice_setting("", "").error().message.rfind("CUZK_GPU: 'gpu0': expected auto, off", 0), 0u);
  EXPECT_EQ(gpu_choice_setting("x", "").error().message.rfind("--gpu: 'x'", 0), 0u);
  setenv("CUZK_GPU", "", 1);  // empty counts as unset: auto
  EXPECT_EQ(gpu_choice_setting("", "").value().kind, groth16::GpuChoice::Kind::automatic);
  EXPECT_EQ(gpu_choice_setting("0,1", "").error().message.rfind("--gpu: '0,1': this command proves on one GPU", 0), 0u);
}

TEST(Settings, EachGpuItsLimit) {
  CleanEnv env;
  setenv("CUZK_GPU", "1", 1);
  setenv("CUZK_GPU_MEMORY", "16GiB,1=4GiB", 1);
  EXPECT_EQ(gpu_choice_setting("", "").value().memory_limit, 4 * kGiB);
  EXPECT_EQ(gpu_choice_setting("0", "").value().memory_limit, 16 * kGiB);  // the flag's GPU, the others' size
  EXPECT_EQ(gpu_choice_setting("2", "").value().memory_limit, 16 * kGiB);
  EXPECT_EQ(gpu_choice_setting("", "2=8GiB").value().memory_limit, 0u);  // GPU 1: what is free
  EXPECT_EQ(gpu_choice_setting("2", "2=8GiB").value().memory_limit, 8 * kGiB);
  EXPECT_EQ(gpu_choice_setting("auto", "").value().memory_limit, 16 * kGiB);  // auto: GPU 0's
  EXPECT_EQ(gpu_choice_setting("auto", "0=2GiB,6GiB").value().memory_limit, 2 * kGiB);
  EXPECT_EQ(gpu_memory_setting("").value(), (GpuMemoryLimits{16 * kGiB, {{1, 4 * kGiB}}}));
  EXPECT_EQ(gpu_memory_setting("1=1GiB").value(), (GpuMemoryLimits{0, {{1, kGiB}}}));
  setenv("CUZK_GPU_MEMORY", "1=4GiB,1=2GiB", 1);
  const auto twice = gpu_memory_setting("");
  ASSERT_FALSE(twice.has_value());
  EXPECT_EQ(twice.error().message, "CUZK_GPU_MEMORY: gpu memory '1=2GiB': GPU 1 is given twice");
  // Off needs no GPU; a list of several is for the commands that prove on several.
  unsetenv("CUZK_GPU_MEMORY");
  EXPECT_TRUE(gpu_devices_setting("off", "").value().empty());
  EXPECT_EQ(gpu_devices_setting("0,0", "").error().message, "--gpu: GPU 0 is listed twice");
}

TEST(Settings, ParameterDirectoryPrecedence) {
  CleanEnv env;
  EXPECT_EQ(param_dir_setting(""), fs::path("/var/tmp/filecoin-proof-parameters"));
  setenv("FIL_PROOFS_PARAMETER_CACHE", "/tmp/from-env", 1);
  EXPECT_EQ(param_dir_setting(""), fs::path("/tmp/from-env"));
  EXPECT_EQ(param_dir_setting("/tmp/flag"), fs::path("/tmp/flag"));
  setenv("FIL_PROOFS_PARAMETER_CACHE", "", 1);  // empty counts as unset
  EXPECT_EQ(param_dir_setting(""), fs::path("/var/tmp/filecoin-proof-parameters"));
}

}  // namespace
}  // namespace cuzk::app
