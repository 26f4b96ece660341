// Fp and Fr against @noble/curves on fresh random inputs (plus edge values), the byte encodings
// with their range checks, and the algebraic identities a wrong reduction would break.

#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "ff/bls12_381.hpp"
#include "support/format.hpp"
#include "support/oracle.hpp"
#include "support/random.hpp"

namespace cuzk::ff {
namespace {

template <class F>
struct FieldTest : ::testing::Test {};
using Fields = ::testing::Types<Fp, Fr>;
TYPED_TEST_SUITE(FieldTest, Fields);

template <class F>
std::string prefix() {
  return std::is_same_v<F, Fp> ? "fp_" : "fr_";
}

template <class F>
std::vector<F> inputs(uint64_t salt, size_t random_count) {
  auto g = test::rng(salt);
  typename F::Int m1 = F::kModulus;
  sub_in_place(m1, typename F::Int(1));
  std::vector<F> v{F::zero(), F::one(), F::from_uint(2), F::from_int(m1), F::from_int(F::kHalfModulus)};
  for (size_t i = 0; i < random_count; ++i) v.push_back(test::random_element<F>(g));
  return v;
}

TYPED_TEST(FieldTest, MatchesNoble) {
  using F = TypeParam;
  const auto xs = inputs<F>(10, 200);
  auto g = test::rng(11);
  const std::string p = prefix<F>();
  struct Case {
    size_t index;
    F expected;
    std::string what;
  };
  test::Oracle oracle = test::bls12_381_oracle();
  std::vector<Case> cases;
  std::vector<std::pair<size_t, F>> legendre, sqrt;  // request, input
  for (size_t i = 0; i < xs.size(); ++i) {
    const F a = xs[i], b = xs[(i * 7 + 3) % xs.size()];
    const std::string ha = test::hex(a), hb = test::hex(b);
    cases.push_back({oracle.ask(p + "add " + ha + " " + hb), a + b, "add"});
    cases.push_back({oracle.ask(p + "sub " + ha + " " + hb), a - b, "sub"});
    cases.push_back({oracle.ask(p + "mul " + ha + " " + hb), a * b, "mul"});
    cases.push_back({oracle.ask(p + "sqr " + ha), a.square(), "sqr"});
    cases.push_back({oracle.ask(p + "neg " + ha), -a, "neg"});
    if (!a.is_zero()) cases.push_back({oracle.ask(p + "inv " + ha), a.inverse(), "inv"});
    const uint64_t e = g();
    cases.push_back({oracle.ask(p + "pow " + ha + " " + test::hex(BigInt<1>(e))), a.pow(e), "pow"});
    legendre.emplace_back(oracle.ask(p + "legendre " + ha), a);
    sqrt.emplace_back(oracle.ask(p + "sqrt " + ha), a);
  }
  oracle.run();
  for (const auto& c : cases) {
    EXPECT_EQ(test::parse<F>(oracle.values(c.index)[0]), c.expected) << c.what << " #" << c.index;
  }
  int squares = 0;
  for (const auto& [index, a] : legendre) EXPECT_EQ(std::to_string(a.legendre()), oracle.values(index)[0]);
  for (const auto& [index, a] : sqrt) {
    const auto ours = a.sqrt();
    ASSERT_EQ(ours.has_value(), oracle.ok(index)) << "sqrt existence of " << test::hex(a);
    if (!ours) continue;
    ++squares;
    EXPECT_EQ(ours->square(), a);
    const F theirs = test::parse<F>(oracle.values(index)[0]);
    EXPECT_TRUE(*ours == theirs || *ours == -theirs);
  }
  EXPECT_GT(squares, 50);  // about half of random elements are squares
}

TYPED_TEST(FieldTest, Identities) {
  using F = TypeParam;
  for (const F& a : inputs<F>(12, 100)) {
    const F b = a.square() + F::one();
    EXPECT_EQ(a * (b + F::one()), a * b + a);
    EXPECT_EQ(a - a, F::zero());
    EXPECT_EQ(a + -a, F::zero());
    EXPECT_EQ(a.dbl(), a + a);
    EXPECT_EQ(a.square(), a * a);
    if (!a.is_zero()) {
      EXPECT_TRUE((a * a.inverse()).is_one());
      EXPECT_EQ(a.legendre() == 1, a.sqrt().has_value());
    }
    // Fermat: a^M = a
    EXPECT_EQ(a.pow(F::kModulus), a);
  }
  EXPECT_TRUE(F::zero().inverse().is_zero());
  EXPECT_EQ(F::zero().legendre(), 0);
}

TYPED_TEST(FieldTest, BytesRoundTripAndRangeCheck) {
  using F = TypeParam;
  constexpr size_t n = F::kBytes;
  for (const F& a : inputs<F>(13, 50)) {
    std::array<uint8_t, n> le{}, be{};
    a.to_bytes_le(le);
    a.to_bytes_be(be);
    for (size_t i = 0; i < n; ++i) EXPECT_EQ(le[i], be[n - 1 - i]);
    EXPECT_EQ(F::from_bytes_le(le).value(), a);
    EXPECT_EQ(F::from_bytes_be(be).value(), a);
  }
  // 1 in little-endian is 01 00 .. 00
  std::array<uint8_t, n> one{};
  F::one().to_bytes_le(one);
  EXPECT_EQ(one[0], 1);
  // The modulus itself and the all-ones pattern are not canonical.
  std::array<uint8_t, n> m{}, ff{};
  ff.fill(0xff);
  for (size_t i = 0; i < n; ++i) m[i] = uint8_t(F::kModulus.limbs[i / 8] >> (8 * (i % 8)));
  for (const auto& bad : {m, ff}) {
    auto r = F::from_bytes_le(bad);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("not canonical"), std::string::npos) << r.error().message;
  }
  // M - 1 is the largest canonical value.
  m[0] -= 1;
  EXPECT_TRUE(F::from_bytes_le(m));
}

}  // namespace
}  // namespace cuzk::ff
