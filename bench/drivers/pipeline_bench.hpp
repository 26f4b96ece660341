#pragma once
// `cuzk bench pipeline`: the engine (engine/engine.hpp) proving N synthetic PoRep sectors several
// ways in one run, with one key. On one GPU (or the CPU): one job at a time (each submitted when
// the one before it has finished), then all N submitted at once; --partitions-per-gpu in flight on
// each GPU (four by default: the next partitions synthesised while one is proved). On several
// (--gpu 0,1): the first GPU alone with all N at once (the peer), all GPUs with whole proofs at
// once (engine::Spread::proofs), then one proof's partitions spread over all GPUs, one job at a
// time (a sector's latency) and all at once. Prints each run's
// proofs/hour, its ratio to the first run, and peak host RSS against the memory budget (a run
// over it fails); --json prints one object.
// Without Filecoin's files: the key is our own (as bench e2e), the C1s are gen-c1's, sent to the
// engine as JSON (the daemon's parse path).

#include <cstdint>
#include <string>
#include <vector>

#include "groth16/select_prover.hpp"

namespace cuzk::bench {

struct PipelineBenchOptions {
  std::string sector_size = "2KiB";
  unsigned proofs = 4;
  std::vector<groth16::GpuChoice> gpus;  // Kind::device each, with its memory limit; empty: the CPU
  std::string memory_budget;  // the engine's (host); empty: 90 % of physical memory, as the daemon
  unsigned partitions_per_gpu = 4;  // engine::EngineOptions::partitions_per_gpu
  uint64_t seed = 1;
  unsigned threads = 0;
  bool json = false;
};

// The process exit code: 0; 1 when a proof failed or the peak RSS passed the budget. Errors are
// thrown (cuzk::Exception), for the app's guard.
int run_pipeline_bench(const PipelineBenchOptions& options);

}  // namespace cuzk::bench
