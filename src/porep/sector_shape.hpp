#pragma once
// The five PoRep sector sizes (shared/SPEC.md §1) and the registered seal proofs that name them
// (rust-filecoin-proofs-api @0e64ce8 src/registry.rs: RegisteredSealProof, REGISTERED_PROOF_IDS,
// porep_id, version). One constexpr table each; everything else is derived from it.

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "core/expected.hpp"

namespace cuzk::porep {

// rust-fil-proofs filecoin-proofs/src/constants.rs: SectorShape{2KiB..64GiB} =
// LCTree<Poseidon, U8, sub, top>; LAYERS, partitions and challenge counts per size.
struct SectorShape {
  std::string_view name;  // "2KiB", ..., "64GiB"
  uint64_t sector_size;   // bytes
  uint64_t nodes;         // 32-byte nodes = sector_size / 32
  uint32_t tree_d_depth;  // binary SHA-256 tree D: log2(nodes)
  // Trees R and C (Poseidon): base arity 8, then an optional sub level and an optional top level
  // (0 = absent). The proofs are Single (no sub), Sub (sub, no top) or Top.
  uint32_t base_arity, sub_arity, top_arity;
  uint32_t layers;
  uint32_t partitions;
  uint32_t challenges_per_partition;
  uint32_t drg_degree;        // 6 DRSample parents
  uint32_t expansion_degree;  // 8 Feistel expander parents
  uint64_t constraints;       // per partition, published, before the prover's input rows
  uint32_t public_inputs;     // per partition, ONE included: 1 + 3 + 18 · challenges

  // Path elements of the base tree(s): nodes / (sub · top) = base_arity^base_path_len.
  constexpr uint32_t base_path_len() const {
    uint64_t leaves = nodes / (sub_arity ? sub_arity : 1) / (top_arity ? top_arity : 1);
    uint32_t n = 0;
    for (; leaves > 1; leaves /= base_arity) ++n;
    return n;
  }
  // All path elements of a tree R/C proof: base, then one sub, then one top element.
  constexpr uint32_t tree_rc_path_len() const {
    return base_path_len() + (sub_arity ? 1 : 0) + (top_arity ? 1 : 0);
  }
  // Labels in one labeling proof: DRG + expander parents, repeated to 37 (SPEC.md §2).
  static constexpr uint32_t kLabelParents = 37;
};

inline constexpr std::array<SectorShape, 5> kSectorShapes{{
    // name,   bytes,                 nodes,    D, arities,  L,  P,  C, 6, 8, constraints, inputs
    {"2KiB", uint64_t{2} << 10, uint64_t{1} << 6, 6, 8, 0, 0, 2, 1, 2, 6, 8, 2'687'921, 40},
    {"8MiB", uint64_t{8} << 20, uint64_t{1} << 18, 18, 8, 0, 0, 2, 1, 2, 6, 8, 3'844'929, 40},
    {"512MiB", uint64_t{512} << 20, uint64_t{1} << 24, 24, 8, 0, 0, 2, 1, 2, 6, 8, 4'423'433, 40},
    {"32GiB", uint64_t{32} << 30, uint64_t{1} << 30, 30, 8, 8, 0, 11, 10, 18, 6, 8, 130'278'541, 328},
    {"64GiB", uint64_t{64} << 30, uint64_t{1} << 31, 31, 8, 8, 2, 11, 10, 18, 6, 8, 131'185'849, 328},
}};

// Accepts exactly the five sizes; the error lists them.
Expected<SectorShape> shape_for_sector_size(uint64_t bytes);

// "2KiB" | "8MiB" | "512MiB" | "32GiB" | "64GiB" (suffix case-insensitive) or a decimal byte
// count such as "34359738368"; only the five sector sizes are accepted.
Expected<uint64_t> parse_sector_size(std::string_view text);

// filecoin-proofs-api ApiVersion: V1_0_0 for the ...V1 names (old graph), V1_1_0 for ..._V1_1,
// V1_2_0 for the feature proofs.
enum class ApiVersion : uint8_t { kV1_0, kV1_1, kV1_2 };
enum class PorepFeature : uint8_t { kNone, kSyntheticPoRep, kNonInteractivePoRep };

struct RegisteredSealProof {
  std::string_view name;  // serde unit-variant name, as in the C1 JSON
  uint64_t id;            // REGISTERED_PROOF_IDS
  uint64_t sector_size;
  ApiVersion api_version;
  PorepFeature feature;

