#pragma once
// What the engine needs from one kind of proof: parse and check a request's payload, load a
// circuit's parameters, and prove one partition of a job on one place, verified. The engine
// (engine/engine.hpp) does the rest, the same for every kind: queues, priorities, which partition
// runs where, failover between GPUs, memory, cancellation, timings, and the proof's bytes (the
// partitions' proofs in order). Tests drive the engine with a handler of their own.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/expected.hpp"
#include "core/thread_pool.hpp"
#include "engine/job.hpp"

namespace cuzk::engine {

// A circuit's parameters (its SRS) and whatever proving it needs (verifying key, compiled
// circuit, a prover per device), loaded once and shared by that circuit's jobs
// (engine/srs_cache.hpp). Handlers derive their own.
struct LoadedCircuit {
  virtual ~LoadedCircuit() = default;
  size_t host_bytes = 0;  // held on the host (the memory budget counts it)
};

// A request parsed and checked, ready to prove. Read by several workers at once (one partition
// each): const once parsed.
struct ParsedJob {
  virtual ~ParsedJob() = default;
  std::string circuit_id;  // the parameters it needs, e.g. "porep-32g"
  uint32_t partitions = 1;   // proved one by one, each on any place; the proof is their bytes in order
  size_t host_bytes = 0;   // host memory while it is proved (the memory budget's estimate)
  size_t circuit_bytes = 0;  // host memory of its circuit once loaded (counted while it is not)
};

// A witness is ~one field element per variable and a key holds at least three points of 96 bytes
// per variable (a, l, h), so a key's file size / 9 bounds a partition's witness from above: the
// admission estimate of a kind whose shape does not give the witness size before its circuit is
// loaded (PoSt, SnapDeals).
constexpr size_t witness_bytes_from_key(size_t key_bytes) { return key_bytes / 9; }

// Which workers a kind's jobs may take. Express: a proof small enough to run beside the
// partitions in flight on a GPU (WinningPoSt: 0.4 M constraints at 32 GiB, against PoRep's 130 M
// a partition), whose deadline is seconds: its jobs have their own parse worker and one worker on
// each GPU (EngineOptions::express_workers_per_gpu), so a WinningPoSt never waits behind a PoRep's
// parse, admission or partition, and its provers' GPU streams have the high priority
// (engine::gpu_priority), so its kernels go ahead of PoRep's on the card (docs/PERF.md 29, 32).
// Standard workers take both lanes' jobs.
enum class Lane : uint8_t { standard, express };

// Where a partition is proved: one GPU, or the CPU.
struct Placement {
  std::optional<int> gpu;
  bool on_cpu() const { return !gpu.has_value(); }
  friend bool operator==(const Placement&, const Placement&) = default;
};
std::string to_string(const Placement& where);  // "cpu", "gpu 1"

// One partition's proof, verified against its public inputs.
struct PartitionOutput {
  std::vector<uint8_t> bytes;
  PartitionTimes times;
};

class ProofHandler {
 public:
  virtual ~ProofHandler() = default;
  virtual ProofKind kind() const = 0;
  virtual Lane lane() const { return Lane::standard; }
  // The payload parsed and checked against the request (sizes, registered proof, every path
  // against its root); an error fails this job only and names the field at fault.
  virtual Expected<std::unique_ptr<ParsedJob>> parse(const JobRequest& request) const = 0;
  // Whether `circuit_id` is one of this handler's ("porep-2k" .. "porep-64g").
  virtual bool serves(std::string_view circuit_id) const = 0;
  // Its parameters read (and uploaded to the GPUs the handler was given).
  virtual Expected<std::shared_ptr<LoadedCircuit>> load(const std::string& circuit_id) = 0;
  // Partition `partition` of `job` proved on `where` and verified before it is returned; called
  // for several partitions (of one job or several) at once. The error's code says whose fault a
  // failure is (cuzk::fault_of, core/error.hpp): the input's fails the job, the device's is
  // retried on another place by the engine: kUnavailable (this place cannot serve the circuit,
  // e.g. a GPU whose prover could not be made), kVerifyFailed (a proof it made does not verify),
  // kInternal (a CUDA failure). What it throws is caught by the engine as cuzk::capture says.
  virtual Expected<PartitionOutput> prove(const ParsedJob& job, LoadedCircuit& circuit, uint32_t partition,
                                          const Placement& where) = 0;
};

// Each of `request.vanilla_proofs` decoded by `decode(bytes, name)` (name: request.vanilla_name(i)),
// in parallel on `pool` in ranges of `grain`; the first failing one's error, by position.
template <class T, class Decode>
Expected<std::vector<T>> decode_vanilla_proofs(const JobRequest& request, ThreadPool& pool, size_t grain,
                                               const Decode& decode) {
  const size_t n = request.vanilla_proofs.size();
  std::vector<T> out(n);
  std::vector<Expected<void>> errors(n);
  pool.parallel_for(n, grain, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      Expected<T> v = decode(std::span<const uint8_t>(request.vanilla_proofs[i]), request.vanilla_name(i));
      if (v) {
        out[i] = std::move(*v);
      } else {
        errors[i] = v.error();
      }
    }
  });
  for (const Expected<void>& e : errors)
    if (!e) return e.error();
  return out;
}

}  // namespace cuzk::engine
