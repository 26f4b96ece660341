// The __host__ __device__ field and curve code of src/gpu, compiled as plain C++ and run on the
// CPU against its twins in ff/ and ec/ (label gpu_host: CI runs it without a GPU). The CarryChain
// emulation executes the same instruction sequence the PTX does, so a wrong chain (a carry
// dropped, a word mis-indexed) shows here.

#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <vector>

#include "cases.hpp"
#include "gpu/curve.cuh"

namespace cuzk::gpu {
namespace {

using ff::Fp;
using ff::Fp2;
using ff::Fr;

template <class F>
struct HostFieldTest : ::testing::Test {};
using Fields = ::testing::Types<Fp, Fr, Fp2>;
TYPED_TEST_SUITE(HostFieldTest, Fields);

template <class F>
std::string show(const F& x) {
  if constexpr (std::is_same_v<F, Fp2>) return show(x.c0) + " + u*" + show(x.c1);
  else {
    std::string s;
    char buf[20];
    for (size_t i = F::kLimbs; i-- > 0;) {
      std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(x.montgomery().limbs[i]));
      s += buf;
    }
    return s;
  }
}

TEST(HostField, ConstantsAreTheCpuOnes) {
  EXPECT_EQ(to_cpu<Fp>(DeviceFp::one()), Fp::one());
  EXPECT_EQ(to_cpu<Fr>(DeviceFr::one()), Fr::one());
  EXPECT_TRUE(to_cpu<Fp>(DeviceFp::zero()).is_zero());
  // The modulus words, read back as 64-bit limbs, are the CPU modulus.
  const DeviceFp p = DeviceFp::modulus();
  ff::BigInt<6> m;
  std::memcpy(m.limbs.data(), p.limbs, sizeof p.limbs);
  EXPECT_EQ(m, Fp::kModulus);
  const DeviceFr r = DeviceFr::modulus();
  ff::BigInt<4> mr;
  std::memcpy(mr.limbs.data(), r.limbs, sizeof r.limbs);
  EXPECT_EQ(mr, Fr::kModulus);
  // -p^-1 mod 2^32, checked independently of the static_assert's formula.
  EXPECT_EQ(uint32_t(uint32_t(Fp::kModulus.limbs[0]) * DeviceFp::kNegInv), 0xffffffffu);
  EXPECT_EQ(uint32_t(uint32_t(Fr::kModulus.limbs[0]) * DeviceFr::kNegInv), 0xffffffffu);
}

TEST(HostField, SameBytesAsCpu) {
  // A CPU value reinterpreted as the device type is the same number: 1 * x = x on the device side.
  auto g = cuzk::test::rng(601);
  for (int i = 0; i < 100; ++i) {
    const Fp x = cuzk::test::random_element<Fp>(g);
    DeviceFp d;
    std::memcpy(&d, &x, sizeof d);
    EXPECT_EQ(to_cpu<Fp>(d * DeviceFp::one()), x);
    EXPECT_EQ(DeviceFp::from_cpu(x).to_cpu(), x);
  }
}

// Every operation, element by element, on edges crossed with edges and on random values.
TYPED_TEST(HostFieldTest, AllOpsMatchCpu) {
  using F = TypeParam;
  auto g = cuzk::test::rng(602);
  const auto a = test::field_values<F>(g, 4000);
  const auto b = test::partner_values<F>(g, std::span<const F>(a));
  for (size_t i = 0; i < a.size(); ++i) {
    const auto da = to_device(a[i]), db = to_device(b[i]);
    ASSERT_EQ(to_cpu<F>(da + db), a[i] + b[i]) << i << ": " << show(a[i]) << " + " << show(b[i]);
    ASSERT_EQ(to_cpu<F>(da - db), a[i] - b[i]) << i << ": " << show(a[i]) << " - " << show(b[i]);
    ASSERT_EQ(to_cpu<F>(da * db), a[i] * b[i]) << i << ": " << show(a[i]) << " * " << show(b[i]);
    ASSERT_EQ(to_cpu<F>(da.sqr()), a[i].square()) << i << ": " << show(a[i]);
    ASSERT_EQ(to_cpu<F>(-da), -a[i]) << i << ": " << show(a[i]);
    ASSERT_EQ(to_cpu<F>(da.dbl()), a[i].dbl()) << i << ": " << show(a[i]);
    ASSERT_EQ(da == db, a[i] == b[i]);
    ASSERT_EQ(da.is_zero(), a[i].is_zero());
  }
}

// inverse() (Fermat; Fp2 by the norm) against the CPU's inverse, and x · 1/x = 1; 0 gives 0.
TYPED_TEST(HostFieldTest, InverseMatchesCpu) {
  using F = TypeParam;
  auto g = cuzk::test::rng(603);
  auto v = test::field_values<F>(g, 60);
  if constexpr (!std::is_same_v<F, Fp2>) {
    for (const F& e : test::edge_elements<F>()) v.push_back(e);
  }
  for (const F& x : v) {
    const auto inv = to_device(x).inverse();
    if (x.is_zero()) {
      ASSERT_TRUE(inv.is_zero()) << show(x);
      continue;
    }
    ASSERT_EQ(to_cpu<F>(inv), x.inverse()) << show(x);
    ASSERT_EQ(to_cpu<F>(inv * to_device(x)), F::one()) << show(x);
  }
}

// Every pair of edges.
TYPED_TEST(HostFieldTest, EdgeProducts) {
  using F = TypeParam;
  if constexpr (!std::is_same_v<F, Fp2>) {
    const auto e = test::edge_elements<F>();
    for (const F& x : e)
      for (const F& y : e) {
        ASSERT_EQ(to_cpu<F>(to_device(x) * to_device(y)), x * y) << show(x) << " * " << show(y);
        ASSERT_EQ(to_cpu<F>(to_device(x) + to_device(y)), x + y) << show(x) << " + " << show(y);
        ASSERT_EQ(to_cpu<F>(to_device(x) - to_device(y)), x - y) << show(x) << " - " << show(y);
      }
  }
}

// The even/odd product and the dedicated square against the CPU and against the old CIOS, on
// values whose 32-bit words stress every carry (all ones, p's words +-1, 2^k, p - 2^k; p - 1 and
// its neighbours at the top give the largest intermediate sums the bounds in field.cuh allow).
template <class F>
void check_word_patterns(uint64_t salt) {
  using D = DeviceType<F>;
  using Cios = std::conditional_t<std::is_same_v<F, Fp>, DeviceField<ff::FpConfig, detail::MulCios>,
                                  DeviceField<ff::FrConfig, detail::MulCios>>;
  auto g = cuzk::test::rng(salt);
  auto v = test::word_pattern_elements<F>(g, 3000);
  for (const F& e : test::edge_elements<F>()) v.push_back(e);
  for (size_t i = 0; i < v.size(); ++i) {
    const F& x = v[i];
    const F& y = v[(i * 7 + 1) % v.size()];
    const D dx = to_device(x), dy = to_device(y);
    ASSERT_EQ(to_cpu<F>(dx * dy), x * y) << i << ": " << show(x) << " * " << show(y);
    ASSERT_EQ(to_cpu<F>(dx.sqr()), x.square()) << i << ": " << show(x);
    Cios cx, cy;
    std::memcpy(&cx, &dx, sizeof cx);
    std::memcpy(&cy, &dy, sizeof cy);
    const Cios cp = cx * cy, cs = cx.sqr();
    const D np = D::mul_even_odd(dx, dy), ns = D::sqr_even_odd(dx);
    ASSERT_EQ(std::memcmp(&np, &cp, sizeof np), 0) << i << ": even/odd vs CIOS, " << show(x) << " * " << show(y);
    ASSERT_EQ(std::memcmp(&ns, &cs, sizeof ns), 0) << i << ": square vs CIOS, " << show(x);
  }
  // Every pair among the word patterns' boundary values (the first 4 (2n - 1) of v).
  const size_t m = 4 * (D::kLimbs - 1);
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < m; ++j)
      ASSERT_EQ(to_cpu<F>(to_device(v[i]) * to_device(v[j])), v[i] * v[j]) << show(v[i]) << " * " << show(v[j]);
}
TEST(HostField, WordPatternsFp) { check_word_patterns<Fp>(604); }
TEST(HostField, WordPatternsFr) { check_word_patterns<Fr>(605); }

