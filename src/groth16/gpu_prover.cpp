#include "groth16/gpu_prover.hpp"

#include <algorithm>
#include <bit>
#include <exception>
#include <mutex>
#include <optional>
#include <semaphore>
#include <span>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/timing.hpp"
#include "groth16/device_key.hpp"
#include "gpu/buffer.hpp"
#include "gpu/msm.hpp"
#include "gpu/ntt.hpp"
#include "gpu/spmv.hpp"
#include "r1cs/compiled.hpp"

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

// A circuit's densities as device bitmaps, for the MSMs' density form.
struct DeviceDensity {
  DeviceDensity(const Density& d, const gpu::Stream& st)
      : a_aux(gpu::DeviceBuffer<uint64_t>::copy_of(d.a_aux.words(), st)),
        b_input(gpu::DeviceBuffer<uint64_t>::copy_of(d.b_input.words(), st)),
        b_aux(gpu::DeviceBuffer<uint64_t>::copy_of(d.b_aux.words(), st)) {}
  size_t bytes() const { return a_aux.bytes() + b_input.bytes() + b_aux.bytes(); }
  gpu::DeviceBuffer<uint64_t> a_aux, b_input, b_aux;
};

// The compiled circuit for the prover: its densities (host and device) and either its three
// matrices on the device (resident: the host circuit may go) or a reference to the host circuit
// (streamed: the CPU computes a, b, c; it must outlive the prover).
struct DeviceCircuit {
  DeviceCircuit(const r1cs::CompiledR1cs<Fr>& c, Density d, bool resident, const gpu::Stream& st)
      : host(resident ? nullptr : &c),
        density_host(std::move(d)),
        density(density_host, st),
        rows(c.num_constraints()),
        num_inputs(c.num_inputs),
        num_aux(c.num_aux) {
    if (resident) {
      a.emplace(c.a.row_start, c.a.column, c.a.coeff, st);
      b.emplace(c.b.row_start, c.b.column, c.b.coeff, st);
      this->c.emplace(c.c.row_start, c.c.column, c.c.coeff, st);
    }
  }
  size_t bytes() const {
    return density.bytes() + (a ? a->device_bytes() + b->device_bytes() + c->device_bytes() : 0);
  }
  const r1cs::CompiledR1cs<Fr>* host;  // streamed only
  Density density_host;
  DeviceDensity density;
  size_t rows, num_inputs, num_aux;
  std::optional<gpu::DeviceCsr> a, b, c;  // resident only
};

// The key's bases where the MSMs read them: device pointers (resident) or page-locked host
// spans (streamed).
template <class Point>
struct Bases {
  const Point* device = nullptr;
  std::span<const Point> host;
  Bases from(size_t k) const { return device ? Bases{device + k, {}} : Bases{nullptr, host.subspan(k)}; }
};

// sum_i scalars[i] bases[i] over n device scalars, with a density (device words and the same on
// the host) or without, from resident or streamed bases; `o` as given (the scalars' order), its
// chunk chosen here. The run's phases are added to `phases`.
template <class Curve>
ec::Jacobian<Curve> msm(gpu::Msm<Curve>& g, MsmPhases& phases, const Bases<ec::Affine<Curve>>& bases,
                        const Fr* scalars, size_t n, const uint64_t* words = nullptr,
                        std::span<const uint64_t> host_words = {}, gpu::MsmOptions o = {}) {
  const ec::Jacobian<Curve> sum = [&] {
    if (bases.device != nullptr)
      return words ? g.run(bases.device, scalars, words, n, o) : g.run(bases.device, scalars, n, o);
    o.host_chunk = std::is_same_v<Curve, ec::G2Curve> ? kStreamChunkG2 : kStreamChunkG1;
    return words ? g.run_streamed(bases.host, scalars, words, host_words, n, o)
                 : g.run_streamed(bases.host, scalars, n, o);
  }();
  const auto& t = g.last_timing();
  phases.prepare += t.prepare, phases.ones += t.ones, phases.sort += t.sort, phases.accumulate += t.accumulate;
  phases.reduce += t.reduce;
  phases.terms += t.terms, phases.significant += t.significant, phases.ones_terms += t.ones_terms;
  return sum;
}

}  // namespace

