#pragma once
// The label of one node in one layer, in circuit (storage-proofs-porep stacked/circuit/
// create_label.rs, rust-fil-proofs @87348a74): SHA-256 over
//   replica_id bits (padded to 256) ‖ layer (UInt32, big-endian) ‖ node (UInt64, big-endian)
//   ‖ zeros to 512 bits ‖ 37 parents, each padded to 256 bits,
// 39·256 bits in all; the digest's bits reversed within each byte (reverse_bit_numbering) and
// the first 254 packed into one number ("result_num", pack_bits). The vanilla label is the same
// SHA-256 with byte 31 &= 0x3f (SPEC.md §2). Rust's test (one label, every input bit allocated):
// 532,025 rows.

#include <span>
#include <vector>

#include "gadgets/boolean.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/num.hpp"
#include "gadgets/sha256.hpp"
#include "gadgets/uint32.hpp"
#include "gadgets/uint64.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::porep {

inline constexpr size_t kTotalParents = 37;  // 6 DRG + 8 expander, repeated (stacked/vanilla TOTAL_PARENTS)

template <r1cs::ConstraintSystem CS>
gadgets::AllocatedNum<typename CS::Field> create_label_circuit(CS& cs, std::span<const gadgets::Boolean> replica_id,
                                                               std::span<const std::vector<gadgets::Boolean>> parents,
                                                               const gadgets::UInt32& layer,
                                                               const gadgets::UInt64& node) {
  using gadgets::Boolean;
  if (replica_id.size() < 32 || replica_id.size() > 256) throw r1cs::SynthesisError("create_label: replica id size");
  if (parents.size() != kTotalParents) throw r1cs::SynthesisError("create_label: expected 37 parents");
  std::vector<Boolean> message(replica_id.begin(), replica_id.end());
  message.reserve((2 + kTotalParents) * 256);
  while (message.size() < 256) message.push_back(Boolean::constant(false));
  const std::vector<Boolean> layer_bits = layer.into_bits_be(), node_bits = node.to_bits_be();
  message.insert(message.end(), layer_bits.begin(), layer_bits.end());
  message.insert(message.end(), node_bits.begin(), node_bits.end());
  while (message.size() < 512) message.push_back(Boolean::constant(false));
  for (const std::vector<Boolean>& parent : parents) {
    message.insert(message.end(), parent.begin(), parent.end());
    while (message.size() % 256 != 0) message.push_back(Boolean::constant(false));
  }
  if (message.size() != (2 + kTotalParents) * 256)
    throw r1cs::SynthesisError("create_label: a parent exceeds 256 bits");

  const std::vector<Boolean> digest = [&] {
    r1cs::Namespace ns(cs, "hash");
    return gadgets::sha256(cs, message);
  }();
  std::vector<Boolean> bits = gadgets::reverse_bit_numbering(digest);
  bits.erase(bits.begin() + gadgets::kCapacity<typename CS::Field>, bits.end());
  r1cs::Namespace ns(cs, "result_num");
  return gadgets::pack_bits(cs, std::span<const Boolean>(bits));
}

}  // namespace cuzk::porep
