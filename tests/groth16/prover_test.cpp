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

// quotient_in_place's six transforms against bellperson's seven (shared/SPEC.md §5), word for
// word, on vectors that satisfy no constraint system (the identity is linear, not a property of
// satisfied witnesses); and on a satisfied a·b = c, h·Z = A·B − C at a random point.
TEST(Groth16, QuotientInSixTransformsEqualsBellpersonsSeven) {
  ThreadPool pool(2);
  auto g = test::rng(43);
  for (unsigned log_m : {0u, 1u, 2u, 7u, 12u}) {
    const size_t m = size_t{1} << log_m;
    const auto domain = poly::EvaluationDomain<Fr>::for_size(m).value();
    std::vector<Fr> a(m), b(m), c(m);
    for (size_t i = 0; i < m; ++i) {
      a[i] = test::random_element<Fr>(g);
      b[i] = test::random_element<Fr>(g);
      c[i] = test::random_element<Fr>(g);
    }
    std::vector<Fr> want = a, wb = b, wc = c;
    for (auto* v : {&want, &wb, &wc}) {
      domain.intt(*v, pool);
      domain.coset_ntt(*v, pool);
    }
    for (size_t i = 0; i < m; ++i) want[i] = want[i] * wb[i] - wc[i];
    domain.divide_by_vanishing_on_coset(want, pool);
    domain.coset_intt(want, pool);
    std::vector<Fr> got = a, gb = b, gc = c;
    quotient_in_place(domain, got, gb, gc, pool);
    EXPECT_EQ(got, want) << "m = " << m;

    // Satisfied: c = a·b on the domain, so A·B − C = h·Z with deg h <= m − 2.
    for (size_t i = 0; i < m; ++i) c[i] = a[i] * b[i];
    std::vector<Fr> h = a, pa = a, pb = b, pc = c;
    quotient_in_place(domain, h, b, c, pool);
    EXPECT_EQ(h[m - 1], Fr::zero()) << "m = " << m;
    for (auto* v : {&pa, &pb, &pc}) domain.intt(*v, pool);
    const Fr x = test::random_element<Fr>(g);
    const auto eval = [&](const std::vector<Fr>& p) {
      Fr y = Fr::zero();
      for (size_t i = m; i-- > 0;) y = y * x + p[i];
      return y;
    };
    EXPECT_EQ(eval(pa) * eval(pb) - eval(pc), eval(h) * (x.pow(m) - Fr::one())) << "m = " << m;
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