// a b over 2n words, the plain schoolbook (the reference for mul_wide and mul_wide_karatsuba).
template <class D>
void schoolbook(const uint32_t* a, const uint32_t* b, uint32_t* want) {
  constexpr size_t n = D::kLimbs;
  for (size_t k = 0; k < 2 * n; ++k) want[k] = 0;
  for (size_t r = 0; r < n; ++r) {
    uint64_t carry = 0;
    for (size_t c = 0; c < n; ++c) {
      const uint64_t t = uint64_t(a[r]) * b[c] + want[r + c] + carry;
      want[r + c] = uint32_t(t);
      carry = t >> 32;
    }
    want[r + n] = uint32_t(carry);
  }
}

// The lazily reduced Fp2 product (2n-word products, one reduction per coefficient) on word-pattern
// coefficients: p - 1 in both halves gives the largest sums the bounds in curve.cuh allow.
TEST(HostField, WordPatternsFp2) {
  auto g = cuzk::test::rng(607);
  auto v = test::word_pattern_elements<Fp>(g, 600);
  for (const Fp& e : test::edge_elements<Fp>()) v.push_back(e);
  const size_t m = v.size();
  for (size_t i = 0; i < m; ++i) {
    const Fp2 x{v[i], v[(i * 5 + 3) % m]}, y{v[(i * 7 + 1) % m], v[(i * 11 + 2) % m]};
    const DeviceFp2 dx = to_device(x), dy = to_device(y);
    ASSERT_EQ(to_cpu<Fp2>(dx * dy), x * y) << i << ": " << show(x) << " * " << show(y);
    ASSERT_EQ(to_cpu<Fp2>(dx.sqr()), x.square()) << i << ": " << show(x);
  }
  // The words of p^2 that c0 adds: p^2 = p * p as the CPU computes it, by words.
  uint32_t sq[24];
  DeviceFp::mul_wide(DeviceFp::modulus().limbs, DeviceFp::modulus().limbs, sq);
  uint32_t with[24] = {};
  DeviceFp::add_modulus_squared(with);
  EXPECT_EQ(std::memcmp(sq, with, sizeof sq), 0);
  // mul_wide against the plain 768-bit schoolbook on word patterns.
  for (size_t i = 0; i < m; ++i) {
    const DeviceFp a = DeviceFp::from_cpu(v[i]), b = DeviceFp::from_cpu(v[(i * 13 + 5) % m]);
    uint32_t got[24], want[24];
    DeviceFp::mul_wide(a.limbs, b.limbs, got);
    schoolbook<DeviceFp>(a.limbs, b.limbs, want);
    ASSERT_EQ(std::memcmp(got, want, sizeof got), 0) << i << ": " << show(v[i]);
  }
}

