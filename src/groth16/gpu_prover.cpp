#include "groth16/gpu_prover.hpp"

#include <bit>
#include <string>

#include "core/error.hpp"
#include "core/timing.hpp"
#include "gpu/buffer.hpp"
#include "gpu/msm.hpp"
#include "gpu/ntt.hpp"
#include "poly/domain.hpp"

namespace cuzk::groth16 {
namespace {

using ff::Fr;

template <class T>
gpu::DeviceBuffer<T> upload(std::span<const T> host, const gpu::Stream& stream) {
  gpu::DeviceBuffer<T> d(host.size(), stream);
  d.upload(host, stream);
  return d;
}

// log2 of the domain size m = |H| + 1, which must be a power of two.
unsigned domain_log(const Parameters& params) {
  const size_t m = params.h.size() + 1;
  if (!std::has_single_bit(m) || m > (size_t{1} << gpu::ntt_detail::kMaxLogSize))
    throw Exception(invalid_argument("GPU prover: the key's H has " + std::to_string(params.h.size()) +
                                     " points; a domain of 2^k <= 2^28 points needs 2^k − 1"));
  return unsigned(std::countr_zero(m));
}

}  // namespace

struct GpuProver::State {
  // Runs with `dev` current: the stream, the buffers and the domain's tables belong to it.
  State(const Parameters& params, const gpu::Device& dev)
      : device(dev),
        sizes(ParameterSizes::of(params)),
        vk(params.vk),
        domain(domain_log(params), stream),
        z_inv((poly::EvaluationDomain<Fr>::coset_generator().pow(domain.size()) - Fr::one()).inverse()),
        h(upload<G1Affine>(params.h, stream)),
        l(upload<G1Affine>(params.l, stream)),
        a(upload<G1Affine>(params.a, stream)),
        b_g1(upload<G1Affine>(params.b_g1, stream)),
        b_g2(upload<ec::G2Affine>(params.b_g2, stream)),
        g1(stream),
        g2(stream) {
    stream.synchronize();  // the host key may go once the constructor returns
  }
  gpu::Device device;
  gpu::Stream stream;
  ParameterSizes sizes;
  VerifyingKey vk;
  gpu::NttDomain domain;
  Fr z_inv;  // 1/Z on the coset: Z(g·ω^i) = g^m − 1 for every i
  gpu::DeviceBuffer<G1Affine> h, l, a, b_g1;
  gpu::DeviceBuffer<ec::G2Affine> b_g2;
  gpu::Msm<ec::G1Curve> g1;
  gpu::Msm<ec::G2Curve> g2;
};

GpuProver::GpuProver(const Parameters& params, const gpu::Device& device) {
  const gpu::ScopedDevice on(device);
  s_ = std::make_unique<State>(params, device);
}
GpuProver::~GpuProver() {
  if (s_) {
    const gpu::ScopedDevice on(s_->device);  // free the buffers on their device
    s_.reset();
  }
}

std::string GpuProver::name() const {
  return "gpu " + std::to_string(s_->device.ordinal()) + " (" + s_->device.info().name + ")";
}

size_t GpuProver::resident_bytes() const {
  return s_->h.bytes() + s_->l.bytes() + s_->a.bytes() + s_->b_g1.bytes() + s_->b_g2.bytes();
}

Expected<Proof> GpuProver::prove(const Assignment& w, const Blinding& blinding, ProverTimes* times) {
  const auto t_start = Clock::now();
  ProverTimes t;
  if (auto ok = check_assignment(s_->sizes, w); !ok) return ok.error();
  State& s = *s_;
  const gpu::ScopedDevice on(s.device);
  const gpu::Stream& st = s.stream;
  const size_t m = s.domain.size(), n_c = w.a.size(), n_in = w.inputs.size(), n_aux = w.aux.size();
  const size_t b_in = w.density.b_input.count();
  using gpu::Order;

  // Stage 1: H.
  auto t0 = Clock::now();
  gpu::DeviceBuffer<Fr> a(m, st), b(m, st), c(m, st);
  for (auto* v : {&a, &b, &c}) v->zero(st);
  a.upload(w.a, st);
  a.upload(w.inputs, st, n_c);
  b.upload(w.b, st);
  c.upload(w.c, st);
  for (auto* v : {&a, &b, &c}) {
    s.domain.intt(v->data(), Order::natural, Order::bit_reversed, st);
    s.domain.coset_ntt(v->data(), Order::bit_reversed, Order::natural, st);
  }
  gpu::h_pointwise(a.data(), b.data(), c.data(), s.z_inv, m, st);
  s.domain.coset_intt(a.data(), Order::natural, Order::natural, st);
  b = {};
  c = {};
  st.synchronize();
  t.h_ntt = ms_since(t0);

  // Stage 2: the MSMs (each run returns when its sum is on the host).
  const auto inputs = upload<Fr>(w.inputs, st), aux = upload<Fr>(w.aux, st);
  const auto a_aux = upload<uint64_t>(w.density.a_aux.words(), st);
  const auto b_input = upload<uint64_t>(w.density.b_input.words(), st);
  const auto b_aux = upload<uint64_t>(w.density.b_aux.words(), st);
  MsmSums sums;
  sums.h = timed(t.msm_h, [&] { return s.g1.run(s.h.data(), a.data(), m - 1); });
  sums.l = timed(t.msm_l, [&] { return s.g1.run(s.l.data(), aux.data(), n_aux); });
  sums.a = timed(t.msm_a, [&] {
    return s.g1.run(s.a.data(), inputs.data(), n_in) + s.g1.run(s.a.data() + n_in, aux.data(), a_aux.data(), n_aux);
  });
  sums.b_g1 = timed(t.msm_b_g1, [&] {
    return s.g1.run(s.b_g1.data(), inputs.data(), b_input.data(), n_in) +
           s.g1.run(s.b_g1.data() + b_in, aux.data(), b_aux.data(), n_aux);
  });
  sums.b_g2 = timed(t.msm_b_g2, [&] {
    return s.g2.run(s.b_g2.data(), inputs.data(), b_input.data(), n_in) +
           s.g2.run(s.b_g2.data() + b_in, aux.data(), b_aux.data(), n_aux);
  });

  const Proof proof = assemble(s.vk, sums, blinding);  // stage 3
  t.total = ms_since(t_start);
  if (times) *times = t;
  return proof;
}

}  // namespace cuzk::groth16
