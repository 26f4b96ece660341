#include "gadgets/poseidon_constants.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

#include "core/error.hpp"

namespace cuzk::gadgets {

using ff::Fr;

namespace {

constexpr uint32_t kFullRounds = 8;

// The Grain LFSR of round_constants.rs: an 80-bit shift register, taps 62, 51, 38, 23, 13, 0,
// read through the self-shrinking generator.
class GrainLfsr {
 public:
  GrainLfsr(size_t width, uint32_t full_rounds, uint32_t partial_rounds) {
    size_t at = 0;
    auto put = [&](size_t bits, uint64_t value) {  // most significant bit first
      for (size_t i = bits; i-- > 0;) state_[at++] = uint8_t((value >> i) & 1);
    };
    put(2, 1);      // field: prime
    put(4, 1);      // sbox: 1 = x^5 in the old create_rcs_grain.sage convention neptune follows
    put(12, 255);   // field size: Fr::NUM_BITS
    put(12, width);
    put(10, full_rounds);
    put(10, partial_rounds);
    put(30, (uint64_t{1} << 30) - 1);
    for (int i = 0; i < 160; ++i) step();  // warm-up, discarded
  }

  // A uniform Fr: 255 bits, most significant first, redrawn while >= r.
  Fr element() {
    for (;;) {
      Fr::Int v;
      for (size_t bit = 255; bit-- > 0;) {
        if (output_bit()) v.limbs[bit / 64] |= uint64_t{1} << (bit % 64);
      }
      if (v < Fr::kModulus) return Fr::from_int(v);
    }
  }

 private:
  // Drops s[0], appends the feedback bit. head_ holds logical s[0] of a circular buffer.
  uint8_t step() {
    auto s = [&](size_t k) { return state_[(head_ + k) % 80]; };
    const uint8_t b = s(62) ^ s(51) ^ s(38) ^ s(23) ^ s(13) ^ s(0);
    state_[head_] = b;
    head_ = (head_ + 1) % 80;
    return b;
  }
  // Self-shrinking: bits in pairs, a leading 1 emits the second bit.
  uint8_t output_bit() {
    for (;;) {
      const uint8_t a = step(), c = step();
      if (a == 1) return c;
    }
  }

