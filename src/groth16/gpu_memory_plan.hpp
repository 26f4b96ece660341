#pragma once
// Where the GPU prover keeps its data, from the card's memory (issue 7: most users' cards have
// 16-32 GB; a 32 GiB PoRep key is ~47 GB and its compiled circuit ~7 GB):
//   resident — the key's bases and the compiled circuit on the device, uploaded once; per proof
//              only z travels (the H200's path: ~105 GiB at 32 GiB); the MSMs' workspaces are
//              kept between proofs;
//   resident_compact — the same, but a proof's stages take the same memory in turn: H's three
//              vectors, then the G1 MSMs' workspace (beside H's result for the h MSM), then the
//              G2 one, each freed before the next is made (the stream-ordered pool keeps the
//              memory mapped: gpu::Device::retain_pool_memory). For keys whose workspaces kept
//              side by side do not fit beside them: a dense 32 GiB WindowPoSt key (~55 GB) on a
//              card with less than ~136 GiB free (docs/PERF.md 32, 53);
//   streamed — both stay on the host: a, b, c by the CPU's SpMV, uploaded per proof; the bases
//              stream from page-locked host memory in chunks, each copied while the previous
//              chunk is summed (gpu::Msm::run_streamed); z goes up after H, so the peak is H's
//              three vectors (~13 GB at 32 GiB) or the MSMs' chunks, whichever is larger.
// A pure function of the sizes, so that it is tested without a GPU; the estimates follow the
// buffers gpu/msm.hpp and groth16/gpu_prover.cpp allocate (the H200's measured peaks are in
// docs/PERF.md entry 23).

#include <cstddef>
#include <string>
#include <string_view>

#include "core/expected.hpp"
#include "core/memory_size.hpp"  // gib_text, parse_memory_size
#include "groth16/backend.hpp"     // GpuPriority
#include "groth16/gpu_share.hpp"
#include "groth16/prover.hpp"
#include "groth16/witness.hpp"
#include "r1cs/compiled.hpp"

namespace cuzk::groth16 {

enum class GpuPlacement { resident, resident_compact, streamed };
std::string_view placement_name(GpuPlacement p);  // "resident", "resident_compact", "streamed"

// Terms per streamed MSM chunk: G1 2^24 (1.6 GB of bases a buffer, two buffers), G2 2^22
// (0.8 GB): each copy (~30 ms at 55 GB/s) hides behind the chunk's sum.
inline constexpr size_t kStreamChunkG1 = size_t{1} << 24;
inline constexpr size_t kStreamChunkG2 = size_t{1} << 22;

// Device bytes a GPU MSM of `terms` terms holds at its largest (gpu/msm_impl.cuh's workspace):
// a 36-byte term and a 4-byte base index (the k = 1 list) a term, 16 bytes a sorted pair (keys
// and values, double-buffered) for up to 8 windows' pairs at once but at most 2^30 pairs, and a
// group of windows' buckets (at most 2^24 XYZZ points of `xyzz_bytes`).
size_t msm_workspace_bytes(size_t terms, size_t xyzz_bytes);

struct GpuMemoryNeeds {
  size_t key = 0;      // the key's bases on the device (DeviceKey::bytes)
  size_t circuit = 0;  // the compiled circuit on the device (A, B, C tagged, densities)
  size_t resident_proofs = 0;  // per-proof buffers with both resident (two witnesses in flight)
  size_t compact_proofs = 0;   // the same with the stages' buffers in turn (the peak of its stages)
  size_t streamed_proof = 0;   // per-proof buffers when streamed (the peak of its stages)
  size_t witnesses = 0;        // of resident_proofs and compact_proofs: the two witnesses z
  // The NTT domain's full ω^e table, (m + 1)·32 bytes (none where the domain has one pass, m <=
  // 2^10): a resident prover makes it where it fits beside the rest (full_roots_fit;
  // gpu::NttRoots::full, docs/PERF.md 49). `roots`: what this prover holds of it (0 or full_roots),
  // counted with its key and circuit.
  size_t full_roots = 0;
  size_t roots = 0;

  // A placement's bytes while no proof runs besides what is allocated when the prover is made:
  // the witnesses it uploads ahead (resident placements; streamed, z goes up inside the proof),
  // and its proof's other buffers (groth16/gpu_share.hpp's held and turn).
  size_t held(GpuPlacement p) const { return p == GpuPlacement::streamed ? 0 : witnesses; }
  size_t turn(GpuPlacement p) const;
  // What the placement needs on the card: its data and, in one turn, its proof or the largest
  // other prover's there (`others_turn`, groth16/gpu_share.hpp), whichever is larger.
  size_t total(GpuPlacement p, size_t others_turn = 0) const;
  // The prover's membership of its card's GpuShare: its key and circuit (allocated when it is
  // made), the witnesses it uploads ahead, its proof's buffers in its turns; an express prover
  // (GpuPriority::high) takes no turns and holds its proof's buffers at all times.
  GpuShare::Needs share_needs(GpuPlacement p, GpuPriority priority) const;

  // From the key's and circuit's sizes (domain m = h + 1, z = inputs + aux) and the circuit's
  // device bytes (circuit_device_bytes).
  static GpuMemoryNeeds estimate(const ParameterSizes& key, const CircuitSizes& z, size_t circuit_bytes);
  size_t resident() const { return key + circuit + roots + resident_proofs; }
  size_t resident_compact() const { return key + circuit + roots + compact_proofs; }
};

// The compiled circuit's device bytes (gpu/spmv.hpp: 8 bytes a row, 6 a term in the tagged form
// that PoRep's few distinct coefficients allow, 36 in the plain form) with its density bitmaps.
size_t circuit_device_bytes(const r1cs::CompiledR1cs<ff::Fr>& circuit);

// The first placement that fits `budget` bytes: resident, resident_compact, streamed; else an
// error saying how much the card would need. Beside other provers of the card (a GpuShare), each
// placement also leaves room for their largest turn, `others_turn` (GpuMemoryNeeds::total).
Expected<GpuPlacement> place_on_gpu(const GpuMemoryNeeds& needs, size_t budget, size_t others_turn = 0);

// Whether the full ω^e table (GpuMemoryNeeds::full_roots) fits beside `placement` in `budget`
// (with `others_turn` as place_on_gpu's). Only the resident placement takes it: a card with room
// to spare; where memory is short the key and the proofs' buffers come first.
bool full_roots_fit(const GpuMemoryNeeds& needs, GpuPlacement placement, size_t budget, size_t others_turn = 0);

}  // namespace cuzk::groth16
