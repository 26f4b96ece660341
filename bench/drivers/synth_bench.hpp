#pragma once
// `cuzk bench synth`: one PoRep partition's synthesis on the CPU, in proving mode (ProvingCS:
// a, b, c and densities, what a CPU prover needs) or witness-only mode (WitnessCS: the
// assignment alone; with the compiled circuit's SpMV, what the GPU path needs). Time, constraints
// per second and peak memory, per run and as median / min. Witness-only (into buffers allocated
// before the runs, as the prover's pool lends them): several partitions at once, one partition's
// challenges in parallel, or both.

#include <cstdint>
#include <string>

namespace cuzk::bench {

struct SynthBenchOptions {
  std::string sector_size = "2KiB";
  std::string c1;  // a C1 file (its partition 0; sector_size ignored); empty: an all-zero partition
  bool witness_only = false;
  bool compile = false;  // the partition circuit compiled (KeygenCS, porep::compile_partition) instead
  unsigned repeat = 3;
  bool json = false;
  // Witness-only variants, to see how synthesis scales on many cores:
  unsigned concurrent = 1;  // this many partitions synthesised at once (the run's time is the wall time)
  unsigned parallel = 0;    // > 0: each partition's challenges in parallel on a pool of this many threads
                            // (witness-only, or --compile)
};

// Returns the process exit code.
int run_synth_bench(const SynthBenchOptions& options);

}  // namespace cuzk::bench
