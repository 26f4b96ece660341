// The GPU prover's placement plan (groth16/gpu_memory_plan.hpp), without a GPU: the estimates at
// the 32 GiB PoRep partition's sizes against what the H200 measured, and the choice between
// resident, streamed and too small. And CUZK_GPU_MEMORY / --gpu-memory reaching GpuChoice.

#include "groth16/gpu_memory_plan.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

#include "groth16/select_prover.hpp"

namespace cuzk::groth16 {
namespace {

constexpr size_t kGiB = size_t{1} << 30;

// A 32 GiB PoRep partition: 130,278,541 constraints, 130,169,893 aux, domain 2^27. The key is
// ~47 GB; a resident prover peaked at 104.5 GiB on the H200 (docs/PERF.md 20, 22) and a streamed
// proof must fit a 16 GiB card.
TEST(GpuMemoryPlan, ThirtyTwoGiBPartition) {
  const size_t m = size_t{1} << 27;
  ParameterSizes key;
  key.ic = 39;  // any small count: the inputs hardly matter
  key.h = m - 1;
  key.l = 130'169'893;
  key.a = 100'000'000;
  key.b_g1 = key.b_g2 = 20'000'000;
  const CircuitSizes z{key.ic, key.l};
  const auto needs = GpuMemoryNeeds::estimate(key, z, 7 * kGiB);
  EXPECT_GT(needs.key, 40 * kGiB);
  EXPECT_LT(needs.key, 50 * kGiB);
  EXPECT_GT(needs.resident(), 80 * kGiB);   // measured peak 104.5 GiB with a key of this order
  EXPECT_LT(needs.resident(), 120 * kGiB);  // fits the H200 (139 GiB)
  EXPECT_LT(needs.streamed_proof, 16 * kGiB);
  EXPECT_GT(needs.streamed_proof, 3 * m * 32);  // at least H's three vectors
  EXPECT_EQ(place_on_gpu(needs, 139 * kGiB).value(), GpuPlacement::resident);
  EXPECT_EQ(place_on_gpu(needs, 16 * kGiB).value(), GpuPlacement::streamed);
  const auto e = place_on_gpu(needs, 8 * kGiB);
  ASSERT_FALSE(e.has_value());
  EXPECT_NE(e.error().message.find("8.0 GiB of device memory is too little"), std::string::npos) << e.error().message;
}

TEST(GpuMemoryPlan, WorkspaceGrowsWithTerms) {
  size_t last = 0;
  for (size_t terms : {size_t{1}, size_t{1} << 10, size_t{1} << 20, size_t{1} << 24, size_t{1} << 27}) {
    const size_t w = msm_workspace_bytes(terms, 192);
    EXPECT_GT(w, last) << terms;
    EXPECT_GE(w, terms * 75) << terms;  // the term arrays alone
    last = w;
  }
}

TEST(GpuMemoryPlan, FlagsOverTheEnvironment) {
  setenv("CUZK_GPU", "1", 1);
  setenv("CUZK_GPU_MEMORY", "16GiB", 1);
  GpuChoice c = GpuChoice::from_env().value();
  EXPECT_EQ(c.kind, GpuChoice::Kind::device);
  EXPECT_EQ(c.ordinal, 1);
  EXPECT_EQ(c.memory_limit, 16 * kGiB);
  c = GpuChoice::from_flags("0", "").value();  // the flag's GPU, the environment's limit
  EXPECT_EQ(c.ordinal, 0);
  EXPECT_EQ(c.memory_limit, 16 * kGiB);
  c = GpuChoice::from_flags("", "24GiB").value();
  EXPECT_EQ(c.ordinal, 1);
  EXPECT_EQ(c.memory_limit, 24 * kGiB);
  setenv("CUZK_GPU_MEMORY", "lots", 1);
  const auto bad = GpuChoice::from_env();
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message.find("CUZK_GPU_MEMORY"), std::string::npos) << bad.error().message;
  const auto bad_flag = GpuChoice::from_flags("0", "16XB");
  unsetenv("CUZK_GPU");
  unsetenv("CUZK_GPU_MEMORY");
  ASSERT_FALSE(bad_flag.has_value());
  EXPECT_NE(GpuChoice::from_flags("", "16XB").error().message.find("--gpu-memory"), std::string::npos);
}

TEST(GpuMemoryPlan, LimitsPerGpu) {  // core/gpu_memory_limits.hpp: the chosen GPU's limit
  setenv("CUZK_GPU", "1", 1);
  setenv("CUZK_GPU_MEMORY", "16GiB,1=4GiB", 1);
  EXPECT_EQ(GpuChoice::from_env().value().memory_limit, 4 * kGiB);
  EXPECT_EQ(GpuChoice::from_flags("0", "").value().memory_limit, 16 * kGiB);  // the flag's GPU, the others' size
  EXPECT_EQ(GpuChoice::from_flags("2", "").value().memory_limit, 16 * kGiB);
  EXPECT_EQ(GpuChoice::from_flags("", "2=8GiB").value().memory_limit, 0u);  // GPU 1: what is free
  EXPECT_EQ(GpuChoice::from_flags("2", "2=8GiB").value().memory_limit, 8 * kGiB);
  EXPECT_EQ(GpuChoice::from_flags("auto", "").value().memory_limit, 16 * kGiB);  // auto: GPU 0's
  EXPECT_EQ(GpuChoice::from_flags("auto", "0=2GiB,6GiB").value().memory_limit, 2 * kGiB);
  EXPECT_EQ(GpuChoice::memory_limits_from_flags("").value(), (GpuMemoryLimits{16 * kGiB, {{1, 4 * kGiB}}}));
  EXPECT_EQ(GpuChoice::memory_limits_from_flags("1=1GiB").value(), (GpuMemoryLimits{0, {{1, kGiB}}}));
  setenv("CUZK_GPU_MEMORY", "1=4GiB,1=2GiB", 1);
  const auto twice = GpuChoice::memory_limits_from_flags("");
  unsetenv("CUZK_GPU");
  unsetenv("CUZK_GPU_MEMORY");
  ASSERT_FALSE(twice.has_value());
  EXPECT_EQ(twice.error().message, "CUZK_GPU_MEMORY: gpu memory '1=2GiB': GPU 1 is given twice");
  EXPECT_EQ(GpuChoice::memory_limits_from_flags("").value(), GpuMemoryLimits{});
  EXPECT_EQ(GpuChoice::memory_limits_from_flags("x=1GiB").error().message,
            "--gpu-memory: gpu memory 'x=1GiB': GPU ordinal 'x': expected a non-negative integer");
}

}  // namespace
}  // namespace cuzk::groth16
