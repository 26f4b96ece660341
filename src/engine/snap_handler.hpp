#pragma once
// SnapDeals (EmptySectorUpdate) in the engine (shared/SPEC-SNAP.md §8: what Curio sends). A
// request's payload is vanilla_proofs, one bincode PartitionProof per partition in partition
// order, with comm_r_old, comm_r_new, comm_d_new (32 bytes each, canonical field elements) and
// registered_proof (Go's abi.RegisteredUpdateProof 0-4; proto3's absent is 0). Every partition's
// vanilla proof is decoded and validated at parse (snap::validate_update: its challenges, paths
// and encoding against the three commitments), so a broken one fails its job at once naming it;
// a job's partitions are proved one by one, each on any place (snap::prove_partition), and the
// proof is their 192 bytes in order. Circuits "snap-<size>" (engine/circuit_id.hpp), parameters
// by params::find_files (official v28 files first, then cuzk's own).

#include <memory>
#include <string>
#include <string_view>

#include "engine/groth16_circuit.hpp"
#include "engine/handler.hpp"
#include "snap/circuit.hpp"

namespace cuzk::engine {

class SnapHandler final : public ProofHandler {
 public:
  explicit SnapHandler(Groth16HandlerOptions options);
  ProofKind kind() const override { return ProofKind::snap_deals_update; }
  Expected<std::unique_ptr<ParsedJob>> parse(const JobRequest& request) const override;
  bool serves(std::string_view circuit_id) const override;
  Expected<std::shared_ptr<LoadedCircuit>> load(const std::string& circuit_id) override;
  Expected<PartitionOutput> prove(const ParsedJob& job, LoadedCircuit& circuit, uint32_t partition,
                                  const Placement& where) override;

 private:
  Groth16HandlerOptions options_;
  const snap::UpdatePoseidon poseidon_;
  KeyFileSizes key_bytes_;
};

}  // namespace cuzk::engine
