#include "ec/serialize.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <type_traits>

#include "ec/subgroup.hpp"

namespace cuzk::ec {

namespace {

constexpr uint8_t kFlagCompressed = 0x80;
constexpr uint8_t kFlagInfinity = 0x40;
constexpr uint8_t kFlagSort = 0x20;
constexpr uint8_t kFlagMask = 0xe0;

// Coordinates, big-endian: Fp as 48 bytes, Fp2 as c1 || c0.
void put(const Fp& v, uint8_t* out) { v.to_bytes_be(std::span<uint8_t, 48>(out, 48)); }
void put(const Fp2& v, uint8_t* out) {
  put(v.c1, out);
  put(v.c0, out + 48);
}
// False when the value is not canonical (>= p).
bool get(const uint8_t* in, Fp& out) {
  auto v = Fp::from_bytes_be(std::span<const uint8_t, 48>(in, 48));
  if (v) out = *v;
  return v.has_value();
}
bool get(const uint8_t* in, Fp2& out) { return get(in, out.c1) && get(in + 48, out.c0); }

// Bytes of one coordinate: 48 for Fp, 96 for Fp2.
template <class Curve>
constexpr size_t kCoordBytes = std::is_same_v<typename Curve::Field, Fp> ? Fp::kBytes : 2 * Fp::kBytes;

template <class Curve, size_t Size>
std::array<uint8_t, Size> encode(const Affine<Curve>& p, bool compressed) {
  std::array<uint8_t, Size> out{};
  if (p.infinity) {
    out[0] = kFlagInfinity | (compressed ? kFlagCompressed : 0);
    return out;
  }
  put(p.x, out.data());
  if (compressed) {
    out[0] |= kFlagCompressed;
    if (p.y.is_lexicographically_largest()) out[0] |= kFlagSort;
  } else {
    put(p.y, out.data() + kCoordBytes<Curve>);
  }
  return out;
}

template <class Curve>
Expected<Affine<Curve>> decode(std::span<const uint8_t> bytes, bool compressed, SubgroupCheck check) {
  constexpr size_t kCoord = kCoordBytes<Curve>;
  const size_t want = compressed ? kCoord : 2 * kCoord;
  const std::string what = fmt::format("{} {}", Curve::kName, compressed ? "compressed" : "uncompressed");
  auto fail = [&](std::string_view reason) { return corruption(fmt::format("{}: {}", what, reason)); };

  if (bytes.size() != want) return fail(fmt::format("wrong length {} (expected {})", bytes.size(), want));
  const uint8_t flags = bytes[0] & kFlagMask;
  if (bool(flags & kFlagCompressed) != compressed) {
    return fail(compressed ? "compression flag (0x80) is not set" : "compression flag (0x80) is set");
  }
  if (flags & kFlagInfinity) {
    if (flags & kFlagSort) return fail("sort flag (0x20) is set on the point at infinity");
    const bool rest_zero = (bytes[0] & ~kFlagMask) == 0 &&
                           std::all_of(bytes.begin() + 1, bytes.end(), [](uint8_t b) { return b == 0; });
    if (!rest_zero) return fail("infinity flag (0x40) is set but the coordinates are not all zero");
    return Affine<Curve>::identity();
  }
  if (!compressed && (flags & kFlagSort)) return fail("sort flag (0x20) is set in an uncompressed encoding");

  std::array<uint8_t, 2 * kCoord> buf{};
  std::copy(bytes.begin(), bytes.end(), buf.begin());
  buf[0] &= uint8_t(~kFlagMask);
  Affine<Curve> p;
  p.infinity = false;
  if (!get(buf.data(), p.x)) return fail("x coordinate is not canonical (>= p)");
  if (compressed) {
    auto y = (p.x.square() * p.x + Curve::kB).sqrt();
    if (!y) return fail("x is not the abscissa of a curve point (x^3 + b is not a square)");
    p.y = (y->is_lexicographically_largest() == bool(flags & kFlagSort)) ? *y : -*y;
  } else {
    if (!get(buf.data() + kCoord, p.y)) return fail("y coordinate is not canonical (>= p)");
    if (!p.is_on_curve()) return fail("point is not on the curve");
  }
  if (check == SubgroupCheck::kCheck && !in_subgroup(p)) return fail("point is not in the prime-order subgroup");
  return p;
}

}  // namespace

std::array<uint8_t, kG1CompressedBytes> to_compressed(const G1Affine& p) { return encode<G1Curve, kG1CompressedBytes>(p, true); }
std::array<uint8_t, kG1UncompressedBytes> to_uncompressed(const G1Affine& p) { return encode<G1Curve, kG1UncompressedBytes>(p, false); }
std::array<uint8_t, kG2CompressedBytes> to_compressed(const G2Affine& p) { return encode<G2Curve, kG2CompressedBytes>(p, true); }
std::array<uint8_t, kG2UncompressedBytes> to_uncompressed(const G2Affine& p) { return encode<G2Curve, kG2UncompressedBytes>(p, false); }

Expected<G1Affine> g1_from_compressed(std::span<const uint8_t> b, SubgroupCheck c) { return decode<G1Curve>(b, true, c); }
Expected<G1Affine> g1_from_uncompressed(std::span<const uint8_t> b, SubgroupCheck c) { return decode<G1Curve>(b, false, c); }
Expected<G2Affine> g2_from_compressed(std::span<const uint8_t> b, SubgroupCheck c) { return decode<G2Curve>(b, true, c); }
Expected<G2Affine> g2_from_uncompressed(std::span<const uint8_t> b, SubgroupCheck c) { return decode<G2Curve>(b, false, c); }

}  // namespace cuzk::ec
