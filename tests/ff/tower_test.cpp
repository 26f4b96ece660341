// The extension tower Fp2 -> Fp6 -> Fp12 against @noble/curves (same tower: u^2 = -1,
// v^3 = 1 + u, w^2 = v), plus the identities of the sparse and cyclotomic shortcuts.

#include <gtest/gtest.h>

#include "ff/fp12.hpp"
#include "support/format.hpp"
#include "support/oracle.hpp"
#include "support/random.hpp"

namespace cuzk::ff {
namespace {

Fp2 random_fp2(std::mt19937_64& g) { return test::random_element<Fp2>(g); }
Fp6 random_fp6(std::mt19937_64& g) { return {random_fp2(g), random_fp2(g), random_fp2(g)}; }
Fp12 random_fp12(std::mt19937_64& g) { return {random_fp6(g), random_fp6(g)}; }

// An element of the cyclotomic subgroup: f^((p^6 - 1)(p^2 + 1)).
Fp12 cyclotomic(const Fp12& f) {
  const Fp12 t = f.conjugate() * f.inverse();
  return t.frobenius(2) * t;
}

TEST(Fp2, MatchesNoble) {
  auto g = test::rng(20);
  auto oracle = test::bls12_381_oracle();
  std::vector<Fp2> xs{Fp2::zero(), Fp2::one(), {Fp::zero(), Fp::one()}};
  for (int i = 0; i < 60; ++i) xs.push_back(random_fp2(g));
  struct Case {
    size_t index;
    Fp2 expected;
  };
  std::vector<Case> cases;
  std::vector<std::pair<size_t, Fp2>> roots;
  for (size_t i = 0; i < xs.size(); ++i) {
    const Fp2& a = xs[i];
    const Fp2& b = xs[(i * 5 + 1) % xs.size()];
    cases.push_back({oracle.ask("fp2_mul " + test::hex(a) + " " + test::hex(b)), a * b});
    cases.push_back({oracle.ask("fp2_sqr " + test::hex(a)), a.square()});
    if (!a.is_zero()) cases.push_back({oracle.ask("fp2_inv " + test::hex(a)), a.inverse()});
    roots.emplace_back(oracle.ask("fp2_sqrt " + test::hex(a)), a);
  }
  oracle.run();
  for (const auto& c : cases) {
    const auto& v = oracle.values(c.index);
    EXPECT_EQ((Fp2{test::parse<Fp>(v[0]), test::parse<Fp>(v[1])}), c.expected) << "request " << c.index;
  }
  int squares = 0;
  for (const auto& [index, a] : roots) {
    const auto ours = a.sqrt();
    ASSERT_EQ(ours.has_value(), oracle.ok(index)) << "sqrt existence of " << test::hex(a);
    if (ours) {
      ++squares;
      EXPECT_EQ(ours->square(), a);
    }
  }
  EXPECT_GT(squares, 15);
}

TEST(Fp2, IdentitiesAndLexicographicOrder) {
  auto g = test::rng(21);
  for (int i = 0; i < 50; ++i) {
    const Fp2 a = random_fp2(g);
    EXPECT_EQ(a.mul_by_nonresidue(), a * (Fp2{Fp::one(), Fp::one()}));
    EXPECT_EQ(a.frobenius(), a.pow(Fp::kModulus));
    EXPECT_EQ(a.norm(), (a * a.conjugate()).c0);
    const auto s = a.square().sqrt();
    ASSERT_TRUE(s.has_value());
    EXPECT_TRUE(*s == a || *s == -a);
    if (!a.is_zero()) {
      EXPECT_NE(a.is_lexicographically_largest(), (-a).is_lexicographically_largest());
    }
  }
  // c1 decides unless it is zero
  const Fp big = -Fp::one(), small = Fp::one();
  EXPECT_TRUE((Fp2{small, big}).is_lexicographically_largest());
  EXPECT_FALSE((Fp2{big, small}).is_lexicographically_largest());
  EXPECT_TRUE((Fp2{big, Fp::zero()}).is_lexicographically_largest());
}

TEST(Fp6, SparseProductsFrobeniusInverse) {
  auto g = test::rng(22);
  for (int i = 0; i < 20; ++i) {
    const Fp6 a = random_fp6(g);
    const Fp2 b0 = random_fp2(g), b1 = random_fp2(g);
    EXPECT_EQ(a.mul_by_01(b0, b1), a * (Fp6{b0, b1, Fp2::zero()}));
    EXPECT_EQ(a.mul_by_1(b1), a * (Fp6{Fp2::zero(), b1, Fp2::zero()}));
    EXPECT_EQ(a.mul_by_nonresidue(), a * (Fp6{Fp2::zero(), Fp2::one(), Fp2::zero()}));
    EXPECT_EQ(a.square(), a * a);
    EXPECT_EQ(a * a.inverse(), Fp6::one());
    EXPECT_EQ(a.frobenius(), a.pow(Fp::kModulus));
  }
}

TEST(Fp12, MatchesNoble) {
  auto g = test::rng(23);
  auto oracle = test::bls12_381_oracle();
  struct Case {
    size_t index;
    Fp12 expected;
    const char* what;
  };
  std::vector<Case> cases;
  for (int i = 0; i < 8; ++i) {
    const Fp12 a = random_fp12(g), b = random_fp12(g), c = cyclotomic(a);
    const std::string ha = test::hex(a);
    cases.push_back({oracle.ask("fp12_mul " + ha + " " + test::hex(b)), a * b, "mul"});
    cases.push_back({oracle.ask("fp12_sqr " + ha), a.square(), "sqr"});
    cases.push_back({oracle.ask("fp12_inv " + ha), a.inverse(), "inv"});
    for (int k = 1; k <= 3; ++k) {
      cases.push_back({oracle.ask("fp12_frob" + std::to_string(k) + " " + ha), a.frobenius(k), "frobenius"});
    }
    cases.push_back({oracle.ask("fp12_cyclo_sqr " + test::hex(c)), c.cyclotomic_square(), "cyclotomic square"});
  }
  oracle.run();
  for (const auto& c : cases) EXPECT_EQ(test::parse_fp12(oracle.values(c.index)), c.expected) << c.what;
}

TEST(Fp12, SparseAndCyclotomicShortcuts) {
  auto g = test::rng(24);
  for (int i = 0; i < 10; ++i) {
    const Fp12 a = random_fp12(g);
    const Fp2 o0 = random_fp2(g), o1 = random_fp2(g), o4 = random_fp2(g);
    const Fp12 line{{o0, o1, Fp2::zero()}, {Fp2::zero(), o4, Fp2::zero()}};
    EXPECT_EQ(a.mul_by_014(o0, o1, o4), a * line);
    EXPECT_EQ(a.square(), a * a);
    EXPECT_TRUE((a * a.inverse()).is_one());
    EXPECT_EQ(a.frobenius(), a.pow(Fp::kModulus));
    const Fp12 c = cyclotomic(a);
    EXPECT_TRUE((c * c.conjugate()).is_one());  // conjugate = inverse in the cyclotomic subgroup
    EXPECT_EQ(c.cyclotomic_square(), c.square());
    EXPECT_EQ(c.cyclotomic_pow(kBlsX), c.pow(BigInt<1>(kBlsX)));
  }
}

}  // namespace
}  // namespace cuzk::ff
