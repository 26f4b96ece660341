#pragma once
// The R1CS fingerprint of shared/tools/porep_circuit_model.py: SHA-256 over the canonical row
// serialisation. For each row, for each of A, B, C:
//   u32 LE number of terms, then per term (inputs by ascending index, then aux by ascending
//   index, i.e. Variable order): u8 kind (0 input, 1 aux) | u32 LE index | canonical coeff LE.
// No header, no separators; merged zero coefficients are serialised like any other.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "r1cs/linear_combination.hpp"

namespace cuzk::r1cs {

// Streaming SHA-256 (OpenSSL), lower-case hex at the end.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  void update(std::span<const uint8_t> bytes);
  std::string hex_digest();  // finishes the hash

 private:
  struct State;
  std::unique_ptr<State> state_;
};

template <class F>
void append_canonical(std::vector<uint8_t>& out, const LinearCombination<F>& lc) {
  auto put_u32 = [&](uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(uint8_t(v >> (8 * i)));
  };
  put_u32(static_cast<uint32_t>(lc.size()));
  for (const Term<F>& t : lc.terms()) {
    out.push_back(static_cast<uint8_t>(t.var.kind));
    put_u32(t.var.index);
    const size_t at = out.size();
    out.resize(at + F::kBytes);
    t.coeff.to_bytes_le(std::span<uint8_t, F::kBytes>(out.data() + at, F::kBytes));
  }
}

}  // namespace cuzk::r1cs