// Lazy reduction (field.cuh): each operation on representatives in [0, 2p) (x or x + p, both
// chosen) stays below 2p and is congruent to the reduced result; the word patterns and 2p - 1 give
// the largest intermediate sums the bounds allow (for Fr, 2p - 1 + 2p - 1 carries out of the top
// word). A final subtraction wrongly dropped or a 2p mis-added shows as a result >= 2p or a wrong
// residue. Products: a reduced first operand in both fields (the NTT's twiddle), both lazy in Fp.
template <class D>
bool below_twice_p(const D& a) {
  const D m = D::twice_modulus();
  for (size_t i = D::kLimbs; i-- > 0;)
    if (a.limbs[i] != m.limbs[i]) return a.limbs[i] < m.limbs[i];
  return false;
}
template <class F>
void check_lazy(uint64_t salt) {
  using D = DeviceType<F>;
  const D p = D::modulus();
  EXPECT_EQ(to_cpu<F>(D::add_unreduced(p, p)), to_cpu<F>(D::twice_modulus()));  // 2p = p + p, by words
  auto g = cuzk::test::rng(salt);
  auto v = test::word_pattern_elements<F>(g, 2000);
  for (const F& e : test::edge_elements<F>()) v.push_back(e);
  const size_t m = v.size();
  const auto rep = [&](const F& x, bool high) {  // x or x + p
    const D d = to_device(x);
    return high ? D::add_unreduced(d, p) : d;
  };
  for (size_t i = 0; i < m; ++i) {
    const F& x = v[i];
    const F& y = v[(i * 7 + 3) % m];
    for (int hi = 0; hi < 4; ++hi) {
      const D a = rep(x, hi & 1), b = rep(y, hi & 2);
      const auto check = [&](const D& got, const F& want, const char* op) {
        ASSERT_TRUE(below_twice_p(got)) << op << ", " << i << "/" << hi << ": " << show(x) << ", " << show(y);
        ASSERT_EQ(to_cpu<F>(got.reduced()), want) << op << ", " << i << "/" << hi << ": " << show(x) << ", " << show(y);
      };
      check(D::mul_unreduced(to_device(x), b), x * y, "mul_unreduced (reduced, lazy)");
      check(D::add_lazy(a, b), x + y, "add_lazy");
      check(D::sub_lazy(a, b), x - y, "sub_lazy");
      check(D::sub_lazy(a, b, true), x - y, "sub_lazy (predicated)");
      if constexpr (D::kLazy) {
        check(D::mul_unreduced(a, b), x * y, "mul_unreduced (lazy, lazy)");
        check(a.sqr_unreduced(), x.square(), "sqr_unreduced");
        ASSERT_EQ(a.is_zero_lazy(), x.is_zero()) << i;
      }
    }
  }
  // 2p - 1 (= -1 mod p) with itself.
  const D top = D::add_unreduced(to_device(-F::one()), p);
  EXPECT_TRUE(below_twice_p(D::add_lazy(top, top)));
  EXPECT_EQ(to_cpu<F>(D::add_lazy(top, top).reduced()), -F::one().dbl());
  EXPECT_EQ(to_cpu<F>(D::mul_unreduced(to_device(-F::one()), top).reduced()), F::one());
  if constexpr (D::kLazy) {
    EXPECT_TRUE(below_twice_p(D::mul_unreduced(top, top)));
    EXPECT_EQ(to_cpu<F>(D::mul_unreduced(top, top).reduced()), F::one());
    EXPECT_EQ(to_cpu<F>(top.sqr_unreduced().reduced()), F::one());
    EXPECT_TRUE(p.is_zero_lazy());
  }
}
TEST(HostField, LazyReductionFp) {
  static_assert(DeviceFp::kLazy && !DeviceFr::kLazy);
  check_lazy<Fp>(608);
}
TEST(HostField, LazyReductionFr) { check_lazy<Fr>(609); }

