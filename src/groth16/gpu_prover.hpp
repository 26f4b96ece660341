#pragma once
// The Groth16 prover on one GPU: the CPU prover's stages (groth16/prover.hpp) with H and the five
// MSMs on the device, byte-identical proofs for the same r and s. The key's bases go up once, at
// construction, and stay there (the 32 GiB PoRep SRS is ~47 GiB; the H200 has 139 GiB); per
// proof only the assignment, or with the compiled circuit resident only the witness, travels.
//   0. With the compiled circuit resident, z goes up (overlapping the previous caller's proof;
//      from the prover's pinned witness buffers at the full PCIe rate) and
//      a, b, c = (A, B, C)·z by the GPU SpMV; else a, b, c are uploaded from the assignment.
//   1. H: a, b, c in buffers of the domain size m (zero-padded; a's input rows after the
//      constraints), iNTT (natural -> bit-reversed) and coset NTT (bit-reversed -> natural)
//      each, (a·b − c)/Z pointwise, coset iNTT (natural -> natural): the two first transforms need
//      no reordering, the last one permutes once (gpu/ntt.hpp).
//   2. The five MSMs on the resident bases (gpu/msm.hpp), the densities as device bitmaps.
//   3. Blinding on the CPU (groth16::assemble).
// Built only with CUDA (the cuzk::groth16_gpu library).

#include <memory>
#include <string>

#include "core/expected.hpp"
#include "groth16/backend.hpp"
#include "groth16/device_key.hpp"
#include "gpu/device.hpp"

namespace cuzk::groth16 {

class GpuProver final : public ProverBackend {
 public:
  // Uploads the key's bases to `device` (the key may go afterwards). Any number of threads may
  // call prove(): the proofs run on the device one at a time, on the prover's stream (its MSM
  // workspaces serve every proof), while one more caller's witness goes up on a second stream (at
  // most two witnesses on the device), so a caller's upload overlaps another's proof. Throws
  // cuzk::Exception when the key's H is not m − 1 points for a power of two m, or when the device
  // runs out of memory.
  // With `circuit` (the key's compiled circuit; may go afterwards), its matrices and densities
  // stay on the device too and prove(Witness) computes a, b, c there (gpu/spmv.hpp); a circuit
  // that does not fit the key throws (check_circuit).
  GpuProver(const Parameters& params, const gpu::Device& device, const r1cs::CompiledR1cs<ff::Fr>* circuit = nullptr);
  // On a key already on its device (DeviceKey::generate or upload), which the prover now owns.
  explicit GpuProver(DeviceKey key, const r1cs::CompiledR1cs<ff::Fr>* circuit = nullptr);
  ~GpuProver() override;
  GpuProver(const GpuProver&) = delete;
  GpuProver& operator=(const GpuProver&) = delete;

  // Fails, as the CPU prover does, when the assignment does not fit the key.
  Expected<Proof> prove(const Assignment& w, const Blinding& blinding, ProverTimes* times = nullptr) override;
  // Only the witness travels: z goes up once and serves the SpMV, the inputs' rows of a and the MSMs.
  Expected<Proof> prove(const Witness& z, const Blinding& blinding, ProverTimes* times = nullptr) override;
  std::string name() const override;
  std::optional<size_t> device_peak_bytes() const override;
  std::optional<CircuitSizes> circuit_sizes() const override;
  // Pinned host buffers (cudaMallocHost): z goes up by DMA, ~55 GB/s on the H200.
  WitnessPool* witness_pool() override;

  // Bytes held on the device for the key's bases and the compiled circuit.
  size_t resident_bytes() const;

 private:
  struct State;
  struct Rows;
  struct WitnessSlot;
  Expected<Proof> finish(Rows& rows, const Blinding& blinding, ProverTimes& t);
  std::unique_ptr<State> s_;
};

}  // namespace cuzk::groth16
