#pragma once
// One prover interface, several backends: the CPU (here) and the GPU (groth16/gpu_prover.hpp);
// groth16/select_prover.hpp picks one (CUZK_GPU=auto|off|N, shared/DESIGN.md decision 6). Every
// backend gives the same proof for the same assignment, r and s.

#include <string>

#include "core/expected.hpp"
#include "core/thread_pool.hpp"
#include "groth16/assignment.hpp"
#include "groth16/keys.hpp"
#include "groth16/proof.hpp"
#include "groth16/prover.hpp"

namespace cuzk::groth16 {

class ProverBackend {
 public:
  virtual ~ProverBackend() = default;
  // Fails when the assignment does not fit the backend's key (sizes, densities).
  virtual Expected<Proof> prove(const Assignment& w, const Blinding& blinding, ProverTimes* times = nullptr) = 0;
  // "cpu", "gpu 0 (NVIDIA H200)": for logs and the CLI.
  virtual std::string name() const = 0;
};

// groth16::prove on a key and a pool, both of which must outlive it.
class CpuProver final : public ProverBackend {
 public:
  CpuProver(const Parameters& params, ThreadPool& pool) : params_(params), pool_(pool) {}
  Expected<Proof> prove(const Assignment& w, const Blinding& blinding, ProverTimes* times = nullptr) override {
    return groth16::prove(params_, w, blinding, pool_, times);
  }
  std::string name() const override { return "cpu"; }

 private:
  const Parameters& params_;
  ThreadPool& pool_;
};

}  // namespace cuzk::groth16
