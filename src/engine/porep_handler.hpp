#pragma once
// PoRep C2 in the engine: a request's vanilla proof is a C1 (SealCommitPhase1Output JSON, or
// Curio's wrapper); its circuit is "porep-<size>" ("porep-2k", "porep-8m", "porep-512m",
// "porep-32g", "porep-64g"), whose parameters are found as `prove porep` finds them
// (porep/params.hpp: official files first, then cuzk's own). The proof is porep::prove_c1's:
// every partition verified before it is kept. Loading makes a prover on each GPU; one that fails
// there (too little free memory even to stream the key) leaves that GPU out of this circuit, and
// a job placed on it fails with kUnavailable (the engine moves it to another GPU). A job placed on
// several GPUs has its partitions spread over them (groth16::SpreadProver).

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/thread_pool.hpp"
#include "engine/handler.hpp"
#include "groth16/backend.hpp"
#include "groth16/keys.hpp"
#include "groth16/select_prover.hpp"
#include "porep/circuit.hpp"
#include "porep/prover.hpp"

namespace cuzk::engine {

// "porep-32g" for a 32 GiB sector; nullopt for a size that is not a PoRep sector size.
std::optional<std::string> porep_circuit_id(uint64_t sector_size);
std::optional<uint64_t> porep_sector_size(std::string_view circuit_id);

struct PorepHandlerOptions {
  std::filesystem::path param_dir;
  ThreadPool* pool = nullptr;  // synthesis and the CPU prover; must outlive the handler
  // One per GPU the engine proves on (Kind::device with its ordinal and memory limit); empty:
  // the CPU only.
  std::vector<groth16::GpuChoice> gpus;
  bool keep_cpu_prover = true;  // with GPUs: keep the key on the host too, for retries on the CPU
  unsigned partitions_in_flight = porep::ProveOptions::kPipelineWorkers;  // a GPU job's partitions synthesised ahead
  std::optional<uint64_t> blinding_seed;  // reproducible r, s (tests only)
  // Instead of reading the parameter directory: the circuit of a sector size made elsewhere
  // (`bench pipeline`'s own key, make_porep_circuit).
  std::function<Expected<std::shared_ptr<LoadedCircuit>>(uint64_t sector_size)> load;
};

// A PoRep circuit's parts made elsewhere, as the engine's cache holds them.
struct PorepCircuitParts {
  std::unique_ptr<groth16::Parameters> params;  // on the host: null when no prover reads it
  groth16::VerifyingKey vk;
  std::unique_ptr<r1cs::CompiledR1cs<ff::Fr>> circuit;  // null when no prover reads it from the host
  std::map<int, std::unique_ptr<groth16::ProverBackend>> gpus;  // by ordinal
  std::map<int, std::string> gpu_errors;  // GPUs whose prover could not be made, and why
  std::unique_ptr<groth16::ProverBackend> cpu;
};
// The parts as the engine's cache holds them, with a spread prover (groth16/spread_prover.hpp)
// over the GPUs' provers for jobs placed on several GPUs.
std::shared_ptr<LoadedCircuit> make_porep_circuit(PorepCircuitParts parts);

class PorepHandler final : public ProofHandler {
 public:
  explicit PorepHandler(PorepHandlerOptions options);
  ProofKind kind() const override { return ProofKind::porep_seal_commit; }
  Expected<std::unique_ptr<ParsedJob>> parse(const JobRequest& request) const override;
  bool serves(std::string_view circuit_id) const override { return porep_sector_size(circuit_id).has_value(); }
  Expected<std::shared_ptr<LoadedCircuit>> load(const std::string& circuit_id) override;
  Expected<ProofOutput> prove(ParsedJob& job, LoadedCircuit& circuit, const Placement& where,
                              std::stop_token stop) override;

 private:
  // The .params file's size for a sector size (the key's points, less a few bytes each): the
  // admission estimate of a circuit not yet loaded. Looked up once per size, not per job (the
  // lookup checks an official file's digest, hashing it the first time).
  size_t key_file_bytes(uint64_t sector_size) const;

  PorepHandlerOptions options_;
  const porep::PorepPoseidon poseidon_;
  mutable std::mutex key_bytes_mutex_;
  mutable std::map<uint64_t, size_t> key_bytes_;
};

}  // namespace cuzk::engine
