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

}  // namespace
}  // namespace cuzk::groth16
