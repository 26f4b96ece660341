#include "gpu/curve.cuh"  // before any ff/ec header (gpu/field.cuh says why)
#include "kernels.hpp"

#include "gpu/buffer.hpp"
#include "gpu/stream.hpp"

namespace cuzk::gpu::test {

namespace {

constexpr unsigned kThreads = 256;

template <class D>
__global__ void field_kernel(FieldOp op, const D* a, const D* b, D* out, size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const D x = a[i], y = b[i];
  D r = x;
  switch (op) {
    case FieldOp::kAdd: r = x + y; break;
    case FieldOp::kSub: r = x - y; break;
    case FieldOp::kMul: r = x * y; break;
    case FieldOp::kSqr: r = x.sqr(); break;
    case FieldOp::kNeg: r = -x; break;
    case FieldOp::kDbl: r = x.dbl(); break;
  }
  out[i] = r;
}

template <class D, class DA>
__global__ void point_kernel(PointOp op, const D* a, const D* b, const DA* q, D* out, size_t n) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  switch (op) {
    case PointOp::kAdd: out[i] = a[i] + b[i]; break;
    case PointOp::kMadd: out[i] = a[i] + q[i]; break;
    case PointOp::kDbl: out[i] = a[i].dbl(); break;
  }
}

// The CPU span's bytes as the device type's.
template <class C>
std::span<const DeviceType<C>> as_device(std::span<const C> s) {
  return {reinterpret_cast<const DeviceType<C>*>(s.data()), s.size()};
}

unsigned blocks_for(size_t n) { return unsigned((n + kThreads - 1) / kThreads); }

}  // namespace

template <class F>
void field_op(FieldOp op, std::span<const F> a, std::span<const F> b, std::span<F> out) {
  using D = DeviceType<F>;
  const size_t n = a.size();
  if (b.size() != n || out.size() != n) throw Exception(invalid_argument("field_op: sizes differ"));
  if (n == 0) return;
  Stream stream;
  DeviceBuffer<D> da(n, stream), db(n, stream), dout(n, stream);
  da.upload(as_device(a), stream);
  db.upload(as_device(b), stream);
  field_kernel<D><<<blocks_for(n), kThreads, 0, stream.get()>>>(op, da.data(), db.data(), dout.data(), n);
  Stream::check_launch();
  dout.download({reinterpret_cast<D*>(out.data()), n}, stream);
  stream.synchronize();
}

template <class P>
void point_op(PointOp op, std::span<const P> a, std::span<const P> b, std::span<const AffineOf<P>> q, std::span<P> out) {
  using D = DeviceType<P>;
  using DA = DeviceType<AffineOf<P>>;
  const size_t n = a.size();
  if (b.size() != n || q.size() != n || out.size() != n) throw Exception(invalid_argument("point_op: sizes differ"));
  if (n == 0) return;
  Stream stream;
  DeviceBuffer<D> da(n, stream), db(n, stream), dout(n, stream);
  DeviceBuffer<DA> dq(n, stream);
  da.upload(as_device(a), stream);
  db.upload(as_device(b), stream);
  dq.upload(as_device(q), stream);
  point_kernel<D, DA><<<blocks_for(n), kThreads, 0, stream.get()>>>(op, da.data(), db.data(), dq.data(), dout.data(), n);
  Stream::check_launch();
  dout.download({reinterpret_cast<D*>(out.data()), n}, stream);
  stream.synchronize();
}

template void field_op<ff::Fp>(FieldOp, std::span<const ff::Fp>, std::span<const ff::Fp>, std::span<ff::Fp>);
template void field_op<ff::Fr>(FieldOp, std::span<const ff::Fr>, std::span<const ff::Fr>, std::span<ff::Fr>);
template void field_op<ff::Fp2>(FieldOp, std::span<const ff::Fp2>, std::span<const ff::Fp2>, std::span<ff::Fp2>);
template void point_op<ec::G1XYZZ>(PointOp, std::span<const ec::G1XYZZ>, std::span<const ec::G1XYZZ>,
                                   std::span<const ec::G1Affine>, std::span<ec::G1XYZZ>);
template void point_op<ec::G1Jacobian>(PointOp, std::span<const ec::G1Jacobian>, std::span<const ec::G1Jacobian>,
                                       std::span<const ec::G1Affine>, std::span<ec::G1Jacobian>);
template void point_op<ec::G2XYZZ>(PointOp, std::span<const ec::G2XYZZ>, std::span<const ec::G2XYZZ>,
                                   std::span<const ec::G2Affine>, std::span<ec::G2XYZZ>);
template void point_op<ec::G2Jacobian>(PointOp, std::span<const ec::G2Jacobian>, std::span<const ec::G2Jacobian>,
                                       std::span<const ec::G2Affine>, std::span<ec::G2Jacobian>);

}  // namespace cuzk::gpu::test