  std::array<uint8_t, 80> state_{};
  size_t head_ = 0;
};

PoseidonMatrix identity(size_t n) {
  PoseidonMatrix m(n, std::vector<Fr>(n, Fr::zero()));
  for (size_t i = 0; i < n; ++i) m[i][i] = Fr::one();
  return m;
}

PoseidonMatrix multiply(const PoseidonMatrix& a, const PoseidonMatrix& b) {
  const size_t n = a.size(), k = b.size(), m = b[0].size();
  PoseidonMatrix out(n, std::vector<Fr>(m, Fr::zero()));
  for (size_t i = 0; i < n; ++i)
    for (size_t l = 0; l < k; ++l)
      for (size_t j = 0; j < m; ++j) out[i][j] += a[i][l] * b[l][j];
  return out;
}

// Gauss-Jordan; the inverse is unique, so any exact method matches neptune's.
PoseidonMatrix invert(PoseidonMatrix a) {
  const size_t n = a.size();
  PoseidonMatrix inv = identity(n);
  for (size_t c = 0; c < n; ++c) {
    size_t pivot = c;
    while (pivot < n && a[pivot][c].is_zero()) ++pivot;
    if (pivot == n) throw Exception(invalid_argument("poseidon: singular matrix"));
    std::swap(a[c], a[pivot]);
    std::swap(inv[c], inv[pivot]);
    const Fr scale = a[c][c].inverse();
    for (size_t j = 0; j < n; ++j) {
      a[c][j] *= scale;
      inv[c][j] *= scale;
    }
    for (size_t r = 0; r < n; ++r) {
      if (r == c || a[r][c].is_zero()) continue;
      const Fr f = a[r][c];
      for (size_t j = 0; j < n; ++j) {
        a[r][j] -= f * a[c][j];
        inv[r][j] -= f * inv[c][j];
      }
    }
  }
  return inv;
}

// mds.rs factor_to_sparse_matrices: M = pre_sparse · sparse[0] · … · sparse[R_P−1] in the
// row-vector convention (SPEC-POSEIDON.md §2).
void factor_to_sparse(const PoseidonMatrix& m, uint32_t count, PoseidonMatrix& pre_sparse,
                      std::vector<PoseidonSparseMatrix>& sparse) {
  const size_t t = m.size();
  PoseidonMatrix current = m;
  sparse.clear();
  for (uint32_t round = 0; round < count; ++round) {
    PoseidonMatrix minor(t - 1, std::vector<Fr>(t - 1));
    for (size_t i = 1; i < t; ++i)
      for (size_t j = 1; j < t; ++j) minor[i - 1][j - 1] = current[i][j];
    const PoseidonMatrix minor_inverse = invert(minor);
    std::vector<Fr> w(t - 1);
    for (size_t i = 1; i < t; ++i) w[i - 1] = current[i][0];
    const std::vector<Fr> w_hat = poseidon_apply(minor_inverse, w);

    PoseidonSparseMatrix s;
    s.w_hat.push_back(current[0][0]);
    s.w_hat.insert(s.w_hat.end(), w_hat.begin(), w_hat.end());
    s.v_rest.assign(current[0].begin() + 1, current[0].end());
    sparse.push_back(std::move(s));

    PoseidonMatrix block = identity(t);  // block-diag(1, minor)
    for (size_t i = 1; i < t; ++i)
      for (size_t j = 1; j < t; ++j) block[i][j] = current[i][j];
    current = multiply(m, block);
  }
  pre_sparse = std::move(current);
  std::reverse(sparse.begin(), sparse.end());
}

// preprocessing.rs compress_round_constants with all R_P partial rounds preprocessed: a constant
// added after M equals its M^-1 image added before M, and lanes 1..t-1 pass a partial S-box
// unchanged, so their constants move back to round 3's post-key.
std::vector<Fr> compress(const PoseidonConstants& c) {
  const size_t t = c.width, half = c.full_rounds / 2, rp = c.partial_rounds;
  auto key = [&](size_t round) { return std::span<const Fr>(c.round_constants).subspan(round * t, t); };
  auto append = [](std::vector<Fr>& out, const std::vector<Fr>& v) { out.insert(out.end(), v.begin(), v.end()); };
  std::vector<Fr> out(key(0).begin(), key(0).end());
  for (size_t r = 1; r < half; ++r) append(out, poseidon_apply(c.mds_inverse, key(r)));
  std::vector<Fr> acc(key(half + rp).begin(), key(half + rp).end());
  std::vector<Fr> partial_keys;
  for (size_t r = half + rp; r-- > half;) {
    std::vector<Fr> u = poseidon_apply(c.mds_inverse, acc);
    partial_keys.push_back(u[0]);
    u[0] = Fr::zero();
    const auto k = key(r);
    for (size_t i = 0; i < t; ++i) acc[i] = k[i] + u[i];
  }
  append(out, poseidon_apply(c.mds_inverse, acc));
  out.insert(out.end(), partial_keys.rbegin(), partial_keys.rend());
  for (size_t r = 1; r < half; ++r) append(out, poseidon_apply(c.mds_inverse, key(half + rp + r)));
  return out;
}

}  // namespace

uint32_t poseidon_partial_rounds(size_t width) {
  switch (width) {
    case 3: return 55;
    case 5: return 56;
    case 9: return 57;
    case 12: return 57;
    default: throw Exception(invalid_argument("poseidon: unsupported width " + std::to_string(width)));
  }
}

std::vector<Fr> poseidon_grain_round_constants(size_t width, uint32_t full_rounds, uint32_t partial_rounds) {
  GrainLfsr grain(width, full_rounds, partial_rounds);
  std::vector<Fr> out((full_rounds + partial_rounds) * width);
  for (Fr& x : out) x = grain.element();
  return out;
}

PoseidonMatrix poseidon_mds(size_t width) {
  PoseidonMatrix m(width, std::vector<Fr>(width));
  for (size_t i = 0; i < width; ++i)
    for (size_t j = 0; j < width; ++j) m[i][j] = Fr::from_uint(i + j + width).inverse();
  return m;
}

std::vector<Fr> poseidon_apply(const PoseidonMatrix& m, std::span<const Fr> s) {
  std::vector<Fr> out(s.size(), Fr::zero());
  for (size_t i = 0; i < s.size(); ++i)
    for (size_t j = 0; j < s.size(); ++j) out[j] += m[i][j] * s[i];
  return out;
}

PoseidonConstants PoseidonConstants::with_tag(size_t arity, const Fr& domain_tag) {
  PoseidonConstants c;
  c.arity = arity;
  c.width = arity + 1;
  c.full_rounds = kFullRounds;
  c.partial_rounds = poseidon_partial_rounds(c.width);
  c.domain_tag = domain_tag;
  c.round_constants = poseidon_grain_round_constants(c.width, c.full_rounds, c.partial_rounds);
  c.mds = poseidon_mds(c.width);
  c.mds_inverse = invert(c.mds);
  c.compressed_round_constants = compress(c);
  factor_to_sparse(c.mds, c.partial_rounds, c.pre_sparse, c.sparse);
  return c;
}

PoseidonConstants PoseidonConstants::merkle_tree(size_t arity) {
  if (arity == 0 || arity > 63) throw Exception(invalid_argument("poseidon: unsupported arity"));
  return with_tag(arity, Fr::from_uint((uint64_t{1} << arity) - 1));
}

}  // namespace cuzk::gadgets