struct GpuProver::State {
  // Runs with the device current: the stream, the buffers and the domain's tables belong to it.
  // Resident: `key` holds the bases; streamed: `host_key` does, page-locked here.
  State(const gpu::Device& dev, GpuPlacement where, GpuPriority priority, std::optional<DeviceKey> k,
        const Parameters* host, const r1cs::CompiledR1cs<Fr>* circuit, ThreadPool* cpu_pool,
        std::shared_ptr<GpuShare> card, gpu::NttRoots roots, MsmStreams streams)
      : placement(where),
        msm_streams(streams),
        share(std::move(card)),
        stream(stream_priority(priority)),
        upload_stream(stream_priority(priority)),
        g2_stream(stream_priority(priority)),
        key(std::move(k)),
        host_key(host),
        device(dev),
        sizes(key ? key->sizes() : ParameterSizes::of(*host)),
        vk(key ? key->vk() : host->vk),
        domain(domain_log(sizes), stream, roots),
        g1(stream),
        g2(g2_stream),
        pool(cpu_pool) {
    // What a proof frees stays mapped for the next (its a, b, c, the compact placement's
    // workspaces), instead of going back to the driver at every synchronisation (docs/PERF.md 32).
    device.retain_pool_memory();
    if (host_key != nullptr) {
      for (const auto* v : {&host->h, &host->l, &host->a, &host->b_g1})
        registered.emplace_back(std::span<const G1Affine>(*v));
      registered.emplace_back(std::span<const ec::G2Affine>(host->b_g2));
    }
    if (circuit != nullptr) {
      Density density = density_of(*circuit);
      check_circuit(sizes, *circuit, density).value();  // throws
      this->circuit = std::make_unique<DeviceCircuit>(*circuit, std::move(density), key.has_value(), stream);
      if (!key) {
        if (pool == nullptr) throw Exception(invalid_argument("GPU prover: a streamed circuit needs a thread pool"));
        staging = gpu::PinnedBuffer<Fr>(domain.size());
      }
      witnesses.emplace(CircuitSizes{circuit->num_inputs, circuit->num_aux}, [](size_t n) {
        auto pinned = std::make_shared<gpu::PinnedBuffer<Fr>>(n);
        return WitnessPool::Memory{pinned->span(), pinned};
      });
    }
    stream.synchronize();  // the host key and circuit may go once the constructor returns (resident)
  }
  bool streamed() const { return !key.has_value(); }

  static gpu::StreamPriority stream_priority(GpuPriority p) {
    return p == GpuPriority::high ? gpu::StreamPriority::high : gpu::StreamPriority::normal;
  }

  GpuPlacement placement;
  MsmStreams msm_streams;
  std::shared_ptr<GpuShare> share;  // the card's provers (null: alone)
  GpuShare::Member member;          // in `share`; joined once the key and circuit are up
  gpu::Stream stream;         // the proofs' work, one proof at a time (compute)
  gpu::Stream upload_stream;  // witnesses going up while another proof computes
  gpu::Stream g2_stream;      // b_g2's MSM, beside the G1 MSMs (GpuProverOptions::msm_streams)
  std::optional<DeviceKey> key;                  // resident: the bases, complete before the prover starts
  const Parameters* host_key = nullptr;          // streamed
  std::vector<gpu::HostRegistration> registered;  // streamed: host_key's bases page-locked
  gpu::Device device;
  std::mutex compute, upload;
  // Places for witnesses on the device (uploaded or being proved): one proving, one waiting.
  std::counting_semaphore<2> witness_slots{2};
  ParameterSizes sizes;
  VerifyingKey vk;
  gpu::NttDomain domain;
  gpu::Msm<ec::G1Curve> g1;
  gpu::Msm<ec::G2Curve> g2;
  ThreadPool* pool;                        // streamed: the CPU's SpMV
  std::unique_ptr<DeviceCircuit> circuit;
  gpu::PinnedBuffer<Fr> staging;           // streamed: one matrix's rows on their way up
  std::optional<WitnessPool> witnesses;    // with the circuit; pinned
};

