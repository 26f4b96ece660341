#pragma once
// SnapDeals on the CPU: every partition of an update proved from its vanilla proof (validated
// first), the circuit's public inputs checked against those derived from public data, proved by a
// Groth16 backend and verified before it is kept (shared/DESIGN.md decision 7); and verification of
// a proof (partitions × 192 bytes, in k order) from public data alone (SPEC-SNAP.md §4). Parameter
// files: cuzk's own "cuzk-v1-snap-<size>" (cuzk setup --circuit snap).

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/expected.hpp"
#include "core/thread_pool.hpp"
#include "groth16/backend.hpp"
#include "groth16/partition_prover.hpp"
#include "groth16/proof.hpp"
#include "groth16/verifier.hpp"
#include "snap/circuit.hpp"
#include "snap/partition_proof.hpp"
#include "snap/update_shape.hpp"
#include "snap/vanilla.hpp"

namespace cuzk::snap {

struct UpdateProof {
  std::vector<groth16::Proof> partitions;
  std::vector<double> partition_ms;  // synthesis + proof + verification, per partition
  std::vector<uint8_t> bytes() const;  // 192 bytes per partition, in order
};

// Every partition's vanilla proof (vanilla[k] is partition k's) validated against the shape and
// the public values (validate_partition_proof), in parallel on `pool` when given; the error names
// the first failing partition by `name(k)` ("partition k" when not given).
Expected<void> validate_update(const UpdateShape& shape, std::span<const PartitionProof> vanilla, const UpdatePublic& pub,
                               const UpdatePoseidon& poseidon, ThreadPool* pool = nullptr,
                               const std::function<std::string(uint32_t)>& name = {});

// Partition k proved from its validated vanilla proof by the recipe every proof kind shares
// (groth16::prove_verified): synthesis by the backend's path, the circuit's inputs against the
// derived ones, the proof, its verification (kVerifyFailed when it does not verify); the
// witness-only synthesis runs the challenges in parallel on `synthesis_pool` when given.
Expected<groth16::PartitionProof> prove_partition(const UpdateShape& shape, const PartitionProof& vanilla, uint32_t k,
                                                  const UpdatePublic& pub, groth16::ProverBackend& prover,
                                                  const groth16::PreparedVerifyingKey& pvk,
                                                  const UpdatePoseidon& poseidon, const groth16::Blinding& blinding,
                                                  ThreadPool* synthesis_pool = nullptr);

// Every partition validated, then proved and verified one by one (partition k blinded by
// from_seed(seed + k) when a seed is given). Errors: a vanilla proof that does not validate
// (naming its partition), a circuit input that differs from the derived one, a proof that does
// not verify (kVerifyFailed).
Expected<UpdateProof> prove_update(const UpdateShape& shape, std::span<const PartitionProof> vanilla,
                                   const UpdatePublic& pub, groth16::ProverBackend& prover,
                                   const groth16::PreparedVerifyingKey& pvk, const UpdatePoseidon& poseidon,
                                   std::optional<uint64_t> blinding_seed = std::nullopt);

// True when each partition's 192-byte proof verifies against its public inputs. Malformed bytes
// (wrong length, a point off the curve) are errors.
Expected<bool> verify_update(const groth16::PreparedVerifyingKey& pvk, std::span<const uint8_t> proofs,
                             const UpdateShape& shape, const UpdatePublic& pub);

// cuzk's own parameter file stem: "cuzk-v1-snap-2KiB" (v1: the circuit version).
std::string own_params_stem(const UpdateShape& shape);

}  // namespace cuzk::snap
