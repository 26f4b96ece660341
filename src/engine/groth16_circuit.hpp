#pragma once
// A Groth16 circuit as the engine's cache holds it, for every proof kind: the key on the host
// (while a prover reads it), the prepared verifying key, the compiled circuit (while a prover
// reads it from the host), a prover on each GPU that could make one, and the CPU's. Loading it
// is one recipe for every kind (load_groth16_circuit): read the .params file, compile the
// circuit for the GPUs (witness-only synthesis there, shared/DESIGN.md decision 4), make the
// provers; a GPU whose prover cannot be made is left out of this circuit, and a partition placed
// on it answers kUnavailable (the engine moves it to another place).

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/expected.hpp"
#include "core/progress.hpp"
#include "core/thread_pool.hpp"
#include "engine/handler.hpp"
#include "groth16/backend.hpp"
#include "groth16/keys.hpp"
#include "groth16/select_prover.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/compiled.hpp"

namespace cuzk::engine {

// The parts, made by load_groth16_circuit or elsewhere (a bench's own key).
struct Groth16CircuitParts {
  std::unique_ptr<groth16::Parameters> params;  // on the host: null when no prover reads it
  groth16::VerifyingKey vk;
  std::unique_ptr<r1cs::CompiledR1cs<ff::Fr>> circuit;  // null when no prover reads it from the host
  std::map<int, std::unique_ptr<groth16::ProverBackend>> gpus;  // by ordinal
  std::map<int, std::string> gpu_errors;  // GPUs whose prover could not be made, and why
  std::unique_ptr<groth16::ProverBackend> cpu;
};

// Members are destroyed bottom-up: the provers go before the key and circuit they may read.
class Groth16Circuit final : public LoadedCircuit {
 public:
  explicit Groth16Circuit(Groth16CircuitParts parts);
  // The prover of `where`: kUnavailable for a GPU that could not make one (naming why),
  // kUnsupported for the CPU when no CPU prover was kept.
  Expected<groth16::ProverBackend*> prover(const Placement& where, const std::string& circuit_id) const;
  const groth16::PreparedVerifyingKey& pvk() const { return *pvk_; }

 private:
  std::unique_ptr<groth16::Parameters> params_;
  std::unique_ptr<groth16::PreparedVerifyingKey> pvk_;
  std::unique_ptr<r1cs::CompiledR1cs<ff::Fr>> circuit_;
  std::map<int, std::unique_ptr<groth16::ProverBackend>> gpus_;
  std::map<int, std::string> gpu_errors_;
  std::unique_ptr<groth16::ProverBackend> cpu_;
};

struct Groth16LoadOptions {
  ThreadPool* pool = nullptr;  // reading, compiling, the CPU prover
  std::vector<groth16::GpuChoice> gpus;  // Kind::device each; empty: the CPU only
  bool keep_cpu_prover = true;           // with GPUs: the key kept on the host too, for the CPU
  // Witness buffers each GPU prover allocates now, not on its first partitions (pinned: ~1.5 s
  // each at 32 GiB, which the first partitions and a WinningPoSt beside them would wait for;
  // docs/PERF.md 32): the engine's partitions in flight a GPU.
  unsigned witness_buffers = 0;
  groth16::GpuPriority priority = groth16::GpuPriority::normal;  // the GPU provers' streams
};

// The circuit whose key is the .params file at `params` (an official file, whose digest matched,
// or cuzk's own: the points' subgroup checks are skipped, as for `prove`), compiled by `compile`
// when there are GPUs. Fails when no place is left that can prove (kUnavailable, naming each
// GPU's error).
Expected<std::shared_ptr<Groth16Circuit>> load_groth16_circuit(
    const std::filesystem::path& params, const std::function<r1cs::CompiledR1cs<ff::Fr>()>& compile,
    const Groth16LoadOptions& options, const std::string& circuit_id);

// What every Groth16 proof kind's handler is given (PoRep, PoSt, SnapDeals: engine/*_handler.hpp).
struct Groth16HandlerOptions {
  std::filesystem::path param_dir;  // where params::find_files looks
  ThreadPool* pool = nullptr;       // checks, synthesis, the CPU prover; must outlive the handler
  // One per GPU the engine proves on (Kind::device with its ordinal and memory limit); empty:
  // the CPU only.
  std::vector<groth16::GpuChoice> gpus;
  bool keep_cpu_prover = true;      // with GPUs: keep the key on the host too, for retries on the CPU
  unsigned partitions_per_gpu = 4;  // the engine's: a witness buffer each (the memory estimate)
  std::optional<uint64_t> blinding_seed;  // reproducible r, s (tests only)
  // Instead of reading the parameter directory: the circuit of an id made elsewhere (a bench's
  // own key, Groth16Circuit).
  std::function<Expected<std::shared_ptr<LoadedCircuit>>(const std::string& circuit_id)> load;
};

// From this sector size a circuit's compile shows its progress (seconds to a minute of work:
// docs/PERF.md 24): loading it here on a terminal only, never in logs; `cuzk setup` also as lines.
inline constexpr uint64_t kCompileProgressFrom = uint64_t{512} << 20;
inline bool show_compile_progress(uint64_t sector_size) {
  return sector_size >= kCompileProgressFrom && Progress::stderr_is_terminal();
}

// load_groth16_circuit with a handler's options (its pool, GPUs, and whether the CPU keeps a
// prover) and lane (express: the GPU provers' streams of high priority): what every kind's
// ProofHandler::load ends with.
Expected<std::shared_ptr<LoadedCircuit>> load_groth16_circuit(
    const std::filesystem::path& params, const std::function<r1cs::CompiledR1cs<ff::Fr>()>& compile,
    const Groth16HandlerOptions& handler, Lane lane, const std::string& circuit_id);

// The GPU priority of a lane's provers.
inline groth16::GpuPriority gpu_priority(Lane lane) {
  return lane == Lane::express ? groth16::GpuPriority::high : groth16::GpuPriority::normal;
}

// The .params file's size of each circuit, looked up once per circuit (finding an official file
// checks its digest, hashing it the first time): the admission estimate of a circuit not loaded
// yet. 0 while the file is not there (looked up again for the next job).
class KeyFileSizes {
 public:
  size_t bytes(const std::string& circuit_id, const std::function<Expected<std::filesystem::path>()>& find) const;

 private:
  mutable std::mutex mutex_;
  mutable std::map<std::string, size_t> bytes_;
};

// Host bytes of a key's points and of a compiled circuit (the memory budget's estimates).
size_t host_bytes_of(const groth16::Parameters& p);
size_t host_bytes_of(const r1cs::CompiledR1cs<ff::Fr>& c);

}  // namespace cuzk::engine
