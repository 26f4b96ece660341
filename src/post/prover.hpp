#pragma once
// One PoSt partition proved (the request Curio sends: a registered proof, the randomness, the
// partition index and that partition's vanilla proofs, ascending sector number; SPEC-POST.md §8):
// every vanilla proof validated at its position before any synthesis, the circuit synthesised
// (ProvingCS, or WitnessCS for a backend holding the compiled circuit), its public inputs checked
// against those derived from public data (randomness, sector ids, comm_r), proved by a backend
// and verified before it is returned (a wrong proof is never returned).

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/expected.hpp"
#include "core/thread_pool.hpp"
#include "groth16/backend.hpp"
#include "groth16/proof.hpp"
#include "groth16/prover.hpp"
#include "groth16/verifier.hpp"
#include "post/challenges.hpp"
#include "post/circuit.hpp"
#include "post/vanilla.hpp"

namespace cuzk::post {

struct PartitionRequest {
  RegisteredPostProof proof{};
  Bytes32 randomness{};
  uint32_t partition = 0;
  std::span<const FallbackPoStSectorProof> vanilla;  // partition's sectors, ascending sector number
};

struct PostProveOptions {
  std::optional<uint64_t> blinding_seed;  // reproducible r, s (tests only); else the OS CSPRNG
  // Witness-only synthesis (for a backend holding the compiled circuit: groth16::prove_verified
  // chooses by the backend): sectors synthesised in parallel on this pool.
  ThreadPool* synthesis_pool = nullptr;
};

struct PostProof {
  groth16::Proof proof;
  double validate_ms = 0, synthesis_ms = 0, prove_ms = 0, verify_ms = 0;
  groth16::ProverTimes prover;
};

// The public sectors of the vanilla proofs (sector id and comm_r each).
std::vector<PublicSector> public_sectors(std::span<const FallbackPoStSectorProof> vanilla);

// Every vanilla proof of the request validated at its position in the verifier's order (strictly
// ascending sector numbers; post::validate), in parallel on `pool` when given, and the partition's
// public inputs derived from public data (randomness, sector ids, comm_r): what the engine checks
// before a job is admitted. Errors name vanilla proof i by `name(i)` (default "vanilla proof i"),
// its sector, the field and offset.
Expected<std::vector<ff::Fr>> validate_partition(const PartitionRequest& request, const PostPoseidon& poseidon,
                                                 ThreadPool* pool = nullptr,
                                                 const std::function<std::string(size_t)>& name = {});

// A validated request proved: its circuit synthesised, the circuit's public inputs checked
// against `expected` (validate_partition's), proved and verified (groth16::prove_verified).
Expected<PostProof> prove_validated(const PartitionRequest& request, std::span<const ff::Fr> expected,
                                    groth16::ProverBackend& prover, const groth16::PreparedVerifyingKey& pvk,
                                    const PostPoseidon& poseidon, const PostProveOptions& options = {});

// Both: validate_partition, then prove_validated.
Expected<PostProof> prove_partition(const PartitionRequest& request, groth16::ProverBackend& prover,
                                    const groth16::PreparedVerifyingKey& pvk, const PostPoseidon& poseidon,
                                    const PostProveOptions& options = {});

}  // namespace cuzk::post
