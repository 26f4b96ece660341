#pragma once
// Native Poseidon on many independent preimages of one arity: the same hash as poseidon_hash
// (neptune's OptimizedStatic rounds, gadgets/poseidon.hpp), eight at a time in the lanes of
// AVX-512 IFMA where the CPU has it, one poseidon_hash each otherwise.
//
// Why: the vanilla-proof checks (post/vanilla.cpp, porep/c1_check.cpp) walk every Merkle path
// natively, ~60 µs an arity-8 hash on one core, bound by scalar Fr products (docs/PERF.md).
//
// Representation (gadgets/poseidon_ifma.hpp): an element x as X = x·2^260 mod r in five 52-bit
// limbs, one zmm register a limb, one lane a hash. Conversion is exact: X is Fr's Montgomery
// representation (x·2^256) of 16·x, split at 52 bits (4 Fr additions an input); back, the
// canonical X read as Fr's representation is 16·y, times 1/16 (one Fr product an output).
// Values stay below 3.1r < 2^260 without reductions beyond one REDC per product or dot
// product (bounds in poseidon_ifma.hpp). Cost: a Montgomery product 50 + 55 IFMA (limb
// products + REDC), a squaring 30 + 55; a dense mix row of width t one REDC for t products.
// Eight arity-8 hashes ~148 k IFMA (vpmadd52{l,h}uq), against ~2,000 Fr products a hash scalar.
//
// Dispatch: the kernel's file alone is compiled for AVX-512 (-mavx512f -mavx512ifma); it is
// called only when cpu_has_avx512_ifma() (CPUID and the OS's zmm state) and the width fits
// (t ≤ 12), else the scalar hash runs. PoseidonKernel::scalar forces the fallback (tests, timing).

#include <cstdint>
#include <span>
#include <vector>

#include "ff/bls12_381.hpp"
#include "gadgets/poseidon_constants.hpp"
#include "gadgets/poseidon_ifma.hpp"

namespace cuzk::gadgets {

// CPUID.(7,0):EBX AVX512F and AVX512_IFMA, with XCR0 saving the opmask and zmm state.
bool cpu_has_avx512_ifma() noexcept;

enum class PoseidonKernel {
  best,    // IFMA where the CPU (and build) has it, else scalar
  scalar,  // poseidon_hash per preimage
};

// The constants in the kernel's lane form, built once per arity (~1,300 elements at arity 8,
// microseconds); refers to c, which must outlive it.
class PoseidonBatch {
 public:
  static constexpr size_t kLanes = 8;

  explicit PoseidonBatch(const PoseidonConstants& c, PoseidonKernel kernel = PoseidonKernel::best);

  size_t arity() const { return c_.arity; }
  bool uses_ifma() const { return ifma_; }

  // out[k] = poseidon_hash(c, preimages[k·arity, (k + 1)·arity)) for every k < out.size(), in
  // groups of eight. Throws (kInvalidArgument) if preimages.size() != out.size()·arity.
  void hash(std::span<const ff::Fr> preimages, std::span<ff::Fr> out) const;

  // The same hashes with the variables the R1CS gadget allocates for each (its trace:
  // poseidon_gadget_variables(c) values, the hash last) into out[k], for a witness-only synthesis
  // to take (PoseidonTraces). IFMA: ~200 k IFMA for eight arity-8 traces (the hash and a
  // conversion of each value to Fr's form); scalar: the gadget itself on a WitnessCS.
  // Throws (kInvalidArgument) if preimages.size() != out.size()·arity.
  void trace(std::span<const ff::Fr> preimages, std::span<ff::Fr* const> out) const;

 private:
  // Up to eight preimages into the kernel's input (lane form, limb-major; idle lanes zero).
  void load_lanes(std::span<const ff::Fr> preimages, uint64_t* in) const;
  ifma::Tables tables() const;  // the kernel's view of limbs_

  const PoseidonConstants& c_;
  bool ifma_ = false;
  std::vector<uint64_t> limbs_;  // the tables, back to back (offsets below, in uint64s)
  size_t domain_tag_ = 0, round_constants_ = 0, mds_ = 0, pre_sparse_ = 0, sparse_ = 0, to_fr_ = 0;
  ff::Fr sixteenth_;  // 1/16: lane form back to Fr
};

}  // namespace cuzk::gadgets