// a b - c d as one product of a sum (field.cuh's mul_sub, the XYZZ formulas' Y3): on word
// patterns and edges in every operand, including d = 0 (c is then multiplied by p itself) and
// a = b = c = p - 1, the largest sums its bound allows. A round that dropped a carry of the second
// pair's rows, or a negation that borrowed, gives a wrong residue or a result >= 2p. Fr has no
// room for it (3r > 2^256): the operation does not exist there, and ec::mul_sub falls back.
template <class D>
concept HasMulSub = requires(const D& x) { D::mul_sub(x, x, x, x); };
TEST(HostField, MulSubFp) {
  using D = DeviceFp;
  static_assert(HasMulSub<DeviceFp> && !HasMulSub<DeviceFr>);
  auto g = cuzk::test::rng(612);
  auto v = test::word_pattern_elements<Fp>(g, 1500);
  for (const Fp& e : test::edge_elements<Fp>()) v.push_back(e);
  v.push_back(Fp::zero());
  const size_t m = v.size();
  for (size_t i = 0; i < m; ++i) {
    const Fp &a = v[i], &b = v[(i * 7 + 3) % m], &c = v[(i * 11 + 5) % m], &d = v[(i * 13 + 1) % m];
    const D got = D::mul_sub(to_device(a), to_device(b), to_device(c), to_device(d));
    ASSERT_EQ(to_cpu<Fp>(got), a * b - c * d) << i << ": " << show(a) << " " << show(b) << " " << show(c) << " " << show(d);
    ASSERT_EQ(to_cpu<Fp>(D::mul_sub(to_device(a), to_device(b), to_device(c), D::zero())), a * b) << i;
    for (unsigned hi = 0; hi < 16; hi += 5) {  // mul_sub_lazy: each operand x or x + p
      const auto rep = [&](const Fp& x, unsigned bit) {
        return hi & bit ? D::add_unreduced(to_device(x), D::modulus()) : to_device(x);
      };
      const D lazy = D::mul_sub_lazy(rep(a, 1), rep(b, 2), rep(c, 4), rep(d, 8));
      ASSERT_TRUE(below_twice_p(lazy)) << i << "/" << hi;
      ASSERT_EQ(to_cpu<Fp>(lazy.reduced()), a * b - c * d) << i << "/" << hi;
    }
  }
  const D top2 = D::add_unreduced(to_device(-Fp::one()), D::modulus());  // 2p - 1
  const D widest = D::product2_even_odd(top2, top2, top2, D::twice_modulus());
  EXPECT_TRUE(below_twice_p(widest));
  EXPECT_EQ(to_cpu<Fp>(widest.reduced()), Fp::one());
  EXPECT_EQ(to_cpu<Fp>(D::mul_sub_lazy(top2, top2, top2, D::zero()).reduced()), Fp::one());
  const D top = to_device(-Fp::one()), p = D::modulus();
  const D wide = D::product2_even_odd(top, top, top, p);  // (p-1)^2 + (p-1) p, times R^-1
  EXPECT_TRUE(below_twice_p(wide));
  EXPECT_EQ(to_cpu<Fp>(wide.reduced()), Fp::one());
  EXPECT_EQ(to_cpu<Fp>(D::mul_sub(top, top, top, top)), Fp::zero());
  EXPECT_EQ(to_cpu<Fp>(D::mul_sub(top, top, top, D::zero())), Fp::one());
}

