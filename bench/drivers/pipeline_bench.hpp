#pragma once
// `cuzk bench pipeline`: the engine (engine/engine.hpp) proving N synthetic PoRep sectors several
// ways in one run, with one key. On one GPU (or the CPU): one job at a time (each submitted when
// the one before it has finished, one prover worker), then all N submitted at once to the
// configured workers (two jobs a GPU by default: one sector's partitions synthesised while
// another's are proved). On several (--gpu 0,1): the first GPU alone with all N at once (the
// peer), all GPUs with whole proofs at once (engine::Spread::proofs), then one proof's partitions
// spread over all GPUs, one job at a time (a sector's latency) and all at once. Prints each run's
// proofs/hour, its ratio to the first run, and peak host RSS against the memory budget (a run
// over it fails); --json prints one object.
// Without Filecoin's files: the key is our own (as bench e2e), the C1s are gen-c1's, sent to the
// engine as JSON (the daemon's parse path).

#include <cstdint>
#include <string>

namespace cuzk::bench {

struct PipelineBenchOptions {
  std::string sector_size = "2KiB";
  unsigned proofs = 4;
  std::string gpu;         // auto | off | N | N,M,...; empty: $CUZK_GPU, else auto
  std::string gpu_memory;  // "16GiB", "1=4GiB", "16GiB,1=4GiB" (core/gpu_memory_limits.hpp)
  std::string memory_budget;  // the engine's (host); empty: 90 % of physical memory, as the daemon
  unsigned workers_per_gpu = 2;
  uint64_t seed = 1;
  unsigned threads = 0;
  bool json = false;
};

// The process exit code: 0; 1 when a proof failed; 2 on bad options or errors.
int run_pipeline_bench(const PipelineBenchOptions& options);

}  // namespace cuzk::bench
