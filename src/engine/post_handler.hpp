#pragma once
// WindowPoSt and WinningPoSt in the engine (shared/SPEC-POST.md §8: what Curio sends). A
// request's payload is vanilla_proofs, one bincode FallbackPoStSectorProof per sector of the
// partition in ascending sector number (WinningPoSt: the one challenged sector's, 66 inclusion
// proofs), with randomness (32 bytes), registered_proof (Go's abi.RegisteredPoStProof: 0-4
// winning, 5-14 window; proto3's absent is 0) and WindowPoSt's partition_index. Every vanilla
// proof is decoded and validated at parse (its tree, its paths against comm_r_last, its leaves
// against the challenges derived from the randomness), so a broken one fails its job at once
// naming the proof and field; a job is one partition: post::prove_validated on its place.
// Circuits "window-post-<size>" and "winning-post-<size>" (engine/circuit_id.hpp), parameters by
// params::find_files (official v28 files first, then cuzk's own).

#include <memory>
#include <string>
#include <string_view>

#include "engine/groth16_circuit.hpp"
#include "engine/handler.hpp"
#include "post/circuit.hpp"
#include "post/registered.hpp"

namespace cuzk::engine {

class PostHandler final : public ProofHandler {
 public:
  // One handler per kind: kWindow serves WINDOW_POST_PARTITION, kWinning WINNING_POST.
  PostHandler(post::PostKind kind, Groth16HandlerOptions options);
  ProofKind kind() const override;
  // WinningPoSt is express (its deadline is a block's), WindowPoSt standard.
  Lane lane() const override;
  Expected<std::unique_ptr<ParsedJob>> parse(const JobRequest& request) const override;
  bool serves(std::string_view circuit_id) const override;
  Expected<std::shared_ptr<LoadedCircuit>> load(const std::string& circuit_id) override;
  Expected<PartitionOutput> prove(const ParsedJob& job, LoadedCircuit& circuit, uint32_t partition,
                                  const Placement& where) override;

 private:
  std::string_view prefix() const;  // "window-post" | "winning-post"

  post::PostKind kind_;
  Groth16HandlerOptions options_;
  const post::PostPoseidon poseidon_;
  KeyFileSizes key_bytes_;
};

}  // namespace cuzk::engine