// The CIOS and mixed twins that bench_gpu_field measures against: same bytes as the default.
TEST(HostField, CiosTwinAgrees) {
  auto g = cuzk::test::rng(606);
  using CiosFp = DeviceField<ff::FpConfig, detail::MulCios>;
  for (int i = 0; i < 200; ++i) {
    const Fp2 x = cuzk::test::random_element<Fp2>(g), y = cuzk::test::random_element<Fp2>(g);
    DeviceFp2T<CiosFp> cx, cy;
    std::memcpy(&cx, &x, sizeof cx);
    std::memcpy(&cy, &y, sizeof cy);
    const auto p = cx * cy, s = cx.sqr();
    Fp2 got_p, got_s;
    std::memcpy(static_cast<void*>(&got_p), &p, sizeof p);
    std::memcpy(static_cast<void*>(&got_s), &s, sizeof s);
    ASSERT_EQ(got_p, x * y);
    ASSERT_EQ(got_s, x.square());
  }
  // The curve formulas over each multiplication give the default's bytes.
  using MixFp = DeviceField<ff::FpConfig, detail::MulCiosSqrEvenOdd>;
  using NewFp = DeviceField<ff::FpConfig, detail::MulEvenOdd>;
  const auto bases = test::random_affine_points<ec::G1Curve>(g, 8);
  const auto c = test::point_cases<ec::G1Curve, ec::XYZZ>(g, std::span<const ec::G1Affine>(bases), 40);
  auto as = [](const auto& from, auto to) {
    std::memcpy(static_cast<void*>(&to), static_cast<const void*>(&from), sizeof to);
    return to;
  };
  for (size_t i = 0; i < c.a.size(); ++i) {
    const auto want_madd = to_device(c.a[i]) + to_device(c.q[i]);
    const auto want_add = to_device(c.a[i]) + to_device(c.b[i]);
    const auto new_madd = as(c.a[i], DeviceXYZZ<NewFp>{}) + as(c.q[i], DeviceAffine<NewFp>{});
    const auto cios_madd = as(c.a[i], DeviceXYZZ<CiosFp>{}) + as(c.q[i], DeviceAffine<CiosFp>{});
    const auto mix_madd = as(c.a[i], DeviceXYZZ<MixFp>{}) + as(c.q[i], DeviceAffine<MixFp>{});
    const auto mix_add = as(c.a[i], DeviceXYZZ<MixFp>{}) + as(c.b[i], DeviceXYZZ<MixFp>{});
    ASSERT_EQ(std::memcmp(&new_madd, &want_madd, sizeof want_madd), 0) << i;
    ASSERT_EQ(std::memcmp(&cios_madd, &want_madd, sizeof want_madd), 0) << i;
    ASSERT_EQ(std::memcmp(&mix_madd, &want_madd, sizeof want_madd), 0) << i;
    ASSERT_EQ(std::memcmp(&mix_add, &want_add, sizeof want_add), 0) << i;
  }
}

