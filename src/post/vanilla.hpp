#pragma once
// PoSt vanilla proofs as the prover receives them (shared/SPEC-POST.md §7): one bincode
// FallbackPoStSectorProof per sector (filecoin-proofs types/mod.rs, serialised with bincode 1.x
// default options by proofs-api generate_single_vanilla_proof; what filecoin-ffi and Curio hand
// over unchanged):
//   sector_id u64 LE, comm_r 32 B, vanilla_proof.sectors: u64 count, per SectorProof:
//   inclusion_proofs (u64 count, MerkleProofs), comm_c 32 B, comm_r_last 32 B;
//   MerkleProof: porep/merkle_bincode.hpp (u32 LE variant 0 Single {root, leaf, path} | 1 Sub
//   {base_proof, sub_proof, root, leaf} | 2 Top {base_proof, sub_proof, top_proof, root, leaf}; a
//   path: u64 count of elements, each {hashes: u64 count + 32 B each, index: u64}).
// Decoding checks the bytes (bounds, counts against the bytes left, variant tags, every 32-byte
// value a canonical field element); validate() then checks the proof against the registered
// proof, randomness and the sector's position, before any synthesis (FallbackPoSt::verify's
// checks). Every error names the source, the byte offset and the field path.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"
#include "ff/bls12_381.hpp"
#include "porep/c1.hpp"
#include "porep/merkle_bincode.hpp"
#include "porep/poseidon.hpp"
#include "post/challenges.hpp"
#include "post/registered.hpp"

namespace cuzk::post {

// The Poseidon constants of arity 2, 4 and 8 (PoRep's set: the same MerkleTree constants).
using PostPoseidon = porep::PorepPoseidon;

// Where an inclusion proof sat in the bytes and how its path was split (base, sub, top elements).
using InclusionLayout = porep::bincode::MerkleProofLayout;

struct SectorProof {
  std::vector<porep::MerkleProof> inclusion_proofs;  // paths flattened leaf → root: base, sub, top
  std::vector<InclusionLayout> layout;              // one per inclusion proof
  ff::Fr comm_c, comm_r_last;
  friend bool operator==(const SectorProof&, const SectorProof&) = default;
};

struct FallbackPoStSectorProof {
  uint64_t sector_id = 0;
  ff::Fr comm_r;
  std::vector<SectorProof> sectors;  // one from generate_single_vanilla_proof
  friend bool operator==(const FallbackPoStSectorProof&, const FallbackPoStSectorProof&) = default;
};

// The bytes of one FallbackPoStSectorProof, all of them (trailing bytes are an error).
Expected<FallbackPoStSectorProof> decode_vanilla(std::span<const uint8_t> bytes, std::string_view source);
Expected<FallbackPoStSectorProof> read_vanilla_file(const std::string& path);

// bincode of a proof; the path of each inclusion proof is split by its kind (AuthPath::from: Sub:
// the last element is the sub path; Top: the last two are sub and top). encode(decode(b)) == b.
std::vector<uint8_t> encode_vanilla(const FallbackPoStSectorProof& proof);

// The checks of FallbackPoSt::verify on one sector's proof (SPEC-POST.md §7): one SectorProof;
// as many inclusion proofs as the kind's vanilla challenges; each of the tree shape's variant and
// path lengths (base arity − 1 siblings per base element, sub/top arity − 1 after), index below its
// arity, root = comm_r_last, the path hashing to it, the leaf index = the challenge derived from
// randomness, sector_id and sector_index (its position in the verifier's order); comm_r =
// Poseidon2(comm_c, comm_r_last). kInvalidArgument naming source, offset and field.
Expected<void> validate(const FallbackPoStSectorProof& proof, const RegisteredPostProof& registered,
                        std::span<const uint8_t, 32> randomness, uint64_t sector_index, const PostPoseidon& poseidon,
                        std::string_view source = "vanilla proof");

// validate() of several sectors at once, each result as validate() gives it: their paths are
// hashed together (a sector's 10 WindowPoSt paths fill 10 of 16 IFMA lanes, four sectors' 40 fill
// five groups of eight: docs/PERF.md 33). proof and source must outlive the call.
struct SectorToValidate {
  const FallbackPoStSectorProof* proof = nullptr;
  uint64_t position = 0;  // sector_index: the sector's position in the verifier's order
  std::string_view source = "vanilla proof";
};
std::vector<Expected<void>> validate_sectors(std::span<const SectorToValidate> sectors,
                                             const RegisteredPostProof& registered,
                                             std::span<const uint8_t, 32> randomness, const PostPoseidon& poseidon);

}  // namespace cuzk::post
