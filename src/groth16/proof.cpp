#include "groth16/proof.hpp"

#include <algorithm>
#include <string>

namespace cuzk::groth16 {

std::array<uint8_t, Proof::kBytes> Proof::to_bytes() const {
  std::array<uint8_t, kBytes> out{};
  const auto pa = ec::to_compressed(a);
  const auto pb = ec::to_compressed(b);
  const auto pc = ec::to_compressed(c);
  auto it = std::copy(pa.begin(), pa.end(), out.begin());
  it = std::copy(pb.begin(), pb.end(), it);
  std::copy(pc.begin(), pc.end(), it);
  return out;
}

Expected<Proof> Proof::from_bytes(std::span<const uint8_t> bytes) {
  if (bytes.size() != kBytes) {
    return invalid_argument("Groth16 proof: " + std::to_string(bytes.size()) + " bytes, expected " + std::to_string(kBytes));
  }
  const auto part = [](const char* name, const Error& e) {
    return Error{e.code, std::string("Groth16 proof: ") + name + ": " + e.message};
  };
  auto a = ec::g1_from_compressed(bytes.subspan(0, ec::kG1CompressedBytes));
  if (!a) return part("A", a.error());
  auto b = ec::g2_from_compressed(bytes.subspan(ec::kG1CompressedBytes, ec::kG2CompressedBytes));
  if (!b) return part("B", b.error());
  auto c = ec::g1_from_compressed(bytes.subspan(ec::kG1CompressedBytes + ec::kG2CompressedBytes));
  if (!c) return part("C", c.error());
  for (auto [name, inf] : {std::pair{"A", a->is_identity()}, {"B", b->is_identity()}, {"C", c->is_identity()}}) {
    if (inf) return invalid_argument(std::string("Groth16 proof: ") + name + ": the point at infinity");
  }
  return Proof{*a, *b, *c};
}

}  // namespace cuzk::groth16
