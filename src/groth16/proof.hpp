#pragma once
// A Groth16 proof (A, B, C) and its 192-byte encoding: A (G1), B (G2), C (G1), each zcash
// compressed (48 + 96 + 48 bytes), as bellperson writes it and Filecoin carries it (a
// multi-partition proof is the partitions' encodings concatenated in order).

#include <array>
#include <cstdint>
#include <span>

#include "core/expected.hpp"
#include "ec/serialize.hpp"

namespace cuzk::groth16 {

struct Proof {
  ec::G1Affine a;
  ec::G2Affine b;
  ec::G1Affine c;

  static constexpr size_t kBytes = ec::kG1CompressedBytes + ec::kG2CompressedBytes + ec::kG1CompressedBytes;

  std::array<uint8_t, kBytes> to_bytes() const;
  // Rejects a wrong length, any undecodable point, a point outside its subgroup and, as
  // bellperson does, a point at infinity; the error names the part (A, B or C).
  static Expected<Proof> from_bytes(std::span<const uint8_t> bytes);

  friend bool operator==(const Proof&, const Proof&) = default;
};

}  // namespace cuzk::groth16
