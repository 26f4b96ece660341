#pragma once
// The node hashes of Filecoin's Merkle trees, each as a circuit (what por_inclusion calls per
// level) and as its native twin (what builds the trees and the witness):
//   trees R and C: Poseidon of arity 2, 4 or 8 (filecoin-hashers PoseidonFunction);
//   tree D: SHA-256 of the two children's 32-byte little-endian encodings, the digest trimmed
//   to 254 bits (filecoin-hashers Sha256Function, rust-fil-proofs @87348a74; SPEC-SHA256.md §7.3).

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "ff/bls12_381.hpp"
#include "gadgets/boolean.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/num.hpp"
#include "gadgets/poseidon.hpp"
#include "gadgets/poseidon_constants.hpp"
#include "gadgets/poseidon_gadget.hpp"
#include "gadgets/sha256.hpp"
#include "gadgets/sha256_native.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::gadgets {

// PoseidonFunction::hash_multi_leaf_circuit: neptune's gadget with the MerkleTree constants of
// the preimage's arity. The constants are the caller's (built once, shared by every level).
// traced(t): the same hash, whose witness-only synthesis takes its variables from t when they
// were computed ahead (PoseidonTraces).
class PoseidonTreeHash {
 public:
  PoseidonTreeHash(const PoseidonConstants& arity2, const PoseidonConstants& arity4, const PoseidonConstants& arity8)
      : c2_(arity2), c4_(arity4), c8_(arity8) {}

  PoseidonTreeHash traced(PoseidonTraces* traces) const {
    PoseidonTreeHash h = *this;
    h.traces_ = traces;
    return h;
  }

  template <r1cs::ConstraintSystem CS>
  AllocatedNum<ff::Fr> operator()(CS& cs, std::span<const AllocatedNum<ff::Fr>> preimage) const {
    return poseidon_hash_gadget(cs, constants(preimage.size()), preimage, traces_);
  }

  ff::Fr native(std::span<const ff::Fr> children) const { return poseidon_hash(constants(children.size()), children); }

 private:
  const PoseidonConstants& constants(size_t arity) const {
    const PoseidonConstants& c = arity == 2 ? c2_ : arity == 4 ? c4_ : c8_;
    if (c.arity != arity) throw Exception(invalid_argument("PoseidonTreeHash: arity 2, 4 or 8"));
    return c;
  }

  const PoseidonConstants& c2_;
  const PoseidonConstants& c4_;
  const PoseidonConstants& c8_;
  PoseidonTraces* traces_ = nullptr;
};

// Sha256Function::hash_multi_leaf_circuit (binary tree D). Per child (namespace "{i}_num_into_bits"):
// to_bits_le (255 bits + unpacking row), one constant-false pad bit, bits reversed within each
// byte, which is the child's little-endian bytes in SHA-256's bit order. Then sha256 of the 512
// bits (namespace "hash"; the pad bits are free constants: 44,866 rows), the digest's bits
// reversed within each byte (little-endian bit order), the first 254 packed (namespace
// "pack_le", pack_bits: one row). 2·256 + 44,866 + 1 = 45,379 rows; with the index bit and the
// two insert picks a tree-D level has 45,382.
class Sha256TreeHash {
 public:
  template <r1cs::ConstraintSystem CS>
  AllocatedNum<ff::Fr> operator()(CS& cs, std::span<const AllocatedNum<ff::Fr>> preimage) const {
    std::vector<Boolean> message;
    message.reserve(256 * preimage.size());
    for (size_t i = 0; i < preimage.size(); ++i) {
      r1cs::Namespace ns(cs, [i] { return std::to_string(i) + "_num_into_bits"; });
      const std::vector<Boolean> bytes = reverse_bit_numbering(preimage[i].to_bits_le(cs));
      message.insert(message.end(), bytes.begin(), bytes.end());
    }
    const std::vector<Boolean> digest = [&] {
      r1cs::Namespace ns(cs, "hash");
      return sha256(cs, message);
    }();
    std::vector<Boolean> le = reverse_bit_numbering(digest);
    le.erase(le.begin() + kCapacity<ff::Fr>, le.end());
    r1cs::Namespace ns(cs, "pack_le");
    return pack_bits(cs, std::span<const Boolean>(le));
  }

  // Sha256Function::hash2 / multi_node: SHA-256 of the children's LE bytes, byte 31 &= 0x3f.
  static ff::Fr native(std::span<const ff::Fr> children) {
    std::vector<uint8_t> message(32 * children.size());
    for (size_t i = 0; i < children.size(); ++i) {
      children[i].to_bytes_le(std::span<uint8_t, 32>(message.data() + 32 * i, 32));
    }
    native::Sha256Digest digest = native::sha256(message);
    digest[31] &= 0x3f;  // trim_to_fr32: below 2^254 < r, so always canonical
    return ff::Fr::from_bytes_le(digest).value();
  }
};

}  // namespace cuzk::gadgets
