// Explicit instantiations of the r1cs templates for BLS12-381 Fr, and the SHA-256 of the row
// fingerprint (OpenSSL).

#include <openssl/evp.h>

#include "core/error.hpp"
#include "core/hex.hpp"
#include "r1cs/keygen_cs.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/row_digest.hpp"
#include "r1cs/test_cs.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::r1cs {

struct Sha256::State {
  EVP_MD_CTX* ctx = nullptr;
};

Sha256::Sha256() : state_(std::make_unique<State>()) {
  state_->ctx = EVP_MD_CTX_new();
  if (state_->ctx == nullptr || EVP_DigestInit_ex(state_->ctx, EVP_sha256(), nullptr) != 1) {
    throw Exception(Error{ErrorCode::kInternal, "SHA-256: OpenSSL initialisation failed"});
  }
}

Sha256::~Sha256() { EVP_MD_CTX_free(state_->ctx); }

void Sha256::update(std::span<const uint8_t> bytes) { EVP_DigestUpdate(state_->ctx, bytes.data(), bytes.size()); }

std::string Sha256::hex_digest() {
  uint8_t out[32];
  unsigned len = 0;
  EVP_DigestFinal_ex(state_->ctx, out, &len);
  return to_hex(std::span<const uint8_t>(out, len));
}

template class LinearCombination<ff::Fr>;
template class WitnessCS<ff::Fr>;
template class ProvingCS<ff::Fr>;
template class KeygenCS<ff::Fr>;
template class TestCS<ff::Fr>;

}  // namespace cuzk::r1cs
