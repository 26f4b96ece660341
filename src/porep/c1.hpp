#pragma once
// A sector's commit-phase-1 output (SealCommitPhase1Output, shared/SPEC.md §6 and
// shared/tools/c1gen_model.md): the vanilla proofs the PoRep circuit is synthesised from. Every
// 32-byte domain value is kept as its field element (Fr from the LE bytes; SHA-256 domains of
// tree D are below 2^254, Poseidon domains canonical) so the circuit reads it directly.

#include <array>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"
#include "ff/bls12_381.hpp"
#include "porep/sector_shape.hpp"

namespace cuzk::porep {

// storage-proofs-core merkle/proof.rs: a path element's arity − 1 siblings (current node left
// out) and the node's position in its group.
struct PathElement {
  std::vector<ff::Fr> hashes;
  uint32_t index = 0;
  friend bool operator==(const PathElement&, const PathElement&) = default;
};

// MerkleProof {"data": {"Single"|"Sub"|"Top": ...}}, flattened: path = base elements, then the
// sub element (Sub, Top), then the top element (Top); leaf → root.
struct MerkleProof {
  enum class Kind : uint8_t { kSingle, kSub, kTop };
  Kind kind = Kind::kSingle;
  ff::Fr root, leaf;
  std::vector<PathElement> path;
  friend bool operator==(const MerkleProof&, const MerkleProof&) = default;
};

// ColumnProof {"column": {"index", "rows", "_h": null}, "inclusion_proof"} (tree C).
struct ColumnProof {
  uint32_t index = 0;
  std::vector<ff::Fr> rows;  // one label per layer, layer 1 first
  MerkleProof inclusion;
  friend bool operator==(const ColumnProof&, const ColumnProof&) = default;
};

// LabelingProof / EncodingProof {"parents", "layer_index", "node"}.
struct LabelingProof {
  std::vector<ff::Fr> parents;  // 37
  uint32_t layer_index = 0;     // 1-based
  uint64_t node = 0;            // the challenge
  friend bool operator==(const LabelingProof&, const LabelingProof&) = default;
};

// stacked/vanilla/params.rs Proof: one challenge.
struct ChallengeProof {
  MerkleProof comm_d_proof;       // tree D (binary SHA-256)
  MerkleProof comm_r_last_proof;  // tree R
  ColumnProof c_x;
  std::vector<ColumnProof> drg_parents;  // 6
  std::vector<ColumnProof> exp_parents;  // 8
  std::vector<LabelingProof> labeling_proofs;  // one per layer
  LabelingProof encoding_proof;
  friend bool operator==(const ChallengeProof&, const ChallengeProof&) = default;
};

struct C1 {
  std::string registered_proof;  // e.g. "StackedDrg32GiBV1_1"
  std::vector<std::vector<ChallengeProof>> partitions;  // [partition][challenge]
  std::array<uint8_t, 32> comm_r{}, comm_d{}, replica_id{}, seed{}, ticket{};
  // Present when the input was Curio's wrapper {"SectorNum", "Phase1Out", "SectorSize"}.
  bool wrapped = false;
  uint64_t sector_num = 0;
  uint64_t sector_size = 0;
  friend bool operator==(const C1&, const C1&) = default;
};

// Parses either shape: the raw SealCommitPhase1Output JSON, or Curio's wrapper
// {"SectorNum", "Phase1Out": standard base64 of that JSON, "SectorSize"} (SectorSize must match
// the registered proof's size). Then validate()s it against the registered proof's sector shape.
// Every refusal names source_name and the JSON path of the field, e.g.
// "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][1].comm_r_last_proof.data.Single.path.path[1].hashes:
// expected 7 values, got 6". Unknown registered_proof: kInvalidArgument; synthetic / NI-PoRep
// proofs: kUnsupported. Keys may come in any order (Go re-marshals them sorted); unknown keys are
// ignored as serde does. As serde_json, the JSON is read strictly first (core/json_check.hpp):
// a syntax error names its byte offset ("c1.json: not valid JSON at byte 1234: ..."; inside
// the wrapper, "c1.json: Phase1Out: not valid JSON at byte ..." of the decoded text), content
// after the document is refused, a duplicate key is refused with its JSON path, and escaped keys
// are read as JSON says ("\u0073eed" is "seed").
Expected<C1> parse_c1(std::string_view json, std::string_view source_name);

// The compact serde_json text filecoin-ffi writes (keys in Rust declaration order, every domain
// value as 32 integers, "_h":null in columns; shared/tools/c1gen_model.md). For a wrapped C1,
// the inner document alone. parse_c1(to_json(c)) == c, and to_json(parse_c1(text)) == text for
// text in that canonical form.
std::string to_json(const C1& c1);

// Reads the file and parses it; source_name is the file name.
Expected<C1> read_c1_file(const std::filesystem::path& path);

// The shape checks, on a C1 however it was made: registered proof of this sector size (and the
// wrapper's SectorSize), partitions × challenges, per challenge: tree D path (depth, 1 sibling
// per level, indices spelling the challenge, root = comm_d), tree R and C paths (Single/Sub/Top
// per the shape, base_arity − 1 siblings per base level, sub/top arity − 1 after, indices
// spelling the challenge or column index, one tree-R root and one tree-C root throughout),
// L rows per column, 6 DRG + 8 expander columns, L labeling proofs (layer_index 1..L, node =
// challenge, 37 parents), the encoding proof (layer L). Errors are worded as parse_c1's.
Expected<void> validate(const C1& c1, const SectorShape& shape, std::string_view source_name = "c1");

}  // namespace cuzk::porep
