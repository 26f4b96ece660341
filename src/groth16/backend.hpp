#pragma once
// One prover interface, several backends: the CPU (here) and the GPU (groth16/gpu_prover.hpp);
// groth16/select_prover.hpp picks one (CUZK_GPU=auto|off|N, shared/DESIGN.md decision 6). Every
// backend gives the same proof for the same assignment, r and s.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/expected.hpp"
#include "core/thread_pool.hpp"
#include "groth16/assignment.hpp"
#include "groth16/keys.hpp"
#include "groth16/proof.hpp"
#include "groth16/prover.hpp"
#include "groth16/witness.hpp"
#include "r1cs/compiled.hpp"

namespace cuzk::groth16 {

// How a GPU backend's work competes with other backends' on its device: high for the engine's
// express lane (WinningPoSt, engine/handler.hpp Lane), whose kernels the GPU then dispatches
// ahead of PoRep's as blocks finish (gpu::StreamPriority).
enum class GpuPriority : uint8_t { normal, high };

// How a GPU backend's MSMs use its device: one stream, one MSM after another; or two, b_g2 on its
// own stream (and host thread) beside the G1 MSMs where its workspace is kept beside G1's (the
// resident placement): its kernels fill the G1 MSMs' tails and host round trips (docs/PERF.md 56).
enum class MsmStreams : uint8_t { one, two };
// "one", "two": the benches' --msm-streams values and JSON.
constexpr std::string_view msm_streams_name(MsmStreams s) { return s == MsmStreams::one ? "one" : "two"; }

class ProverBackend {
 public:
  virtual ~ProverBackend() = default;
  // Fails when the assignment does not fit the backend's key (sizes, densities).
  virtual Expected<Proof> prove(const Assignment& w, const Blinding& blinding, ProverTimes* times = nullptr) = 0;
  // For a backend made with the key's compiled circuit: a, b, c = (A, B, C)·z and the densities
  // come from the circuit (decision 4). Fails without a circuit, or when the witness's sizes are
  // not the circuit's.
  virtual Expected<Proof> prove(const Witness& z, const Blinding& blinding, ProverTimes* times = nullptr) = 0;
  // "cpu", "gpu 0 (NVIDIA H200)": for logs and the CLI.
  virtual std::string name() const = 0;
  // Peak device memory of cuzk's data on a GPU backend's device (key, circuit, the proofs'
  // buffers): gpu::Device::pool_peak_bytes. None for the CPU.
  virtual std::optional<size_t> device_peak_bytes() const { return std::nullopt; }
  // Starts device_peak_bytes afresh from what is held now (e.g. after a key's generation).
  virtual void reset_device_peak() const {}
  // Device memory the allocator's pool has mapped now, used or kept for reuse
  // (gpu::Device::pool_reserved_bytes): with freed memory retained, what the proofs so far took
  // of the card at most, fragmentation included. None for the CPU.
  virtual std::optional<size_t> device_reserved_bytes() const { return std::nullopt; }
  // The compiled circuit's sizes, for a backend made with one.
  virtual std::optional<CircuitSizes> circuit_sizes() const = 0;
  // For a backend made with a compiled circuit: host buffers of its witness size to synthesise
  // into and prove from (a GPU backend's are pinned). Null without a circuit.
  virtual WitnessPool* witness_pool() = 0;
  // Whether the backend reads the host key and compiled circuit it was made with after
  // construction (the CPU; a GPU streaming them), which must then outlive it.
  virtual bool reads_host_key() const = 0;
};

// groth16::prove on a key, a pool and optionally the key's compiled circuit, all of which must
// outlive it; a witness goes through r1cs::spmv.
class CpuProver final : public ProverBackend {
 public:
  // Throws cuzk::Exception when `circuit` does not fit the key (check_circuit).
  CpuProver(const Parameters& params, ThreadPool& pool, const r1cs::CompiledR1cs<ff::Fr>* circuit = nullptr);
  Expected<Proof> prove(const Assignment& w, const Blinding& blinding, ProverTimes* times = nullptr) override {
    return groth16::prove(params_, w, blinding, pool_, times);
  }
  Expected<Proof> prove(const Witness& z, const Blinding& blinding, ProverTimes* times = nullptr) override;
  std::string name() const override { return "cpu"; }
  std::optional<CircuitSizes> circuit_sizes() const override {
    if (circuit_ == nullptr) return std::nullopt;
    return CircuitSizes{circuit_->num_inputs, circuit_->num_aux};
  }
  WitnessPool* witness_pool() override { return witnesses_ ? &*witnesses_ : nullptr; }
  bool reads_host_key() const override { return true; }

 private:
  const Parameters& params_;
  ThreadPool& pool_;
  const r1cs::CompiledR1cs<ff::Fr>* circuit_;
  Density density_;  // the circuit's
  std::optional<WitnessPool> witnesses_;
};

// A witness's sizes against a compiled circuit's (null: the backend has none); both backends
// check them first.
Expected<void> check_witness(const CircuitSizes* circuit, const Witness& z);
// A compiled circuit (with its densities) against the key it is to prove for: the inputs, the aux
// variables, the A- and B-dense counts and the domain. Both backends check it at construction
// and throw cuzk::Exception with this message when it fails.
Expected<void> check_circuit(const ParameterSizes& params, const r1cs::CompiledR1cs<ff::Fr>& circuit,
                             const Density& density);

}  // namespace cuzk::groth16
