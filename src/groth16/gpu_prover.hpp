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
//   2. The five MSMs on the resident bases (gpu/msm.hpp), the densities as device bitmaps; b_g2
//      on a second stream beside the four G1 MSMs (MsmStreams).
//   3. Blinding on the CPU (groth16::assemble).
// Resident_compact (groth16/gpu_memory_plan.hpp): the same, with the MSMs' workspaces freed after
// their group (G1, then G2) instead of kept between proofs.
// On a card too small for the key and circuit (groth16/gpu_memory_plan.hpp), both stay on the host
// (streamed): a, b, c by the CPU's SpMV, uploaded per proof; the bases page-locked in place and
// streamed in chunks through the MSMs (gpu::Msm::run_streamed); z up after H. Same proofs.
// Built only with CUDA (the cuzk::groth16_gpu library).

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "core/expected.hpp"
#include "core/thread_pool.hpp"
#include "groth16/backend.hpp"
#include "groth16/device_key.hpp"
#include "groth16/gpu_memory_plan.hpp"
#include "groth16/gpu_share.hpp"
#include "gpu/device.hpp"
#include "gpu/ntt.hpp"

namespace cuzk::groth16 {

struct GpuProverOptions {
  // The most device memory cuzk's data may take (key, circuit, proofs' buffers); 0: what the
  // device has free at construction. CUZK_GPU_MEMORY, --gpu-memory.
  size_t memory_limit = 0;
  // A placement to use instead of the plan's (tests, benchmarks).
  std::optional<GpuPlacement> placement;
  // The CPU's SpMV when the circuit stays on the host; a streamed prover with a circuit needs it.
  ThreadPool* pool = nullptr;
  GpuPriority priority = GpuPriority::normal;  // its streams'
  // The card's other provers (groth16/gpu_share.hpp; null: none): the plan leaves room for them,
  // the proofs of normal priority take turns with theirs, and the MSM workspaces are freed after
  // each proof. The daemon gives every prover of a card the same one.
  std::shared_ptr<GpuShare> share = nullptr;
  // With `placement`: the NTT's first-pass twiddles (a resident placement may take the full
  // table); without it the plan takes the full table where it fits (planned_ntt_roots).
  gpu::NttRoots roots = gpu::NttRoots::two_level;
  MsmStreams msm_streams = MsmStreams::two;  // groth16/backend.hpp
};

// The NTT's roots for a prover placed at `placement` in `budget` (place_on_gpu's arguments): the
// full table where it fits (full_roots_fit), else the two small tables.
inline gpu::NttRoots planned_ntt_roots(const GpuMemoryNeeds& needs, GpuPlacement placement, size_t budget,
                                       size_t others_turn) {
  return full_roots_fit(needs, placement, budget, others_turn) ? gpu::NttRoots::full : gpu::NttRoots::two_level;
}

class GpuProver final : public ProverBackend {
 public:
  // Uploads the key's bases to `device` (the key may go afterwards). Any number of threads may
  // call prove(): the proofs run on the device one at a time, on the prover's streams (its MSM
  // workspaces serve every proof), while one more caller's witness goes up on a stream of its own
  // (at most two witnesses on the device), so a caller's upload overlaps another's proof. Throws
  // cuzk::Exception when the key's H is not m − 1 points for a power of two m, or when the device
  // runs out of memory.
  // With `circuit` (the key's compiled circuit; may go afterwards), its matrices and densities
  // stay on the device too and prove(Witness) computes a, b, c there (gpu/spmv.hpp); a circuit
  // that does not fit the key throws (check_circuit).
  // The placement comes from place_on_gpu with options.memory_limit (or the free memory); streamed,
  // the prover keeps references to `params` and `circuit` (which must then outlive it) and
  // page-locks the bases in place. Throws when even a streamed proof does not fit.
  GpuProver(const Parameters& params, const gpu::Device& device, const r1cs::CompiledR1cs<ff::Fr>* circuit = nullptr,
            GpuProverOptions options = {});
  // On a key already on its device (DeviceKey::generate or upload), which the prover now owns:
  // options.placement resident (the default) or resident_compact (streamed throws); its memory
  // limit and pool are not used.
  explicit GpuProver(DeviceKey key, const r1cs::CompiledR1cs<ff::Fr>* circuit = nullptr, GpuProverOptions options = {});
  ~GpuProver() override;
  GpuProver(const GpuProver&) = delete;
  GpuProver& operator=(const GpuProver&) = delete;

  // Fails, as the CPU prover does, when the assignment does not fit the key.
  Expected<Proof> prove(const Assignment& w, const Blinding& blinding, ProverTimes* times = nullptr) override;
  // Only the witness travels: z goes up once and serves the SpMV, the inputs' rows of a and the MSMs.
  Expected<Proof> prove(const Witness& z, const Blinding& blinding, ProverTimes* times = nullptr) override;
  std::string name() const override;
  std::optional<size_t> device_peak_bytes() const override;
  void reset_device_peak() const override;
  std::optional<size_t> device_reserved_bytes() const override;
  std::optional<CircuitSizes> circuit_sizes() const override;
  // Pinned host buffers (cudaMallocHost): z goes up by DMA, ~55 GB/s on the H200.
  WitnessPool* witness_pool() override;
  bool reads_host_key() const override { return placement() == GpuPlacement::streamed; }

  // Bytes held on the device for the key's bases and the compiled circuit (0 streamed).
  size_t resident_bytes() const;
  GpuPlacement placement() const;
  // The NTT's first-pass twiddles: the full table where the plan found room (PERF.md 49).
  gpu::NttRoots ntt_roots() const;

 private:
  struct State;
  struct Rows;
  struct WitnessSlot;
  Expected<Proof> finish(Rows& rows, const Blinding& blinding, ProverTimes& t);
  std::unique_ptr<State> s_;
};

}  // namespace cuzk::groth16
