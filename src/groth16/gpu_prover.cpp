#include "groth16/gpu_prover.hpp"

#include <bit>
#include <mutex>
#include <optional>
#include <semaphore>
#include <string>

#include "core/error.hpp"
#include "core/timing.hpp"
#include "groth16/device_key.hpp"
#include "gpu/buffer.hpp"
#include "gpu/msm.hpp"
#include "gpu/ntt.hpp"
#include "gpu/spmv.hpp"
#include "poly/domain.hpp"

namespace cuzk::groth16 {
namespace {

using ff::Fr;

// log2 of the domain size m = |H| + 1, which must be a power of two.
unsigned domain_log(const ParameterSizes& sizes) {
  const size_t m = sizes.h + 1;
  if (!std::has_single_bit(m) || m > (size_t{1} << gpu::ntt_detail::kMaxLogSize))
    throw Exception(invalid_argument("GPU prover: the key's H has " + std::to_string(sizes.h) +
                                     " points; a domain of 2^k <= 2^28 points needs 2^k − 1"));
  return unsigned(std::countr_zero(m));
}

// The compiled circuit on the device: the three matrices and the densities.
struct DeviceCircuit {
  DeviceCircuit(const r1cs::CompiledR1cs<Fr>& c, const Density& d, const gpu::Stream& st)
      : a(c.a.row_start, c.a.column, c.a.coeff, st),
        b(c.b.row_start, c.b.column, c.b.coeff, st),
        c(c.c.row_start, c.c.column, c.c.coeff, st),
        rows(c.num_constraints()),
        num_inputs(c.num_inputs),
        num_aux(c.num_aux) {
    a_aux = gpu::DeviceBuffer<uint64_t>::copy_of(d.a_aux.words(), st);
    b_input = gpu::DeviceBuffer<uint64_t>::copy_of(d.b_input.words(), st);
    b_aux = gpu::DeviceBuffer<uint64_t>::copy_of(d.b_aux.words(), st);
    b_input_count = d.b_input.count();
  }
  size_t bytes() const {
    return a.device_bytes() + b.device_bytes() + c.device_bytes() + a_aux.bytes() + b_input.bytes() + b_aux.bytes();
  }
  gpu::DeviceCsr a, b, c;
  size_t rows, num_inputs, num_aux;
  gpu::DeviceBuffer<uint64_t> a_aux, b_input, b_aux;
  size_t b_input_count = 0;
};

}  // namespace

struct GpuProver::State {
  // Runs with `dev` current: the stream, the buffers and the domain's tables belong to it.
  State(DeviceKey&& k, const r1cs::CompiledR1cs<Fr>* circuit)
      : key(std::move(k)),
        device(key.device()),
        sizes(key.sizes()),
        vk(key.vk()),
        domain(domain_log(sizes), stream),
        z_inv((poly::EvaluationDomain<Fr>::coset_generator().pow(domain.size()) - Fr::one()).inverse()),
        g1(stream),
        g2(stream) {
    if (circuit != nullptr) {
      const Density density = density_of(*circuit);
      check_circuit(sizes, *circuit, density).value();  // throws
      this->circuit = std::make_unique<DeviceCircuit>(*circuit, density, stream);
      witnesses.emplace(CircuitSizes{circuit->num_inputs, circuit->num_aux}, [](size_t n) {
        auto pinned = std::make_shared<gpu::PinnedBuffer<Fr>>(n);
        return WitnessPool::Memory{pinned->span(), pinned};
      });
    }
    stream.synchronize();  // the host key and circuit may go once the constructor returns
  }
  DeviceKey key;  // the bases, on its own stream (complete before the prover starts)
  gpu::Device device;
  gpu::Stream stream;         // the proofs' work, one proof at a time (compute)
  gpu::Stream upload_stream;  // witnesses going up while another proof computes
  std::mutex compute, upload;
  // Places for witnesses on the device (uploaded or being proved): one proving, one waiting.
  std::counting_semaphore<2> witness_slots{2};
  ParameterSizes sizes;
  VerifyingKey vk;
  gpu::NttDomain domain;
  Fr z_inv;  // 1/Z on the coset: Z(g·ω^i) = g^m − 1 for every i
  gpu::Msm<ec::G1Curve> g1;
  gpu::Msm<ec::G2Curve> g2;
  std::unique_ptr<DeviceCircuit> circuit;
  std::optional<WitnessPool> witnesses;  // with the circuit; pinned
};

// One proof's device data: a, b, c (m each, filled by stage 0) and where z and the densities are.
struct GpuProver::Rows {
  gpu::DeviceBuffer<Fr> a, b, c;
  const Fr* inputs = nullptr;
  const Fr* aux = nullptr;
  size_t n_in = 0, n_aux = 0;
  const uint64_t *a_aux = nullptr, *b_input = nullptr, *b_aux = nullptr;
  size_t b_in = 0;  // inputs dense in B
};

// Holds one of State::witness_slots from before a witness's upload until its proof is done (z's
// device buffer must be destroyed before the slot goes: declare it after).
struct GpuProver::WitnessSlot {
  explicit WitnessSlot(State& s) : s_(s) { s_.witness_slots.acquire(); }
  ~WitnessSlot() { s_.witness_slots.release(); }
  WitnessSlot(const WitnessSlot&) = delete;
  WitnessSlot& operator=(const WitnessSlot&) = delete;
  State& s_;
};

GpuProver::GpuProver(const Parameters& params, const gpu::Device& device, const r1cs::CompiledR1cs<Fr>* circuit)
    : GpuProver(DeviceKey::upload(params, device), circuit) {}

GpuProver::GpuProver(DeviceKey key, const r1cs::CompiledR1cs<Fr>* circuit) {
  const gpu::ScopedDevice on(key.device());
  s_ = std::make_unique<State>(std::move(key), circuit);
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

std::optional<size_t> GpuProver::device_peak_bytes() const { return s_->device.pool_peak_bytes(); }

std::optional<CircuitSizes> GpuProver::circuit_sizes() const {
  if (!s_->circuit) return std::nullopt;
  return CircuitSizes{s_->circuit->num_inputs, s_->circuit->num_aux};
}

WitnessPool* GpuProver::witness_pool() { return s_->witnesses ? &*s_->witnesses : nullptr; }

size_t GpuProver::resident_bytes() const {
  return s_->key.bytes() + (s_->circuit ? s_->circuit->bytes() : 0);
}

Expected<Proof> GpuProver::prove(const Assignment& w, const Blinding& blinding, ProverTimes* times) {
  const auto t_start = Clock::now();
  if (auto ok = check_assignment(s_->sizes, w); !ok) return ok.error();
  State& s = *s_;
  const gpu::ScopedDevice on(s.device);
  const gpu::Stream& st = s.stream;
  const size_t m = s.domain.size();
  ProverTimes t;
  const auto t_wait = Clock::now();
  const std::lock_guard gpu_turn(s.compute);
  t.gpu_wait = ms_since(t_wait);
  Rows rows{gpu::DeviceBuffer<Fr>(m, st), gpu::DeviceBuffer<Fr>(m, st), gpu::DeviceBuffer<Fr>(m, st)};
  rows.a.zero(st, w.a.size() + w.inputs.size());  // the padding rows only
  rows.b.zero(st, w.b.size());
  rows.c.zero(st, w.c.size());
  rows.a.upload(w.a, st);
  rows.a.upload(w.inputs, st, w.a.size());  // the inputs' rows
  rows.b.upload(w.b, st);
  rows.c.upload(w.c, st);
  const auto inputs = gpu::DeviceBuffer<Fr>::copy_of(w.inputs, st);
  const auto aux = gpu::DeviceBuffer<Fr>::copy_of(w.aux, st);
  const auto a_aux = gpu::DeviceBuffer<uint64_t>::copy_of(w.density.a_aux.words(), st);
  const auto b_input = gpu::DeviceBuffer<uint64_t>::copy_of(w.density.b_input.words(), st);
  const auto b_aux = gpu::DeviceBuffer<uint64_t>::copy_of(w.density.b_aux.words(), st);
  rows.inputs = inputs.data();
  rows.aux = aux.data();
  rows.n_in = w.inputs.size();
  rows.n_aux = w.aux.size();
  rows.a_aux = a_aux.data();
  rows.b_input = b_input.data();
  rows.b_aux = b_aux.data();
  rows.b_in = w.density.b_input.count();
  auto proof = finish(rows, blinding, t);
  t.total = ms_since(t_start);
  if (times) *times = t;
  return proof;
}

Expected<Proof> GpuProver::prove(const Witness& z, const Blinding& blinding, ProverTimes* times) {
  const auto t_start = Clock::now();
  State& s = *s_;
  const std::optional<CircuitSizes> sizes = circuit_sizes();
  if (auto ok = check_witness(sizes ? &*sizes : nullptr, z); !ok) return ok.error();
  const DeviceCircuit& circuit = *s.circuit;
  const gpu::ScopedDevice on(s.device);
  const gpu::Stream& st = s.stream;
  const size_t m = s.domain.size(), n_in = z.inputs.size(), n_c = circuit.rows;
  ProverTimes t;
  // Stage 0a: z up once, on the upload stream, one upload at a time and at most two
  // witnesses on the device: a caller's upload overlaps another caller's proof.
  WitnessSlot slot(s);
  gpu::DeviceBuffer<Fr> zd(n_in + z.aux.size(), s.upload_stream);
  auto t0 = Clock::now();
  {
    const std::lock_guard one_upload(s.upload);
    zd.upload(z.inputs, s.upload_stream);
    zd.upload(z.aux, s.upload_stream, n_in);
    s.upload_stream.synchronize();
    t.upload = ms_since(t0);
  }
  // Stage 0b: a, b, c = (A, B, C)·z; the inputs' rows of a are the inputs themselves.
  t0 = Clock::now();
  const std::lock_guard gpu_turn(s.compute);
  t.gpu_wait = ms_since(t0);
  t0 = Clock::now();
  Rows rows{gpu::DeviceBuffer<Fr>(m, st), gpu::DeviceBuffer<Fr>(m, st), gpu::DeviceBuffer<Fr>(m, st)};
  rows.a.zero(st, n_c + n_in);  // the padding rows only
  rows.b.zero(st, n_c);
  rows.c.zero(st, n_c);
  gpu::spmv(circuit.a, zd.data(), rows.a.data(), st);
  gpu::spmv(circuit.b, zd.data(), rows.b.data(), st);
  gpu::spmv(circuit.c, zd.data(), rows.c.data(), st);
  rows.a.copy_from(zd, 0, n_c, n_in, st);
  st.synchronize();
  t.spmv = ms_since(t0);
  rows.inputs = zd.data();
  rows.aux = zd.data() + n_in;
  rows.n_in = n_in;
  rows.n_aux = z.aux.size();
  rows.a_aux = circuit.a_aux.data();
  rows.b_input = circuit.b_input.data();
  rows.b_aux = circuit.b_aux.data();
  rows.b_in = circuit.b_input_count;
  auto proof = finish(rows, blinding, t);
  t.total = ms_since(t_start);
  if (times) *times = t;
  return proof;
}

// Stages 1-3 on filled rows.
Expected<Proof> GpuProver::finish(Rows& rows, const Blinding& blinding, ProverTimes& t) {
  State& s = *s_;
  const gpu::Stream& st = s.stream;
  const size_t m = s.domain.size();
  using gpu::Order;

  // Stage 1: H.
  const auto t0 = Clock::now();
  for (auto* v : {&rows.a, &rows.b, &rows.c}) {
    s.domain.intt(v->data(), Order::natural, Order::bit_reversed, st);
    s.domain.coset_ntt(v->data(), Order::bit_reversed, Order::natural, st);
  }
  gpu::h_pointwise(rows.a.data(), rows.b.data(), rows.c.data(), s.z_inv, m, st);
  s.domain.coset_intt(rows.a.data(), Order::natural, Order::natural, st);
  rows.b = {};
  rows.c = {};
  st.synchronize();
  t.h_ntt = ms_since(t0);

  // Stage 2: the MSMs (each run returns when its sum is on the host).
  const size_t n_in = rows.n_in, n_aux = rows.n_aux, b_in = rows.b_in;
  const DeviceKey::Bases& k = s.key.bases();
  MsmSums sums;
  sums.h = timed(t.msm_h, [&] { return s.g1.run(k.h.data(), rows.a.data(), m - 1); });
  sums.l = timed(t.msm_l, [&] { return s.g1.run(k.l.data(), rows.aux, n_aux); });
  sums.a = timed(t.msm_a, [&] {
    return s.g1.run(k.a.data(), rows.inputs, n_in) + s.g1.run(k.a.data() + n_in, rows.aux, rows.a_aux, n_aux);
  });
  sums.b_g1 = timed(t.msm_b_g1, [&] {
    return s.g1.run(k.b_g1.data(), rows.inputs, rows.b_input, n_in) +
           s.g1.run(k.b_g1.data() + b_in, rows.aux, rows.b_aux, n_aux);
  });
  sums.b_g2 = timed(t.msm_b_g2, [&] {
    return s.g2.run(k.b_g2.data(), rows.inputs, rows.b_input, n_in) +
           s.g2.run(k.b_g2.data() + b_in, rows.aux, rows.b_aux, n_aux);
  });
  return assemble(s.vk, sums, blinding);  // stage 3
}

}  // namespace cuzk::groth16
