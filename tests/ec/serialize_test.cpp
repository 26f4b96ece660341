// zcash-format encodings: cuzk <-> @noble/curves in both directions, and every rejection rule.

#include <gtest/gtest.h>

#include <functional>

#include "ec/scalar_mul.hpp"
#include "ec/serialize.hpp"
#include "ec/subgroup.hpp"
#include "support/format.hpp"
#include "support/oracle.hpp"
#include "support/random.hpp"

namespace cuzk::ec {
namespace {

using Bytes = std::vector<uint8_t>;

template <class Curve>
struct Codec;
template <>
struct Codec<G1Curve> {
  static constexpr const char* kPrefix = "g1_";
  static auto compressed(std::span<const uint8_t> b, SubgroupCheck c = SubgroupCheck::kCheck) {
    return g1_from_compressed(b, c);
  }
  static auto uncompressed(std::span<const uint8_t> b, SubgroupCheck c = SubgroupCheck::kCheck) {
    return g1_from_uncompressed(b, c);
  }
};
template <>
struct Codec<G2Curve> {
  static constexpr const char* kPrefix = "g2_";
  static auto compressed(std::span<const uint8_t> b, SubgroupCheck c = SubgroupCheck::kCheck) {
    return g2_from_compressed(b, c);
  }
  static auto uncompressed(std::span<const uint8_t> b, SubgroupCheck c = SubgroupCheck::kCheck) {
    return g2_from_uncompressed(b, c);
  }
};

template <class Curve>
struct SerializeTest : ::testing::Test {};
using Curves = ::testing::Types<G1Curve, G2Curve>;
TYPED_TEST_SUITE(SerializeTest, Curves);

template <class Curve>
Affine<Curve> random_affine(std::mt19937_64& g) {
  return scalar_mul(Jacobian<Curve>::generator(), test::random_element<Fr>(g)).to_affine();
}

// A curve point outside the prime-order subgroup.
template <class Curve>
Affine<Curve> point_outside_subgroup(std::mt19937_64& g) {
  for (;;) {
    const auto x = test::random_element<typename Curve::Field>(g);
    if (auto y = (x.square() * x + Curve::kB).sqrt()) {
      Affine<Curve> p{x, *y, false};
      if (!in_subgroup(p)) return p;
    }
  }
}

// An x with no curve point (x^3 + b is not a square).
template <class Curve>
typename Curve::Field x_off_curve(std::mt19937_64& g) {
  for (;;) {
    const auto x = test::random_element<typename Curve::Field>(g);
    if (!(x.square() * x + Curve::kB).sqrt()) return x;
  }
}

TYPED_TEST(SerializeTest, RoundTripAndAgreeWithNoble) {
  using Curve = TypeParam;
  using C = Codec<Curve>;
  auto g = test::rng(50);
  auto oracle = test::bls12_381_oracle();
  std::vector<Affine<Curve>> points{Affine<Curve>::identity(), Affine<Curve>::generator()};
  for (int i = 0; i < 30; ++i) points.push_back(random_affine<Curve>(g));
  std::vector<size_t> from_compressed, from_uncompressed;
  for (const auto& p : points) {
    const auto c = to_compressed(p);
    const auto u = to_uncompressed(p);
    EXPECT_EQ(C::compressed(c).value(), p);
    EXPECT_EQ(C::uncompressed(u).value(), p);
    from_compressed.push_back(oracle.ask(std::string(C::kPrefix) + "decode " + test::bytes_hex(c)));
    from_uncompressed.push_back(oracle.ask(std::string(C::kPrefix) + "decode " + test::bytes_hex(u)));
  }
  oracle.run();
  for (size_t i = 0; i < points.size(); ++i) {
    if (points[i].infinity) continue;  // noble's fromHex accepts infinity only in some versions
    // noble decodes our bytes and re-encodes them byte for byte; we decode noble's bytes.
    for (size_t index : {from_compressed[i], from_uncompressed[i]}) {
      const auto& v = oracle.values(index);
      EXPECT_EQ(v[0], test::bytes_hex(to_uncompressed(points[i])));
      EXPECT_EQ(v[1], test::bytes_hex(to_compressed(points[i])));
      EXPECT_EQ(C::uncompressed(test::hex_bytes(v[0])).value(), points[i]);
      EXPECT_EQ(C::compressed(test::hex_bytes(v[1])).value(), points[i]);
    }
  }
}

TYPED_TEST(SerializeTest, InfinityEncodings) {
  using Curve = TypeParam;
  using C = Codec<Curve>;
  const auto c = to_compressed(Affine<Curve>::identity());
  const auto u = to_uncompressed(Affine<Curve>::identity());
  EXPECT_EQ(c[0], 0xc0);
  EXPECT_EQ(u[0], 0x40);
  EXPECT_TRUE(std::all_of(c.begin() + 1, c.end(), [](uint8_t b) { return b == 0; }));
  EXPECT_TRUE(std::all_of(u.begin() + 1, u.end(), [](uint8_t b) { return b == 0; }));
  EXPECT_TRUE(C::compressed(c).value().infinity);
  EXPECT_TRUE(C::uncompressed(u).value().infinity);
}

// Each malformed encoding fails with its own reason, and noble rejects it too.
TYPED_TEST(SerializeTest, RejectsMalformedEncodings) {
  using Curve = TypeParam;
  using C = Codec<Curve>;
  auto g = test::rng(51);
  const auto p = random_affine<Curve>(g);
  const auto c0 = to_compressed(p);
  const auto u0 = to_uncompressed(p);
  const Bytes c(c0.begin(), c0.end()), u(u0.begin(), u0.end());
  const size_t coord = c.size();

  struct Bad {
    std::string name;
    Bytes bytes;
    bool compressed;
    std::string reason;
    bool noble_rejects = true;
  };
  std::vector<Bad> bad;
  auto bytes = [](const auto& array) { return Bytes(array.begin(), array.end()); };
  auto with = [](Bytes b, const std::function<void(Bytes&)>& edit) {
    edit(b);
    return b;
  };
  bad.push_back({"short", Bytes(c.begin(), c.end() - 1), true, "wrong length"});
  bad.push_back({"long", with(c, [](Bytes& b) { b.push_back(0); }), true, "wrong length"});
  bad.push_back({"empty", Bytes{}, true, "wrong length"});
  // noble picks the format by length, ignores the sort flag of uncompressed points and of the point
  // at infinity; the zcash rules (bls12_381 crate, bellperson) reject all three, and so do we.
  bad.push_back({"uncompressed bytes to the compressed decoder", u, true, "wrong length", false});
  bad.push_back({"compressed without 0x80", with(c, [](Bytes& b) { b[0] &= 0x7f; }), true, "compression flag"});
  bad.push_back({"uncompressed with 0x80", with(u, [](Bytes& b) { b[0] |= 0x80; }), false, "compression flag"});
  bad.push_back({"uncompressed with sort flag", with(u, [](Bytes& b) { b[0] |= 0x20; }), false, "sort flag", false});
  Bytes inf_c(coord, 0), inf_u(2 * coord, 0);
  inf_c[0] = 0xc0;
  inf_u[0] = 0x40;
  bad.push_back({"infinity with a set bit", with(inf_c, [](Bytes& b) { b.back() = 1; }), true, "not all zero"});
  bad.push_back({"infinity with a low flag-byte bit", with(inf_u, [](Bytes& b) { b[0] |= 0x01; }), false, "not all zero"});
  bad.push_back({"infinity with sort flag", with(inf_c, [](Bytes& b) { b[0] |= 0x20; }), true, "sort flag", false});
  // x = p: the modulus itself in the first coordinate slot (c1 for G2), flags kept.
  std::array<uint8_t, 48> modulus{};
  for (size_t i = 0; i < 48; ++i) modulus[47 - i] = uint8_t(Fp::kModulus.limbs[i / 8] >> (8 * (i % 8)));
  auto with_modulus_at = [&](Bytes b, size_t offset) {
    const uint8_t flags = b[0] & 0xe0;
    std::copy(modulus.begin(), modulus.end(), b.begin() + offset);
    b[0] |= flags;
    return b;
  };
  bad.push_back({"x >= p", with_modulus_at(c, 0), true, "x coordinate is not canonical"});
  bad.push_back({"x >= p, uncompressed", with_modulus_at(u, 0), false, "x coordinate is not canonical"});
  bad.push_back({"y >= p", with_modulus_at(u, coord), false, "y coordinate is not canonical"});
  if constexpr (std::is_same_v<Curve, G2Curve>) {
    bad.push_back({"x.c0 >= p", with_modulus_at(c, 48), true, "x coordinate is not canonical"});
  }
  Affine<Curve> off{x_off_curve<Curve>(g), p.y, false};
  bad.push_back({"x not on the curve", bytes(to_compressed(off)), true,
                 "not the abscissa"});
  Affine<Curve> moved{p.x, p.y + Curve::Field::one(), false};
  bad.push_back({"(x, y + 1)", bytes(to_uncompressed(moved)), false,
                 "not on the curve"});
  const auto outside = point_outside_subgroup<Curve>(g);
  bad.push_back({"outside the subgroup", bytes(to_compressed(outside)), true,
                 "not in the prime-order subgroup"});
  bad.push_back({"outside the subgroup, uncompressed",
                 bytes(to_uncompressed(outside)), false,
                 "not in the prime-order subgroup"});

  auto oracle = test::bls12_381_oracle();
  std::vector<size_t> asked;
  for (const auto& b : bad) {
    asked.push_back(b.bytes.empty() ? oracle.ask(std::string(C::kPrefix) + "decode 00")
                                    : oracle.ask(std::string(C::kPrefix) + "decode " + test::bytes_hex(b.bytes)));
    auto r = b.compressed ? C::compressed(b.bytes) : C::uncompressed(b.bytes);
    ASSERT_FALSE(r) << b.name << " was accepted";
    EXPECT_EQ(r.error().code, ErrorCode::kCorruption) << b.name;
    EXPECT_NE(r.error().message.find(b.reason), std::string::npos) << b.name << ": " << r.error().message;
    EXPECT_NE(r.error().message.find(Curve::kName), std::string::npos) << r.error().message;
  }
  oracle.run();
  for (size_t i = 0; i < bad.size(); ++i) {
    if (bad[i].noble_rejects) {
      EXPECT_FALSE(oracle.ok(asked[i])) << "noble accepted: " << bad[i].name;
    }
  }

  // Without the subgroup check the outside point decodes (for pre-checked parameter files).
  EXPECT_TRUE(C::compressed(to_compressed(outside), SubgroupCheck::kSkip));
}

TYPED_TEST(SerializeTest, SortFlagPicksTheRoot) {
  using Curve = TypeParam;
  using C = Codec<Curve>;
  auto g = test::rng(52);
  for (int i = 0; i < 10; ++i) {
    const auto p = random_affine<Curve>(g);
    auto c = to_compressed(p);
    EXPECT_EQ(bool(c[0] & 0x20), p.y.is_lexicographically_largest());
    c[0] ^= 0x20;  // the other root: -P
    EXPECT_EQ(C::compressed(c).value(), -p);
  }
}

}  // namespace
}  // namespace cuzk::ec