// One proof's data: a, b, c on the device (m each, filled by stage 0); z on the device, or (streamed)
// on the host until stage 2 needs it; the densities.
struct GpuProver::Rows {
  gpu::DeviceBuffer<Fr> a, b, c;
  const Fr* inputs = nullptr;  // on the device; null: upload host_z after H
  const Fr* aux = nullptr;
  Witness host_z;
  size_t n_in = 0, n_aux = 0;
  const uint64_t *a_aux = nullptr, *b_input = nullptr, *b_aux = nullptr;  // device words
  const Density* density = nullptr;                                       // the same on the host
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

namespace {

// The plan's estimate for a key of `sizes` and its compiled circuit (or none: the witness then as
// the key's inputs and aux).
GpuMemoryNeeds needs_of(const ParameterSizes& sizes, const r1cs::CompiledR1cs<Fr>* circuit) {
  const CircuitSizes z = circuit ? CircuitSizes{circuit->num_inputs, circuit->num_aux} : CircuitSizes{sizes.ic, sizes.l};
  return GpuMemoryNeeds::estimate(sizes, z, circuit ? circuit_device_bytes(*circuit) : 0);
}

}  // namespace

GpuProver::GpuProver(const Parameters& params, const gpu::Device& device, const r1cs::CompiledR1cs<Fr>* circuit,
                     GpuProverOptions options) {
  GpuMemoryNeeds needs = needs_of(ParameterSizes::of(params), circuit);
  std::unique_lock<std::mutex> planning;  // a given placement was planned by the caller
  if (options.share && !options.placement) planning = options.share->planning();
  GpuPlacement placement = GpuPlacement::resident;
  gpu::NttRoots roots = options.roots;
  if (options.placement) {
    placement = *options.placement;
  } else {
    // Alone: the free memory (with what cuzk's pool keeps), under the limit. Beside the card's
    // other provers: less what they may still hold, leaving room for their largest proof.
    const GpuShare::Others others = options.share ? options.share->others() : GpuShare::Others{};
    const size_t budget = others.budget(device.available_bytes(), options.memory_limit);
    placement = place_on_gpu(needs, budget, others.largest_turn).value();  // throws
    roots = planned_ntt_roots(needs, placement, budget, others.largest_turn);
  }
  if (placement == GpuPlacement::streamed) roots = gpu::NttRoots::two_level;
  if (roots == gpu::NttRoots::full) needs.roots = needs.full_roots;
  const gpu::ScopedDevice on(device);
  if (placement != GpuPlacement::streamed) {
    s_ = std::make_unique<State>(device, placement, options.priority, DeviceKey::upload(params, device), nullptr, circuit,
                                 options.pool, options.share, roots, options.msm_streams);
  } else {
    s_ = std::make_unique<State>(device, placement, options.priority, std::nullopt, &params, circuit, options.pool,
                                 options.share, roots, options.msm_streams);
  }
  if (s_->share) s_->member = s_->share->join(needs.share_needs(placement, options.priority));
}

GpuProver::GpuProver(DeviceKey key, const r1cs::CompiledR1cs<Fr>* circuit, GpuProverOptions options) {
  const GpuPlacement placement = options.placement.value_or(GpuPlacement::resident);
  if (placement == GpuPlacement::streamed)
    throw Exception(invalid_argument("GPU prover: a key on the device is resident (resident or resident_compact)"));
  const gpu::Device device = key.device();
  const gpu::ScopedDevice on(device);
  GpuShare::Needs member;  // the estimate only where a share asks for it (the circuit's bytes scan it)
  if (options.share) {
    GpuMemoryNeeds needs = needs_of(key.sizes(), circuit);
    needs.key = key.bytes();
    if (options.roots == gpu::NttRoots::full) needs.roots = needs.full_roots;
    member = needs.share_needs(placement, options.priority);
  }
  s_ = std::make_unique<State>(device, placement, options.priority, std::move(key), nullptr, circuit, nullptr,
                               options.share, options.roots, options.msm_streams);
  if (s_->share) s_->member = s_->share->join(member);
}

GpuProver::~GpuProver() {
  if (s_) {
    const gpu::ScopedDevice on(s_->device);  // free the buffers on their device
    s_.reset();
  }
}

std::string GpuProver::name() const {
  std::string where;
  if (s_->placement == GpuPlacement::streamed) where = ", key and circuit streamed from the host";
  if (s_->placement == GpuPlacement::resident_compact) where = ", compact: the stages' buffers in turn";
  return "gpu " + std::to_string(s_->device.ordinal()) + " (" + s_->device.info().name + ")" + where;
}

std::optional<size_t> GpuProver::device_peak_bytes() const { return s_->device.pool_peak_bytes(); }
void GpuProver::reset_device_peak() const { s_->device.reset_pool_peak(); }
std::optional<size_t> GpuProver::device_reserved_bytes() const { return s_->device.pool_reserved_bytes(); }

std::optional<CircuitSizes> GpuProver::circuit_sizes() const {
  if (!s_->circuit) return std::nullopt;
  return CircuitSizes{s_->circuit->num_inputs, s_->circuit->num_aux};
}

WitnessPool* GpuProver::witness_pool() { return s_->witnesses ? &*s_->witnesses : nullptr; }

size_t GpuProver::resident_bytes() const {
  return (s_->key ? s_->key->bytes() : 0) + (s_->circuit ? s_->circuit->bytes() : 0);
}

GpuPlacement GpuProver::placement() const { return s_->placement; }
gpu::NttRoots GpuProver::ntt_roots() const { return s_->domain.roots(); }

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
  const std::lock_guard card_turn(s.member);  // the card's other provers (gpu_share.hpp)
  t.gpu_wait = ms_since(t_wait);
  t.device_begin = Clock::now();
  Rows rows;
  rows.a = gpu::DeviceBuffer<Fr>(m, st);
  rows.b = gpu::DeviceBuffer<Fr>(m, st);
  rows.c = gpu::DeviceBuffer<Fr>(m, st);
  rows.a.zero(st, w.a.size() + w.inputs.size());  // the padding rows only
  rows.b.zero(st, w.b.size());
  rows.c.zero(st, w.c.size());
  rows.a.upload(w.a, st);
  rows.a.upload(w.inputs, st, w.a.size());  // the inputs' rows
  rows.b.upload(w.b, st);
  rows.c.upload(w.c, st);
  gpu::DeviceBuffer<Fr> inputs, aux;
  if (!s.streamed()) {  // streamed, z goes up after H (finish)
    inputs = gpu::DeviceBuffer<Fr>::copy_of(w.inputs, st);
    aux = gpu::DeviceBuffer<Fr>::copy_of(w.aux, st);
    rows.inputs = inputs.data();
    rows.aux = aux.data();
  }
  const DeviceDensity density(w.density, st);
  rows.host_z = Witness{w.inputs, w.aux};
  rows.n_in = w.inputs.size();
  rows.n_aux = w.aux.size();
  rows.a_aux = density.a_aux.data();
  rows.b_input = density.b_input.data();
  rows.b_aux = density.b_aux.data();
  rows.density = &w.density;
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
  Rows rows;
  rows.host_z = z;
  rows.n_in = n_in;
  rows.n_aux = z.aux.size();
  rows.a_aux = circuit.density.a_aux.data();
  rows.b_input = circuit.density.b_input.data();
  rows.b_aux = circuit.density.b_aux.data();
  rows.density = &circuit.density_host;
  if (s.streamed()) {
    // Streamed: a, b, c = (A, B, C)·z on the CPU, one matrix at a time through the pinned staging
    // buffer into its device vector (a's input rows are the inputs); z goes up after H.
    auto t0 = Clock::now();
    const std::lock_guard gpu_turn(s.compute);
    const std::lock_guard card_turn(s.member);
    t.gpu_wait = ms_since(t0);
    t0 = t.device_begin = Clock::now();
    const r1cs::CompiledR1cs<Fr>& c = *circuit.host;
    const std::span<Fr> staging = s.staging.span();
    for (auto [matrix, out] : {std::pair{&c.a, &rows.a}, std::pair{&c.b, &rows.b}, std::pair{&c.c, &rows.c}}) {
      *out = gpu::DeviceBuffer<Fr>(m, st);
      const bool is_a = matrix == &c.a;
      const size_t used = n_c + (is_a ? n_in : 0);
      r1cs::spmv(*matrix, uint32_t(n_in), z.inputs, z.aux, staging.first(n_c), *s.pool);
      if (is_a) std::copy(z.inputs.begin(), z.inputs.end(), staging.begin() + ptrdiff_t(n_c));
      std::fill(staging.begin() + ptrdiff_t(used), staging.end(), Fr::zero());
      out->upload(std::span<const Fr>(staging), st);
      st.synchronize();  // the staging buffer is reused by the next matrix
    }
    t.spmv = ms_since(t0);
    auto proof = finish(rows, blinding, t);
    t.total = ms_since(t_start);
    if (times) *times = t;
    return proof;
  }
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
  const std::lock_guard card_turn(s.member);
  t.gpu_wait = ms_since(t0);
  t0 = t.device_begin = Clock::now();
  rows.a = gpu::DeviceBuffer<Fr>(m, st);
  rows.b = gpu::DeviceBuffer<Fr>(m, st);
  rows.c = gpu::DeviceBuffer<Fr>(m, st);
  rows.a.zero(st, n_c + n_in);  // the padding rows only
  rows.b.zero(st, n_c);
  rows.c.zero(st, n_c);
  gpu::spmv(*circuit.a, zd.data(), rows.a.data(), st);
  gpu::spmv(*circuit.b, zd.data(), rows.b.data(), st);
  gpu::spmv(*circuit.c, zd.data(), rows.c.data(), st);
  rows.a.copy_from(zd, 0, n_c, n_in, st);
  st.synchronize();
  t.spmv = ms_since(t0);
  rows.inputs = zd.data();
  rows.aux = zd.data() + n_in;
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