// The Karatsuba product (field.cuh's MulKaratsuba, docs/PERF.md 52) against the CPU: its 2n-word
// product against a plain schoolbook, by words, and its Montgomery product, lazy product and
// mul_sub against the field's, on word patterns and edges, with halves chosen so that a0 - a1 and
// b0 - b1 take every pair of signs and zero (the middle term added, subtracted or 0: a wrong
// sign, a dropped carry into m's top word or out of the place X m gives wrong words). Then the
// curve formulas over it give the default's bytes, G1 and G2.
template <class F, class Config>
void check_karatsuba(uint64_t salt) {
  using D = DeviceType<F>;
  using K = DeviceField<Config, detail::MulKaratsuba>;
  constexpr size_t n = D::kLimbs, h = n / 2;
  auto g = cuzk::test::rng(salt);
  auto v = test::word_pattern_elements<F>(g, 1500);
  for (const F& e : test::edge_elements<F>()) v.push_back(e);
  const size_t m = v.size();
  const auto as_k = [](const D& d) {
    K k;
    std::memcpy(&k, &d, sizeof k);
    return k;
  };
  const auto from_k = [](const K& k) {
    D d;
    std::memcpy(&d, &k, sizeof d);
    return d;
  };
  // Words with halves equal, or one half all ones against zeros: a0 - a1 of each sign and 0.
  std::vector<std::array<uint32_t, n>> words;
  for (const uint32_t lo : {0u, 1u, 0xffffffffu, 0x80000000u})
    for (const uint32_t hi : {0u, 1u, 0xffffffffu, 0x80000000u}) {
      std::array<uint32_t, n> w{};
      for (size_t j = 0; j < h; ++j) w[j] = lo, w[h + j] = hi;
      words.push_back(w);
      w[0] ^= 1u, w[n - 1] = hi >> 3;  // the same, its lowest and top words changed
      words.push_back(w);
    }
  {  // (2^(32n) - 1)(2^(32n - 1) + 1): X m carries into the top word (z0 + X^2 z2 has its words
     // n + h .. 2n - 2 all ones); 200,000 random word-pattern pairs gave no such carry.
    std::array<uint32_t, n> a{}, b{};
    for (size_t j = 0; j < n; ++j) a[j] = 0xffffffffu;
    b[0] = 1, b[n - 1] = 0x80000000u;
    words.push_back(a);
    words.push_back(b);
  }
  for (size_t i = 0; i < m; ++i) {
    std::array<uint32_t, n> w;
    std::memcpy(w.data(), to_device(v[i]).limbs, sizeof w);
    words.push_back(w);
  }
  {
    uint32_t got[2 * n], want[2 * n];
    const auto& a = words[words.size() - m - 2];
    const auto& b = words[words.size() - m - 1];
    K::mul_wide_karatsuba(a.data(), b.data(), got);
    schoolbook<D>(a.data(), b.data(), want);
    ASSERT_EQ(std::memcmp(got, want, sizeof got), 0) << "the carry into the top word";
  }
  for (size_t i = 0; i < words.size(); ++i)
    for (size_t j : {i, (i * 7 + 3) % words.size(), (i + 1) % words.size()}) {
      uint32_t got[2 * n], want[2 * n];
      K::mul_wide_karatsuba(words[i].data(), words[j].data(), got);
      schoolbook<D>(words[i].data(), words[j].data(), want);
      ASSERT_EQ(std::memcmp(got, want, sizeof got), 0) << "words " << i << " * " << j;
    }
  for (size_t i = 0; i < m; ++i) {
    const F& x = v[i];
    const F& y = v[(i * 7 + 1) % m];
    const K kx = as_k(to_device(x)), ky = as_k(to_device(y));
    ASSERT_EQ(to_cpu<F>(from_k(kx * ky)), x * y) << i << ": " << show(x) << " * " << show(y);
    const K lazy = K::mul_unreduced(kx, K::add_unreduced(ky, K::modulus()));  // b < 2p
    ASSERT_TRUE(below_twice_p(from_k(lazy))) << i;
    ASSERT_EQ(to_cpu<F>(from_k(lazy.reduced())), x * y) << i;
    if constexpr (D::kRoomForSums) {
      const F& c = v[(i * 11 + 5) % m];
      const F& d = v[(i * 13 + 2) % m];
      const K kc = as_k(to_device(c)), kd = as_k(to_device(d));
      ASSERT_EQ(to_cpu<F>(from_k(K::mul_sub(kx, ky, kc, kd))), x * y - c * d) << i;
      const K top = K::add_unreduced(kx, K::modulus());  // x + p
      const K l = K::mul_sub_lazy(top, top, top, K::add_unreduced(kd, K::modulus()));
      ASSERT_TRUE(below_twice_p(from_k(l))) << i;
      ASSERT_EQ(to_cpu<F>(from_k(l.reduced())), x * x - x * d) << i;
    }
  }
  if constexpr (D::kRoomForSums) {  // (2p - 1)^2 + (2p - 1) 2p: the widest sum
    const K top2 = K::add_unreduced(as_k(to_device(-F::one())), K::modulus());
    const K widest = K::product2_karatsuba(top2, top2, top2, K::twice_modulus());
    EXPECT_TRUE(below_twice_p(from_k(widest)));
    EXPECT_EQ(to_cpu<F>(from_k(widest.reduced())), F::one());
  }
}
TEST(HostField, KaratsubaFp) { check_karatsuba<Fp, ff::FpConfig>(613); }
TEST(HostField, KaratsubaFr) { check_karatsuba<Fr, ff::FrConfig>(614); }
TEST(HostField, KaratsubaCurveTwins) {
  using KFp = DeviceField<ff::FpConfig, detail::MulKaratsuba>;
  auto g = cuzk::test::rng(615);
  auto as = [](const auto& from, auto to) {
    std::memcpy(static_cast<void*>(&to), static_cast<const void*>(&from), sizeof to);
    return to;
  };
  const auto bases = test::random_affine_points<ec::G1Curve>(g, 8);
  const auto c = test::point_cases<ec::G1Curve, ec::XYZZ>(g, std::span<const ec::G1Affine>(bases), 40);
  for (size_t i = 0; i < c.a.size(); ++i) {
    const auto want_madd = to_device(c.a[i]) + to_device(c.q[i]);
    const auto want_add = to_device(c.a[i]) + to_device(c.b[i]);
    const auto madd = as(c.a[i], DeviceXYZZ<KFp>{}) + as(c.q[i], DeviceAffine<KFp>{});
    const auto add = as(c.a[i], DeviceXYZZ<KFp>{}) + as(c.b[i], DeviceXYZZ<KFp>{});
    ASSERT_EQ(std::memcmp(&madd, &want_madd, sizeof madd), 0) << i;
    ASSERT_EQ(std::memcmp(&add, &want_add, sizeof add), 0) << i;
  }
  const auto bases2 = test::random_affine_points<ec::G2Curve>(g, 4);
  const auto c2 = test::point_cases<ec::G2Curve, ec::XYZZ>(g, std::span<const ec::G2Affine>(bases2), 12);
  for (size_t i = 0; i < c2.a.size(); ++i) {
    const auto want = to_device(c2.a[i]) + to_device(c2.q[i]);
    const auto got = as(c2.a[i], DeviceXYZZ<DeviceFp2T<KFp>>{}) + as(c2.q[i], DeviceAffine<DeviceFp2T<KFp>>{});
    ASSERT_EQ(std::memcmp(&got, &want, sizeof got), 0) << i;
  }
}

