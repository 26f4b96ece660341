// The tagged coefficient encoding of gpu/spmv.hpp (host code, no GPU needed; label gpu_host):
// every code decodes to its coefficient, only non-unit values enter the table, and the table's
// capacity is exact.

#include <gtest/gtest.h>

#include <vector>

#include "ff/bls12_381.hpp"
#include "gpu/spmv.hpp"
#include "support/random.hpp"

namespace cuzk::gpu {
namespace {

using ff::Fr;

TEST(SpmvEncode, CodesNameEveryCoefficient) {
  auto g = test::rng(63);
  std::vector<Fr> coeff;
  const Fr two = Fr::from_uint(2), r1 = test::random_element<Fr>(g);
  for (int i = 0; i < 100; ++i) coeff.insert(coeff.end(), {Fr::one(), -Fr::one(), two, r1, two});
  const CoeffCodes c = encode_coefficients(coeff);
  ASSERT_TRUE(c.ok);
  ASSERT_EQ(c.table.size(), 2u) << "distinct non-unit values only";
  ASSERT_EQ(c.code.size(), coeff.size());
  for (size_t k = 0; k < coeff.size(); ++k) {
    const Fr decoded = c.code[k] == 0 ? Fr::one() : c.code[k] == 1 ? -Fr::one() : c.table[c.code[k] - 2];
    ASSERT_EQ(decoded, coeff[k]) << k;
  }
  EXPECT_EQ(c.code[0], 0);
  EXPECT_EQ(c.code[1], 1);
  // One more distinct value than the table holds: not encodable.
  std::vector<Fr> many;
  for (size_t i = 0; i <= CoeffCodes::kMaxCoeffTable; ++i) many.push_back(Fr::from_uint(i + 2));
  EXPECT_FALSE(encode_coefficients(many).ok);
  many.pop_back();
  EXPECT_TRUE(encode_coefficients(many).ok);
}

}  // namespace
}  // namespace cuzk::gpu
