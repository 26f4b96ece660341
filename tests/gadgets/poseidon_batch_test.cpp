// The batched native Poseidon (gadgets/poseidon_batch.hpp) against poseidon_hash (itself pinned
// to the Python model in poseidon_test.cpp) and its plain twin poseidon_hash_reference: every
// arity Filecoin uses, 1-8 lanes and more than one group, inputs at the edges of both the field
// and the kernel's 52-bit lane form, on the IFMA kernel (where this CPU has it) and the forced
// scalar fallback.

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gadgets/poseidon.hpp"
#include "gadgets/poseidon_batch.hpp"
#include "gadgets/poseidon_constants.hpp"
#include "support/poseidon.hpp"
#include "support/random.hpp"

namespace cuzk::gadgets {
namespace {

using ff::Fr;

const PoseidonConstants& constants(size_t arity) { return test::poseidon_constants(arity); }

constexpr std::array<size_t, 4> kArities = {2, 4, 8, 11};
constexpr std::array<PoseidonKernel, 2> kKernels = {PoseidonKernel::best, PoseidonKernel::scalar};

std::string name(PoseidonKernel k) { return k == PoseidonKernel::best ? "best" : "scalar"; }

// Hashes n preimages of c's arity through the batch and one by one; both must agree.
void expect_batch_matches(const PoseidonConstants& c, PoseidonKernel kernel, const std::vector<Fr>& preimages,
                          const std::string& what) {
  const PoseidonBatch batch(c, kernel);
  const size_t n = preimages.size() / c.arity;
  std::vector<Fr> got(n);
  batch.hash(preimages, got);
  for (size_t k = 0; k < n; ++k) {
    const Fr want = poseidon_hash(c, std::span(preimages).subspan(k * c.arity, c.arity));
    EXPECT_EQ(got[k], want) << what << ", arity " << c.arity << ", kernel " << name(kernel) << ", " << n
                            << " hashes, lane " << k;
  }
}

TEST(PoseidonBatch, DispatchFollowsTheCpu) {
  for (size_t arity : kArities) {
    EXPECT_EQ(PoseidonBatch(constants(arity)).uses_ifma(), cpu_has_avx512_ifma()) << arity;
    EXPECT_FALSE(PoseidonBatch(constants(arity), PoseidonKernel::scalar).uses_ifma()) << arity;
  }
  if (!cpu_has_avx512_ifma()) GTEST_SKIP() << "no AVX-512 IFMA here: only the scalar path was exercised";
}

TEST(PoseidonBatch, RandomPreimagesEveryArityAndLaneCount) {
  std::mt19937_64 g = test::rng(0x1f3a);
  for (size_t arity : kArities) {
    for (PoseidonKernel kernel : kKernels) {
      // 1-8 lanes of one group, then 9 and 17 (a full group and a partial one after it).
      for (size_t n : {1, 2, 3, 4, 5, 6, 7, 8, 9, 17}) {
        std::vector<Fr> pre(n * arity);
        for (Fr& x : pre) x = test::random_element<Fr>(g);
        expect_batch_matches(constants(arity), kernel, pre, "random");
      }
    }
  }
}

TEST(PoseidonBatch, MatchesThePlainReferenceHash) {
  // An oracle that shares no round structure with either (neptune's unoptimized rounds).
  std::mt19937_64 g = test::rng(0x2b7c);
  for (size_t arity : kArities) {
    const PoseidonConstants& c = constants(arity);
    std::vector<Fr> pre(8 * arity);
    for (Fr& x : pre) x = test::random_element<Fr>(g);
    std::vector<Fr> got(8);
    PoseidonBatch(c).hash(pre, got);
    for (size_t k = 0; k < 8; ++k)
      EXPECT_EQ(got[k], poseidon_hash_reference(c, std::span(pre).subspan(k * arity, arity))) << arity << " " << k;
  }
}

// Field edges (0, 1, r − 1, r − 2^k), integers with every 52-bit limb full, and inputs whose
// lane form X = 16·x mod r sits at an edge (X = r − 1, X = 2^52k − 1, X = 2^254): the
// conversions and the kernel's carries see their extremes.
std::vector<Fr> edge_values() {
  std::vector<Fr> v = {Fr::zero(), Fr::one(), -Fr::one(), -Fr::from_uint(2), -Fr::from_uint(uint64_t{1} << 52)};
  const Fr sixteenth = Fr::from_uint(16).inverse();
  Fr::Int full;  // 2^208 − 1: limbs 0-3 of the lane form all ones
  full.limbs = {~uint64_t{0}, ~uint64_t{0}, ~uint64_t{0}, (uint64_t{1} << 16) - 1};
  v.push_back(Fr::from_int(full));
  Fr::Int high;  // 2^254 − 1 < r: every bit of the top 52-bit limb that r allows, and below
  high.limbs = {~uint64_t{0}, ~uint64_t{0}, ~uint64_t{0}, (uint64_t{1} << 62) - 1};
  v.push_back(Fr::from_int(high));
  Fr::Int r_minus_1 = Fr::kModulus;
  r_minus_1.limbs[0] -= 1;
  for (const Fr::Int& lane : {r_minus_1, full, high}) {
    v.push_back(Fr::from_montgomery(lane) * sixteenth);  // lane form exactly `lane`
  }
  return v;
}

TEST(PoseidonBatch, EdgeInputs) {
  const std::vector<Fr> edges = edge_values();
  for (size_t arity : kArities) {
    for (PoseidonKernel kernel : kKernels) {
      // Every preimage made of one edge value, eight at a time (one edge per lane).
      std::vector<Fr> uniform;
      for (const Fr& e : edges)
        for (size_t i = 0; i < arity; ++i) uniform.push_back(e);
      expect_batch_matches(constants(arity), kernel, uniform, "one edge per preimage");
      // Edges mixed inside each preimage and across lanes.
      std::vector<Fr> mixed;
      for (size_t k = 0; k < 8 * arity; ++k) mixed.push_back(edges[(k * 5 + k / arity) % edges.size()]);
      expect_batch_matches(constants(arity), kernel, mixed, "edges mixed");
    }
  }
}

TEST(PoseidonBatch, OtherDomainTag) {
  // with_tag's constants (Custom Arbitrary(1), 2^40): the tag is a kernel table too.
  std::mt19937_64 g = test::rng(0x3c11);
  const PoseidonConstants c = PoseidonConstants::with_tag(8, Fr::from_uint(uint64_t{1} << 40));
  std::vector<Fr> pre(5 * 8);
  for (Fr& x : pre) x = test::random_element<Fr>(g);
  for (PoseidonKernel kernel : kKernels) expect_batch_matches(c, kernel, pre, "tag 2^40");
}

TEST(PoseidonBatch, EmptyAndWrongSizes) {
  const PoseidonBatch batch(constants(4));
  std::vector<Fr> none;
  batch.hash({}, none);  // nothing to do
  std::vector<Fr> pre(7), out(2);
  EXPECT_THROW(batch.hash(pre, out), Exception);
}

}  // namespace
}  // namespace cuzk::gadgets