// A long chain of dependent products: any drift compounds (2^20 products per field).
TEST(HostField, MillionProductChains) {
  auto g = cuzk::test::rng(603);
  constexpr int kSteps = 1 << 20;
  {
    Fp x = cuzk::test::random_element<Fp>(g), y = cuzk::test::random_element<Fp>(g);
    DeviceFp dx = to_device(x), dy = to_device(y);
    for (int i = 0; i < kSteps; ++i) {
      x = x * y + x.square();
      dx = dx * dy + dx.sqr();
      if ((i & 0xffff) == 0) {
        ASSERT_EQ(to_cpu<Fp>(dx), x) << "Fp step " << i;
      }
    }
    EXPECT_EQ(to_cpu<Fp>(dx), x);
  }
  {
    Fr x = cuzk::test::random_element<Fr>(g), y = cuzk::test::random_element<Fr>(g);
    DeviceFr dx = to_device(x), dy = to_device(y);
    for (int i = 0; i < kSteps; ++i) {
      x = x * y - x;
      dx = dx * dy - dx;
      if ((i & 0xffff) == 0) {
        ASSERT_EQ(to_cpu<Fr>(dx), x) << "Fr step " << i;
      }
    }
    EXPECT_EQ(to_cpu<Fr>(dx), x);
  }
}

// ---- curves ------------------------------------------------------------------------------------

template <class T>
struct HostCurveTest : ::testing::Test {};
using Curves = ::testing::Types<ec::G1Curve, ec::G2Curve>;
TYPED_TEST_SUITE(HostCurveTest, Curves);

// Device and CPU run the same formulas (ec/formulas.hpp) over their own fields: the coordinates
// agree bit for bit (which implies projective equality); the affine forms are checked too.
template <class Curve, template <class> class Form>
void check_form(size_t n, uint64_t salt) {
  auto g = cuzk::test::rng(salt);
  const auto bases = test::random_affine_points<Curve>(g, 16);
  const auto c = test::point_cases<Curve, Form>(g, std::span<const ec::Affine<Curve>>(bases), n);
  using P = Form<Curve>;
  for (size_t i = 0; i < n; ++i) {
    const auto da = to_device(c.a[i]), db = to_device(c.b[i]);
    const auto dq = to_device(c.q[i]);
    const P sum = to_cpu<P>(da + db), madd = to_cpu<P>(da + dq), dbl = to_cpu<P>(da.dbl());
    const P want_sum = c.a[i] + c.b[i], want_madd = c.a[i] + c.q[i], want_dbl = c.a[i].dbl();
    ASSERT_EQ(std::memcmp(&sum, &want_sum, sizeof(P)), 0) << "add, case " << i;
    ASSERT_EQ(std::memcmp(&madd, &want_madd, sizeof(P)), 0) << "madd, case " << i;
    ASSERT_EQ(std::memcmp(&dbl, &want_dbl, sizeof(P)), 0) << "dbl, case " << i;
    ASSERT_EQ(sum.to_affine(), want_sum.to_affine()) << i;
    ASSERT_TRUE(sum.to_affine().is_on_curve()) << i;
  }
  // The special cases land where the group law says.
  EXPECT_TRUE(to_cpu<P>(to_device(c.a[0]) + to_device(c.b[0])).is_identity());
  EXPECT_TRUE(to_cpu<P>(to_device(c.a[4]) + to_device(c.b[4])).is_identity());
  EXPECT_TRUE(to_cpu<P>(to_device(c.a[4]) + to_device(c.q[4])).is_identity());
  EXPECT_EQ(to_cpu<P>(to_device(c.a[3]) + to_device(c.b[3])).to_affine(), c.a[3].dbl().to_affine());
  EXPECT_EQ(to_cpu<P>(to_device(c.a[3]) + to_device(c.q[3])).to_affine(), c.a[3].dbl().to_affine());
}

