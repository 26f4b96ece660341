#pragma once
// `cuzk selfcheck`: the pairing's bilinearity on fresh random points, then field, curve and pairing
// timings on this machine. The job the quick start runs until the prover lands.

namespace cuzk::app {

struct SelfcheckOptions {
  bool quick = false;  // one short timing round (for CI)
  bool json = false;   // results as one JSON object on stdout
};

// Returns the process exit code: 0 when every check holds.
int run_selfcheck(const SelfcheckOptions& options);

}  // namespace cuzk::app
