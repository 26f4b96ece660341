// The x86-64 Fp2 kernels cuzk_fp2_mul_6 / cuzk_fp2_sqr_6 (ff/mont_x86_64.S) against a reference
// built from the portable Montgomery multiply: c0 = a0 b0 - a1 b1, c1 = a0 b1 + a1 b0, each
// product by mont_mul_portable and combined with add_mod / sub_in_place + add_in_place. The
// reference is schoolbook (four products), so it shares nothing with the Karatsuba kernel.
//
// Inputs: edge values in every coordinate (all combinations), random elements, structured cases
// that hit the kernel's sign and carry corners, chained products, and out aliasing a and/or b.
// Moduli: BLS12-381's p, random odd 381-bit ones, and the extremes the kernels allow (they need
// m odd and m < 2^383; asserted for every modulus). Seed: cuzk::test::seed(), CUZK_TEST_SEED replays.

#include "ff/mont_x86_64.hpp"

#ifdef CUZK_MONT_ASM

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "ff/bigint.hpp"
#include "ff/montgomery.hpp"
#include "support/format.hpp"
#include "support/random.hpp"

namespace fp2_asm_test {  // its own: the unity build joins the ff tests
namespace {

using cuzk::ff::BigInt;
using cuzk::ff::mont_mul_portable;
using Int = BigInt<6>;

constexpr const char* kFpHex =
    "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab";

constexpr int kRandomPerModulus = 50000;  // 6 moduli: 300k random products and 300k squares

#define REQUIRE_MULX_ADX()                                                         \
  do {                                                                             \
    if (!cuzk::ff::cpu_has_mont_asm()) GTEST_SKIP() << "CPU lacks BMI1/BMI2/ADX"; \
  } while (0)

// An Fp2 element as the kernels see it: 12 limbs, c0 then c1.
struct E {
  std::array<uint64_t, 12> l{};
  E() = default;
  E(const Int& c0, const Int& c1) {
    for (size_t i = 0; i < 6; ++i) {
      l[i] = c0.limbs[i];
      l[6 + i] = c1.limbs[i];
    }
  }
  Int c(size_t k) const {
    Int r;
    for (size_t i = 0; i < 6; ++i) r.limbs[i] = l[6 * k + i];
    return r;
  }
  uint64_t* data() { return l.data(); }
  const uint64_t* data() const { return l.data(); }
  friend bool operator==(const E&, const E&) = default;
};

using cuzk::test::hex;
std::string hex(const E& x) {
  std::string s = "(";
  s.append(hex(x.c(0))).append(", ").append(hex(x.c(1))).append(")");
  return s;
}

struct Modulus {
  std::string name;
  Int m;
  uint64_t inv = 0;
};

Modulus make_modulus(std::string name, const Int& m) {
  return {std::move(name) + " " + hex(m), m, cuzk::ff::mont_neg_inverse(m)};
}

// An odd modulus with exactly `bits` bits (321..383), random below the top bit.
Int random_modulus(std::mt19937_64& rng, unsigned bits) {
  Int m;
  for (auto& l : m.limbs) l = rng();
  const unsigned top = bits - 320;  // bits in limb 5, 1..63
  m.limbs[5] = (m.limbs[5] & ((uint64_t(1) << (top - 1)) - 1)) | (uint64_t(1) << (top - 1));
  m.limbs[0] |= 1;
  return m;
}

// The kernels' bound: m odd, m < 2^383 (top bit of the top limb clear).
void assert_bound(const Modulus& M) {
  ASSERT_TRUE(M.m.is_odd()) << M.name;
  ASSERT_EQ(M.m.limbs[5] >> 63, 0u) << M.name << " is >= 2^383";
  ASSERT_EQ(M.inv * M.m.limbs[0], ~uint64_t(0)) << M.name;  // m_neg_inv = -m^-1 mod 2^64
}

std::vector<Modulus> moduli() {
  std::mt19937_64 rng = cuzk::test::rng(0xf02);
  std::vector<Modulus> out;
  out.push_back(make_modulus("bls12-381", Int::from_hex(kFpHex)));
  out.push_back(make_modulus("random 381-bit", random_modulus(rng, 381)));
  out.push_back(make_modulus("random 381-bit", random_modulus(rng, 381)));
  out.push_back(make_modulus("random 383-bit", random_modulus(rng, 383)));
  Int all_ones;  // 2^383 - 1, the largest modulus allowed
  for (auto& l : all_ones.limbs) l = ~0ull;
  all_ones.limbs[5] >>= 1;
  out.push_back(make_modulus("2^383-1", all_ones));
  out.push_back(make_modulus("top limb 1", random_modulus(rng, 321)));
  return out;
}

Int sub_small(Int x, uint64_t k) {
  cuzk::ff::sub_in_place(x, Int(k));
  return x;
}

using cuzk::ff::sub_mod;

// Schoolbook reference: (a0 b0 - a1 b1, a0 b1 + a1 b0), each product a*b*2^-384 mod m.
E ref_mul(const Modulus& M, const E& a, const E& b) {
  auto mm = [&](const Int& x, const Int& y) { return mont_mul_portable(x, y, M.m, M.inv); };
  const Int a0 = a.c(0), a1 = a.c(1), b0 = b.c(0), b1 = b.c(1);
  return E(sub_mod(mm(a0, b0), mm(a1, b1), M.m), cuzk::ff::add_mod(mm(a0, b1), mm(a1, b0), M.m));
}

using cuzk::test::random_below;
E random_e(std::mt19937_64& rng, const Int& m) { return E(random_below(rng, m), random_below(rng, m)); }

// Per coordinate: 0, 1, m-1, m-2 (the required set), then 2, m-3, (m-1)/2, (m+1)/2, R mod m,
// R^2 mod m, 2^383 mod m, all-ones low limbs, and m with its top limb cleared.
std::vector<Int> edge_values(const Int& m) {
  std::vector<Int> v = {Int(0), Int(1), sub_small(m, 1), sub_small(m, 2), Int(2), sub_small(m, 3), cuzk::ff::shr1(m)};
  Int half_up = cuzk::ff::shr1(m);
  cuzk::ff::add_in_place(half_up, Int(1));
  v.push_back(half_up);
  v.push_back(cuzk::ff::pow2_mod(384, m));
  v.push_back(cuzk::ff::pow2_mod(768, m));
  v.push_back(cuzk::ff::pow2_mod(383, m));
  Int low_ones;
  for (size_t i = 0; i < 5; ++i) low_ones.limbs[i] = ~0ull;
  v.push_back(low_ones);
  Int m_low = m;
  m_low.limbs[5] = 0;
  v.push_back(m_low);
  for (const auto& x : v) EXPECT_LT(x, m);
  return v;
}

// Where the result lands when out is a separate buffer: between guard limbs, to catch stray writes.
struct Guarded {
  static constexpr uint64_t kGuard = 0x5a5a5a5aa5a5a5a5ull;
  std::array<uint64_t, 16> buf;
  Guarded() { buf.fill(kGuard); }
  uint64_t* out() { return buf.data() + 2; }
  E value() const {
    E e;
    for (size_t i = 0; i < 12; ++i) e.l[i] = buf[2 + i];
    return e;
  }
  bool guards_intact() const { return buf[0] == kGuard && buf[1] == kGuard && buf[14] == kGuard && buf[15] == kGuard; }
};

size_t g_checks = 0;  // kernel calls compared with the reference

// a*b with out separate, out == a, out == b; when a == b also out == a == b.
bool check_mul(const Modulus& M, const E& a, const E& b) {
  const E want = ref_mul(M, a, b);
  const uint64_t* m = M.m.limbs.data();
  auto fail = [&](const char* what, const E& got) {
    ADD_FAILURE() << "fp2_mul " << what << "\n  m = " << M.name << "\n  a = " << hex(a) << "\n  b = " << hex(b)
                  << "\n  want " << hex(want) << "\n  got  " << hex(got) << "\n  seed " << cuzk::test::seed();
    return false;
  };
  Guarded g;
  cuzk_fp2_mul_6(g.out(), a.data(), b.data(), m, M.inv);
  if (!g.guards_intact()) return fail("wrote outside out[0..11]", g.value());
  if (g.value() != want) return fail("out separate", g.value());
  E o = a;
  cuzk_fp2_mul_6(o.data(), o.data(), b.data(), m, M.inv);
  if (o != want) return fail("out == a", o);
  o = b;
  cuzk_fp2_mul_6(o.data(), a.data(), o.data(), m, M.inv);
  if (o != want) return fail("out == b", o);
  g_checks += 3;
  return true;
}

// a^2 with out separate and out == a; and fp2_mul with a == b, out separate and out == a == b.
bool check_sqr(const Modulus& M, const E& a) {
  const E want = ref_mul(M, a, a);
  const uint64_t* m = M.m.limbs.data();
  auto fail = [&](const char* what, const E& got) {
    ADD_FAILURE() << what << "\n  m = " << M.name << "\n  a = " << hex(a) << "\n  want " << hex(want) << "\n  got  "
                  << hex(got) << "\n  seed " << cuzk::test::seed();
    return false;
  };
  Guarded g;
  cuzk_fp2_sqr_6(g.out(), a.data(), m, M.inv);
  if (!g.guards_intact()) return fail("fp2_sqr wrote outside out[0..11]", g.value());
  if (g.value() != want) return fail("fp2_sqr, out separate", g.value());
  E o = a;
  cuzk_fp2_sqr_6(o.data(), o.data(), m, M.inv);
  if (o != want) return fail("fp2_sqr, out == a", o);
  Guarded h;
  cuzk_fp2_mul_6(h.out(), a.data(), a.data(), m, M.inv);
  if (!h.guards_intact() || h.value() != want) return fail("fp2_mul, a == b", h.value());
  o = a;
  cuzk_fp2_mul_6(o.data(), o.data(), o.data(), m, M.inv);
  if (o != want) return fail("fp2_mul, out == a == b", o);
  g_checks += 4;
  return true;
}

TEST(Fp2Asm, ModuliMeetTheBound) {
  for (const auto& M : moduli()) assert_bound(M);
  // BLS12-381's p has three bits free at the top.
  EXPECT_EQ(Int::from_hex(kFpHex).num_bits(), 381u);
}

// Every coordinate from {0, 1, m-1, m-2} and nine more edge values; all pairs for the product.
TEST(Fp2Asm, EdgeValues) {
  REQUIRE_MULX_ADX();
  g_checks = 0;
  size_t elements = 0;
  for (const auto& M : moduli()) {
    assert_bound(M);
    const auto v = edge_values(M.m);
    std::vector<E> es;
    for (const auto& x : v)
      for (const auto& y : v) es.emplace_back(x, y);
    elements += es.size();
    for (const auto& a : es) {
      if (!check_sqr(M, a)) return;
      for (const auto& b : es)
        if (!check_mul(M, a, b)) return;
    }
  }
  std::printf("[   INFO   ] edge values: %zu elements over 6 moduli, %zu kernel calls checked\n", elements, g_checks);
}

TEST(Fp2Asm, Random) {
  REQUIRE_MULX_ADX();
  g_checks = 0;
  std::mt19937_64 rng = cuzk::test::rng(0xf021);
  size_t cases = 0;
  for (const auto& M : moduli()) {
    assert_bound(M);
    for (int i = 0; i < kRandomPerModulus; ++i) {
      const E a = random_e(rng, M.m), b = random_e(rng, M.m);
      if (!check_mul(M, a, b) || !check_sqr(M, a)) return;
      ++cases;
    }
  }
  std::printf("[   INFO   ] random: %zu (a, b) pairs, %zu kernel calls checked\n", cases, g_checks);
}

// Inputs aimed at the kernel's internal corners: a0 b0 == a1 b1 (the c0 difference is exactly 0),
// a0 b0 just above / below a1 b1, a0 == a1 (sqr: a0 - a1 = 0), a0 + a1 == m, one coordinate 0,
// and coordinates with all-ones low limbs.
TEST(Fp2Asm, StructuredCorners) {
  REQUIRE_MULX_ADX();
  g_checks = 0;
  std::mt19937_64 rng = cuzk::test::rng(0xf022);
  for (const auto& M : moduli()) {
    assert_bound(M);
    const Int one(1);
    for (int i = 0; i < 5000; ++i) {
      const Int x = random_below(rng, M.m), y = random_below(rng, M.m);
      const Int x1 = cuzk::ff::add_mod(x, one, M.m), neg_x = sub_mod(Int(0), x, M.m);
      Int ones = random_below(rng, M.m);
      for (size_t j = 0; j < 5; ++j) ones.limbs[j] = ~0ull;
      if (ones >= M.m) ones.limbs[5] = 0;
      const std::vector<std::pair<E, E>> cases = {
          {E(x, y), E(y, x)},      // a0 b0 == a1 b1
          {E(x1, y), E(y, x)},     // a0 b0 == a1 b1 + b0
          {E(x, y), E(y, x1)},     // a0 b0 == a1 b1 - a1
          {E(x, x), E(y, y)},      // a0 == a1
          {E(x, neg_x), E(y, x)},  // a0 + a1 == m (or 0)
          {E(x, Int(0)), E(Int(0), y)},
          {E(Int(0), x), E(Int(0), y)},
          {E(ones, x), E(y, ones)},
          {E(ones, ones), E(ones, ones)},
      };
      for (const auto& [a, b] : cases)
        if (!check_mul(M, a, b) || !check_sqr(M, a) || !check_sqr(M, b)) return;
    }
  }
  std::printf("[   INFO   ] structured corners: %zu kernel calls checked\n", g_checks);
}

// x <- x*y and s <- s^2 chained, each output feeding the next call, like tower code does.
TEST(Fp2Asm, Chained) {
  REQUIRE_MULX_ADX();
  std::mt19937_64 rng = cuzk::test::rng(0xf023);
  for (const auto& M : moduli()) {
    assert_bound(M);
    const uint64_t* m = M.m.limbs.data();
    E x = random_e(rng, M.m), y = random_e(rng, M.m), s = random_e(rng, M.m);
    E rx = x, rs = s;
    for (int i = 0; i < 20000; ++i) {
      cuzk_fp2_mul_6(x.data(), x.data(), y.data(), m, M.inv);
      rx = ref_mul(M, rx, y);
      cuzk_fp2_sqr_6(s.data(), s.data(), m, M.inv);
      rs = ref_mul(M, rs, rs);
      if (x != rx || s != rs) {
        ADD_FAILURE() << "chain diverged at step " << i << " for m = " << M.name << ", seed " << cuzk::test::seed();
        return;
      }
      if (rs == E()) s = rs = random_e(rng, M.m);
      if (rx == E()) x = rx = random_e(rng, M.m);
    }
  }
}

}  // namespace
}  // namespace fp2_asm_test

#endif  // CUZK_MONT_ASM
