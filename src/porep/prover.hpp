#pragma once
// PoRep C2: every partition of a C1 synthesised on the CPU (ProvingCS, or WitnessCS for a backend
// holding the compiled circuit, ahead of the prover on worker threads), proved with Groth16 by a
// backend (groth16/backend.hpp: the CPU or a GPU) and verified against public inputs recomputed from the C1's public
// data before it is kept (shared/DESIGN.md decision 7: a wrong proof is never returned). The
// recomputation also catches a C1 whose proofs do not answer its own challenges or graph.

#include <cstdint>
#include <functional>
#include <optional>
#include <stop_token>
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
  // How long the caller waited for this partition (synthesis and proof: ahead on workers, or here).
  double wait_ms = 0;
  groth16::ProverTimes prover;
};

struct PorepProof {
  std::vector<groth16::Proof> partitions;
  std::vector<PartitionTimes> times;
  std::vector<uint8_t> bytes() const;  // 192 bytes per partition, in order
};

struct ProveOptions {
  std::optional<uint64_t> blinding_seed;  // reproducible r, s (tests only); else the OS CSPRNG
  // Synthesise with WitnessCS (the witness only, no rows) and let the prover, which must have been
  // made with the partition circuit (compile_partition), compute a, b, c from it (the GPU path).
  // The witness is written into a buffer lent by the backend (ProverBackend::witness_pool).
  bool from_witness = false;
  // Threads running partitions (synthesis, then the proof) ahead of the caller, who verifies them
  // in order; at most this many partitions in flight (a 32 GiB partition's witness is 4.2 GB: as
  // many buffers in the backend's pool).
  // With a GPU backend, partition k + 1 is synthesised and its witness uploaded while k is proved
  // (GpuProver takes concurrent calls). 0: every partition on the caller's thread, one after
  // another (the CPU backend, which needs every core for its own stages).
  unsigned synthesis_workers = 0;
  // With from_witness: each partition's challenges synthesised in parallel on this pool
  // (synthesize_partition_witness); null: one thread a partition (slower: docs/PERF.md 22).
  ThreadPool* synthesis_pool = nullptr;
  std::function<void(uint32_t partition)> on_partition_done;  // progress
  // A stop requested here ends the proof at the next partition boundary (a partition not yet
  // started is not started; one being proved finishes) with ErrorCode::kCancelled.
  std::stop_token stop;

  // The GPU path: from the witness, kPipelineWorkers partitions in flight (one proved while the
  // next is synthesised and goes up), each partition's challenges in parallel on `pool`
  // (docs/PERF.md 22: ~0.2 s a 32 GiB partition on 16 cores, faster than the GPU proves it).
  static constexpr unsigned kPipelineWorkers = 2;
  static ProveOptions witness_pipeline(ThreadPool& pool) {
    ProveOptions o;
    o.from_witness = true;
    o.synthesis_workers = kPipelineWorkers;
    o.synthesis_pool = &pool;
    return o;
  }
};

// The public inputs (ONE excluded) of partition k, from the C1's public data: replica_id, comm_d,
// comm_r, the challenges derived from replica_id and seed, and their parents in the registered
// proof's graph.
Expected<std::vector<ff::Fr>> c1_public_inputs(const C1& c1, uint32_t partition);

// Every partition of `c1` proved by `prover` (a key for this C1's partition circuit) and verified
// with `pvk`, in order. `c1` must have passed validate() (parse_c1 does it); its values are
// checked first (c1_check.hpp check_vanilla_proofs, on options.synthesis_pool when given): a C1
// the circuit would not be satisfied by is refused before any synthesis, naming the value. A partition whose
// proof does not verify fails the whole with ErrorCode::kVerifyFailed.
Expected<PorepProof> prove_c1(const C1& c1, groth16::ProverBackend& prover, const groth16::PreparedVerifyingKey& pvk,
                              const PorepPoseidon& poseidon, const ProveOptions& options = {});

}  // namespace cuzk::porep
