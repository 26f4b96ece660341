#include "groth16/device_key.hpp"

#include "core/timing.hpp"
#include "gpu/fixed_base.hpp"
#include "gpu/stream.hpp"

namespace cuzk::groth16 {
namespace {

using ff::Fr;

template <class T>
std::vector<T> download_vector(const gpu::DeviceBuffer<T>& d, const gpu::Stream& stream) {
  std::vector<T> host(d.size());
  if (!host.empty()) d.download(host, stream);
  return host;
}

}  // namespace

struct DeviceKey::State {
  explicit State(const gpu::Device& d) : device(d) {}
  gpu::Device device;
  gpu::Stream stream;  // before the buffers: they are freed on it
  VerifyingKey vk;
  Bases bases;
};

DeviceKey::DeviceKey(std::unique_ptr<State> s) : s_(std::move(s)) {}
DeviceKey::DeviceKey(DeviceKey&&) noexcept = default;
DeviceKey& DeviceKey::operator=(DeviceKey&&) noexcept = default;
DeviceKey::~DeviceKey() {
  if (s_) {
    const gpu::ScopedDevice on(s_->device);  // free the buffers on their device
    s_.reset();
  }
}

DeviceKey DeviceKey::upload(const Parameters& params, const gpu::Device& device) {
  const gpu::ScopedDevice on(device);
  auto s = std::make_unique<State>(device);
  const gpu::Stream& st = s->stream;
  s->vk = params.vk;
  s->bases.h = gpu::DeviceBuffer<G1Affine>::copy_of(params.h, st);
  s->bases.l = gpu::DeviceBuffer<G1Affine>::copy_of(params.l, st);
  s->bases.a = gpu::DeviceBuffer<G1Affine>::copy_of(params.a, st);
  s->bases.b_g1 = gpu::DeviceBuffer<G1Affine>::copy_of(params.b_g1, st);
  s->bases.b_g2 = gpu::DeviceBuffer<ec::G2Affine>::copy_of(params.b_g2, st);
  st.synchronize();  // the host key may go once this returns
  return DeviceKey(std::move(s));
}

Expected<DeviceKey> DeviceKey::generate(const r1cs::CompiledR1cs<Fr>& circuit, const ToxicWaste& tw, ThreadPool& pool,
                                        const gpu::Device& device, GenerateTimes* times) {
  GenerateTimes t;
  auto t0 = Clock::now();
  KeyScalars k;
  CUZK_TRY_ASSIGN(k, key_scalars(circuit, tw, pool));
  t.scalars_ms = ms_since(t0);

  t0 = Clock::now();
  const gpu::ScopedDevice on(device);
  auto s = std::make_unique<State>(device);
  const gpu::Stream& st = s->stream;
  gpu::FixedBaseMul<ec::G1Curve> g1(G1Affine::generator(), st);
  gpu::FixedBaseMul<ec::G2Curve> g2(ec::G2Affine::generator(), st);
  // One exponent vector on the device at a time: up, the host vector released; then its points.
  const auto up = [&](std::vector<Fr>& v) {
    auto d = gpu::DeviceBuffer<Fr>::copy_of(v, st);
    st.synchronize();
    std::vector<Fr>().swap(v);
    return d;
  };
  // [e_i] generator for each exponent, into a new device buffer.
  const auto points = [&]<class Curve>(gpu::FixedBaseMul<Curve>& mul, const gpu::DeviceBuffer<Fr>& e) {
    gpu::DeviceBuffer<ec::Affine<Curve>> out(e.size(), st);
    mul.run(e.data(), out.data(), e.size());
    st.synchronize();
    return out;
  };
  {
    std::vector<G1Affine> ic = download_vector(points(g1, up(k.ic)), st);
    st.synchronize();
    s->vk = verifying_key(tw, std::move(ic));
  }
  s->bases.h = points(g1, up(k.h));
  s->bases.l = points(g1, up(k.l));
  s->bases.a = points(g1, up(k.a));
  const auto b = up(k.b);  // b's exponents serve both groups
  s->bases.b_g1 = points(g1, b);
  s->bases.b_g2 = points(g2, b);
  t.fixed_base_ms = ms_since(t0);
  if (times) *times = t;
  return DeviceKey(std::move(s));
}

Parameters DeviceKey::download() const {
  const gpu::ScopedDevice on(s_->device);
  const gpu::Stream& st = s_->stream;
  Parameters p;
  p.vk = s_->vk;
  p.h = download_vector(s_->bases.h, st);
  p.l = download_vector(s_->bases.l, st);
  p.a = download_vector(s_->bases.a, st);
  p.b_g1 = download_vector(s_->bases.b_g1, st);
  p.b_g2 = download_vector(s_->bases.b_g2, st);
  st.synchronize();
  return p;
}

const VerifyingKey& DeviceKey::vk() const { return s_->vk; }
ParameterSizes DeviceKey::sizes() const {
  const Bases& b = s_->bases;
  return {s_->vk.ic.size(), b.h.size(), b.l.size(), b.a.size(), b.b_g1.size(), b.b_g2.size()};
}
const gpu::Device& DeviceKey::device() const { return s_->device; }
const DeviceKey::Bases& DeviceKey::bases() const { return s_->bases; }
size_t DeviceKey::bytes() const {
  const Bases& b = s_->bases;
  return b.h.bytes() + b.l.bytes() + b.a.bytes() + b.b_g1.bytes() + b.b_g2.bytes();
}

}  // namespace cuzk::groth16
