#include "groth16/prover.hpp"

#include <random>
#include <string>

#include "core/secure_random.hpp"
#include "core/timing.hpp"
#include "ec/scalar_mul_ct.hpp"
#include "groth16/random_scalar.hpp"
#include "msm/pippenger.hpp"
#include "poly/domain.hpp"

namespace cuzk::groth16 {
namespace {

using ff::Fr;

Error mismatch(const std::string& what, size_t got, size_t want) {
  return invalid_argument("Groth16 prove: " + what + " " + std::to_string(got) + ", the parameters need " + std::to_string(want));
}

// Stage 1: the coefficients of h = (a·b − c)/Z, m − 1 of them.
Expected<std::vector<Fr>> quotient(const Assignment& w, ThreadPool& pool) {
  const size_t n_c = w.a.size(), n_in = w.inputs.size();
  auto domain = poly::EvaluationDomain<Fr>::for_size(n_c + n_in);
  if (!domain) return domain.error();
  const size_t m = domain->size();
  std::vector<Fr> a(m), b(m), c(m);
  std::copy(w.a.begin(), w.a.end(), a.begin());
  std::copy(w.b.begin(), w.b.end(), b.begin());
  std::copy(w.c.begin(), w.c.end(), c.begin());
  std::copy(w.inputs.begin(), w.inputs.end(), a.begin() + static_cast<std::ptrdiff_t>(n_c));
  quotient_in_place(*domain, a, b, c, pool);
  a.resize(m - 1);
  return a;
}

}  // namespace

void quotient_in_place(const poly::EvaluationDomain<ff::Fr>& domain, std::span<Fr> a, std::span<Fr> b, std::span<Fr> c,
                       ThreadPool& pool) {
  for (std::span<Fr> v : {a, b}) {
    domain.intt(v, pool);
    domain.coset_ntt(v, pool);  // A(g·ω^i), B(g·ω^i)
  }
  domain.intt(c, pool);  // C's coefficients: coset_intt(coset_ntt(C)) would give them back
  pool.parallel_for(a.size(), 4096, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) a[i] *= b[i];
  });
  domain.coset_intt(a, pool);  // A·B mod (x^m − g^m)
  const Fr z_inv = domain.vanishing_on_coset().inverse();
  pool.parallel_for(a.size(), 4096, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) a[i] = (a[i] - c[i]) * z_inv;
  });
}

Blinding Blinding::random() {
  const auto fill = [](std::span<uint8_t> b) { secure_random_bytes(b); };
  return {random_nonzero_scalar(fill), random_nonzero_scalar(fill)};
}

Blinding Blinding::from_seed(uint64_t seed) {
  std::mt19937_64 g(seed ^ 0x9e3779b97f4a7c15ull);
  const auto fill = [&](std::span<uint8_t> b) {
    for (auto& x : b) x = static_cast<uint8_t>(g());
  };
  return {random_nonzero_scalar(fill), random_nonzero_scalar(fill)};
}

Expected<void> check_assignment(const ParameterSizes& params, const Assignment& w) {
  const size_t n_in = w.inputs.size(), n_aux = w.aux.size();
  if (n_in != params.ic) return mismatch("inputs", n_in, params.ic);
  if (n_aux != params.l) return mismatch("aux variables", n_aux, params.l);
  if (w.b.size() != w.a.size() || w.c.size() != w.a.size()) return invalid_argument("Groth16 prove: a, b, c differ in length");
  if (w.density.a_aux.size() != n_aux || w.density.b_aux.size() != n_aux || w.density.b_input.size() != n_in) {
    return invalid_argument("Groth16 prove: density bitmaps do not match the assignment");
  }
  if (params.a != n_in + w.density.a_aux.count()) return mismatch("A-dense variables", n_in + w.density.a_aux.count(), params.a);
  const size_t b_total = w.density.b_input.count() + w.density.b_aux.count();
  if (params.b_g1 != b_total) return mismatch("B-dense variables", b_total, params.b_g1);
  if (params.b_g2 != b_total) return mismatch("B-dense variables (G2)", b_total, params.b_g2);
  const auto domain = poly::EvaluationDomain<Fr>::for_size(w.a.size() + n_in);
  if (!domain) return domain.error();
  if (domain->size() != params.h + 1) return mismatch("domain points", domain->size(), params.h + 1);
  return {};
}

Proof assemble(const VerifyingKey& vk, const MsmSums& sums, const Blinding& blinding) {
  // r, s and r·s are secret (they hide the witness): constant-time scalar multiplication.
  const auto r = blinding.r.to_int(), s = blinding.s.to_int(), rs = (blinding.r * blinding.s).to_int();
  const ec::G1Jacobian delta1 = ec::G1Jacobian::from_affine(vk.delta_g1);
  const ec::G1Jacobian a = sums.a + vk.alpha_g1 + ec::scalar_mul_ct(delta1, r);
  const ec::G2Jacobian b = sums.b_g2 + vk.beta_g2 + ec::scalar_mul_ct(ec::G2Jacobian::from_affine(vk.delta_g2), s);
  const ec::G1Jacobian b1 = sums.b_g1 + vk.beta_g1 + ec::scalar_mul_ct(delta1, s);
  const ec::G1Jacobian c = ec::scalar_mul_ct(a, s) + ec::scalar_mul_ct(b1, r) + (-ec::scalar_mul_ct(delta1, rs)) + sums.h + sums.l;
  return Proof{a.to_affine(), b.to_affine(), c.to_affine()};
}

Expected<Proof> prove(const Parameters& params, const Assignment& w, const Blinding& blinding, ThreadPool& pool,
                      ProverTimes* times) {
  const auto t_start = Clock::now();
  ProverTimes t;
  if (auto ok = check_assignment(ParameterSizes::of(params), w); !ok) return ok.error();
  const size_t n_in = w.inputs.size(), b_in = w.density.b_input.count();

  auto h = timed(t.h_ntt, [&] { return quotient(w, pool); });
  if (!h) return h.error();

  using msm::multi_exp;
  const std::span<const G1Affine> a_bases(params.a), b1_bases(params.b_g1);
  const std::span<const ec::G2Affine> b2_bases(params.b_g2);
  MsmSums sums;
  sums.h = timed(t.msm_h, [&] { return multi_exp<ec::G1Curve>(params.h, *h, pool); });
  sums.l = timed(t.msm_l, [&] { return multi_exp<ec::G1Curve>(params.l, w.aux, pool); });
  sums.a = timed(t.msm_a, [&] {
    return multi_exp<ec::G1Curve>(a_bases.first(n_in), w.inputs, pool) +
           multi_exp<ec::G1Curve>(a_bases.subspan(n_in), w.aux, w.density.a_aux, pool);
  });
  sums.b_g1 = timed(t.msm_b_g1, [&] {
    return multi_exp<ec::G1Curve>(b1_bases.first(b_in), w.inputs, w.density.b_input, pool) +
           multi_exp<ec::G1Curve>(b1_bases.subspan(b_in), w.aux, w.density.b_aux, pool);
  });
  sums.b_g2 = timed(t.msm_b_g2, [&] {
    return multi_exp<ec::G2Curve>(b2_bases.first(b_in), w.inputs, w.density.b_input, pool) +
           multi_exp<ec::G2Curve>(b2_bases.subspan(b_in), w.aux, w.density.b_aux, pool);
  });

  const Proof proof = assemble(params.vk, sums, blinding);  // stage 3
  t.total = ms_since(t_start);
  if (times) *times = t;
  return proof;
}

}  // namespace cuzk::groth16
