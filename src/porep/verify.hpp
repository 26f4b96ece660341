#pragma once
// Verifying a PoRep proof from public data alone (what a chain verifier has): the public inputs
// of every partition are recomputed (replica_id from prover_id, sector_id, ticket, comm_d and
// porep_id; the challenges from replica_id and seed, and comm_r for synthetic PoRep; each
// challenge's 14 parents from the graph)
// and each 192-byte partition proof is checked against them with the circuit's verifying key.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/expected.hpp"
#include "ff/bls12_381.hpp"
#include "groth16/verifier.hpp"
#include "porep/c1.hpp"
#include "porep/challenges.hpp"
#include "porep/graph.hpp"
#include "porep/sector_shape.hpp"

namespace cuzk::porep {

struct PorepPublicData {
  Bytes32 prover_id{}, ticket{}, seed{}, comm_r{}, comm_d{}, porep_id{};
  uint64_t sector_id = 0;
  GraphVersion graph = GraphVersion::kV1_1;
  PorepFeature feature = PorepFeature::kNone;  // how the challenges are derived
  uint64_t nodes = 0;                     // sector size / 32
  uint32_t partitions = 1;
  uint32_t challenges_per_partition = 2;
  // When known (a C1 carries it), used instead of recomputing it from prover_id, sector_id,
  // ticket, comm_d and porep_id.
  std::optional<ff::Fr> replica_id;
};

// The graph a registered proof's API version uses (V1_0: the old DRG slot and Feistel truncation).
constexpr GraphVersion graph_version(ApiVersion api) {
  return api == ApiVersion::kV1_0 ? GraphVersion::kV1_0 : GraphVersion::kV1_1;
}

// Public data of a registered proof's sector (porep_id, graph, feature, nodes, partitions,
// challenges filled in; the sector's values left for the caller).
PorepPublicData public_data_for(const RegisteredSealProof& proof, const SectorShape& shape);

// A C1's public data: its registered proof's sector, comm_r, comm_d, seed and replica_id.
Expected<PorepPublicData> public_data_of(const C1& c1);

// Partition k's public inputs, ONE excluded (3 + 18·challenges values). comm_r and comm_d must
// be canonical field elements (an error names the one that is not).
Expected<std::vector<ff::Fr>> partition_public_inputs(const PorepPublicData& data, uint32_t partition);

// True when every partition's proof verifies; `proofs` holds the partitions' 192-byte proofs
// concatenated in order. Malformed bytes (wrong length, a point off the curve) are errors, a
// well-formed proof that does not verify is false.
Expected<bool> verify_porep(const groth16::PreparedVerifyingKey& pvk, std::span<const uint8_t> proofs,
                            const PorepPublicData& data);

}  // namespace cuzk::porep
