#pragma once
// Element-wise launches of src/gpu's field and curve code over arrays, for the device tests.
// Each copies its inputs to the device, runs one kernel (256 threads per block, so sizes that
// are not multiples of 256 exercise the tail guard), copies the result back and waits.
// Inputs and outputs are CPU types: the device types share their bytes (gpu/curve.cuh).

#include <span>

#include "ec/bls12_381.hpp"

namespace cuzk::gpu::test {

enum class FieldOp { kAdd, kSub, kMul, kSqr, kNeg, kDbl };
enum class PointOp { kAdd, kMadd, kDbl };

// out[i] = a[i] op b[i] (b ignored by the unary ops); F is ff::Fp, ff::Fr or ff::Fp2.
template <class F>
void field_op(FieldOp op, std::span<const F> a, std::span<const F> b, std::span<F> out);

// out[i] = a[i] + b[i] (kAdd), a[i] + q[i] (kMadd) or 2 a[i] (kDbl); P is ec::G1XYZZ,
// ec::G1Jacobian, ec::G2XYZZ or ec::G2Jacobian.
template <class P>
using AffineOf = decltype(std::declval<P>().to_affine());
template <class P>
void point_op(PointOp op, std::span<const P> a, std::span<const P> b, std::span<const AffineOf<P>> q, std::span<P> out);

}  // namespace cuzk::gpu::test
