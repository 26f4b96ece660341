// G1 and G2 arithmetic against @noble/curves, and the three coordinate systems against each other.

#include <gtest/gtest.h>

#include "ec/batch_normalize.hpp"
#include "ec/scalar_mul.hpp"
#include "ec/serialize.hpp"
#include "support/format.hpp"
#include "support/oracle.hpp"
#include "support/random.hpp"

namespace cuzk::ec {
namespace {

template <class Curve>
struct GroupTest : ::testing::Test {};
using Curves = ::testing::Types<G1Curve, G2Curve>;
TYPED_TEST_SUITE(GroupTest, Curves);

template <class Curve>
std::string prefix() {
  return std::is_same_v<Curve, G1Curve> ? "g1_" : "g2_";
}

template <class Curve>
Jacobian<Curve> random_point(std::mt19937_64& g) {
  // [k]G, then re-scaled by a random Z so that Z != 1 reaches the formulas.
  const auto p = scalar_mul(Jacobian<Curve>::generator(), test::random_element<Fr>(g));
  const auto l = test::random_element<typename Curve::Field>(g);
  return {p.x * l.square(), p.y * l.square() * l, p.z * l};
}

template <class Curve>
Affine<Curve> decode_uncompressed(const std::string& hex) {
  const auto bytes = test::hex_bytes(hex);
  if constexpr (std::is_same_v<Curve, G1Curve>) return g1_from_uncompressed(bytes).value();
  else return g2_from_uncompressed(bytes).value();
}

TYPED_TEST(GroupTest, GeneratorMatchesNoble) {
  using Curve = TypeParam;
  auto oracle = test::bls12_381_oracle();
  const size_t i = oracle.ask(prefix<Curve>() + "generator");
  oracle.run();
  EXPECT_EQ(decode_uncompressed<Curve>(oracle.values(i)[0]), Affine<Curve>::generator());
  EXPECT_TRUE(Affine<Curve>::generator().is_on_curve());
}

TYPED_TEST(GroupTest, MatchesNoble) {
  using Curve = TypeParam;
  using J = Jacobian<Curve>;
  auto g = test::rng(30);
  auto oracle = test::bls12_381_oracle();
  const std::string p = prefix<Curve>();
  struct Case {
    size_t index;
    J expected;
    const char* what;
  };
  std::vector<Case> cases;
  for (int i = 0; i < 12; ++i) {
    const J a = random_point<Curve>(g), b = random_point<Curve>(g);
    const Fr k = test::random_element<Fr>(g);
    const std::string ha = test::bytes_hex(to_compressed(a.to_affine()));
    const std::string hb = test::bytes_hex(to_compressed(b.to_affine()));
    cases.push_back({oracle.ask(p + "add " + ha + " " + hb), a + b, "add"});
    cases.push_back({oracle.ask(p + "add " + ha + " " + ha), a + a, "add equal points"});
    cases.push_back({oracle.ask(p + "dbl " + ha), a.dbl(), "double"});
    cases.push_back({oracle.ask(p + "neg " + ha), -a, "negate"});
    cases.push_back({oracle.ask(p + "mul " + ha + " " + test::hex(k)), scalar_mul(a, k), "scalar mul"});
  }
  oracle.run();
  for (const auto& c : cases) {
    EXPECT_EQ(decode_uncompressed<Curve>(oracle.values(c.index)[0]), c.expected.to_affine()) << c.what;
  }
}

TYPED_TEST(GroupTest, CoordinateSystemsAgree) {
  using Curve = TypeParam;
  using J = Jacobian<Curve>;
  using X = XYZZ<Curve>;
  using A = Affine<Curve>;
  auto g = test::rng(31);
  for (int i = 0; i < 20; ++i) {
    const J a = random_point<Curve>(g), b = random_point<Curve>(g);
    const A aa = a.to_affine(), ba = b.to_affine();
    const X ax = X::from_affine(aa), bx = X::from_affine(ba);
    const A sum = (a + b).to_affine();
    EXPECT_TRUE(sum.is_on_curve());
    EXPECT_EQ((a + ba).to_affine(), sum);       // mixed
    EXPECT_EQ((ax + bx).to_affine(), sum);      // XYZZ
    EXPECT_EQ((ax + ba).to_affine(), sum);      // XYZZ mixed
    EXPECT_EQ((ax + bx).to_jacobian(), a + b);  // XYZZ -> Jacobian
    EXPECT_EQ(ax.dbl().to_affine(), a.dbl().to_affine());
    EXPECT_EQ((ax.dbl() + ax), X::from_affine((a.dbl() + a).to_affine()));
    // the special cases every formula must route: P + P, P + (-P), O + P, P + O
    EXPECT_EQ(a + a, a.dbl());
    EXPECT_EQ(a + aa, a.dbl());
    EXPECT_EQ((ax + aa).to_affine(), a.dbl().to_affine());
    EXPECT_EQ((ax + ax).to_affine(), a.dbl().to_affine());
    EXPECT_TRUE((a + -a).is_identity());
    EXPECT_TRUE((a + -aa).is_identity());
    EXPECT_TRUE((ax + -ax).is_identity());
    EXPECT_TRUE((ax + -aa).is_identity());
    EXPECT_EQ(J::identity() + a, a);
    EXPECT_EQ(a + A::identity(), a);
    EXPECT_EQ(X::identity() + aa, ax);
    EXPECT_TRUE(J::identity().dbl().is_identity());
  }
}

TYPED_TEST(GroupTest, ScalarMultiplicationEdges) {
  using Curve = TypeParam;
  using J = Jacobian<Curve>;
  auto g = test::rng(32);
  const J p = random_point<Curve>(g);
  ff::BigInt<4> r_minus_1 = Fr::kModulus;
  ff::sub_in_place(r_minus_1, ff::BigInt<4>(1));
  EXPECT_TRUE(scalar_mul(p, uint64_t(0)).is_identity());
  EXPECT_EQ(scalar_mul(p, uint64_t(1)), p);
  EXPECT_EQ(scalar_mul(p, uint64_t(2)), p.dbl());
  EXPECT_EQ(scalar_mul(p, uint64_t(17)), p.dbl().dbl().dbl().dbl() + p);
  EXPECT_EQ(scalar_mul(p, r_minus_1), -p);
  EXPECT_TRUE(scalar_mul(p, Fr::kModulus).is_identity());
  const Fr a = test::random_element<Fr>(g), b = test::random_element<Fr>(g);
  EXPECT_EQ(scalar_mul(p, a) + scalar_mul(p, b), scalar_mul(p, a + b));
  EXPECT_EQ(scalar_mul(scalar_mul(p, a), b), scalar_mul(p, a * b));
}

TYPED_TEST(GroupTest, BatchNormalize) {
  using Curve = TypeParam;
  using J = Jacobian<Curve>;
  auto g = test::rng(33);
  std::vector<J> in;
  for (int i = 0; i < 17; ++i) in.push_back(i % 5 == 2 ? J::identity() : random_point<Curve>(g));
  std::vector<Affine<Curve>> out(in.size());
  batch_normalize<Curve>(in, out);
  for (size_t i = 0; i < in.size(); ++i) EXPECT_EQ(out[i], in[i].to_affine()) << i;
  std::vector<Affine<Curve>> wrong(3);
  EXPECT_THROW(batch_normalize<Curve>(in, wrong), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::ec
