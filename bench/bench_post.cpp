// PoSt input costs, one core: validate() of synthetic 32 GiB vanilla proofs (post/vanilla.hpp:
// the challenges derived, the shapes checked, every path hashed to its root, comm_r), what runs
// before a WindowPoSt partition's synthesis (2,349 sectors of 10 paths) and a WinningPoSt's (one
// sector of 66). Arg scalar: 0 = the batched Poseidon on IFMA where the CPU has it, 1 = the
// scalar hash, in the same run (docs/PERF.md 33).
#include <benchmark/benchmark.h>

#include <span>
#include <vector>

#include "core/thread_pool.hpp"
#include "post/circuit.hpp"
#include "r1cs/witness_cs.hpp"
#include "post/synthetic_vanilla.hpp"
#include "post/vanilla.hpp"

namespace cuzk::post {
namespace {

// Synthetic proofs of the 32 GiB registered proofs (V1_1): 16 WindowPoSt sectors, the one
// WinningPoSt sector; generated once.
const SyntheticVanilla& proofs(PostKind kind) {
  static const auto make = [](PostKind k, uint32_t n) {
    SyntheticVanillaOptions o;
    o.proof = registered_post_proof(k, uint64_t{32} << 30).value();
    o.sectors = n;
    ThreadPool pool(1);
    return generate_synthetic_vanilla(o, PostPoseidon(), pool).value();
  };
  static const SyntheticVanilla window = make(PostKind::kWindow, 16), winning = make(PostKind::kWinning, 1);
  return kind == PostKind::kWindow ? window : winning;
}

void validate_all(benchmark::State& state, PostKind kind) {
  const SyntheticVanilla& v = proofs(kind);
  const PostPoseidon poseidon(state.range(0) == 0 ? gadgets::PoseidonKernel::best : gadgets::PoseidonKernel::scalar);
  for (auto _ : state) {
    for (size_t i = 0; i < v.proofs.size(); ++i) {
      const auto ok = validate(v.proofs[i], v.proof, v.randomness, i, poseidon, "bench");
      if (!ok) state.SkipWithError(ok.error().message.c_str());
    }
  }
  state.SetItemsProcessed(int64_t(state.iterations() * v.proofs.size()));  // sectors
  state.SetLabel(poseidon.batch(8).uses_ifma() ? "ifma" : "scalar");
}

// 16 sectors of a WindowPoSt partition (10 paths each); items = sectors.
void BM_ValidateWindowPoSt32GiB(benchmark::State& state) { validate_all(state, PostKind::kWindow); }
BENCHMARK(BM_ValidateWindowPoSt32GiB)->ArgName("scalar")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The same 16 sectors four at a time through validate_sectors (as validate_partition runs them):
// 40 paths fill five groups of eight lanes.
void BM_ValidateWindowPoSt32GiB_FourSectors(benchmark::State& state) {
  const SyntheticVanilla& v = proofs(PostKind::kWindow);
  const PostPoseidon poseidon(state.range(0) == 0 ? gadgets::PoseidonKernel::best : gadgets::PoseidonKernel::scalar);
  std::vector<SectorToValidate> sectors;
  for (size_t i = 0; i < v.proofs.size(); ++i) sectors.push_back({&v.proofs[i], i, "bench"});
  for (auto _ : state) {
    for (size_t first = 0; first < sectors.size(); first += 4) {
      for (const Expected<void>& ok :
           validate_sectors(std::span(sectors).subspan(first, 4), v.proof, v.randomness, poseidon)) {
        if (!ok) state.SkipWithError(ok.error().message.c_str());
      }
    }
  }
  state.SetItemsProcessed(int64_t(state.iterations() * v.proofs.size()));
  state.SetLabel(poseidon.batch(8).uses_ifma() ? "ifma" : "scalar");
}
BENCHMARK(BM_ValidateWindowPoSt32GiB_FourSectors)->ArgName("scalar")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// The one sector of a WinningPoSt (66 paths).
void BM_ValidateWinningPoSt32GiB(benchmark::State& state) { validate_all(state, PostKind::kWinning); }
BENCHMARK(BM_ValidateWinningPoSt32GiB)->ArgName("scalar")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// Witness-only synthesis of the 16 WindowPoSt sectors into one z, as a partition's
// (synthesize_partition_witness, one thread); items = sectors. Arg traced: 1 = the hashes traced
// ahead in groups of four sectors (PoseidonBatch::trace, IFMA where the CPU has it), 0 = the
// gadget computing each hash (scalar), in the same run (docs/PERF.md 35).
void BM_WitnessWindowPoSt32GiB(benchmark::State& state) {
  const SyntheticVanilla& v = proofs(PostKind::kWindow);
  const bool traced = state.range(0) == 1;
  const PostPoseidon poseidon;
  PostCircuitShape shape = circuit_shape(post_params(v.proof).value());
  shape.sector_count = v.proofs.size();
  const auto sectors = circuit_sectors(post_params(v.proof).value(), v.proofs).value();
  r1cs::WitnessCS<ff::Fr> one;
  synthesize_sector(one, shape, poseidon, sectors[0], 0);
  const size_t num_inputs = 1 + shape.sector_count * (1 + shape.challenge_count);
  std::vector<ff::Fr> z(num_inputs + shape.sector_count * one.num_aux());
  for (auto _ : state) {
    if (traced) {
      synthesize_partition_witness(shape, poseidon, std::span(sectors).first(shape.sector_count), z, num_inputs);
    } else {
      const std::span<ff::Fr> aux = std::span(z).subspan(num_inputs);
      for (size_t k = 0; k < shape.sector_count; ++k) {
        r1cs::WitnessCS<ff::Fr> cs(aux.subspan(k * one.num_aux(), one.num_aux()));
        synthesize_sector(cs, shape, poseidon, sectors[k], k);
      }
    }
    benchmark::DoNotOptimize(z.data());
  }
  state.SetItemsProcessed(int64_t(state.iterations() * v.proofs.size()));
  state.SetLabel(traced ? (poseidon.batch(8).uses_ifma() ? "traced, ifma" : "traced, scalar") : "computed");
}
BENCHMARK(BM_WitnessWindowPoSt32GiB)->ArgName("traced")->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace cuzk::post
