#include "gadgets/poseidon.hpp"

#include <array>

#include "core/error.hpp"

namespace cuzk::gadgets {

using ff::Fr;

namespace {

constexpr size_t kMaxWidth = 37;  // neptune's largest arity (36) + 1; the state lives on the stack

struct State {
  std::array<Fr, kMaxWidth> lane;
  size_t width;
};

State initial_state(const PoseidonConstants& c, std::span<const Fr> preimage) {
  if (preimage.size() != c.arity || c.width > kMaxWidth) {
    throw Exception(invalid_argument("poseidon: preimage length differs from arity"));
  }
  State s{{}, c.width};
  s.lane[0] = c.domain_tag;
  for (size_t i = 0; i < c.arity; ++i) s.lane[i + 1] = preimage[i];
  return s;
}

Fr quintic(const Fr& x) {
  const Fr x2 = x.square();
  return x2.square() * x;
}

// out[j] = Σ_i m[i][j]·s[i] (row vector times matrix).
void mix_dense(const PoseidonMatrix& m, State& s) {
  std::array<Fr, kMaxWidth> out;
  for (size_t j = 0; j < s.width; ++j) {
    Fr acc = Fr::zero();
    for (size_t i = 0; i < s.width; ++i) acc += m[i][j] * s.lane[i];
    out[j] = acc;
  }
  s.lane = out;
}

// s'[0] = Σ w_hat[i]·s[i]; s'[j] = s[j] + v_rest[j−1]·s[0].
void mix_sparse(const PoseidonSparseMatrix& m, State& s) {
  Fr first = Fr::zero();
  for (size_t i = 0; i < s.width; ++i) first += m.w_hat[i] * s.lane[i];
  for (size_t j = 1; j < s.width; ++j) s.lane[j] += m.v_rest[j - 1] * s.lane[0];
  s.lane[0] = first;
}

}  // namespace

Fr poseidon_hash(const PoseidonConstants& c, std::span<const Fr> preimage) {
  State s = initial_state(c, preimage);
  const size_t t = c.width, half = c.full_rounds / 2;
  const std::vector<Fr>& key = c.compressed_round_constants;
  size_t at = 0;
  for (size_t i = 0; i < t; ++i) s.lane[i] += key[at++];
  // Full rounds of the first half: S-box, post-key, M (pre_sparse for the last one).
  for (size_t r = 0; r < half; ++r) {
    for (size_t i = 0; i < t; ++i) s.lane[i] = quintic(s.lane[i]) + key[at++];
    mix_dense(r + 1 == half ? c.pre_sparse : c.mds, s);
  }
  for (uint32_t p = 0; p < c.partial_rounds; ++p) {
    s.lane[0] = quintic(s.lane[0]) + key[at++];
    mix_sparse(c.sparse[p], s);
  }
  for (size_t r = 0; r + 1 < half; ++r) {
    for (size_t i = 0; i < t; ++i) s.lane[i] = quintic(s.lane[i]) + key[at++];
    mix_dense(c.mds, s);
  }
  for (size_t i = 0; i < t; ++i) s.lane[i] = quintic(s.lane[i]);  // the last round has no key
  mix_dense(c.mds, s);
  return s.lane[1];
}

Fr poseidon_hash_reference(const PoseidonConstants& c, std::span<const Fr> preimage) {
  State s = initial_state(c, preimage);
  const size_t t = c.width, half = c.full_rounds / 2, rounds = c.full_rounds + c.partial_rounds;
  for (size_t r = 0; r < rounds; ++r) {
    const bool full = r < half || r >= half + c.partial_rounds;
    for (size_t i = 0; i < t; ++i) s.lane[i] += c.round_constants[r * t + i];
    if (full) {
      for (size_t i = 0; i < t; ++i) s.lane[i] = quintic(s.lane[i]);
    } else {
      s.lane[0] = quintic(s.lane[0]);
    }
    mix_dense(c.mds, s);
  }
  return s.lane[1];
}

}  // namespace cuzk::gadgets
