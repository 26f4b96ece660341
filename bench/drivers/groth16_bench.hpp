#pragma once
// `cuzk bench groth16`: one Groth16 proof of a synthetic circuit of 2^K constraints on the CPU,
// each stage timed (synthesis, SpMV, the H NTTs, each MSM), and, when a powers-of-tau file is
// given, snarkjs proving the same circuit from its own .zkey in the same run, with the ratio.

#include <cstdint>
#include <string>

namespace cuzk::bench {

struct Groth16BenchOptions {
  unsigned log_constraints = 12;
  unsigned threads = 0;      // 0: all
  std::string ptau;          // snarkjs powers of tau (BLS12-381, power >= K + 2); empty: skip snarkjs
  std::string tests_dir;     // where tests/oracle (snarkjs) lives
  bool json = false;
};

// Returns the process exit code.
int run_groth16_bench(const Groth16BenchOptions& options);

}  // namespace cuzk::bench
