#include "groth16/setup.hpp"

#include <random>

#include "core/progress.hpp"
#include "core/secure_random.hpp"
#include "ec/fixed_base.hpp"
#include "groth16/assignment.hpp"
#include "groth16/random_scalar.hpp"
#include "poly/domain.hpp"

namespace cuzk::groth16 {
namespace {

using ff::Fr;

// Scalars → affine multiples of a fixed base, in parallel, batch-normalized per chunk.
template <class Curve>
std::vector<ec::Affine<Curve>> fixed_base_mul(const ec::FixedBaseTable<Curve>& table, std::span<const Fr> scalars,
                                             ThreadPool& pool, Progress& progress) {
  std::vector<ec::Affine<Curve>> out(scalars.size());
  pool.parallel_for(scalars.size(), 1024, [&](size_t begin, size_t end) {
    std::vector<ec::Jacobian<Curve>> j(end - begin);
    for (size_t i = begin; i < end; ++i) j[i - begin] = table.mul(scalars[i].to_int());
    ec::batch_normalize<Curve>(j, std::span(out).subspan(begin, end - begin));
    progress.advance(end - begin);
  });
  return out;
}

}  // namespace

ToxicWaste ToxicWaste::from_seed(uint64_t seed) {
  std::mt19937_64 g(seed);
  const auto fill = [&](std::span<uint8_t> b) {
    for (auto& x : b) x = static_cast<uint8_t>(g());
  };
  return {random_nonzero_scalar(fill), random_nonzero_scalar(fill), random_nonzero_scalar(fill),
          random_nonzero_scalar(fill), random_nonzero_scalar(fill)};
}

ToxicWaste ToxicWaste::random() {
  const auto fill = [](std::span<uint8_t> b) { secure_random_bytes(b); };
  return {random_nonzero_scalar(fill), random_nonzero_scalar(fill), random_nonzero_scalar(fill),
          random_nonzero_scalar(fill), random_nonzero_scalar(fill)};
}

Expected<Parameters> setup(const r1cs::CompiledR1cs<Fr>& r1cs, const ToxicWaste& tw, ThreadPool& pool) {
  const size_t n_c = r1cs.num_constraints(), n_in = r1cs.num_inputs, n_aux = r1cs.num_aux, n_vars = n_in + n_aux;
  auto domain = poly::EvaluationDomain<Fr>::for_size(n_c + n_in);
  if (!domain) return domain.error();
  const size_t m = domain->size();

  // Lagrange basis at tau: L_i = (tau^m - 1)/m · omega^i / (tau - omega^i), one batch inversion.
  const Fr z_tau = tw.tau.pow(ff::BigInt<1>(m)) - Fr::one();
  if (z_tau.is_zero()) return invalid_argument("setup: tau is a root of unity of the domain");
  std::vector<Fr> omega_i(m), denom(m);
  Fr w = Fr::one();
  for (size_t i = 0; i < m; ++i, w *= domain->omega()) {
    omega_i[i] = w;
    denom[i] = tw.tau - w;
  }
  Fr prod = Fr::one();
  std::vector<Fr> prefix(m);
  for (size_t i = 0; i < m; ++i) {
    prefix[i] = prod;
    prod *= denom[i];
  }
  Fr inv = prod.inverse();
  const Fr scale = z_tau * domain->size_inv();
  std::vector<Fr> lagrange(m);
  for (size_t i = m; i-- > 0;) {
    lagrange[i] = scale * omega_i[i] * (inv * prefix[i]);
    inv *= denom[i];
  }

  // u, v, w at tau for every variable (z = [inputs ‖ aux]).
  std::vector<Fr> u(n_vars), v(n_vars), wv(n_vars);
  const auto accumulate = [&](const r1cs::CsrMatrix<Fr>& mat, std::vector<Fr>& out) {
    for (size_t row = 0; row < mat.num_rows(); ++row) {
      for (uint64_t t = mat.row_start[row]; t < mat.row_start[row + 1]; ++t) out[mat.column[t]] += mat.coeff[t] * lagrange[row];
    }
  };
  accumulate(r1cs.a, u);
  accumulate(r1cs.b, v);
  accumulate(r1cs.c, wv);
  for (size_t i = 0; i < n_in; ++i) u[i] += lagrange[n_c + i];  // input rows x_i · 0 = 0

  const Fr gamma_inv = tw.gamma.inverse(), delta_inv = tw.delta.inverse();
  std::vector<Fr> ic_s(n_in), l_s(n_aux);
  for (size_t j = 0; j < n_vars; ++j) {
    const Fr k = tw.beta * u[j] + tw.alpha * v[j] + wv[j];
    if (j < n_in) ic_s[j] = k * gamma_inv;
    else l_s[j - n_in] = k * delta_inv;
  }
  const Density d = density_of(r1cs);
  std::vector<Fr> a_s, b_s;
  for (size_t i = 0; i < n_in; ++i) a_s.push_back(u[i]);
  for (size_t j = 0; j < n_aux; ++j) if (d.a_aux.test(j)) a_s.push_back(u[n_in + j]);
  for (size_t i = 0; i < n_in; ++i) if (d.b_input.test(i)) b_s.push_back(v[i]);
  for (size_t j = 0; j < n_aux; ++j) if (d.b_aux.test(j)) b_s.push_back(v[n_in + j]);
  std::vector<Fr> h_s(m - 1);
  Fr t = z_tau * delta_inv;  // tau^i Z(tau) / delta
  for (size_t i = 0; i + 1 < m; ++i, t *= tw.tau) h_s[i] = t;

  // Progress in points (a G2 point counted as one; shown on a terminal for large keys only).
  const size_t points = ic_s.size() + h_s.size() + l_s.size() + a_s.size() + 2 * b_s.size();
  Progress progress("setup", points, points >= 100'000 && Progress::stderr_is_terminal());
  const ec::FixedBaseTable<ec::G1Curve> g1(G1Affine::generator());
  const ec::FixedBaseTable<ec::G2Curve> g2(G2Affine::generator());
  Parameters p;
  p.vk.alpha_g1 = g1.mul(tw.alpha.to_int()).to_affine();
  p.vk.beta_g1 = g1.mul(tw.beta.to_int()).to_affine();
  p.vk.beta_g2 = g2.mul(tw.beta.to_int()).to_affine();
  p.vk.gamma_g2 = g2.mul(tw.gamma.to_int()).to_affine();
  p.vk.delta_g1 = g1.mul(tw.delta.to_int()).to_affine();
  p.vk.delta_g2 = g2.mul(tw.delta.to_int()).to_affine();
  p.vk.ic = fixed_base_mul(g1, std::span<const Fr>(ic_s), pool, progress);
  p.h = fixed_base_mul(g1, std::span<const Fr>(h_s), pool, progress);
  p.l = fixed_base_mul(g1, std::span<const Fr>(l_s), pool, progress);
  p.a = fixed_base_mul(g1, std::span<const Fr>(a_s), pool, progress);
  p.b_g1 = fixed_base_mul(g1, std::span<const Fr>(b_s), pool, progress);
  p.b_g2 = fixed_base_mul(g2, std::span<const Fr>(b_s), pool, progress);
  return p;
}

}  // namespace cuzk::groth16
