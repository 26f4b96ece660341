#pragma once
// What the engine needs from one kind of proof (PoRep C2 today): parse and check a request's
// payload, load a circuit's parameters, prove and verify. The engine (engine/engine.hpp) does the
// rest: queues, priorities, workers, memory, cancellation, timings. Tests drive the engine with a
// handler of their own.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"
#include "engine/job.hpp"

namespace cuzk::engine {

// A circuit's parameters (its SRS) and whatever proving it needs (verifying key, compiled
// circuit, a prover per device), loaded once and shared by that circuit's jobs
// (engine/srs_cache.hpp). Handlers derive their own.
struct LoadedCircuit {
  virtual ~LoadedCircuit() = default;
  size_t host_bytes = 0;  // held on the host (the memory budget counts it)
};

// A request parsed and checked, ready to prove.
struct ParsedJob {
  virtual ~ParsedJob() = default;
  std::string circuit_id;  // the parameters it needs, e.g. "porep-32g"
  size_t host_bytes = 0;   // host memory while it is proved (the memory budget's estimate)
  size_t circuit_bytes = 0;  // host memory of its circuit once loaded (counted while it is not)
};

// Where a job is proved: one GPU, several (the proof's partitions spread over them:
// engine::Spread::partitions), or the CPU (none).
struct Placement {
  std::vector<int> gpus;
  bool on_cpu() const { return gpus.empty(); }
  friend bool operator==(const Placement&, const Placement&) = default;
};

struct ProofOutput {
  std::vector<uint8_t> bytes;
  double synthesis_ms = 0, prove_ms = 0, verify_ms = 0;
  std::string backend;  // the prover's name
};

class ProofHandler {
 public:
  virtual ~ProofHandler() = default;
  virtual ProofKind kind() const = 0;
  // The payload parsed and checked against the request (sizes, registered proof); an error
  // fails this job only and names the field at fault.
  virtual Expected<std::unique_ptr<ParsedJob>> parse(const JobRequest& request) const = 0;
  // Whether `circuit_id` is one of this handler's ("porep-2k" .. "porep-64g").
  virtual bool serves(std::string_view circuit_id) const = 0;
  // Its parameters read (and uploaded to the GPUs the handler was given).
  virtual Expected<std::shared_ptr<LoadedCircuit>> load(const std::string& circuit_id) = 0;
  // The proof, verified before it is returned. Ends at the next boundary (a PoRep partition)
  // with ErrorCode::kCancelled once `stop` is requested. The job's own faults (a payload that
  // does not prove: kInvalidArgument, kCorruption) fail it; the device's are retried elsewhere
  // by the engine: kUnavailable (this placement cannot serve the circuit, e.g. a GPU whose
  // prover could not be made), kVerifyFailed (a proof it made does not verify), and any other
  // (a CUDA failure: kInternal).
  virtual Expected<ProofOutput> prove(ParsedJob& job, LoadedCircuit& circuit, const Placement& where,
                                      std::stop_token stop) = 0;
};

}  // namespace cuzk::engine
