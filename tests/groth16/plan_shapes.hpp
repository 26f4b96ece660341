#pragma once
// The 32 GiB circuits' sizes as the GPU memory plan sees them (gpu_memory_plan_test,
// gpu_share_test): the key's vector lengths, the witness and the compiled circuit's device bytes.

#include <cstddef>

#include "groth16/gpu_memory_plan.hpp"

namespace cuzk::groth16::shapes {

struct Shape {
  ParameterSizes key;
  CircuitSizes z;
  size_t circuit_bytes = 0;
  GpuMemoryNeeds needs() const { return GpuMemoryNeeds::estimate(key, z, circuit_bytes); }
};

inline constexpr size_t kGiB = size_t{1} << 30;
inline constexpr size_t kDomain = size_t{1} << 27;  // both partitions' m

// A 32 GiB PoRep partition: 130,278,541 constraints, 130,169,893 aux, domain 2^27. The key is
// ~47 GB; a resident prover peaked at 104.5 GiB on the H200 (docs/PERF.md 20, 22).
inline Shape porep_32gib() {
  Shape s;
  s.key.ic = 39;  // any small count: the inputs hardly matter
  s.key.h = kDomain - 1;
  s.key.l = 130'169'893;
  s.key.a = 100'000'000;
  s.key.b_g1 = s.key.b_g2 = 20'000'000;
  s.z = CircuitSizes{s.key.ic, s.key.l};
  s.circuit_bytes = 7 * kGiB;
  return s;
}

// A 32 GiB WindowPoSt partition (SPEC-POST: 125,279,217 constraints, 126,902,376 aux, 25,840
// inputs), its A and B densities those of the 2 KiB circuit, whose gadgets are the same
// (post_circuit_model.py: of 22,128 aux 16,770 in A and 16,028 in B).
inline constexpr size_t kWindowAux = 126'902'376, kWindowInputs = 25'840;
inline Shape window_post_32gib() {
  Shape s;
  s.key.ic = kWindowInputs + 1;
  s.key.h = kDomain - 1;
  s.key.l = kWindowAux;
  s.key.a = kWindowAux * 16'770 / 22'128 + kWindowInputs;
  s.key.b_g1 = s.key.b_g2 = kWindowAux * 16'028 / 22'128;
  s.z = CircuitSizes{kWindowInputs, kWindowAux};
  s.circuit_bytes = 10 * kGiB;
  return s;
}

}  // namespace cuzk::groth16::shapes