TYPED_TEST(HostCurveTest, XyzzMatchesCpu) { check_form<TypeParam, ec::XYZZ>(std::is_same_v<TypeParam, ec::G1Curve> ? 300 : 80, 610); }
TYPED_TEST(HostCurveTest, JacobianMatchesCpu) { check_form<TypeParam, ec::Jacobian>(std::is_same_v<TypeParam, ec::G1Curve> ? 300 : 80, 611); }

TYPED_TEST(HostCurveTest, AffineLayoutAndIdentity) {
  using Curve = TypeParam;
  const ec::Affine<Curve> o = ec::Affine<Curve>::identity(), gen = ec::Affine<Curve>::generator();
  const auto d_o = DeviceType<ec::Affine<Curve>>::identity();
  // infinity is encoded the same way (the bytes up to the flag; the rest is padding)
  EXPECT_EQ(std::memcmp(&d_o, &o, offsetof(ec::Affine<Curve>, infinity) + 1), 0);
  EXPECT_TRUE(to_device(o).is_identity());
  EXPECT_FALSE(to_device(gen).is_identity());
  EXPECT_EQ(to_cpu<ec::Affine<Curve>>(-to_device(gen)), -gen);
  const auto d_xyzz = DeviceType<ec::XYZZ<Curve>>::identity();
  const auto c_xyzz = ec::XYZZ<Curve>::identity();
  EXPECT_EQ(std::memcmp(&d_xyzz, &c_xyzz, sizeof c_xyzz), 0);
  const auto d_jac = DeviceType<ec::Jacobian<Curve>>::identity();
  const auto c_jac = ec::Jacobian<Curve>::identity();
  EXPECT_EQ(std::memcmp(&d_jac, &c_jac, sizeof c_jac), 0);
}

// A running sum of many mixed additions ends where the CPU's does (the MSM bucket pattern).
TYPED_TEST(HostCurveTest, RunningSum) {
  using Curve = TypeParam;
  auto g = cuzk::test::rng(612);
  const auto bases = test::random_affine_points<Curve>(g, 8);
  auto acc = DeviceType<ec::XYZZ<Curve>>::identity();
  ec::Jacobian<Curve> want;
  for (int i = 0; i < 200; ++i) {
    const auto& q = bases[size_t(i * 5) % bases.size()];
    acc += to_device(q);
    want += q;
  }
  EXPECT_EQ(to_cpu<ec::XYZZ<Curve>>(acc).to_affine(), want.to_affine());
}

// The MSM window sums' lazy additions (DeviceXYZZ::add_lazy): running += B, sum += running, both
// lazy, where B is a random point, the running sum itself (same coordinates: doubling, and U2 - U1
// is then 0 or p in [0, 2p)), its affine form (ZZ = 1), its negation (the identity) or the
// identity. After reduced(), each step has the bytes of the reduced formula, which the CPU twin
// checks above.
TYPED_TEST(HostCurveTest, LazyWindowSumsEqualReduced) {
  using Curve = TypeParam;
  using DX = DeviceType<ec::XYZZ<Curve>>;
  auto g = cuzk::test::rng(613);
  const auto bases = test::random_affine_points<Curve>(g, 16);
  DX running = DX::identity(), sum = DX::identity(), want_running = DX::identity(), want_sum = DX::identity();
  int doublings = 0, identities = 0;
  for (int i = 0; i < 600; ++i) {
    DX b = DX::from_affine(to_device(bases[g() % bases.size()])) + to_device(bases[g() % bases.size()]);
    const bool live = !want_running.is_identity();
    switch (g() % 8) {
      case 0: b = DX::identity(); break;
      case 1: if (live) { b = want_running; ++doublings; } break;
      case 2:
        if (live) {
          b = DX::from_affine(to_device(to_cpu<ec::XYZZ<Curve>>(want_running).to_affine()));
          ++doublings;
        }
        break;
      case 3: if (live) { b = -want_running; ++identities; } break;
      default: break;
    }
    running = running.add_lazy(b);
    sum = sum.add_lazy(running);
    want_running += b;
    want_sum += want_running;
    const DX got_running = running.reduced(), got_sum = sum.reduced();
    ASSERT_EQ(std::memcmp(&got_running, &want_running, sizeof got_running), 0) << "running, step " << i;
    ASSERT_EQ(std::memcmp(&got_sum, &want_sum, sizeof got_sum), 0) << "sum, step " << i;
  }
  EXPECT_GT(doublings, 40);
  EXPECT_GT(identities, 20);
}

}  // namespace
}  // namespace cuzk::gpu