  // Stage 1: H (gpu::NttDomain::h_from_rows states the recipe); h comes out bit-reversed.
  auto t0 = Clock::now();
  s.domain.h_from_rows(rows.a.data(), rows.b.data(), rows.c.data(), gpu::Order::natural, st);
  rows.b = {};
  rows.c = {};
  st.synchronize();
  t.h_ntt = ms_since(t0);

  // Stage 2: the MSMs (each returns when its sum is on the host), h first: streamed, H's vector
  // goes before z comes up.
  const size_t n_in = rows.n_in, n_aux = rows.n_aux, b_in = rows.density->b_input.count();
  // One of the key's vectors, by its member in DeviceKey::Bases and in Parameters.
  const auto bases = [&](auto on_device, auto on_host) {
    using Point = typename std::decay_t<decltype(s.host_key->*on_host)>::value_type;
    return s.key ? Bases<Point>{(s.key->bases().*on_device).data(), {}}
                 : Bases<Point>{nullptr, std::span<const Point>(s.host_key->*on_host)};
  };
  using KB = DeviceKey::Bases;
  using P = Parameters;
  MsmSums sums;
  // The key's m − 1 h bases against h[0 .. m − 2], h read where the H stage left it, its random
  // scalars straight into the windows' digits (nothing to set apart; docs/PERF.md 54).
  gpu::MsmOptions h_order;
  h_order.scalar_order = gpu::Order::bit_reversed;
  h_order.scalar_log_n = s.domain.log_size();
  h_order.terms = gpu::MsmTerms::in_place;
  // Compact and streamed: the G2 workspace takes the G1 one's memory, and the next proof's H both
  // (the plan, groth16/gpu_memory_plan.hpp, counts them in turn). Beside other provers of the card
  // that take turns, always: the next turn, maybe another prover's, finds the memory in the pool.
  const bool in_turn = s.placement != GpuPlacement::resident || s.member.shares_turns();
  // Resident, the plan counts both workspaces at once: b_g2 runs on its own stream beside the G1
  // MSMs, from a second host thread, and fills their kernels' tails and round trips (−0.8 % a
  // 32 GiB PoRep proof, docs/PERF.md 56).
  const bool g2_beside = s.msm_streams == MsmStreams::two && s.placement == GpuPlacement::resident;
  const Density& d = *rows.density;
  // B's query in G1 or G2: the inputs under b_input's density, the aux under b_aux's.
  const auto b_query = [&](auto& g, MsmOf of, auto on_device, auto on_host) {
    const auto b = bases(on_device, on_host);
    MsmPhases& ph = t.phases(of);
    return msm(g, ph, b, rows.inputs, n_in, rows.b_input, d.b_input.words()) +
           msm(g, ph, b.from(b_in), rows.aux, n_aux, rows.b_aux, d.b_aux.words());
  };
  const auto b_g2 = [&] {
    sums.b_g2 = timed(t.msm_b_g2, [&] { return b_query(s.g2, MsmOf::b_g2, &KB::b_g2, &P::b_g2); });
    if (in_turn) s.g2.release_workspace();
  };
  std::exception_ptr g2_error;
  std::jthread g2_thread;  // joined below, or by its destructor when an exception leaves finish
  if (g2_beside)
    g2_thread = std::jthread([&] {
      try {
        const gpu::ScopedDevice on(s.device);
        b_g2();
      } catch (...) {
        g2_error = std::current_exception();
      }
    });
  sums.h = timed(t.msm_h, [&] {
    return msm(s.g1, t.phases(MsmOf::h), bases(&KB::h, &P::h), rows.a.data(), m - 1, nullptr, {}, h_order);
  });
  rows.a = {};
  gpu::DeviceBuffer<Fr> zd;
  if (rows.inputs == nullptr) {  // streamed: z up now
    t0 = Clock::now();
    zd = gpu::DeviceBuffer<Fr>(n_in + n_aux, st);
    zd.upload(rows.host_z.inputs, st);
    zd.upload(rows.host_z.aux, st, n_in);
    st.synchronize();
    t.upload = ms_since(t0);
    rows.inputs = zd.data();
    rows.aux = zd.data() + n_in;
  }
  sums.l = timed(t.msm_l, [&] { return msm(s.g1, t.phases(MsmOf::l), bases(&KB::l, &P::l), rows.aux, n_aux); });
  sums.a = timed(t.msm_a, [&] {
    const auto a = bases(&KB::a, &P::a);
    MsmPhases& ph = t.phases(MsmOf::a);
    return msm(s.g1, ph, a, rows.inputs, n_in) +
           msm(s.g1, ph, a.from(n_in), rows.aux, n_aux, rows.a_aux, d.a_aux.words());
  });
  sums.b_g1 = timed(t.msm_b_g1, [&] { return b_query(s.g1, MsmOf::b_g1, &KB::b_g1, &P::b_g1); });
  if (in_turn) s.g1.release_workspace();
  if (g2_beside) {
    g2_thread.join();
    if (g2_error) std::rethrow_exception(g2_error);
  } else {
    b_g2();
  }
  t.device_end = Clock::now();
  return assemble(s.vk, sums, blinding);  // stage 3
}

}  // namespace cuzk::groth16
