#include "groth16/verifier.hpp"

#include <string>
#include <utility>

#include "core/secure_random.hpp"
#include "core/thread_pool.hpp"
#include "ec/scalar_mul.hpp"
#include "msm/pippenger.hpp"
#include "pairing/pairing.hpp"

namespace cuzk::groth16 {
namespace {

using ec::G1Jacobian;

Expected<G1Jacobian> input_accumulator(const PreparedVerifyingKey& pvk, std::span<const ff::Fr> inputs) {
  if (inputs.size() + 1 != pvk.ic.size()) {
    return invalid_argument("Groth16 verify: " + std::to_string(inputs.size()) + " public inputs, the key expects " +
                            std::to_string(pvk.ic.size() - 1));
  }
  G1Jacobian acc = G1Jacobian::from_affine(pvk.ic[0]);
  // ic[0] + Σ inputs[i]·ic[i+1]. A few inputs (PoRep's, SnapDeals'): one windowed scalar
  // multiplication each. Many (a 32 GiB WindowPoSt partition has 25,839: 985 ms that way on the
  // H200's host, docs/PERF.md 29): one Pippenger MSM on the caller's thread.
  constexpr size_t kMsmFrom = 64;
  if (inputs.size() >= kMsmFrom) {
    ThreadPool caller(1);
    return acc + msm::multi_exp<ec::G1Curve>(std::span(pvk.ic).subspan(1), inputs, caller);
  }
  for (size_t i = 0; i < inputs.size(); ++i) acc += ec::scalar_mul(G1Jacobian::from_affine(pvk.ic[i + 1]), inputs[i].to_int());
  return acc;
}

}  // namespace

PreparedVerifyingKey::PreparedVerifyingKey(const VerifyingKey& vk)
    : neg_alpha_g1(-vk.alpha_g1), beta_g2(vk.beta_g2), neg_gamma_g2(-vk.gamma_g2), neg_delta_g2(-vk.delta_g2),
      ic(vk.ic) {}

Expected<G1Affine> inputs_term(const PreparedVerifyingKey& pvk, std::span<const ff::Fr> public_inputs) {
  auto acc = input_accumulator(pvk, public_inputs);
  if (!acc) return acc.error();
  return acc->to_affine();
}

bool verify_prepared(const PreparedVerifyingKey& pvk, const Proof& proof, const G1Affine& inputs_term) {
  const pairing::G2Prepared b(proof.b);
  const std::pair<G1Affine, const pairing::G2Prepared*> pairs[] = {
      {proof.a, &b}, {pvk.neg_alpha_g1, &pvk.beta_g2}, {inputs_term, &pvk.neg_gamma_g2}, {proof.c, &pvk.neg_delta_g2}};
  return pairing::pairing_product_is_one(pairs);
}

Expected<bool> verify(const PreparedVerifyingKey& pvk, const Proof& proof, std::span<const ff::Fr> public_inputs) {
  auto term = inputs_term(pvk, public_inputs);
  if (!term) return term.error();
  return verify_prepared(pvk, proof, *term);
}

Expected<bool> verify_batch(const PreparedVerifyingKey& pvk, std::span<const Proof> proofs,
                            std::span<const std::vector<ff::Fr>> public_inputs) {
  if (proofs.size() != public_inputs.size()) {
    return invalid_argument("Groth16 batch verify: " + std::to_string(proofs.size()) + " proofs but " +
                            std::to_string(public_inputs.size()) + " input vectors");
  }
  if (proofs.empty()) return true;
  G1Jacobian sum_rho_alpha, sum_acc, sum_c;
  ff::Fr sum_rho;
  std::vector<G1Affine> rho_a(proofs.size());
  std::vector<pairing::G2Prepared> b(proofs.size());
  for (size_t j = 0; j < proofs.size(); ++j) {
    auto acc = input_accumulator(pvk, public_inputs[j]);
    if (!acc) return acc.error();
    uint8_t bytes[16];
    secure_random_bytes(bytes);
    ff::BigInt<2> rho;
    for (int k = 0; k < 16; ++k) rho.limbs[k / 8] |= uint64_t{bytes[k]} << (8 * (k % 8));
    rho_a[j] = ec::scalar_mul(G1Jacobian::from_affine(proofs[j].a), rho).to_affine();
    b[j] = pairing::G2Prepared(proofs[j].b);
    sum_acc += ec::scalar_mul(*acc, rho);
    sum_c += ec::scalar_mul(G1Jacobian::from_affine(proofs[j].c), rho);
    ff::BigInt<4> rho4;
    rho4.limbs[0] = rho.limbs[0];
    rho4.limbs[1] = rho.limbs[1];
    sum_rho += ff::Fr::from_int(rho4);
  }
  sum_rho_alpha = ec::scalar_mul(G1Jacobian::from_affine(pvk.neg_alpha_g1), sum_rho.to_int());
  std::vector<std::pair<G1Affine, const pairing::G2Prepared*>> pairs;
  pairs.reserve(proofs.size() + 3);
  for (size_t j = 0; j < proofs.size(); ++j) pairs.emplace_back(rho_a[j], &b[j]);
  pairs.emplace_back(sum_rho_alpha.to_affine(), &pvk.beta_g2);
  pairs.emplace_back(sum_acc.to_affine(), &pvk.neg_gamma_g2);
  pairs.emplace_back(sum_c.to_affine(), &pvk.neg_delta_g2);
  return pairing::pairing_product_is_one(pairs);
}

}  // namespace cuzk::groth16
