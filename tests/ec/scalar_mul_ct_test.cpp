// The constant-time scalar multiplication against the variable-time one (scalar_mul.hpp, itself
// checked against @noble/curves in group_test): random scalars and points (Z != 1), the edge
// scalars 0, 1, 2, 15, 16, r − 1, r, 2^255 − 1 and 2^256 − 1, the identity as the point, and
// [r − 1]P = −P, [r]P = O (P in the prime-order subgroup) from group laws alone.

#include <gtest/gtest.h>

#include "ec/bls12_381.hpp"
#include "ec/scalar_mul.hpp"
#include "ec/scalar_mul_ct.hpp"
#include "support/random.hpp"

namespace cuzk::ec {
namespace {

template <class Curve>
struct ScalarMulCt : ::testing::Test {};
using Curves = ::testing::Types<G1Curve, G2Curve>;
TYPED_TEST_SUITE(ScalarMulCt, Curves);

template <class Curve>
Jacobian<Curve> random_jacobian(std::mt19937_64& g) {
  const auto p = scalar_mul(Jacobian<Curve>::generator(), test::random_element<Fr>(g));
  const auto l = test::random_element<typename Curve::Field>(g);
  return {p.x * l.square(), p.y * l.square() * l, p.z * l};
}

template <class Curve>
void expect_same(const Jacobian<Curve>& a, const Jacobian<Curve>& b, const char* what) {
  EXPECT_TRUE(a == b) << what;
}

TYPED_TEST(ScalarMulCt, EqualsTheVariableTimeOne) {
  using Curve = TypeParam;
  auto g = test::rng(0x5ca1a);
  using Int = ff::BigInt<4>;
  const Int r = Fr::kModulus;
  Int r_minus_1 = r;
  r_minus_1.limbs[0] -= 1;  // r is odd: no borrow
  Int all_ones;
  for (auto& l : all_ones.limbs) l = ~uint64_t{0};
  Int top = all_ones;
  top.limbs[3] >>= 1;  // 2^255 − 1
  const Int edges[] = {Int(0), Int(1), Int(2), Int(15), Int(16), r_minus_1, r, top, all_ones};
  for (int round = 0; round < 4; ++round) {
    const Jacobian<Curve> p = random_jacobian<Curve>(g);
    for (const Int& k : edges) expect_same(scalar_mul_ct(p, k), scalar_mul(p, k), "edge scalar");
    for (int i = 0; i < 8; ++i) {
      const Fr k = test::random_element<Fr>(g);
      expect_same(scalar_mul_ct(p, k), scalar_mul(p, k), "random scalar");
    }
    // [r − 1]P = −P and [r]P = O: the subgroup's order, not the other implementation.
    expect_same(scalar_mul_ct(p, r_minus_1), -p, "[r-1]P");
    EXPECT_TRUE(scalar_mul_ct(p, r).is_identity());
    EXPECT_TRUE(scalar_mul_ct(p, Int(0)).is_identity());
  }
  // The identity as the point.
  const Jacobian<Curve> o{};
  EXPECT_TRUE(scalar_mul_ct(o, test::random_element<Fr>(g)).is_identity());
  // Small scalars against repeated addition.
  const Jacobian<Curve> p = random_jacobian<Curve>(g);
  Jacobian<Curve> sum{};
  for (uint64_t k = 0; k < 40; ++k, sum += p) expect_same(scalar_mul_ct(p, ff::BigInt<1>(k)), sum, "k·P by addition");
}

}  // namespace
}  // namespace cuzk::ec
