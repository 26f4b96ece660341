// The fixed-base tables (ec/fixed_base.hpp) against the variable-time scalar multiplication
// (scalar_mul.hpp, checked against @noble/curves in group_test), for both digit widths and both
// groups: random scalars, the edge scalars 0, 1, 2^w − 1, 2^w (a carry into the next digit),
// r − 1, r and 2^255 − 1 (the top digit); each row's first and last entries; the table built on
// several threads equals the one built on one.

#include <gtest/gtest.h>

#include "core/thread_pool.hpp"
#include "ec/bls12_381.hpp"
#include "ec/fixed_base.hpp"
#include "ec/scalar_mul.hpp"
#include "support/random.hpp"

namespace cuzk::ec {
namespace {

template <class Curve, unsigned W>
struct Case {
  using C = Curve;
  static constexpr unsigned kWindow = W;
};

template <class T>
struct FixedBase : ::testing::Test {};
using Cases = ::testing::Types<Case<G1Curve, 8>, Case<G2Curve, 8>, Case<G1Curve, 16>, Case<G2Curve, 16>>;
TYPED_TEST_SUITE(FixedBase, Cases);

TYPED_TEST(FixedBase, EqualsTheScalarMultiplication) {
  using Curve = typename TypeParam::C;
  constexpr unsigned W = TypeParam::kWindow;
  using Int = ff::BigInt<4>;
  auto g = test::rng(0xf1bed);
  // Not the generator: a table is a table of any point.
  const Affine<Curve> p = scalar_mul(Jacobian<Curve>::generator(), test::random_element<Fr>(g)).to_affine();
  ThreadPool pool(2);
  const FixedBaseTable<Curve, 4, W> table(p, [&pool](size_t n, auto&& fn) { pool.for_each_index(n, fn); });
  const auto pj = Jacobian<Curve>::from_affine(p);

  Int r_minus_1 = Fr::kModulus;
  r_minus_1.limbs[0] -= 1;  // r is odd: no borrow
  Int top;
  for (auto& l : top.limbs) l = ~uint64_t{0};
  top.limbs[3] >>= 1;  // 2^255 − 1
  const Int edges[] = {Int(0), Int(1), Int((uint64_t{1} << W) - 1), Int(uint64_t{1} << W), r_minus_1, Fr::kModulus, top};
  for (const Int& k : edges) EXPECT_TRUE(table.mul(k) == scalar_mul(pj, k)) << "edge scalar";
  EXPECT_TRUE(table.mul(Int(0)).is_identity());
  for (int i = 0; i < 24; ++i) {
    const Fr k = test::random_element<Fr>(g);
    EXPECT_TRUE(table.mul(k.to_int()) == scalar_mul(pj, k)) << "random scalar " << i;
  }
  // Every row's first and last entries: j · 2^(wk) · P; the one-thread constructor (w = 8: what
  // the GPU twin uploads) gives the same table.
  for (size_t k = 0; k < table.kDigits; ++k)
    for (unsigned j : {1u, unsigned(table.kEntries)}) {
      Int s;
      s.limbs[(k * W) / 64] = uint64_t{j} << ((k * W) % 64);
      ASSERT_TRUE(Jacobian<Curve>::from_affine(table.entry(k, j)) == scalar_mul(pj, s)) << "row " << k << " entry " << j;
    }
  if constexpr (W == 8) {
    const FixedBaseTable<Curve, 4, W> sequential(p);
    for (size_t k = 0; k < table.kDigits; ++k)
      for (unsigned j = 1; j <= table.kEntries; ++j) ASSERT_TRUE(table.entry(k, j) == sequential.entry(k, j));
  }
}

}  // namespace
}  // namespace cuzk::ec
