#pragma once
// What the PoRep circuit will enforce of a C1's vanilla proofs, checked natively before any
// synthesis, so that a C1 that cannot give a verifying proof is refused in milliseconds with the
// JSON path of the value at fault, rather than after a whole proof as "does not verify".
// validate() (c1.hpp) checks the shape; this checks the values (circuit.hpp, stacked/circuit/
// proof.rs, SPEC-POREP.md §3-§7):
//   comm_r = Poseidon2(comm_c, comm_r_last) (the roots of the first challenge's tree C and R proofs);
//   per challenge (partition k, challenge i):
//     c_x.column.index = the challenge derived from replica_id and seed (and comm_r for a
//       synthetic-PoRep proof: challenges.hpp porep_challenges); the 6 DRG and 8 expander
//       column indices = the node's parents in the registered proof's graph;
//     tree D: the data leaf's path hashes (SHA-256, trimmed) up to comm_d;
//     every column (14 parents, then c_x): its leaf = Poseidon_L(rows), its path hashes
//       (Poseidon of the tree's arities) up to its root (comm_c);
//     per layer l: labeling_proofs[l−1].parents = the parents' rows expanded to 37
//       (expand_label_parents), and create_label(replica_id, l, node, parents) = c_x.rows[l−1];
//       encoding_proof.parents = the last layer's;
//     tree R: its leaf = c_x.rows[L−1] + the data leaf (the encoding), its path up to comm_r_last.
// A failure names the value: "c1.json: vanilla_proofs.StackedDrg2KiBV1[0][1].replica_column_proofs.
// c_x.inclusion_proof: the path from the leaf does not reach the root".
//
// replica_id itself is public data the C1 merely repeats: check_replica_id compares it with the
// one derived from the prover id and sector id, which only the caller knows (the C1 does not
// carry them).

#include <cstdint>
#include <span>
#include <string_view>

#include "core/expected.hpp"
#include "core/thread_pool.hpp"
#include "porep/c1.hpp"
#include "porep/circuit.hpp"

namespace cuzk::porep {

// `c1` must have passed validate() (parse_c1 does it). The challenges are checked in parallel
// on `pool` when given; the error reported is the first in document order either way.
Expected<void> check_vanilla_proofs(const C1& c1, const PorepPoseidon& poseidon, ThreadPool* pool = nullptr,
                                    std::string_view source_name = "c1");

// replica_id = SHA-256(prover_id ‖ sector_id u64 BE ‖ ticket ‖ comm_d ‖ porep_id), top two bits
// cleared (challenges.hpp replica_id); otherwise kInvalidArgument naming replica_id.
Expected<void> check_replica_id(const C1& c1, std::span<const uint8_t, 32> prover_id, uint64_t sector_id,
                                std::string_view source_name = "c1");

}  // namespace cuzk::porep
