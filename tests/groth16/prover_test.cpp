// Setup, prove and verify on our own circuits, through both synthesis paths (ProvingCS, and
// WitnessCS + the compiled circuit's SpMV).

#include <gtest/gtest.h>

#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/witness_cs.hpp"
#include "support/circuits.hpp"
#include "support/groth16_circuits.hpp"
#include "support/random.hpp"

namespace cuzk::groth16 {
namespace {

using ff::Fr;

using test::compile;
using test::public_inputs;
using test::synthesize;

TEST(Groth16, CubicProvesAndVerifiesAndRejectsAWrongStatement) {
  ThreadPool pool(2);
  const auto circuit = [](auto& cs) { test::cubic(cs, Fr::from_uint(3)); };  // 27 + 3 + 5 = 35
  const auto r1cs = compile(circuit);
  const auto params = setup(r1cs, ToxicWaste::from_seed(test::seed()), pool).value();
  const Assignment w = synthesize(circuit);
  ASSERT_EQ(public_inputs(w), std::vector<Fr>{Fr::from_uint(35)});
  const Proof proof = prove(params, w, Blinding::random(), pool).value();
  const PreparedVerifyingKey pvk(params.vk);
  EXPECT_TRUE(verify(pvk, proof, public_inputs(w)).value());
  EXPECT_FALSE(verify(pvk, proof, std::vector<Fr>{Fr::from_uint(36)}).value());

  // The same proof bytes round-trip, and two proofs of one statement differ (blinding).
  EXPECT_EQ(Proof::from_bytes(proof.to_bytes()).value(), proof);
  const Proof again = prove(params, w, Blinding::random(), pool).value();
  EXPECT_NE(again.to_bytes(), proof.to_bytes());
  EXPECT_TRUE(verify(pvk, again, public_inputs(w)).value());
}

// A witness that does not satisfy the circuit never yields a verifying proof.
TEST(Groth16, UnsatisfiedWitnessDoesNotVerify) {
  ThreadPool pool(2);
  const auto circuit = [](auto& cs) { test::random_r1cs(cs, 300, 7); };
  const auto params = setup(compile(circuit), ToxicWaste::from_seed(test::seed()), pool).value();
  Assignment w = synthesize(circuit);
  const PreparedVerifyingKey pvk(params.vk);
  ASSERT_TRUE(verify(pvk, prove(params, w, Blinding::random(), pool).value(), public_inputs(w)).value());
  auto rng = test::rng(3);
  for (int trial = 0; trial < 3; ++trial) {
    Assignment bad = w;
    const size_t j = rng() % bad.aux.size();
    bad.aux[j] += Fr::one();  // the rows a, b, c no longer match z, or no longer satisfy a·b = c
    bad.c[rng() % bad.c.size()] += Fr::one();
    EXPECT_FALSE(verify(pvk, prove(params, bad, Blinding::random(), pool).value(), public_inputs(bad)).value());
  }
}

// ProvingCS and WitnessCS + SpMV give the same proof for the same blinding; random R1CS of 2^12
// rows and a boolean-dominated circuit.
TEST(Groth16, CompiledPathGivesTheSameProof) {
  ThreadPool pool(2);
  for (int which = 0; which < 2; ++which) {
    const auto circuit = [which](auto& cs) {
      if (which == 0) test::random_r1cs(cs, 4096, 11);
      else test::booleans(cs, 3000, 12);
    };
    const auto r1cs = compile(circuit);
    const auto params = setup(r1cs, ToxicWaste::from_seed(test::seed() + which), pool).value();
    const Assignment w = synthesize(circuit);

    r1cs::WitnessCS<Fr> wcs;
    circuit(wcs);
    auto rows = r1cs::spmv(r1cs, std::span<const Fr>(wcs.inputs()), std::span<const Fr>(wcs.aux()), pool);
    const Assignment compiled{wcs.inputs(), wcs.aux(), rows.a, rows.b, rows.c, density_of(r1cs)};
    ASSERT_EQ(compiled.a, w.a);
    ASSERT_EQ(compiled.density.b_aux, w.density.b_aux);

    const Blinding blinding = Blinding::from_seed(test::seed());
    ProverTimes times;
    const Proof p1 = prove(params, w, blinding, pool, &times).value();
    const Proof p2 = prove(params, compiled, blinding, pool).value();
    EXPECT_EQ(p1, p2);
    EXPECT_GT(times.total, 0.0);
    EXPECT_TRUE(verify(PreparedVerifyingKey(params.vk), p1, public_inputs(w)).value()) << which;
  }
}

TEST(Groth16, MismatchedAssignmentIsAnError) {
  ThreadPool pool(1);
  const auto params = setup(compile([](auto& cs) { test::cubic(cs, Fr::from_uint(2)); }),
                            ToxicWaste::from_seed(1), pool).value();
  const Assignment other = synthesize([](auto& cs) { test::random_r1cs(cs, 20, 1); });
  auto e = prove(params, other, Blinding::random(), pool);
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().message.find("Groth16 prove:"), std::string::npos);
}

}  // namespace
}  // namespace cuzk::groth16
