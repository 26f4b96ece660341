#pragma once
// `cuzk prove porep|post|snap`: one job through an engine in this process, the daemon's path
// (engine/engine.hpp): the kind's handler parses and checks the payload, loads the circuit's key,
// proves each partition on this GPU (witness-only synthesis ahead of it) or the CPU, and verifies
// it before it is kept. A GPU's failure is reported, not retried on the CPU.

#include <memory>
#include <optional>
#include <string>

#include "core/thread_pool.hpp"
#include "engine/engine.hpp"
#include "engine/groth16_circuit.hpp"
#include "groth16/select_prover.hpp"

namespace cuzk::app {

// Partitions in flight on the GPU (each synthesised while the one before is proved).
inline constexpr unsigned kPartitionsInFlight = 2;

// A handler's options for this process: the parameter directory (--params, else the setting),
// the pool, the GPU (none: the CPU).
engine::Groth16HandlerOptions local_handler_options(ThreadPool& pool, const std::string& params_flag,
                                                    const std::optional<groth16::GpuChoice>& gpu,
                                                    std::optional<uint64_t> blinding_seed);

// The job proved to its end with progress on a terminal ("<what>: partitions"; off when quiet);
// a failed job is thrown (cuzk::Exception with its code: the command's exit code).
engine::JobResult prove_in_process(std::unique_ptr<engine::ProofHandler> handler,
                                   const std::optional<groth16::GpuChoice>& gpu, engine::JobRequest request,
                                   const std::string& what, bool quiet);

// "partition 0: synthesis 12.3 ms, prove 45.6 ms (SpMV .., H .., MSMs ..), verify 7.8 ms" per
// partition, and the same as a JSON array.
std::string partition_lines(const engine::JobResult& r);
std::string partition_json(const engine::JobResult& r);

}  // namespace cuzk::app
