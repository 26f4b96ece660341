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
#include "gadgets/poseidon_gadget.hpp"
#include "r1cs/keygen_cs.hpp"
#include "r1cs/witness_cs.hpp"
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

// The gadget's own variables for one preimage: the R1CS gadget on a WitnessCS (computing every
// value itself: no traces), past the preimage's allocations.
std::vector<Fr> gadget_variables(const PoseidonConstants& c, std::span<const Fr> preimage) {
  r1cs::WitnessCS<Fr> cs;
  std::vector<r1cs::Variable> vars;
  for (const Fr& x : preimage) vars.push_back(cs.alloc("x", [&] { return x; }));
  poseidon_hash_gadget(cs, c, vars, preimage);
  return {cs.aux().begin() + static_cast<std::ptrdiff_t>(preimage.size()), cs.aux().end()};
}

// Traces n preimages through the batch; each must be the gadget's variables, in its order.
void expect_traces_match(const PoseidonConstants& c, PoseidonKernel kernel, const std::vector<Fr>& preimages,
                         const std::string& what) {
  const PoseidonBatch batch(c, kernel);
  const size_t n = preimages.size() / c.arity, v = poseidon_gadget_variables(c);
  std::vector<std::vector<Fr>> traces(n, std::vector<Fr>(v));
  std::vector<Fr*> out;
  for (auto& t : traces) out.push_back(t.data());
  batch.trace(preimages, out);
  for (size_t k = 0; k < n; ++k) {
    const std::span<const Fr> preimage = std::span(preimages).subspan(k * c.arity, c.arity);
    const std::vector<Fr> want = gadget_variables(c, preimage);
    ASSERT_EQ(want.size(), v) << "arity " << c.arity;
    for (size_t i = 0; i < v; ++i)
      ASSERT_EQ(traces[k][i], want[i]) << what << ", arity " << c.arity << ", kernel " << name(kernel) << ", "
                                       << n << " traces, lane " << k << ", variable " << i << " of " << v;
    EXPECT_EQ(traces[k].back(), poseidon_hash(c, preimage));
  }
}

TEST(PoseidonBatch, TraceLengthIsTheGadgetsRows) {
  // One variable a row: the published row counts (poseidon_test pins the gadget's rows).
  const std::array<size_t, 4> rows = {311, 377, 505, 598};
  for (size_t a = 0; a < kArities.size(); ++a) {
    const PoseidonConstants& c = constants(kArities[a]);
    EXPECT_EQ(poseidon_gadget_variables(c), rows[a]) << kArities[a];
    r1cs::KeygenCS<Fr> cs;
    std::vector<r1cs::Variable> vars;
    for (size_t i = 0; i < c.arity; ++i) vars.push_back(cs.alloc("x", [] { return Fr::zero(); }));
    poseidon_hash_gadget(cs, c, vars, {});
    EXPECT_EQ(cs.num_aux(), c.arity + rows[a]) << kArities[a];
  }
}

TEST(PoseidonBatch, TracesAreTheGadgetsVariables) {
  std::mt19937_64 g = test::rng(0x4d21);
  const std::vector<Fr> edges = edge_values();
  for (size_t arity : kArities) {
    for (PoseidonKernel kernel : kKernels) {
      for (size_t n : {1, 8, 11}) {  // one lane, a full group, a group and a partial one
        std::vector<Fr> pre(n * arity);
        for (Fr& x : pre) x = test::random_element<Fr>(g);
        expect_traces_match(constants(arity), kernel, pre, "random");
      }
      std::vector<Fr> mixed;  // the field's and the lane form's edges
      for (size_t k = 0; k < 8 * arity; ++k) mixed.push_back(edges[(k * 3 + k / arity) % edges.size()]);
      expect_traces_match(constants(arity), kernel, mixed, "edges");
    }
  }
}

TEST(PoseidonBatch, TheGadgetTakesTracesInOrderAndOnlyMatchingOnes) {
  // Two traced hashes; the gadget on a WitnessCS takes them (the same witness as computing), then
  // a preimage that is not the next entry's is computed by the gadget and counted as a miss.
  const PoseidonConstants& c = constants(4);
  std::mt19937_64 g = test::rng(0x5e02);
  std::vector<Fr> pre(2 * 4);
  for (Fr& x : pre) x = test::random_element<Fr>(g);
  const std::array<const PoseidonConstants*, 2> kinds = {&c, &c};
  PoseidonTraces traces(kinds);
  for (size_t k = 0; k < 2; ++k) std::copy_n(pre.begin() + 4 * k, 4, traces.preimage(k).begin());
  const std::array<Fr*, 2> out = {traces.values(0).data(), traces.values(1).data()};
  PoseidonBatch(c).trace(pre, out);
  const auto witness = [&](PoseidonTraces* t, const std::vector<Fr>& preimages) {
    r1cs::WitnessCS<Fr> cs;
    for (size_t k = 0; k < preimages.size() / 4; ++k) {
      std::vector<r1cs::Variable> vars;
      for (size_t i = 0; i < 4; ++i) vars.push_back(cs.alloc("x", [&] { return preimages[4 * k + i]; }));
      poseidon_hash_gadget(cs, c, vars, std::span(preimages).subspan(4 * k, 4), t);
    }
    return cs.aux();
  };
  EXPECT_EQ(witness(&traces, pre), witness(nullptr, pre));
  EXPECT_EQ(traces.taken(), 2u);
  EXPECT_EQ(traces.missed(), 0u);

  // Entries in the other order: the first hash is not the next entry (computed, a miss), the
  // second is, and is taken.
  PoseidonTraces reordered(kinds);
  for (size_t k = 0; k < 2; ++k) std::copy_n(pre.begin() + 4 * (1 - k), 4, reordered.preimage(k).begin());
  const std::array<Fr*, 2> out2 = {reordered.values(0).data(), reordered.values(1).data()};
  std::vector<Fr> swapped(pre.begin() + 4, pre.end());
  swapped.insert(swapped.end(), pre.begin(), pre.begin() + 4);
  PoseidonBatch(c).trace(swapped, out2);
  EXPECT_EQ(witness(&reordered, pre), witness(nullptr, pre));
  EXPECT_EQ(reordered.taken(), 1u);
  EXPECT_EQ(reordered.missed(), 1u);

  // An entry whose preimage differs from the hash's in one element is never taken (its values
  // made wrong here would show in the witness).
  PoseidonTraces other(std::span<const PoseidonConstants* const>(kinds).first(1));
  std::copy_n(pre.begin(), 4, other.preimage(0).begin());
  other.preimage(0)[3] += Fr::one();
  other.values(0)[0] = Fr::from_uint(7);
  EXPECT_EQ(witness(&other, std::vector<Fr>(pre.begin(), pre.begin() + 4)),
            witness(nullptr, std::vector<Fr>(pre.begin(), pre.begin() + 4)));
  EXPECT_EQ(other.taken(), 0u);
  EXPECT_EQ(other.missed(), 1u);
}

TEST(PoseidonBatch, EmptyAndWrongSizes) {
  const PoseidonBatch batch(constants(4));
  std::vector<Fr> none;
  batch.hash({}, none);  // nothing to do
  std::vector<Fr> pre(7), out(2);
  EXPECT_THROW(batch.hash(pre, out), Exception);
  std::array<Fr*, 2> traces{};
  EXPECT_THROW(batch.trace(pre, traces), Exception);
}

}  // namespace
}  // namespace cuzk::gadgets
