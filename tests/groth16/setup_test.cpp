// key_scalars against a sequential reference written from the formulas (setup.hpp), across pool
// sizes, chunks, scatter owners and segments; setup() as generator · key_scalars, proving and
// verifying; and tau at a root of unity of the domain.

#include <gtest/gtest.h>

#include <string>

#include "ec/scalar_mul.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "poly/domain.hpp"
#include "support/circuits.hpp"
#include "support/groth16_circuits.hpp"
#include "support/random.hpp"

namespace cuzk::groth16 {
namespace {

using ff::Fr;

// The domain's omega (bellperson's root of unity), checked to be a primitive m-th root.
Fr domain_omega(size_t m) {
  const Fr omega = poly::EvaluationDomain<Fr>::for_size(m).value().omega();
  EXPECT_TRUE(omega.pow(uint64_t(m)).is_one());
  EXPECT_TRUE(m == 1 || !omega.pow(uint64_t(m / 2)).is_one());
  return omega;
}

size_t domain_size(const r1cs::CompiledR1cs<Fr>& r1cs) {
  size_t m = 1;
  while (m < r1cs.num_constraints() + r1cs.num_inputs) m *= 2;
  return m;
}

// The key's exponents one by one, as setup.hpp and keys.hpp state them: every L_i(tau) with its
// own inversion, u/v/w by walking the rows, density by "some non-zero coefficient".
KeyScalars reference(const r1cs::CompiledR1cs<Fr>& r1cs, const ToxicWaste& tw) {
  const size_t n_c = r1cs.num_constraints(), n_in = r1cs.num_inputs, n = n_in + r1cs.num_aux;
  const size_t m = domain_size(r1cs);
  const Fr omega = domain_omega(m);
  const Fr z = tw.tau.pow(uint64_t(m)) - Fr::one();
  std::vector<Fr> lagrange(m);
  Fr omega_i = Fr::one();
  for (size_t i = 0; i < m; ++i, omega_i *= omega)
    lagrange[i] = z * Fr::from_uint(m).inverse() * omega_i * (tw.tau - omega_i).inverse();

  std::vector<Fr> u(n), v(n), w(n);
  std::vector<bool> dense_a(n), dense_b(n);
  const auto walk = [&](const r1cs::CsrMatrix<Fr>& mat, std::vector<Fr>& out, std::vector<bool>* dense) {
    for (size_t row = 0; row < n_c; ++row) {
      for (uint64_t t = mat.row_start[row]; t < mat.row_start[row + 1]; ++t) {
        out[mat.column[t]] += mat.coeff[t] * lagrange[row];
        if (dense && !mat.coeff[t].is_zero()) (*dense)[mat.column[t]] = true;
      }
    }
  };
  walk(r1cs.a, u, &dense_a);
  walk(r1cs.b, v, &dense_b);
  walk(r1cs.c, w, nullptr);
  for (size_t i = 0; i < n_in; ++i) u[i] += lagrange[n_c + i];

  KeyScalars ks;
  for (size_t j = 0; j < n; ++j) {
    const Fr k = tw.beta * u[j] + tw.alpha * v[j] + w[j];
    if (j < n_in) ks.ic.push_back(k * tw.gamma.inverse());
    else ks.l.push_back(k * tw.delta.inverse());
    if (j < n_in || dense_a[j]) ks.a.push_back(u[j]);
    if (dense_b[j]) ks.b.push_back(v[j]);
  }
  for (size_t i = 0; i + 1 < m; ++i) ks.h.push_back(tw.tau.pow(uint64_t(i)) * z * tw.delta.inverse());
  return ks;
}

// The first difference, named, rather than two dumps of field elements.
std::string first_difference(const KeyScalars& got, const KeyScalars& want) {
  const std::pair<const char*, const std::vector<Fr> KeyScalars::*> parts[] = {
      {"ic", &KeyScalars::ic}, {"h", &KeyScalars::h}, {"l", &KeyScalars::l},
      {"a", &KeyScalars::a},   {"b", &KeyScalars::b}};
  for (const auto& [name, part] : parts) {
    const auto &g = got.*part, &w = want.*part;
    if (g.size() != w.size())
      return std::string(name) + ": " + std::to_string(g.size()) + " scalars, want " + std::to_string(w.size());
    for (size_t i = 0; i < g.size(); ++i)
      if (g[i] != w[i]) return std::string(name) + "[" + std::to_string(i) + "] differs";
  }
  return "";
}

r1cs::CompiledR1cs<Fr> random_circuit(size_t rows, uint64_t seed) {
  return test::compile([&](auto& cs) { test::random_r1cs(cs, rows, seed); });
}

// Random R1CS (coefficients 1, -1, random and merged zeros; > 512 inputs) and a boolean circuit
// (ONE - b in every B row), against the reference for pools of 1-3 threads, the default split
// and splits that cut every step into many chunks and the scatter into several owners (stripes
// of 512 variables) and segments (down to one row a segment).
TEST(Groth16Setup, KeyScalarsMatchTheReference) {
  const uint64_t seed = test::seed();
  const std::vector<r1cs::CompiledR1cs<Fr>> circuits = {
      random_circuit(3000, seed), test::compile([&](auto& cs) { test::booleans(cs, 2500, seed + 1); })};
  ASSERT_GT(circuits[0].num_inputs, 512u);  // inputs summed per block of rows, and two stripes of others
  const ToxicWaste tw = ToxicWaste::from_seed(seed);
  for (size_t which = 0; which < circuits.size(); ++which) {
    const auto& r1cs = circuits[which];
    const KeyScalars want = reference(r1cs, tw);
    // density_of (groth16/assignment.hpp) agrees on how many variables are dense.
    const Density d = density_of(r1cs);
    ASSERT_EQ(want.a.size(), r1cs.num_inputs + d.a_aux.count());
    ASSERT_EQ(want.b.size(), d.b_input.count() + d.b_aux.count());
    ASSERT_LT(want.b.size(), r1cs.num_inputs + r1cs.num_aux);  // some variable is not dense in B

    for (unsigned threads : {1u, 2u, 3u}) {
      ThreadPool pool(threads);
      EXPECT_EQ(first_difference(key_scalars(r1cs, tw, pool).value(), want), "") << which << " " << threads;
      const detail::KeyScalarsSplit splits[] = {{37, threads, 50}, {64, 5, 1000}, {1000, 2, 3}, {5, 1, 1 << 20}};
      for (const auto& split : splits) {
        EXPECT_EQ(first_difference(detail::key_scalars(r1cs, tw, pool, split).value(), want), "")
            << "circuit " << which << ", " << threads << " threads, chunk " << split.chunk << ", " << split.owners
            << " owners, segments of " << split.segment_terms << " terms";
      }
    }
  }
}

// setup() = generator · key_scalars, point for point, and its key proves and verifies.
TEST(Groth16Setup, SetupIsTheGeneratorTimesTheKeyScalars) {
  ThreadPool pool(2);
  const uint64_t seed = test::seed();
  const auto circuit = [&](auto& cs) { test::random_r1cs(cs, 60, seed + 2); };
  const auto r1cs = test::compile(circuit);
  const ToxicWaste tw = ToxicWaste::from_seed(seed + 3);
  const Parameters p = setup(r1cs, tw, pool).value();
  const KeyScalars want = reference(r1cs, tw);

  const auto g1 = ec::Jacobian<ec::G1Curve>::generator();
  const auto g2 = ec::Jacobian<ec::G2Curve>::generator();
  const auto times_g1 = [&](const std::vector<Fr>& s) {
    std::vector<G1Affine> out;
    for (const Fr& x : s) out.push_back(ec::scalar_mul(g1, x).to_affine());
    return out;
  };
  EXPECT_TRUE(p.vk.ic == times_g1(want.ic));
  EXPECT_TRUE(p.h == times_g1(want.h));
  EXPECT_TRUE(p.l == times_g1(want.l));
  EXPECT_TRUE(p.a == times_g1(want.a));
  EXPECT_TRUE(p.b_g1 == times_g1(want.b));
  ASSERT_EQ(p.b_g2.size(), want.b.size());
  for (size_t k = 0; k < want.b.size(); ++k) EXPECT_TRUE(p.b_g2[k] == ec::scalar_mul(g2, want.b[k]).to_affine()) << k;
  EXPECT_TRUE(p.vk.alpha_g1 == ec::scalar_mul(g1, tw.alpha).to_affine());
  EXPECT_TRUE(p.vk.beta_g1 == ec::scalar_mul(g1, tw.beta).to_affine());
  EXPECT_TRUE(p.vk.beta_g2 == ec::scalar_mul(g2, tw.beta).to_affine());
  EXPECT_TRUE(p.vk.gamma_g2 == ec::scalar_mul(g2, tw.gamma).to_affine());
  EXPECT_TRUE(p.vk.delta_g1 == ec::scalar_mul(g1, tw.delta).to_affine());
  EXPECT_TRUE(p.vk.delta_g2 == ec::scalar_mul(g2, tw.delta).to_affine());
  EXPECT_TRUE(verifying_key(tw, p.vk.ic) == p.vk);

  const Assignment w = test::synthesize(circuit);
  const PreparedVerifyingKey pvk(p.vk);
  const Proof proof = prove(p, w, Blinding::random(), pool).value();
  EXPECT_TRUE(verify(pvk, proof, test::public_inputs(w)).value());
  std::vector<Fr> wrong = test::public_inputs(w);
  wrong.at(0) += Fr::one();
  EXPECT_FALSE(verify(pvk, proof, wrong).value());
}

// tau = omega^i makes the Lagrange denominator tau - omega^i zero: a clear error, not a key.
TEST(Groth16Setup, TauAtARootOfUnityOfTheDomainFails) {
  ThreadPool pool(2);
  const auto r1cs = random_circuit(100, test::seed());
  const size_t m = domain_size(r1cs);
  for (const Fr tau : {Fr::one(), domain_omega(m).pow(uint64_t{5}), -Fr::one()}) {
    ToxicWaste tw = ToxicWaste::from_seed(test::seed());
    tw.tau = tau;
    const auto ks = key_scalars(r1cs, tw, pool);
    ASSERT_FALSE(ks);
    EXPECT_EQ(ks.error().code, ErrorCode::kInvalidArgument);
    EXPECT_NE(ks.error().message.find("tau is a root of unity of the domain"), std::string::npos) << ks.error().message;
    EXPECT_FALSE(setup(r1cs, tw, pool));
  }
  // A root of unity of a larger domain only (order 2m) is fine.
  ToxicWaste tw = ToxicWaste::from_seed(test::seed());
  tw.tau = domain_omega(2 * m);
  EXPECT_TRUE(key_scalars(r1cs, tw, pool));
}

}  // namespace
}  // namespace cuzk::groth16
