#pragma once
// `cuzk bench pipeline`: the engine (engine/engine.hpp) proving N synthetic PoRep sectors two
// ways in one run, with one key: one job at a time (each submitted when the one before it has
// finished, one prover worker a GPU), then all N submitted at once to the configured workers (two
// jobs a GPU by default: one sector's partitions synthesised while another's are proved). Prints
// proofs/hour of both, their ratio, and peak host RSS; --json prints one object.
// Without Filecoin's files: the key is our own (as bench e2e), the C1s are gen-c1's, sent to the
// engine as JSON (the daemon's parse path).

#include <cstdint>
#include <string>

namespace cuzk::bench {

struct PipelineBenchOptions {
  std::string sector_size = "2KiB";
  unsigned proofs = 4;
  std::string gpu;         // auto | off | N; empty: $CUZK_GPU, else auto
  std::string gpu_memory;  // as bench e2e
  unsigned workers_per_gpu = 2;
  uint64_t seed = 1;
  unsigned threads = 0;
  bool json = false;
};

// The process exit code: 0; 1 when a proof failed; 2 on bad options or errors.
int run_pipeline_bench(const PipelineBenchOptions& options);

}  // namespace cuzk::bench
