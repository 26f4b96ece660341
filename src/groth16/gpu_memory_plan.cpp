#include "groth16/gpu_memory_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>
#include <optional>
#include <span>
#include <unordered_set>

#include "core/error.hpp"
#include "ec/xyzz.hpp"

namespace cuzk::groth16 {
namespace {

constexpr size_t kFr = sizeof(ff::Fr), kG1 = sizeof(G1Affine), kG2 = sizeof(ec::G2Affine);  // as stored
constexpr size_t kXyzzG1 = sizeof(ec::XYZZ<ec::G1Curve>), kXyzzG2 = sizeof(ec::XYZZ<ec::G2Curve>);  // buckets
constexpr size_t kMargin = size_t{1} << 30;            // NTT's small tables, flags, sums, CUDA's own
constexpr size_t kMaxPairs = size_t{1} << 30;          // gpu/msm_impl.cuh: pairs per sort
constexpr size_t kMaxBuckets = size_t{1} << 24;        // gpu/msm_impl.cuh: 24-bit bucket keys

}  // namespace

std::string_view placement_name(GpuPlacement p) {
  switch (p) {
    case GpuPlacement::resident: return "resident";
    case GpuPlacement::resident_compact: return "resident_compact";
    case GpuPlacement::streamed: return "streamed";
  }
  return "?";
}

size_t msm_workspace_bytes(size_t terms, size_t xyzz_bytes) {
  const size_t per_term = 36 + 4;                            // the significant terms' list, the ones' bases
  const size_t pairs = std::min(kMaxPairs, 8 * terms);       // up to 8 windows in one sort
  const size_t buckets = std::min(kMaxBuckets, terms / 4 + 1024);
  return terms * per_term + pairs * 16 + buckets * xyzz_bytes;
}

// Whether gpu::DeviceCsr will hold `coeff` in the tagged form: at most 65534 distinct values
// other than ±1 (its table), judged on the first 2^20 terms (a PoRep matrix has ~1,300 in all;
// random coefficients exceed the table within the sample). Their count, or none.
std::optional<size_t> tagged_table(std::span<const ff::Fr> coeff) {
  constexpr size_t kSample = size_t{1} << 20, kTable = 65534;
  const ff::Fr one = ff::Fr::one(), minus_one = -one;
  struct Hash {
    size_t operator()(const ff::Fr& x) const {
      uint64_t h = 0;
      std::memcpy(&h, &x, sizeof h);  // the low Montgomery limb: uniform enough for a hash
      return size_t(h * 0x9e3779b97f4a7c15ull);
    }
  };
  std::unordered_set<ff::Fr, Hash> distinct;
  for (size_t k = 0; k < std::min(coeff.size(), kSample); ++k) {
    if (coeff[k] == one || coeff[k] == minus_one) continue;
    distinct.insert(coeff[k]);
    if (distinct.size() > kTable) return std::nullopt;
  }
  return distinct.size();
}

size_t circuit_device_bytes(const r1cs::CompiledR1cs<ff::Fr>& c) {
  size_t total = 3 * (c.num_inputs + c.num_aux) / 8;  // densities
  for (const auto* m : {&c.a, &c.b, &c.c}) {
    // Tagged: a 4-byte column and a 2-byte code a term, and the table; plain: the column and a
    // 32-byte value.
    const std::optional<size_t> table = tagged_table(m->coeff);
    const size_t per_term = table ? 6 : 4 + sizeof(ff::Fr);
    total += m->row_start.size() * 8 + m->column.size() * per_term + (table ? *table * sizeof(ff::Fr) : 0);
  }
  return total;
}

GpuMemoryNeeds GpuMemoryNeeds::estimate(const ParameterSizes& key, const CircuitSizes& z, size_t circuit_bytes) {
  GpuMemoryNeeds n;
  const size_t m = key.h + 1, zb = z.elements() * kFr;
  n.key = (key.h + key.l + key.a + key.b_g1) * kG1 + key.b_g2 * kG2;
  n.circuit = circuit_bytes;
  // Resident: a, b, c (m each), two witnesses, the MSMs' workspaces at full size (h is the largest
  // G1 MSM; b_g2 the G2 one), kept between proofs.
  const size_t ws_g1 = msm_workspace_bytes(m, kXyzzG1), ws_g2 = msm_workspace_bytes(key.b_g2, kXyzzG2);
  n.witnesses = 2 * zb;
  n.resident_proofs = 3 * m * kFr + 2 * zb + ws_g1 + ws_g2 + kMargin;
  // Compact: the two witnesses beside the largest stage: H (a, b, c), the h MSM (H's vector and
  // the G1 workspace), b_g2 (the G2 workspace alone).
  n.compact_proofs = 2 * zb + std::max({3 * m * kFr, m * kFr + ws_g1, ws_g2}) + kMargin;
  // Streamed: H's a, b, c; then h's scalars beside the G1 chunks; then z beside the G1 chunks,
  // then beside the G2 ones (each group's workspace, at its chunk size, freed after it).
  const size_t g1_chunks = 2 * std::min(m, kStreamChunkG1) * kG1 + msm_workspace_bytes(std::min(m, kStreamChunkG1), kXyzzG1);
  const size_t g2_chunks =
      2 * std::min(key.b_g2, kStreamChunkG2) * kG2 + msm_workspace_bytes(std::min(key.b_g2, kStreamChunkG2), kXyzzG2);
  n.streamed_proof = std::max({3 * m * kFr, m * kFr + g1_chunks, zb + g1_chunks, zb + g2_chunks}) + kMargin;
  n.full_roots = m > (size_t{1} << 10) ? (m + 1) * kFr : 0;  // gpu/ntt_tables.hpp: one pass up to 2^10
  return n;
}

size_t GpuMemoryNeeds::turn(GpuPlacement p) const {
  switch (p) {
    case GpuPlacement::resident: return resident_proofs - witnesses;
    case GpuPlacement::resident_compact: return compact_proofs - witnesses;
    case GpuPlacement::streamed: return streamed_proof;
  }
  return 0;
}

size_t GpuMemoryNeeds::total(GpuPlacement p, size_t others_turn) const {
  const size_t data = p == GpuPlacement::streamed ? 0 : key + circuit + roots;
  return data + held(p) + std::max(turn(p), others_turn);
}

GpuShare::Needs GpuMemoryNeeds::share_needs(GpuPlacement p, GpuPriority priority) const {
  GpuShare::Needs n{p == GpuPlacement::streamed ? 0 : key + circuit + roots, held(p), turn(p)};
  if (priority == GpuPriority::high) {
    n.held += n.turn;
    n.turn = 0;
  }
  return n;
}

bool full_roots_fit(const GpuMemoryNeeds& needs, GpuPlacement placement, size_t budget, size_t others_turn) {
  if (placement != GpuPlacement::resident || needs.full_roots == 0) return false;
  GpuMemoryNeeds with = needs;
  with.roots = needs.full_roots;
  return with.total(placement, others_turn) <= budget;
}

Expected<GpuPlacement> place_on_gpu(const GpuMemoryNeeds& needs, size_t budget, size_t others_turn) {
  for (const GpuPlacement p : {GpuPlacement::resident, GpuPlacement::resident_compact, GpuPlacement::streamed})
    if (needs.total(p, others_turn) <= budget) return p;
  const std::string beside =
      others_turn > 0 ? ", beside another prover's proof of " + gib_text(others_turn) + " on this GPU" : "";
  return Error{ErrorCode::kUnsupported,
               "GPU prover: " + gib_text(budget) + " of device memory is too little; a proof needs " +
                   gib_text(needs.total(GpuPlacement::streamed, others_turn)) + " with the key and circuit on the host (" +
                   gib_text(needs.total(GpuPlacement::resident, others_turn)) + " with both on the device, " +
                   gib_text(needs.total(GpuPlacement::resident_compact, others_turn)) +
                   " with its stages' buffers in turn)" + beside};
}

}  // namespace cuzk::groth16
