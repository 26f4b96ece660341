// The x86-64 MULX/ADCX/ADOX Montgomery kernels (ff/mont_x86_64.S) against the portable CIOS
// oracle mont_mul_portable: edge values, random inputs, and out aliasing a and/or b, for the
// BLS12-381 Fp and Fr moduli and for random odd moduli of 6 and 4 limbs with the top bit clear
// (down to a top limb of 1 and up to 2^(64N-1) - 1).
//
// Random inputs come from std::mt19937_64 seeded by std::random_device; the seed is printed, and
// CUZK_TEST_SEED=<seed> in the environment replays a run.

#include "ff/mont_x86_64.hpp"

#ifdef CUZK_MONT_ASM

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "ff/bigint.hpp"
#include "ff/montgomery.hpp"
#include "support/format.hpp"
#include "support/random.hpp"

namespace {

using cuzk::ff::BigInt;
using cuzk::ff::mont_mul_portable;
using cuzk::ff::mont_neg_inverse;

constexpr const char* kFpHex =
    "0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab";
constexpr const char* kFrHex = "0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";

constexpr int kRandomPerModulus = 50000;  // per modulus, each one mul, one sqr and aliasing checks

#define REQUIRE_MULX_ADX()                                             \
  do {                                                                 \
    if (!cuzk::ff::cpu_has_mont_asm()) GTEST_SKIP() << "CPU lacks BMI1/BMI2/ADX"; \
  } while (0)

template <size_t N>
struct Asm;
template <>
struct Asm<6> {
  static void mul(uint64_t* o, const uint64_t* a, const uint64_t* b, const uint64_t* m, uint64_t k) {
    cuzk_mont_mul_6(o, a, b, m, k);
  }
  static void sqr(uint64_t* o, const uint64_t* a, const uint64_t* m, uint64_t k) { cuzk_mont_sqr_6(o, a, m, k); }
};
template <>
struct Asm<4> {
  static void mul(uint64_t* o, const uint64_t* a, const uint64_t* b, const uint64_t* m, uint64_t k) {
    cuzk_mont_mul_4(o, a, b, m, k);
  }
  static void sqr(uint64_t* o, const uint64_t* a, const uint64_t* m, uint64_t k) { cuzk_mont_sqr_4(o, a, m, k); }
};

using cuzk::test::hex;

template <size_t N>
struct Modulus {
  std::string name;
  BigInt<N> m;
  uint64_t inv = 0;
};

template <size_t N>
Modulus<N> make_modulus(std::string name, const BigInt<N>& m) {
  return {std::move(name) + " " + hex(m), m, mont_neg_inverse(m)};
}

// An odd modulus with the given top limb (top bit clear) and random lower limbs.
template <size_t N>
BigInt<N> random_modulus(std::mt19937_64& rng, uint64_t top) {
  BigInt<N> m;
  for (auto& l : m.limbs) l = rng();
  m.limbs[N - 1] = top;
  m.limbs[0] |= 1;
  return m;
}

// The moduli every check runs over: the curve's own, then random ones of the same width.
template <size_t N>
std::vector<Modulus<N>> moduli() {
  std::mt19937_64 rng(cuzk::test::seed() ^ (0x9e3779b97f4a7c15ull * N));
  std::vector<Modulus<N>> out;
  out.push_back(make_modulus("bls12-381", BigInt<N>::from_hex(N == 6 ? kFpHex : kFrHex)));
  out.push_back(make_modulus("random", random_modulus<N>(rng, (rng() >> 1) | (1ull << 62))));
  out.push_back(make_modulus("top 0x7fff..ff", random_modulus<N>(rng, 0x7fffffffffffffffull)));
  BigInt<N> all_ones;  // 2^(64N-1) - 1, the largest modulus allowed
  for (auto& l : all_ones.limbs) l = ~0ull;
  all_ones.limbs[N - 1] >>= 1;
  out.push_back(make_modulus("2^(64N-1)-1", all_ones));
  out.push_back(make_modulus("top limb 1", random_modulus<N>(rng, 1)));
  return out;
}

using cuzk::test::random_below;

template <size_t N>
BigInt<N> sub_small(BigInt<N> x, uint64_t k) {
  cuzk::ff::sub_in_place(x, BigInt<N>(k));
  return x;
}

// 0, 1, 2, m-1, m-2, m-3, (m-1)/2, (m+1)/2, all-ones low limbs, all-ones limb 0, m with a
// cleared top limb, and 2^k mod m for k = 0 .. 64N+1 and 128N (R mod m and R^2 mod m among them).
template <size_t N>
std::vector<BigInt<N>> edge_values(const BigInt<N>& m) {
  std::vector<BigInt<N>> v = {BigInt<N>(0),      BigInt<N>(1),      BigInt<N>(2),
                              sub_small(m, 1),   sub_small(m, 2),   sub_small(m, 3),
                              cuzk::ff::shr1(m), cuzk::ff::shr1(m)};
  cuzk::ff::add_in_place(v.back(), BigInt<N>(1));
  BigInt<N> low_ones;
  for (size_t i = 0; i + 1 < N; ++i) low_ones.limbs[i] = ~0ull;
  v.push_back(low_ones);
  v.push_back(BigInt<N>(~0ull));
  BigInt<N> m_low = m;
  m_low.limbs[N - 1] = 0;
  v.push_back(m_low);
  BigInt<N> p(1);
  for (size_t k = 0; k <= 128 * N; ++k) {
    if (k <= 64 * N + 1 || k == 128 * N) v.push_back(p);
    p = cuzk::ff::add_mod(p, p, m);
  }
  for (const auto& x : v) EXPECT_LT(x, m);
  return v;
}

// Checks out = a*b (or a^2) R^-1 mod m against the oracle, with out separate from and aliasing
// the inputs. Returns false on the first mismatch (after recording a failure).
template <size_t N>
bool check_mul(const Modulus<N>& M, const BigInt<N>& a, const BigInt<N>& b) {
  const BigInt<N> want = mont_mul_portable(a, b, M.m, M.inv);
  const auto* m = M.m.limbs.data();
  auto fail = [&](const char* what, const BigInt<N>& got) {
    ADD_FAILURE() << what << "\n  m = " << M.name << "\n  a = " << hex(a) << "\n  b = " << hex(b)
                  << "\n  want " << hex(want) << "\n  got  " << hex(got) << "\n  seed " << cuzk::test::seed();
    return false;
  };
  BigInt<N> out;
  Asm<N>::mul(out.limbs.data(), a.limbs.data(), b.limbs.data(), m, M.inv);
  if (out != want) return fail("mul", out);
  out = a;  // out == a
  Asm<N>::mul(out.limbs.data(), out.limbs.data(), b.limbs.data(), m, M.inv);
  if (out != want) return fail("mul, out == a", out);
  out = b;  // out == b
  Asm<N>::mul(out.limbs.data(), a.limbs.data(), out.limbs.data(), m, M.inv);
  if (out != want) return fail("mul, out == b", out);
  return true;
}

template <size_t N>
bool check_sqr(const Modulus<N>& M, const BigInt<N>& a) {
  const BigInt<N> want = mont_mul_portable(a, a, M.m, M.inv);
  const auto* m = M.m.limbs.data();
  auto fail = [&](const char* what, const BigInt<N>& got) {
    ADD_FAILURE() << what << "\n  m = " << M.name << "\n  a = " << hex(a) << "\n  want " << hex(want)
                  << "\n  got  " << hex(got) << "\n  seed " << cuzk::test::seed();
    return false;
  };
  BigInt<N> out;
  Asm<N>::sqr(out.limbs.data(), a.limbs.data(), m, M.inv);
  if (out != want) return fail("sqr", out);
  out = a;  // out == a
  Asm<N>::sqr(out.limbs.data(), out.limbs.data(), m, M.inv);
  if (out != want) return fail("sqr, out == a", out);
  out = a;  // mul with out == a == b
  Asm<N>::mul(out.limbs.data(), out.limbs.data(), out.limbs.data(), m, M.inv);
  if (out != want) return fail("mul, out == a == b", out);
  return true;
}

template <size_t N>
void run_edge() {
  size_t cases = 0;
  for (const auto& M : moduli<N>()) {
    const auto v = edge_values(M.m);
    for (const auto& a : v) {
      if (!check_sqr(M, a)) return;
      for (const auto& b : v)
        if (!check_mul(M, a, b)) return;
      cases += 1 + v.size();
    }
  }
  std::printf("[   INFO   ] %zu-limb edge values: %zu input cases\n", N, cases);
}

template <size_t N>
void run_random() {
  std::mt19937_64 rng(cuzk::test::seed() + N);
  size_t cases = 0;
  for (const auto& M : moduli<N>()) {
    for (int i = 0; i < kRandomPerModulus; ++i) {
      const BigInt<N> a = random_below(rng, M.m), b = random_below(rng, M.m);
      if (!check_mul(M, a, b) || !check_sqr(M, a)) return;
      cases += 2;
    }
    // Operands with all-ones low limbs and a random top limb below m's.
    for (int i = 0; i < 1000; ++i) {
      BigInt<N> a = random_below(rng, M.m), b = random_below(rng, M.m);
      for (size_t j = 0; j + 1 < N; ++j) a.limbs[j] = ~0ull;
      if (a >= M.m) a.limbs[N - 1] = 0;
      if (!check_mul(M, a, b) || !check_sqr(M, a)) return;
      cases += 2;
    }
  }
  std::printf("[   INFO   ] %zu-limb random: %zu input cases over 5 moduli\n", N, cases);
}

// x <- x*y (and x <- x^2) chained, so that each output feeds the next input, like field code does.
template <size_t N>
void run_chain() {
  std::mt19937_64 rng(cuzk::test::seed() + 7 * N);
  for (const auto& M : moduli<N>()) {
    const auto* m = M.m.limbs.data();
    BigInt<N> x = random_below(rng, M.m), y = random_below(rng, M.m), xs = x;
    BigInt<N> ref = x, ref_s = xs;
    for (int i = 0; i < 20000; ++i) {
      Asm<N>::mul(x.limbs.data(), x.limbs.data(), y.limbs.data(), m, M.inv);
      ref = mont_mul_portable(ref, y, M.m, M.inv);
      Asm<N>::sqr(xs.limbs.data(), xs.limbs.data(), m, M.inv);
      ref_s = mont_mul_portable(ref_s, ref_s, M.m, M.inv);
      if (x != ref || xs != ref_s) {
        ADD_FAILURE() << "chain diverged at step " << i << " for m = " << M.name << ", seed " << cuzk::test::seed();
        return;
      }
      if (ref_s.is_zero()) xs = ref_s = random_below(rng, M.m);
    }
  }
}

TEST(MontAsm, Mul6Sqr6EdgeValues) {
  REQUIRE_MULX_ADX();
  run_edge<6>();
}
TEST(MontAsm, Mul4Sqr4EdgeValues) {
  REQUIRE_MULX_ADX();
  run_edge<4>();
}
TEST(MontAsm, Mul6Sqr6Random) {
  REQUIRE_MULX_ADX();
  run_random<6>();
}
TEST(MontAsm, Mul4Sqr4Random) {
  REQUIRE_MULX_ADX();
  run_random<4>();
}
TEST(MontAsm, Mul6Sqr6Chained) {
  REQUIRE_MULX_ADX();
  run_chain<6>();
}
TEST(MontAsm, Mul4Sqr4Chained) {
  REQUIRE_MULX_ADX();
  run_chain<4>();
}

// The Montgomery one R mod m is the identity and R^2 mod m maps x to its Montgomery form: a
// round trip through both must give x back, for the curve moduli.
TEST(MontAsm, RoundTripThroughMontgomeryForm) {
  REQUIRE_MULX_ADX();
  std::mt19937_64 rng(cuzk::test::seed() + 99);
  auto round_trip = [&](auto M) {
    constexpr size_t N = decltype(M.m)::kLimbs;
    const auto r2 = cuzk::ff::pow2_mod(128 * N, M.m);
    for (int i = 0; i < 1000; ++i) {
      const auto x = random_below(rng, M.m);
      BigInt<N> mont, back;
      Asm<N>::mul(mont.limbs.data(), x.limbs.data(), r2.limbs.data(), M.m.limbs.data(), M.inv);
      Asm<N>::mul(back.limbs.data(), mont.limbs.data(), BigInt<N>(1).limbs.data(), M.m.limbs.data(), M.inv);
      ASSERT_EQ(back, x) << "m = " << M.name << ", x = " << hex(x) << ", seed " << cuzk::test::seed();
    }
  };
  round_trip(make_modulus("Fp", BigInt<6>::from_hex(kFpHex)));
  round_trip(make_modulus("Fr", BigInt<4>::from_hex(kFrHex)));
}

}  // namespace

#endif  // CUZK_MONT_ASM
