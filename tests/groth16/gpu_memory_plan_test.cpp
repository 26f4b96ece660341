// The GPU prover's placement plan (groth16/gpu_memory_plan.hpp), without a GPU: the estimates at
// the 32 GiB PoRep partition's sizes against what the H200 measured, and the choice between
// resident, streamed and too small. And CUZK_GPU_MEMORY / --gpu-memory reaching GpuChoice.

#include "groth16/gpu_memory_plan.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

#include "groth16/select_prover.hpp"
#include "plan_shapes.hpp"

namespace cuzk::groth16 {
namespace {

constexpr size_t kGiB = size_t{1} << 30;

// A 32 GiB PoRep partition (plan_shapes.hpp): a resident prover peaked at 104.5 GiB on the H200
// (docs/PERF.md 20, 22) and a streamed proof must fit a 16 GiB card.
TEST(GpuMemoryPlan, ThirtyTwoGiBPartition) {
  const size_t m = shapes::kDomain;
  const auto needs = shapes::porep_32gib().needs();
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

// A 32 GiB WindowPoSt partition (plan_shapes.hpp). With both MSM workspaces kept beside H's
// vectors it needs about all of an H200 (the H200 measured 135.4 GiB at peak, resident, with 40
// bytes of MSM workspace a term: docs/PERF.md 53); with the stages' buffers in turn it needs less
// than that by the G2 workspace and covers the 100.1 GiB measured compact (docs/PERF.md 32).
TEST(GpuMemoryPlan, ThirtyTwoGiBWindowPostPlacements) {
  const size_t m = shapes::kDomain;
  const shapes::Shape shape = shapes::window_post_32gib();
  const ParameterSizes& key = shape.key;
  const CircuitSizes& z = shape.z;
  const auto needs = shape.needs();
  EXPECT_GT(needs.key, 55 * kGiB);
  EXPECT_LT(needs.key, 65 * kGiB);
  EXPECT_GT(needs.resident(), size_t(135.4 * double(kGiB)));
  EXPECT_LT(needs.resident(), 139 * kGiB);
  EXPECT_GT(needs.resident_compact(), size_t(100.1 * double(kGiB)));
  EXPECT_LT(needs.resident_compact(), 120 * kGiB);
  // The largest stage, and the two witnesses, are in it.
  const size_t zb = z.elements() * 32;
  EXPECT_GE(needs.compact_proofs, 2 * zb + 3 * m * 32);
  EXPECT_GE(needs.compact_proofs, 2 * zb + msm_workspace_bytes(key.b_g2, 384));
  EXPECT_GE(needs.compact_proofs, 2 * zb + m * 32 + msm_workspace_bytes(m, 192));
  EXPECT_LT(needs.compact_proofs, needs.resident_proofs);
  EXPECT_EQ(place_on_gpu(needs, 139 * kGiB).value(), GpuPlacement::resident);
  EXPECT_EQ(place_on_gpu(needs, 130 * kGiB).value(), GpuPlacement::resident_compact);
  EXPECT_EQ(place_on_gpu(needs, needs.resident()).value(), GpuPlacement::resident);
  EXPECT_EQ(place_on_gpu(needs, needs.resident() - 1).value(), GpuPlacement::resident_compact);
  EXPECT_EQ(place_on_gpu(needs, needs.resident_compact()).value(), GpuPlacement::resident_compact);
  EXPECT_EQ(place_on_gpu(needs, needs.resident_compact() - 1).value(), GpuPlacement::streamed);
  EXPECT_EQ(placement_name(GpuPlacement::resident_compact), "resident_compact");
}

// The full ω^e table (docs/PERF.md 49): (m + 1)·32 bytes, taken only by a resident placement with
// room for it beside the rest, and counted with the key and circuit once held.
TEST(GpuMemoryPlan, FullRootTableOnlyWhereItFits) {
  const size_t m = shapes::kDomain;
  auto needs = shapes::porep_32gib().needs();
  EXPECT_EQ(needs.full_roots, (m + 1) * 32);
  EXPECT_EQ(needs.roots, 0u);
  EXPECT_TRUE(full_roots_fit(needs, GpuPlacement::resident, 139 * kGiB));
  const size_t exact = needs.total(GpuPlacement::resident);
  EXPECT_FALSE(full_roots_fit(needs, GpuPlacement::resident, exact));  // no room beside it
  EXPECT_TRUE(full_roots_fit(needs, GpuPlacement::resident, exact + needs.full_roots));
  // beside another prover whose proof is a byte larger than this one's: no room again
  EXPECT_FALSE(full_roots_fit(needs, GpuPlacement::resident, exact + needs.full_roots, needs.turn(GpuPlacement::resident) + 1));
  EXPECT_FALSE(full_roots_fit(needs, GpuPlacement::resident_compact, 1000 * kGiB));
  EXPECT_FALSE(full_roots_fit(needs, GpuPlacement::streamed, 1000 * kGiB));
  // Held, it counts with the key and circuit: in the totals and in what the card's share sees.
  const size_t share_before = needs.share_needs(GpuPlacement::resident, GpuPriority::normal).resident;
  needs.roots = needs.full_roots;
  EXPECT_EQ(needs.total(GpuPlacement::resident), exact + needs.full_roots);
  EXPECT_EQ(needs.resident(), exact + needs.full_roots);
  EXPECT_EQ(needs.share_needs(GpuPlacement::resident, GpuPriority::normal).resident, share_before + needs.full_roots);
  EXPECT_EQ(needs.total(GpuPlacement::streamed), shapes::porep_32gib().needs().total(GpuPlacement::streamed));
  // A domain of one pass (m <= 2^10) has no boundary twiddles: no table.
  ParameterSizes small = shapes::porep_32gib().key;
  small.h = 1023;
  EXPECT_EQ(GpuMemoryNeeds::estimate(small, CircuitSizes{1, 100}, 0).full_roots, 0u);
  small.h = 2047;
  EXPECT_EQ(GpuMemoryNeeds::estimate(small, CircuitSizes{1, 100}, 0).full_roots, 2049u * 32);  // ω^0 .. ω^2048
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
