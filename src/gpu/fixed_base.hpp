#pragma once
// Fixed-base scalar multiplication on the GPU: [s_i] P for one point P and many scalars s_i, the
// work of a key generation (a 32 GiB PoRep key is ~500 M multiples of the G1 generator and ~100 M
// of G2's). The device twin of ec::FixedBaseTable (ec/fixed_base.hpp), same table and digits:
//   table[k][j - 1] = j · 2^(8k) · P, j = 1..255, k = 0..31 (affine, made on the host);
//   [s] P = Σ_k table[k][byte_k(s)], one mixed XYZZ addition per non-zero byte, no doubling;
// then to affine with Montgomery's trick: each thread inverts the product of its kBatch points'
// ZZ · ZZZ once (Fermat) and peels off 1/ZZ = ZZZ/(ZZ ZZZ) and 1/ZZZ = ZZ/(ZZ ZZZ) with products,
// ~8 products a point plus 1/kBatch of an inversion. Points are processed in chunks through a
// device scratch of XYZZ points, so memory beyond the output is fixed.

#include <cstddef>
#include <memory>

#include "ec/affine.hpp"
#include "ec/bls12_381.hpp"
#include "ff/bls12_381.hpp"
#include "gpu/stream.hpp"

namespace cuzk::gpu {

template <class Curve>
class FixedBaseMul {
 public:
  // Builds the table of `base` on the host and uploads it on `stream` (which must outlive this).
  FixedBaseMul(const ec::Affine<Curve>& base, const Stream& stream);
  ~FixedBaseMul();
  FixedBaseMul(const FixedBaseMul&) = delete;
  FixedBaseMul& operator=(const FixedBaseMul&) = delete;

  // out[i] = [scalars[i]] base for i < n, affine (the identity for a zero scalar); both device
  // pointers, scalars as ff::Fr (Montgomery form). Queued on the stream; returns without waiting.
  // `chunk`: points per pass through the XYZZ scratch (smaller in tests, to cross chunks).
  void run(const ff::Fr* scalars, ec::Affine<Curve>* out, size_t n, size_t chunk = kChunk);

  // Points per chunk of the XYZZ scratch (2^22: 0.8 GB for G1, 1.6 GB for G2).
  static constexpr size_t kChunk = size_t{1} << 22;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

extern template class FixedBaseMul<ec::G1Curve>;
extern template class FixedBaseMul<ec::G2Curve>;

}  // namespace cuzk::gpu
