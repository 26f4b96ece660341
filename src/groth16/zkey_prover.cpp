#include "groth16/zkey_prover.hpp"

#include <string>

#include "ec/scalar_mul_ct.hpp"
#include "msm/pippenger.hpp"
#include "poly/domain.hpp"
#include "poly/root_of_unity.hpp"

namespace cuzk::groth16 {

using ff::Fr;

Expected<Proof> prove_zkey(const Zkey& zkey, std::span<const Fr> witness, const Blinding& blinding, ThreadPool& pool) {
  if (witness.size() != zkey.n_vars) {
    return invalid_argument("zkey prove: the witness has " + std::to_string(witness.size()) + " values, the key " +
                            std::to_string(zkey.n_vars) + " signals");
  }
  unsigned log_m = 0;
  while ((size_t{1} << log_m) < zkey.domain_size) ++log_m;
  if (log_m >= 32) return invalid_argument("zkey prove: domain too large");
  // snarkjs's ω and coset shift, so that H's evaluations are the ones its zkey was made for.
  auto domain = poly::EvaluationDomain<Fr>::with_roots(log_m, poly::snarkjs_root_of_unity(log_m),
                                                       poly::snarkjs_root_of_unity(log_m + 1));
  if (!domain) return domain.error();
  const size_t m = domain->size();

  // Row values of A·z and B·z from the coefficient list; C·z = (A·z)(B·z) row by row.
  std::vector<Fr> a(m), b(m), c(m);
  for (const auto& k : zkey.coefficients) (k.matrix == 0 ? a : b)[k.row] += k.value * witness[k.signal];
  for (size_t i = 0; i < m; ++i) c[i] = a[i] * b[i];
  // Values at the odd 2m-th roots: interpolate, then evaluate on the coset.
  for (auto* v : {&a, &b, &c}) {
    domain->intt(*v, pool);
    domain->coset_ntt(*v, pool);
  }
  pool.parallel_for(m, 4096, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) a[i] = a[i] * b[i] - c[i];
  });

  using msm::multi_exp;
  const std::span<const Fr> z(witness);
  const ec::G1Jacobian h = multi_exp<ec::G1Curve>(zkey.h, a, pool);
  const ec::G1Jacobian pa = multi_exp<ec::G1Curve>(zkey.a, z, pool);
  const ec::G1Jacobian pb1 = multi_exp<ec::G1Curve>(zkey.b1, z, pool);
  const ec::G2Jacobian pb2 = multi_exp<ec::G2Curve>(zkey.b2, z, pool);
  const ec::G1Jacobian pc = multi_exp<ec::G1Curve>(zkey.c, z.subspan(zkey.n_public + 1), pool);

  const auto r = blinding.r.to_int(), s = blinding.s.to_int(), rs = (blinding.r * blinding.s).to_int();
  const ec::G1Jacobian delta1 = ec::G1Jacobian::from_affine(zkey.vk.delta_g1);
  const ec::G1Jacobian pi_a = pa + zkey.vk.alpha_g1 + ec::scalar_mul_ct(delta1, r);
  const ec::G2Jacobian pi_b = pb2 + zkey.vk.beta_g2 + ec::scalar_mul_ct(ec::G2Jacobian::from_affine(zkey.vk.delta_g2), s);
  const ec::G1Jacobian b1 = pb1 + zkey.vk.beta_g1 + ec::scalar_mul_ct(delta1, s);
  const ec::G1Jacobian pi_c = pc + h + ec::scalar_mul_ct(pi_a, s) + ec::scalar_mul_ct(b1, r) + (-ec::scalar_mul_ct(delta1, rs));
  return Proof{pi_a.to_affine(), pi_b.to_affine(), pi_c.to_affine()};
}

}  // namespace cuzk::groth16
