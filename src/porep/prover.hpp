#pragma once
// PoRep C2: every partition of a C1 synthesised on the CPU (ProvingCS, or WitnessCS for a backend
// holding the compiled circuit), proved with Groth16 (on the CPU, or on the backend ProveOptions
// names: groth16/backend.hpp) and verified against public inputs recomputed from the C1's public
// data before it is kept (shared/DESIGN.md decision 7: a wrong proof is never returned). The
// recomputation also catches a C1 whose proofs do not answer its own challenges or graph.

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "core/expected.hpp"
#include "core/thread_pool.hpp"
#include "groth16/backend.hpp"
#include "groth16/keys.hpp"
#include "groth16/proof.hpp"
#include "groth16/prover.hpp"
#include "groth16/verifier.hpp"
#include "porep/c1.hpp"
#include "porep/circuit.hpp"
#include "porep/sector_shape.hpp"

namespace cuzk::porep {

struct PartitionTimes {
  double synthesis_ms = 0, prove_ms = 0, verify_ms = 0;
  groth16::ProverTimes prover;
};

struct PorepProof {
  std::vector<groth16::Proof> partitions;
  std::vector<PartitionTimes> times;
  std::vector<uint8_t> bytes() const;  // 192 bytes per partition, in order
};

struct ProveOptions {
  std::optional<uint64_t> blinding_seed;  // reproducible r, s (tests only); else the OS CSPRNG
  groth16::ProverBackend* prover = nullptr;  // the Groth16 backend (for `params`); null: the CPU on `pool`
  // Synthesise with WitnessCS (the witness only, no rows) and let `prover`, which must have been
  // made with the partition circuit (compile_partition), compute a, b, c from it.
  bool from_witness = false;
  std::function<void(uint32_t partition)> on_partition_done;  // progress
};

// The public inputs (ONE excluded) of partition k, from the C1's public data: replica_id, comm_d,
// comm_r, the challenges derived from replica_id and seed, and their parents in the registered
// proof's graph.
Expected<std::vector<ff::Fr>> c1_public_inputs(const C1& c1, uint32_t partition);

// `c1` must have passed validate() (parse_c1 does it).
Expected<PorepProof> prove_c1(const C1& c1, const groth16::Parameters& params, const groth16::PreparedVerifyingKey& pvk,
                              const PorepPoseidon& poseidon, ThreadPool& pool, const ProveOptions& options = {});

}  // namespace cuzk::porep
