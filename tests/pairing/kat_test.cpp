// Fixed known answers (tests/data/bls12_381_kat.txt, computed by @noble/curves and committed):
// scalar multiples of both generators and pairing values. No node needed.

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "ec/scalar_mul.hpp"
#include "ec/serialize.hpp"
#include "pairing/pairing.hpp"
#include "support/format.hpp"

namespace cuzk::pairing {
namespace {

using ec::G1Jacobian;
using ec::G2Jacobian;

TEST(KnownAnswers, FromFile) {
  std::ifstream in(CUZK_TEST_DATA_DIR "/bls12_381_kat.txt");
  ASSERT_TRUE(in) << "missing " << CUZK_TEST_DATA_DIR "/bls12_381_kat.txt";
  int g1 = 0, g2 = 0, pairings = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream tokens(line);
    std::vector<std::string> t;
    for (std::string s; tokens >> s;) t.push_back(s);
    const auto k = ff::BigInt<4>::from_hex(t.at(1));
    if (t[0] == "g1_mul") {
      const auto p = ec::scalar_mul(G1Jacobian::generator(), k).to_affine();
      EXPECT_EQ(test::bytes_hex(ec::to_compressed(p)), t.at(2)) << line;
      EXPECT_EQ(ec::g1_from_compressed(test::hex_bytes(t.at(2))).value(), p);
      ++g1;
    } else if (t[0] == "g2_mul") {
      const auto p = ec::scalar_mul(G2Jacobian::generator(), k).to_affine();
      EXPECT_EQ(test::bytes_hex(ec::to_compressed(p)), t.at(2)) << line;
      EXPECT_EQ(ec::g2_from_compressed(test::hex_bytes(t.at(2))).value(), p);
      ++g2;
    } else if (t[0] == "pairing") {
      const auto b = ff::BigInt<4>::from_hex(t.at(2));
      const auto p = ec::scalar_mul(G1Jacobian::generator(), k).to_affine();
      const auto q = ec::scalar_mul(G2Jacobian::generator(), b).to_affine();
      EXPECT_EQ(pairing(p, q), test::parse_fp12(t, 3)) << "e([" << t[1] << "]G1, [" << t[2] << "]G2)";
      ++pairings;
    } else {
      ADD_FAILURE() << "unknown KAT line: " << line;
    }
  }
  EXPECT_EQ(g1, 12);
  EXPECT_EQ(g2, 12);
  EXPECT_EQ(pairings, 3);
}

}  // namespace
}  // namespace cuzk::pairing