  // registry.rs porep_id(): id u64 LE in bytes 0..8, nonce u64 LE (0 for every proof) in 8..16,
  // zeros in 16..32.
  constexpr std::array<uint8_t, 32> porep_id() const {
    std::array<uint8_t, 32> out{};
    for (int i = 0; i < 8; ++i) out[i] = static_cast<uint8_t>(id >> (8 * i));
    return out;
  }
  // Interactive PoRep and synthetic PoRep (the same circuit and parameters; only the challenges
  // differ: challenges.hpp porep_challenges). Non-interactive PoRep (other partition counts, an
  // aggregated proof; Curio never seals with it) is refused.
  constexpr bool supported() const { return feature != PorepFeature::kNonInteractivePoRep; }
};

// Indexed by id (registry.rs REGISTERED_PROOF_IDS: 0..19 in declaration order).
inline constexpr std::array<RegisteredSealProof, 20> kRegisteredSealProofs{{
    {"StackedDrg2KiBV1", 0, uint64_t{2} << 10, ApiVersion::kV1_0, PorepFeature::kNone},
    {"StackedDrg8MiBV1", 1, uint64_t{8} << 20, ApiVersion::kV1_0, PorepFeature::kNone},
    {"StackedDrg512MiBV1", 2, uint64_t{512} << 20, ApiVersion::kV1_0, PorepFeature::kNone},
    {"StackedDrg32GiBV1", 3, uint64_t{32} << 30, ApiVersion::kV1_0, PorepFeature::kNone},
    {"StackedDrg64GiBV1", 4, uint64_t{64} << 30, ApiVersion::kV1_0, PorepFeature::kNone},
    {"StackedDrg2KiBV1_1", 5, uint64_t{2} << 10, ApiVersion::kV1_1, PorepFeature::kNone},
    {"StackedDrg8MiBV1_1", 6, uint64_t{8} << 20, ApiVersion::kV1_1, PorepFeature::kNone},
    {"StackedDrg512MiBV1_1", 7, uint64_t{512} << 20, ApiVersion::kV1_1, PorepFeature::kNone},
    {"StackedDrg32GiBV1_1", 8, uint64_t{32} << 30, ApiVersion::kV1_1, PorepFeature::kNone},
    {"StackedDrg64GiBV1_1", 9, uint64_t{64} << 30, ApiVersion::kV1_1, PorepFeature::kNone},
    // Synthetic PoRep is an API 1.2 feature although its names say V1_1 (registry.rs comment).
    {"StackedDrg2KiBV1_1_Feat_SyntheticPoRep", 10, uint64_t{2} << 10, ApiVersion::kV1_2, PorepFeature::kSyntheticPoRep},
    {"StackedDrg8MiBV1_1_Feat_SyntheticPoRep", 11, uint64_t{8} << 20, ApiVersion::kV1_2, PorepFeature::kSyntheticPoRep},
    {"StackedDrg512MiBV1_1_Feat_SyntheticPoRep", 12, uint64_t{512} << 20, ApiVersion::kV1_2, PorepFeature::kSyntheticPoRep},
    {"StackedDrg32GiBV1_1_Feat_SyntheticPoRep", 13, uint64_t{32} << 30, ApiVersion::kV1_2, PorepFeature::kSyntheticPoRep},
    {"StackedDrg64GiBV1_1_Feat_SyntheticPoRep", 14, uint64_t{64} << 30, ApiVersion::kV1_2, PorepFeature::kSyntheticPoRep},
    {"StackedDrg2KiBV1_2_Feat_NonInteractivePoRep", 15, uint64_t{2} << 10, ApiVersion::kV1_2, PorepFeature::kNonInteractivePoRep},
    {"StackedDrg8MiBV1_2_Feat_NonInteractivePoRep", 16, uint64_t{8} << 20, ApiVersion::kV1_2, PorepFeature::kNonInteractivePoRep},
    {"StackedDrg512MiBV1_2_Feat_NonInteractivePoRep", 17, uint64_t{512} << 20, ApiVersion::kV1_2, PorepFeature::kNonInteractivePoRep},
    {"StackedDrg32GiBV1_2_Feat_NonInteractivePoRep", 18, uint64_t{32} << 30, ApiVersion::kV1_2, PorepFeature::kNonInteractivePoRep},
    {"StackedDrg64GiBV1_2_Feat_NonInteractivePoRep", 19, uint64_t{64} << 30, ApiVersion::kV1_2, PorepFeature::kNonInteractivePoRep},
}};

// By name or id. Unknown: kInvalidArgument; a non-interactive PoRep proof: kUnsupported,
// naming it. Use registered_seal_proof_entry to look one up without refusing.
Expected<RegisteredSealProof> registered_seal_proof(std::string_view name);
Expected<RegisteredSealProof> registered_seal_proof(uint64_t id);
const RegisteredSealProof* registered_seal_proof_entry(std::string_view name);

// A registered proof (by name, refused as registered_seal_proof refuses) with its sector's shape.
struct RegisteredShape {
  RegisteredSealProof proof;
  SectorShape shape;
};
Expected<RegisteredShape> registered_shape(std::string_view name);

// The VanillaSealProof variant that carries a proof's partitions in the C1 JSON: every proof of a
// size maps to its ...V1 variant (filecoin-proofs-api seal.rs VanillaSealProof::from_raw).
std::string_view vanilla_proof_variant(const RegisteredSealProof& proof);

}  // namespace cuzk::porep
