#pragma once
// PoRep C2 in the engine: a request's vanilla proof is a C1 (SealCommitPhase1Output JSON, or
// Curio's wrapper); its circuit is "porep-<size>" ("porep-2k", "porep-8m", "porep-512m",
// "porep-32g", "porep-64g"), whose parameters are found as porep/params.hpp says (official files
// first, then cuzk's own) and loaded as every Groth16 circuit is (engine/groth16_circuit.hpp). A
// partition is porep::prove_partition's: synthesised, proved on its place, verified.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/thread_pool.hpp"
#include "engine/groth16_circuit.hpp"
#include "engine/handler.hpp"
#include "groth16/select_prover.hpp"
#include "porep/circuit.hpp"

namespace cuzk::engine {

// "porep-32g" for a 32 GiB sector; nullopt for a size that is not a PoRep sector size.
std::optional<std::string> porep_circuit_id(uint64_t sector_size);
std::optional<uint64_t> porep_sector_size(std::string_view circuit_id);

struct PorepHandlerOptions : Groth16HandlerOptions {
  // A witness's challenges synthesised in parallel on `pool`, or each partition on one thread (a
  // bench's peer: docs/PERF.md 22).
  enum class Challenges { parallel, serial };
  Challenges challenges = Challenges::parallel;
};

class PorepHandler final : public ProofHandler {
 public:
  explicit PorepHandler(PorepHandlerOptions options);
  ProofKind kind() const override { return ProofKind::porep_seal_commit; }
  Expected<std::unique_ptr<ParsedJob>> parse(const JobRequest& request) const override;
  bool serves(std::string_view circuit_id) const override { return porep_sector_size(circuit_id).has_value(); }
  Expected<std::shared_ptr<LoadedCircuit>> load(const std::string& circuit_id) override;
  Expected<PartitionOutput> prove(const ParsedJob& job, LoadedCircuit& circuit, uint32_t partition,
                                  const Placement& where) override;

 private:
  PorepHandlerOptions options_;
  const porep::PorepPoseidon poseidon_;
  KeyFileSizes key_bytes_;
};

}  // namespace cuzk::engine
