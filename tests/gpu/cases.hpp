#pragma once
// Inputs shared by the host twin tests (gpu_host) and the device tests (gpu): field values with
// the edges first (0, 1, 2, p-1, p-2 as field elements and as raw Montgomery words, R-1 patterns),
// then fresh random ones; point pairs with the special cases of the addition formulas first.

#include <random>
#include <span>
#include <vector>

#include "ec/bls12_381.hpp"
#include "ec/scalar_mul.hpp"
#include "support/random.hpp"

namespace cuzk::gpu::test {

using ec::Affine;
using ec::Jacobian;
using ec::XYZZ;

// The field values whose limbs stress the carry chains; F is ff::Fp or ff::Fr.
template <class F>
std::vector<F> edge_elements() {
  using Int = typename F::Int;
  Int pm1 = F::kModulus, pm2 = F::kModulus, half = ff::shr1(F::kModulus), low_ones;
  ff::sub_in_place(pm1, Int(1));
  ff::sub_in_place(pm2, Int(2));
  for (size_t i = 0; i + 1 < Int::kLimbs; ++i) low_ones.limbs[i] = ~0ull;  // 2^(64(N-1)) - 1 < p
  return {F::zero(), F::one(), F::from_uint(2), F::from_int(pm1), F::from_int(pm2),
          F::from_montgomery(Int(1)), F::from_montgomery(pm1), F::from_montgomery(pm2),
          F::from_montgomery(half), F::from_montgomery(low_ones), F::from_uint(0xffffffffull)};
}

// Raw Montgomery words below p built word by word (32-bit) from the values that stress carry
// chains: 0, 1, 2^31, 2^32 - 1, 2^32 - 2, p's own word and its neighbours, random; with the bits
// above p's top bit cleared and p subtracted once where still >= p. Includes 2^k - 1, 2^k and
// p - 2^k for every word boundary k = 32i, and the all-ones words below p.
template <class F>
std::vector<F> word_pattern_elements(std::mt19937_64& g, size_t random_count) {
  using Int = typename F::Int;
  constexpr size_t kWords = 2 * Int::kLimbs;
  auto word = [](const Int& v, size_t i) { return uint32_t(v.limbs[i / 2] >> (32 * (i % 2))); };
  auto set_word = [](Int& v, size_t i, uint32_t w) {
    const unsigned sh = 32 * (i % 2);
    v.limbs[i / 2] = (v.limbs[i / 2] & ~(uint64_t(0xffffffffu) << sh)) | (uint64_t(w) << sh);
  };
  const unsigned top_bits = 64 - unsigned(__builtin_clzll(F::kModulus.limbs[Int::kLimbs - 1]));
  auto below_p = [&](Int v) {
    if (top_bits < 64) v.limbs[Int::kLimbs - 1] &= (uint64_t(1) << top_bits) - 1;
    if (v >= F::kModulus) ff::sub_in_place(v, F::kModulus);  // v < 2^bits(p) < 2p
    return F::from_montgomery(v);
  };
  std::vector<F> out;
  for (size_t k = 1; k < kWords; ++k) {  // 2^(32k) - 1, 2^(32k), p - 2^(32k), p - 2^(32k) + 1
    Int ones, pow, pm = F::kModulus;
    for (size_t i = 0; i < k; ++i) set_word(ones, i, 0xffffffffu);
    set_word(pow, k, 1);
    ff::sub_in_place(pm, pow);
    out.push_back(below_p(ones));
    out.push_back(below_p(pow));
    out.push_back(F::from_montgomery(pm));
    ff::add_in_place(pm, Int(1));
    out.push_back(F::from_montgomery(pm));
  }
  for (size_t r = 0; r < random_count; ++r) {
    Int v;
    for (size_t i = 0; i < kWords; ++i) {
      const uint32_t pw = word(F::kModulus, i);
      const uint32_t choices[] = {0u, 1u, 0x80000000u, 0xffffffffu, 0xfffffffeu, pw, pw - 1, pw + 1, uint32_t(g())};
      set_word(v, i, choices[g() % 9]);
    }
    out.push_back(below_p(v));
  }
  return out;
}

// n values: every edge, then uniform random ones. For Fp2, pairs of them.
template <class F>
std::vector<F> field_values(std::mt19937_64& g, size_t n) {
  std::vector<F> out;
  if constexpr (std::is_same_v<F, ff::Fp2>) {
    const auto e = edge_elements<ff::Fp>();
    for (size_t i = 0; i < e.size() && out.size() < n; ++i)
      for (size_t j = 0; j < e.size() && out.size() < n; j += 3) out.push_back({e[i], e[j]});
  } else {
    for (const F& e : edge_elements<F>())
      if (out.size() < n) out.push_back(e);
  }
  while (out.size() < n) out.push_back(cuzk::test::random_element<F>(g));
  return out;
}

// b for a: every pair of edges is reached by pairing edges[i] with a rotated copy.
template <class F>
std::vector<F> partner_values(std::mt19937_64& g, std::span<const F> a) {
  std::vector<F> b(a.begin(), a.end());
  std::rotate(b.begin(), b.begin() + (b.size() > 3 ? 3 : 0), b.end());
  for (size_t i = b.size() / 2; i < b.size(); ++i) b[i] = cuzk::test::random_element<F>(g);
  return b;
}

template <class Curve>
std::vector<Affine<Curve>> random_affine_points(std::mt19937_64& g, size_t n) {
  std::vector<Affine<Curve>> out;
  for (size_t i = 0; i < n; ++i)
    out.push_back(ec::scalar_mul(Jacobian<Curve>::generator(), cuzk::test::random_element<ff::Fr>(g)).to_affine());
  return out;
}

// (X, Y) = (x, y) rescaled by a random non-zero l, so Z != 1 reaches the formulas.
template <class Curve>
Jacobian<Curve> rescaled_jacobian(const Affine<Curve>& p, std::mt19937_64& g) {
  if (p.infinity) return Jacobian<Curve>::identity();
  using F = typename Curve::Field;
  F l = cuzk::test::random_element<F>(g);
  if (l.is_zero()) l = F::one();
  const F l2 = l.square();
  return {p.x * l2, p.y * l2 * l, l};
}
template <class Curve>
XYZZ<Curve> rescaled_xyzz(const Affine<Curve>& p, std::mt19937_64& g) {
  if (p.infinity) return XYZZ<Curve>::identity();
  using F = typename Curve::Field;
  F l = cuzk::test::random_element<F>(g);
  if (l.is_zero()) l = F::one();
  const F l2 = l.square(), l3 = l2 * l;  // ZZ^3 = ZZZ^2
  return {p.x * l2, p.y * l3, l2, l3};
}

// Operands of a + b (projective) and a + q (mixed). The first cases are the formulas' branches:
//   0: O + O, q = O         1: O + P, q = P          2: P + O, q = O
//   3: P + P (doubling, different Z), q = P          4: P + (-P) = O, q = -P
// then distinct points drawn from `bases` (a few hundred random points serve any n).
template <class Curve, template <class> class Form>
struct PointCases {
  std::vector<Form<Curve>> a, b;
  std::vector<Affine<Curve>> q;
};

template <class Curve, template <class> class Form>
PointCases<Curve, Form> point_cases(std::mt19937_64& g, std::span<const Affine<Curve>> bases, size_t n) {
  auto lift = [&g](const Affine<Curve>& p) {
    if constexpr (std::is_same_v<Form<Curve>, XYZZ<Curve>>) return rescaled_xyzz(p, g);
    else return rescaled_jacobian(p, g);
  };
  const Affine<Curve> o = Affine<Curve>::identity(), p = bases[0];
  const Affine<Curve> special[5][3] = {{o, o, o}, {o, p, p}, {p, o, o}, {p, p, p}, {p, -p, -p}};
  PointCases<Curve, Form> c;
  const size_t m = bases.size();
  for (size_t i = 0; i < n; ++i) {
    Affine<Curve> pa, pb, pq;
    if (i < 5) {
      pa = special[i][0], pb = special[i][1], pq = special[i][2];
    } else {
      pa = bases[i % m];
      pb = bases[(i * 7 + 3) % m];
      pq = bases[(i * 13 + 5) % m];
    }
    c.a.push_back(lift(pa));
    c.b.push_back(lift(pb));
    c.q.push_back(pq);
  }
  return c;
}

}  // namespace cuzk::gpu::test
