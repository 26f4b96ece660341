#pragma once
// `cuzk bench e2e`: one kind of proof (--kind porep, window-post, winning-post or snap) end to end
// at any sector size without Filecoin's files, on the GPU or the CPU backend (CUZK_GPU / --gpu):
//   1. synthetic inputs (gen-c1's or gen-vanilla's generators, one per proof, seeds seed + i), as
//      Curio sends them, not timed;
//   2. the partition circuit compiled (KeygenCS);
//   3. our own key from toxic waste of --seed: on a GPU generated there and kept there
//      (groth16::DeviceKey::generate), on the CPU by groth16::setup;
//   4. N proofs, one after another, through an engine with that key (the daemon's path, in
//      process): every partition synthesised (on a GPU witness-only, the next ones while one is
//      proved; on the CPU ProvingCS), proved and verified (engine/engine.hpp).
// Prints per-stage times (medians over partitions), each proof's wall time, proofs/hour from the
// median proof, peak host RSS and peak GPU memory; --json prints the same as one object.

#include <cstdint>
#include <string>

#include "groth16/select_prover.hpp"

namespace cuzk::bench {

struct E2eBenchOptions {
  std::string kind = "porep";  // porep, window-post, winning-post, snap
  std::string sector_size = "2KiB";
  unsigned proofs = 1;
  groth16::GpuChoice gpu;      // where (auto: GPU 0 when one is visible), with its memory limit
  uint64_t seed = 1;           // toxic waste and C1s (insecure: a benchmark's key)
  unsigned threads = 0;        // 0: all
  unsigned synthesis_workers = 0;  // GPU only: partitions in flight; 0: two
  bool serial_challenges = false;  // PoRep on a GPU: each partition on one thread (else its challenges on the pool)
  bool json = false;
};

// Returns the process exit code: 0; 1 when a proof failed or the proofs passed the GPU memory
// limit. Errors are thrown (cuzk::Exception), for the app's guard.
int run_e2e_bench(const E2eBenchOptions& options);

}  // namespace cuzk::bench
