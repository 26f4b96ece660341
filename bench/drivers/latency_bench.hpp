#pragma once
// `cuzk bench latency`: how long a WinningPoSt waits behind PoRep work, the case that loses block
// rewards (issue 22: ≤ 2 s at 32 GiB). One engine with two handlers and our own keys (as bench
// e2e), on one GPU (or the CPU):
//   1. WinningPoSt alone, --probes times, on an idle engine: its own time;
//   2. --porep-proofs PoRep jobs submitted at once (NORMAL), filling the queue and the GPU's
//      workers; while they run, --probes WinningPoSts (CRITICAL, as Curio sends them), each
//      submitted in the middle of PoRep partitions, one after another.
// The engine preempts at partition boundaries: a CRITICAL job takes the next worker that frees,
// so its latency is bounded by one PoRep partition plus its own proof. Prints each probe's total
// (submit -> proof), its queue wait and its stages (the GPU prover's too: where a slow probe
// waited), and the PoRep partitions' median time; --json one object.

#include <cstdint>
#include <string>

#include "groth16/select_prover.hpp"

namespace cuzk::bench {

struct LatencyBenchOptions {
  std::string sector_size = "2KiB";
  unsigned porep_proofs = 2;
  unsigned probes = 3;
  groth16::GpuChoice gpu;  // where (auto: GPU 0 when one is visible)
  unsigned partitions_per_gpu = 2;
  uint64_t seed = 1;
  unsigned threads = 0;
  bool json = false;
};

// The process exit code: 0; 1 when a proof failed. Errors are thrown (cuzk::Exception).
int run_latency_bench(const LatencyBenchOptions& options);

}  // namespace cuzk::bench
