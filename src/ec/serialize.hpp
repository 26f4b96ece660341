#pragma once
// zcash-format point encodings, as used by bellperson .params/.vk files and Filecoin proofs:
//   G1: compressed 48 B (x), uncompressed 96 B (x || y); G2: 96 B (x), 192 B (x || y).
//   Coordinates big-endian; an Fp2 element is written c1 then c0.
//   Byte 0's top three bits are flags: 0x80 compressed, 0x40 point at infinity, 0x20 "y is the
//   lexicographically largest root" (compressed only). The point at infinity is the flag byte
//   alone with every other bit zero (0xc0 00.. compressed, 0x40 00.. uncompressed).
// Decoding rejects, each with an error naming the reason: a wrong length, wrong or inconsistent
// flags, a coordinate >= p, an x with no curve point, a point off the curve, and (unless told
// not to) a point outside the prime-order subgroup.

#include <array>
#include <cstdint>
#include <span>

#include "core/expected.hpp"
#include "ec/bls12_381.hpp"

namespace cuzk::ec {

inline constexpr size_t kG1CompressedBytes = 48;
inline constexpr size_t kG1UncompressedBytes = 96;
inline constexpr size_t kG2CompressedBytes = 96;
inline constexpr size_t kG2UncompressedBytes = 192;

// Whether decoding runs the subgroup check. kSkip is for data already checked once (a cached,
// checksummed parameter file); anything from outside gets kCheck.
enum class SubgroupCheck { kCheck, kSkip };

std::array<uint8_t, kG1CompressedBytes> to_compressed(const G1Affine& p);
std::array<uint8_t, kG1UncompressedBytes> to_uncompressed(const G1Affine& p);
std::array<uint8_t, kG2CompressedBytes> to_compressed(const G2Affine& p);
std::array<uint8_t, kG2UncompressedBytes> to_uncompressed(const G2Affine& p);

Expected<G1Affine> g1_from_compressed(std::span<const uint8_t> bytes, SubgroupCheck check = SubgroupCheck::kCheck);
Expected<G1Affine> g1_from_uncompressed(std::span<const uint8_t> bytes, SubgroupCheck check = SubgroupCheck::kCheck);
Expected<G2Affine> g2_from_compressed(std::span<const uint8_t> bytes, SubgroupCheck check = SubgroupCheck::kCheck);
Expected<G2Affine> g2_from_uncompressed(std::span<const uint8_t> bytes, SubgroupCheck check = SubgroupCheck::kCheck);

}  // namespace cuzk::ec
