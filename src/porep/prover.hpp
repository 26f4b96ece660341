#pragma once
// PoRep C2, one partition: synthesised on the CPU (ProvingCS, or WitnessCS for a backend holding
// the compiled circuit), proved with Groth16 by a backend (groth16/backend.hpp: the CPU or a
// GPU) and verified against public inputs recomputed from the C1's public data before it is
// returned (groth16/partition_prover.hpp: the recipe every proof kind shares). The
// recomputation also catches a C1 whose proofs do not answer its own challenges or graph. Which
// partition runs where, and in what order, is the engine's (engine/engine.hpp).

#include <cstdint>
#include <optional>
#include <vector>

#include "core/expected.hpp"
#include "core/thread_pool.hpp"
#include "groth16/backend.hpp"
#include "groth16/keys.hpp"
#include "groth16/partition_prover.hpp"
#include "porep/c1.hpp"
#include "porep/circuit.hpp"
#include "porep/sector_shape.hpp"

namespace cuzk::porep {

struct PartitionOptions {
  // Reproducible r, s (tests only): partition k's from seed + k; else the OS CSPRNG.
  std::optional<uint64_t> blinding_seed;
  // Witness-only synthesis: each challenge of the partition in parallel on this pool
  // (synthesize_partition_witness); null: one thread (slower: docs/PERF.md 22).
  ThreadPool* synthesis_pool = nullptr;
};

// The public inputs (ONE excluded) of partition k, from the C1's public data: replica_id, comm_d,
// comm_r, the challenges derived from replica_id and seed, and their parents in the registered
// proof's graph.
Expected<std::vector<ff::Fr>> c1_public_inputs(const C1& c1, uint32_t partition);

// Partition `partition` of `c1` proved by `prover` (a key for this C1's partition circuit; from
// the witness when it holds the compiled circuit: compile_partition) and verified with `pvk`.
// `c1` must have passed validate() (parse_c1 does it).
Expected<groth16::PartitionProof> prove_partition(const C1& c1, uint32_t partition, groth16::ProverBackend& prover,
                                                  const groth16::PreparedVerifyingKey& pvk,
                                                  const PorepPoseidon& poseidon, const PartitionOptions& options = {});

}  // namespace cuzk::porep
