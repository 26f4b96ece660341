#pragma once
// The bincode encoding of storage-proofs-core's MerkleProof (merkle/proof.rs), the one the PoSt
// and SnapDeals vanilla proofs carry (shared/SPEC-POST.md §7, SPEC-SNAP.md §7): bincode 1.x
// default options, little-endian, u64 Vec lengths, u32 enum variant tags:
//   MerkleProof { data: ProofData }: u32 variant 0 Single { root, leaf, path },
//   1 Sub { base_proof, sub_proof, root, leaf }, 2 Top { base_proof, sub_proof, top_proof, root,
//   leaf }; InclusionPath { path: u64 count of PathElement { hashes: u64 count + 32 B each,
//   index: u64 } }; a domain value: 32 bytes, the field element's little-endian encoding.
// One reader for both decoders, on core/byte_reader.hpp: counts are bounded by the bytes left
// before anything is allocated, every domain value must be a canonical field element, an index
// must be a position among its hashes + 1 nodes, a sub_proof or top_proof path has one element
// (a sub or top tree has one level; MerkleProof keeps the path flattened, so any other split
// could not be written back). Errors read
//   "<source>: offset <n>: <field>.data.Single.path.path[1].hashes[2]: <what>"
// (the Rust struct's field path). encode(decode(b)) == b.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/byte_reader.hpp"
#include "core/expected.hpp"
#include "ff/bls12_381.hpp"
#include "porep/c1.hpp"

namespace cuzk::porep::bincode {

// The smallest encodings, to refuse a count that the bytes left cannot hold.
inline constexpr size_t kMinPathElement = 8 + 8;       // no hashes, index
inline constexpr size_t kMinMerkleProof = 4 + 64 + 8;  // Single with an empty path

// Where a MerkleProof sat in the bytes and how its path was split into base, sub and top
// elements (MerkleProof::path holds them flattened, leaf → root).
struct MerkleProofLayout {
  size_t offset = 0;
  uint32_t base = 0, sub = 0, top = 0;
  friend bool operator==(const MerkleProofLayout&, const MerkleProofLayout&) = default;
};

struct DecodedMerkleProof {
  MerkleProof proof;
  MerkleProofLayout layout;
};

// A 32-byte domain value: the Fr of its little-endian bytes, canonical (< r).
Expected<ff::Fr> read_domain(ByteReader& r, const std::string& field);
// A Vec length (u64) that the bytes left can hold at min_size bytes an element.
Expected<uint64_t> read_length(ByteReader& r, const std::string& field, size_t min_size);
// One MerkleProof; `field` names it (e.g. "challenge_proofs[3].proof_r_old").
Expected<DecodedMerkleProof> read_merkle_proof(ByteReader& r, const std::string& field);

void put_u64(std::vector<uint8_t>& out, uint64_t v);
void put_domain(std::vector<uint8_t>& out, const ff::Fr& v);
// The proof's path split back by its kind (ProofData::from: Sub: the last element is the sub
// path; Top: the last two are sub and top).
void put_merkle_proof(std::vector<uint8_t>& out, const MerkleProof& proof);

}  // namespace cuzk::porep::bincode
