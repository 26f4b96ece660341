// Lazy reduction in the tower (ff/fp6.hpp, ff/fp12.hpp): the wide Fp2 kernels
// cuzk_fp2_mul_wide_6 / cuzk_fp2_sqr_wide_6 / cuzk_fp2_redc_6 (ff/mont_x86_64.S) against
// mont_mul_portable, the wide add/sub/xi helpers against reduced Fp2 arithmetic, and the lazy
// Fp6/Fp12 products against schoolbook formulas over Fp2 (they share nothing with Karatsuba).
//
// Every wide value must stay in [0, m*2^384) (high half < m): checked after each kernel and
// helper. Kernels run over BLS12-381's p and other moduli the bound allows (m odd, m < 2^383);
// the helpers are p-specific. Seed: cuzk::test::seed(), CUZK_TEST_SEED replays.

#include "ff/mont_x86_64.hpp"

#ifdef CUZK_MONT_ASM

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "ff/bigint.hpp"
#include "ff/fp12.hpp"
#include "ff/montgomery.hpp"
#include "support/format.hpp"
#include "support/random.hpp"

namespace lazy_test {  // its own: the unity build joins the ff tests
namespace {

using cuzk::ff::BigInt;
using cuzk::ff::Fp;
using cuzk::ff::Fp12;
using cuzk::ff::Fp2;
using cuzk::ff::Fp6;
using cuzk::ff::mont_mul_portable;
using cuzk::ff::lazy::Fp2Wide;
using Int = BigInt<6>;

#define REQUIRE_MULX_ADX()                                                         \
  do {                                                                             \
    if (!cuzk::ff::cpu_has_mont_asm()) GTEST_SKIP() << "CPU lacks BMI1/BMI2/ADX"; \
  } while (0)

Int part(const uint64_t* l) {
  Int r;
  for (size_t i = 0; i < 6; ++i) r.limbs[i] = l[i];
  return r;
}
void put(uint64_t* l, const Int& v) {
  for (size_t i = 0; i < 6; ++i) l[i] = v.limbs[i];
}
using cuzk::ff::sub_mod;
using cuzk::test::random_below;

// High halves (limbs 6..11 and 18..23) below m: the range cuzk_fp2_redc_6 accepts.
::testing::AssertionResult in_range(const uint64_t* w, const Int& m) {
  for (int k = 0; k < 2; ++k) {
    if (!(part(w + 12 * k + 6) < m))
      return ::testing::AssertionFailure() << "half " << k << " high limbs " << cuzk::test::hex(part(w + 12 * k + 6))
                                           << " >= m " << cuzk::test::hex(m);
  }
  return ::testing::AssertionSuccess();
}

struct Modulus {
  Int m;
  uint64_t inv;
};
std::vector<Modulus> moduli() {
  std::mt19937_64 g = cuzk::test::rng(0x1a2);
  std::vector<Modulus> out{{Fp::kModulus, Fp::kNegInv}};
  for (unsigned bits : {381u, 383u, 330u}) {
    Int m;
    for (auto& l : m.limbs) l = g();
    const unsigned top = bits - 320;
    m.limbs[5] = (m.limbs[5] & ((uint64_t(1) << (top - 1)) - 1)) | (uint64_t(1) << (top - 1));
    m.limbs[0] |= 1;
    out.push_back({m, cuzk::ff::mont_neg_inverse(m)});
  }
  Int all_ones;  // 2^383 - 1
  for (auto& l : all_ones.limbs) l = ~0ull;
  all_ones.limbs[5] >>= 1;
  out.push_back({all_ones, cuzk::ff::mont_neg_inverse(all_ones)});
  return out;
}

// Values that hit the sign and carry corners: 0, 1, 2, m-1, m-2, (m-1)/2, 2^k - 1 below m.
std::vector<Int> edges(const Int& m) {
  Int half = cuzk::ff::shr1(m);
  Int m1 = m, m2 = m;
  cuzk::ff::sub_in_place(m1, Int(1));
  cuzk::ff::sub_in_place(m2, Int(2));
  Int low_ones;
  for (size_t i = 0; i < 5; ++i) low_ones.limbs[i] = ~0ull;
  return {Int(0), Int(1), Int(2), m1, m2, half, low_ones};
}

// The kernels against (a0 b0 - a1 b1, a0 b1 + a1 b0) by mont_mul_portable (schoolbook, 4 products).
void check_kernels(const Modulus& M, const Int& a0, const Int& a1, const Int& b0, const Int& b1) {
  auto mm = [&](const Int& x, const Int& y) { return mont_mul_portable(x, y, M.m, M.inv); };
  uint64_t a[12], b[12], w[24], r[12];
  put(a, a0), put(a + 6, a1), put(b, b0), put(b + 6, b1);
  const Int e0 = sub_mod(mm(a0, b0), mm(a1, b1), M.m), e1 = cuzk::ff::add_mod(mm(a0, b1), mm(a1, b0), M.m);
  cuzk_fp2_mul_wide_6(w, a, b, M.m.limbs.data());
  ASSERT_TRUE(in_range(w, M.m)) << "mul_wide a=" << cuzk::test::hex(a0) << "," << cuzk::test::hex(a1);
  cuzk_fp2_redc_6(r, w, M.m.limbs.data(), M.inv);
  ASSERT_EQ(part(r), e0) << "mul c0, m=" << cuzk::test::hex(M.m) << " a=" << cuzk::test::hex(a0) << ","
                         << cuzk::test::hex(a1) << " b=" << cuzk::test::hex(b0) << "," << cuzk::test::hex(b1);
  ASSERT_EQ(part(r + 6), e1) << "mul c1";
  // redc in place (out = start of in)
  cuzk_fp2_redc_6(w, w, M.m.limbs.data(), M.inv);
  ASSERT_EQ(part(w), e0);
  ASSERT_EQ(part(w + 6), e1);

  const Int s0 = sub_mod(mm(a0, a0), mm(a1, a1), M.m), s1 = cuzk::ff::add_mod(mm(a0, a1), mm(a0, a1), M.m);
  cuzk_fp2_sqr_wide_6(w, a, M.m.limbs.data());
  ASSERT_TRUE(in_range(w, M.m)) << "sqr_wide";
  cuzk_fp2_redc_6(r, w, M.m.limbs.data(), M.inv);
  ASSERT_EQ(part(r), s0) << "sqr c0, a=" << cuzk::test::hex(a0) << "," << cuzk::test::hex(a1);
  ASSERT_EQ(part(r + 6), s1) << "sqr c1";
}

TEST(LazyKernels, EdgesAndRandomOverModuli) {
  REQUIRE_MULX_ADX();
  std::mt19937_64 g = cuzk::test::rng(0x1a3);
  for (const Modulus& M : moduli()) {
    const auto e = edges(M.m);
    for (const Int& x0 : e)
      for (const Int& x1 : e)
        for (const Int& y0 : e) {
          check_kernels(M, x0, x1, y0, e[(x0.limbs[0] + x1.limbs[1] + y0.limbs[2]) % e.size()]);
          if (HasFatalFailure()) return;
        }
    for (int i = 0; i < 20000; ++i) {
      check_kernels(M, random_below(g, M.m), random_below(g, M.m), random_below(g, M.m), random_below(g, M.m));
      if (HasFatalFailure()) return;
    }
  }
}

// The redc bound is tight: the largest accepted input (high halves m-1, low halves all ones)
// and a value with a zero low half, against mont_mul_portable on the split V = hi*2^384 + lo:
// V*2^-384 = hi + lo*2^-384 = hi + REDC(lo) with REDC(lo) = mont_mul(lo mod m, 1).
TEST(LazyKernels, RedcExtremes) {
  REQUIRE_MULX_ADX();
  std::mt19937_64 g = cuzk::test::rng(0x1a4);
  for (const Modulus& M : moduli()) {
    Int m1 = M.m;
    cuzk::ff::sub_in_place(m1, Int(1));
    for (int i = 0; i < 2000; ++i) {
      uint64_t w[24], r[12];
      Int lo[2], hi[2];
      for (int k = 0; k < 2; ++k) {
        for (auto& l : lo[k].limbs) l = (i < 2) ? (i == 0 ? ~0ull : 0) : g();
        hi[k] = (i < 4) ? m1 : random_below(g, M.m);
        put(w + 12 * k, lo[k]);
        put(w + 12 * k + 6, hi[k]);
      }
      cuzk_fp2_redc_6(r, w, M.m.limbs.data(), M.inv);
      for (int k = 0; k < 2; ++k) {
        Int lo_mod;  // lo mod m, bit by bit (r < m < 2^383, so 2r + 1 fits)
        for (int bit = 383; bit >= 0; --bit) {
          cuzk::ff::add_in_place(lo_mod, lo_mod);
          lo_mod.limbs[0] |= (lo[k].limbs[bit / 64] >> (bit % 64)) & 1;
          if (!(lo_mod < M.m)) cuzk::ff::sub_in_place(lo_mod, M.m);
        }
        const Int expect = cuzk::ff::add_mod(hi[k], mont_mul_portable(lo_mod, Int(1), M.m, M.inv), M.m);
        ASSERT_EQ(part(r + 6 * k), expect) << "i=" << i << " half " << k;
      }
    }
  }
}

Fp2Wide random_wide(std::mt19937_64& g, int i) {
  Fp2Wide w;
  Int m1 = Fp::kModulus;
  cuzk::ff::sub_in_place(m1, Int(1));
  for (int k = 0; k < 2; ++k) {
    Int lo, hi;
    for (auto& l : lo.limbs) l = (i % 5 == 0) ? ~0ull : (i % 5 == 1) ? 0 : g();
    hi = (i % 7 == 0) ? m1 : (i % 7 == 1) ? Int(0) : random_below(g, Fp::kModulus);
    put(w.l + 12 * k, lo);
    put(w.l + 12 * k + 6, hi);
  }
  return w;
}

TEST(LazyHelpers, AddSubXiMatchReducedArithmetic) {
  REQUIRE_MULX_ADX();
  using namespace cuzk::ff::lazy;
  std::mt19937_64 g = cuzk::test::rng(0x1a5);
  const Int& p = Fp::kModulus;
  for (int i = 0; i < 50000; ++i) {
    const Fp2Wide x = random_wide(g, i), y = random_wide(g, i / 5);
    const Fp2 rx = redc(x), ry = redc(y);
    const Fp2Wide s = x + y, d = x - y, z = xi_mul(x);
    ASSERT_TRUE(in_range(s.l, p)) << i;
    ASSERT_TRUE(in_range(d.l, p)) << i;
    ASSERT_TRUE(in_range(z.l, p)) << i;
    ASSERT_EQ(redc(s), rx + ry) << i;
    ASSERT_EQ(redc(d), rx - ry) << i;
    ASSERT_EQ(redc(z), rx.mul_by_nonresidue()) << i;
    // aliasing: d = a, d = b, d = a = b
    Fp2Wide t = x;
    add_lane(t.l, t.l, y.l), add_lane(t.l + 12, t.l + 12, y.l + 12);
    ASSERT_EQ(std::memcmp(t.l, s.l, sizeof t.l), 0) << i;
    t = y;
    sub_lane(t.l, x.l, t.l), sub_lane(t.l + 12, x.l + 12, t.l + 12);
    ASSERT_EQ(std::memcmp(t.l, d.l, sizeof t.l), 0) << i;
    t = x;
    sub_lane(t.l, t.l, t.l);
    ASSERT_TRUE(part(t.l) == Int(0) && part(t.l + 6) == Int(0)) << i;
    t = x;
    add_lane(t.l, t.l, t.l);
    const Fp2Wide two = x + x;
    ASSERT_EQ(std::memcmp(t.l, two.l, 96), 0) << i;
  }
}

// Schoolbook references over Fp2 (Fp2 products checked by fp2_asm_test).
Fp6 ref_mul(const Fp6& a, const Fp6& b) {
  // v^3 = xi
  return {a.c0 * b.c0 + (a.c1 * b.c2 + a.c2 * b.c1).mul_by_nonresidue(),
          a.c0 * b.c1 + a.c1 * b.c0 + (a.c2 * b.c2).mul_by_nonresidue(),
          a.c0 * b.c2 + a.c1 * b.c1 + a.c2 * b.c0};
}
// Fp12 as Fp2[w]/(w^6 - xi), coefficient i of w^i: (c0.c0, c1.c0, c0.c1, c1.c1, c0.c2, c1.c2).
std::array<Fp2, 6> coeffs(const Fp12& x) { return {x.c0.c0, x.c1.c0, x.c0.c1, x.c1.c1, x.c0.c2, x.c1.c2}; }
Fp12 ref_mul(const Fp12& a, const Fp12& b) {
  const auto x = coeffs(a), y = coeffs(b);
  std::array<Fp2, 6> r{};
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) {
      const Fp2 t = x[i] * y[j];
      if (i + j < 6) r[i + j] += t;
      else r[i + j - 6] += t.mul_by_nonresidue();
    }
  return {{r[0], r[2], r[4]}, {r[1], r[3], r[5]}};
}

template <class T>
T random_of(std::mt19937_64& g);
template <>
Fp2 random_of<Fp2>(std::mt19937_64& g) {
  return cuzk::test::random_element<Fp2>(g);
}
template <>
Fp6 random_of<Fp6>(std::mt19937_64& g) {
  return {random_of<Fp2>(g), random_of<Fp2>(g), random_of<Fp2>(g)};
}
template <>
Fp12 random_of<Fp12>(std::mt19937_64& g) {
  return {random_of<Fp6>(g), random_of<Fp6>(g)};
}
// -1 in every coordinate: the largest reduced inputs.
Fp2 minus_one2() { return {-Fp::one(), -Fp::one()}; }

TEST(LazyTower, Fp6AndFp12AgainstSchoolbook) {
  std::mt19937_64 g = cuzk::test::rng(0x1a6);
  const Fp2 m1 = minus_one2();
  const Fp6 big{m1, m1, m1};
  const Fp12 big12{big, big};
  for (int i = 0; i < 3000; ++i) {
    const Fp6 a = i == 0 ? big : random_of<Fp6>(g), b = i < 2 ? big : random_of<Fp6>(g);
    ASSERT_EQ(a * b, ref_mul(a, b)) << i;
    Fp6 c = a;
    c *= c;  // aliasing
    ASSERT_EQ(c, ref_mul(a, a)) << i;
    ASSERT_EQ(a.mul_by_01(b.c0, b.c1), ref_mul(a, Fp6{b.c0, b.c1, {}})) << i;
    ASSERT_EQ(a.mul_by_1(b.c1), ref_mul(a, Fp6{{}, b.c1, {}})) << i;
  }
  for (int i = 0; i < 500; ++i) {
    const Fp12 a = i == 0 ? big12 : random_of<Fp12>(g), b = i < 2 ? big12 : random_of<Fp12>(g);
    ASSERT_EQ(a * b, ref_mul(a, b)) << i;
    ASSERT_EQ(a.square(), ref_mul(a, a)) << i;
    Fp12 c = a;
    c *= c;
    ASSERT_EQ(c, ref_mul(a, a)) << i;
    const Fp2 o0 = i == 0 ? m1 : random_of<Fp2>(g), o1 = i == 0 ? m1 : random_of<Fp2>(g),
              o4 = i == 0 ? m1 : random_of<Fp2>(g);
    const Fp12 line{{o0, o1, {}}, {{}, o4, {}}};  // slots 0, 1, 4
    ASSERT_EQ(a.mul_by_014(o0, o1, o4), ref_mul(a, line)) << i;
  }
}

// The cyclotomic squaring equals the plain square on the cyclotomic subgroup: x^((p^6-1)(p^2+1)).
TEST(LazyTower, CyclotomicSquare) {
  std::mt19937_64 g = cuzk::test::rng(0x1a7);
  for (int i = 0; i < 200; ++i) {
    const Fp12 f = random_of<Fp12>(g);
    Fp12 x = f.conjugate() * f.inverse();
    x = x.frobenius(2) * x;
    for (int k = 0; k < 5; ++k) {
      const Fp12 s = x.cyclotomic_square();
      ASSERT_EQ(s, ref_mul(x, x)) << i << " " << k;
      x = s;
    }
  }
}

}  // namespace
}  // namespace lazy_test

#endif  // CUZK_MONT_ASM
