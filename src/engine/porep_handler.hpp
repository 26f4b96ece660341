#pragma once
// PoRep C2 in the engine: a request's vanilla proof is a C1 (SealCommitPhase1Output JSON, or
// Curio's wrapper); its circuit is "porep-<size>" ("porep-2k", "porep-8m", "porep-512m",
// "porep-32g", "porep-64g"), whose parameters are found as porep/params.hpp says (official files
// first, then cuzk's own) and loaded as every Groth16 circuit is (engine/groth16_circuit.hpp). A
// partition is porep::prove_partition's: synthesised, proved on its place, verified.

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
#include "engine/groth16_circuit.hpp"
#include "engine/handler.hpp"
#include "groth16/select_prover.hpp"
#include "porep/circuit.hpp"

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
  unsigned partitions_per_gpu = 4;  // the engine's: a witness buffer each (the memory estimate)
  std::optional<uint64_t> blinding_seed;  // reproducible r, s (tests only)
  // A witness's challenges synthesised in parallel on `pool`, or each partition on one thread (a
  // bench's peer: docs/PERF.md 22).
  enum class Challenges { parallel, serial };
  Challenges challenges = Challenges::parallel;
  // Instead of reading the parameter directory: the circuit of a sector size made elsewhere
  // (a bench's own key, Groth16Circuit).
  std::function<Expected<std::shared_ptr<LoadedCircuit>>(uint64_t sector_size)> load;
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
