#include "groth16/setup.hpp"

#include <algorithm>
#include <bit>
#include <memory>
#include <new>
#include <random>
#include <string>
#include <type_traits>
#include <utility>

#include "core/progress.hpp"
#include "core/secure_random.hpp"
#include "ec/fixed_base.hpp"
#include "ec/scalar_mul.hpp"
#include "groth16/random_scalar.hpp"
#include "poly/domain.hpp"

namespace cuzk::groth16 {
namespace {

using ff::Fr;

size_t ceil_div(size_t a, size_t b) { return (a + b - 1) / b; }

// body(begin, end) over [0, n) cut into chunks of `chunk` (the last one shorter), one task each.
template <class Body>
void for_each_chunk(size_t n, size_t chunk, ThreadPool& pool, Body&& body) {
  pool.for_each_index(ceil_div(n, chunk), [&](size_t c) { body(c * chunk, std::min(n, (c + 1) * chunk)); });
}

// Frees a vector's memory now (clear() keeps the capacity): at 32 GiB each one is ~4 GB.
void release(std::vector<Fr>& v) { std::vector<Fr>().swap(v); }

// The big vectors are first touched on the pool's threads: the kernel zeroes a page on the
// thread that faults it, and one thread making a std::vector<Fr> of 2^27 (4 GiB) spends ~2 s in
// page faults on the 16-core H200 host, against ~0.2 s for 16 threads.

// n field elements of scratch, uninitialised (Fr is an implicit-lifetime type): for the vectors
// that never leave key_scalars.
static_assert(std::is_trivially_copyable_v<Fr> && std::is_trivially_destructible_v<Fr>);
class Scratch {
 public:
  Scratch() = default;
  explicit Scratch(size_t n) : size_(n), data_(static_cast<Fr*>(::operator new(n * sizeof(Fr)))) {}
  std::span<Fr> span() const { return {data_.get(), size_}; }

 private:
  struct Free {
    void operator()(Fr* p) const { ::operator delete(p); }
  };
  size_t size_ = 0;
  std::unique_ptr<Fr, Free> data_;
};

void fill_zero(std::span<Fr> v, size_t chunk, ThreadPool& pool) {
  for_each_chunk(v.size(), chunk, pool, [&](size_t begin, size_t end) {
    std::fill(v.begin() + ptrdiff_t(begin), v.begin() + ptrdiff_t(end), Fr::zero());
  });
}

// n zeros in a std::vector (what KeyScalars holds): its storage is reserved and first touched in
// parallel, then resize() writes the zeros on one thread over resident pages (~0.4 s for 4 GiB).
// The vector holds one element first so that data() is the start of that storage.
std::vector<Fr> zeros(size_t n, size_t chunk, ThreadPool& pool) {
  std::vector<Fr> v(std::min<size_t>(n, 1));
  v.reserve(n);
  Fr* const storage = v.data();
  for_each_chunk(n, chunk, pool, [&](size_t begin, size_t end) {
    std::uninitialized_value_construct(storage + std::max<size_t>(begin, 1), storage + end);
  });
  v.resize(n);
  return v;
}

// L_i(tau) = (tau^m - 1)/m · omega^i/(tau - omega^i) for i < m. Each chunk starts at omega^begin
// by pow and inverts its denominators d_i = tau - omega^i with one inversion (Montgomery's
// trick); as omega^i/d_i = tau/d_i - 1, L_i = s·tau/d_i - s with s = Z(tau)/m, and s·tau rides
// along in the inverse. tau must not be a root of unity of the domain (no d_i is then zero).
// out: m elements.
void lagrange_at(const poly::EvaluationDomain<Fr>& domain, const Fr& tau, const Fr& z_tau, std::span<Fr> out,
                 size_t chunk, ThreadPool& pool) {
  const Fr s = z_tau * domain.size_inv(), s_tau = s * tau;
  for_each_chunk(out.size(), chunk, pool, [&](size_t begin, size_t end) {
    std::vector<Fr> denom(end - begin);
    Fr omega_i = domain.omega().pow(uint64_t(begin));
    Fr prod = Fr::one();
    for (size_t i = begin; i < end; ++i, omega_i *= domain.omega()) {
      denom[i - begin] = tau - omega_i;
      out[i] = prod;  // d_begin ··· d_{i-1}
      prod *= denom[i - begin];
    }
    Fr inv = s_tau * prod.inverse();  // s·tau / (d_begin ··· d_i) as i walks back
    for (size_t i = end; i-- > begin;) {
      const Fr s_tau_over_d = inv * out[i];
      inv *= denom[i - begin];
      out[i] = s_tau_over_d - s;
    }
  });
}

// One of u, v, w at tau, split as z is ([inputs ‖ aux]), and which variables are dense (bit j
// of word j/64; density_of's rule: a term with a non-zero coefficient), where a bitmap is given.
struct AtTau {
  std::span<Fr> inputs, aux;  // zeros before the scatter
  std::vector<uint64_t> dense_inputs, dense_aux;
};

bool test_bit(const std::vector<uint64_t>& bits, size_t j) { return (bits[j / 64] >> (j % 64)) & 1; }

// Columns below this (ONE first, then the first inputs) are summed per block of rows, and the
// blocks' sums added after: ONE is in a large share of the rows (every boolean's B = ONE - b),
// and through an owner it would give that owner more terms than all the others. 64: one word of
// the input density bitmap.
constexpr size_t kBlockSummedColumns = 64;

// The other columns are dealt to the owners in stripes of this many inputs or aux variables, in
// turn: a row mostly uses variables allocated shortly before it, so the terms of a segment of
// rows fall into a narrow band of columns, which contiguous column ranges would give to one or
// two owners. 512 variables are 64 bytes of a density bitmap, so owners seldom share a line.
constexpr size_t kStripe = 512;

// u, v, w = A^T L, B^T L, C^T L, plus L_{n_c + i} into u for input i (its row x_i · 0 = 0).
//
// The matrices are CSR by rows, so this is a scatter over columns. Each column has one owner
// (stripes, above), so no two threads add into one sum (no atomics). A segment of rows at a time
// (about split.segment_terms terms): (1) blocks of rows count their terms per owner, (2) write
// each term's coeff · L_row (a shortcut for coefficients 0, 1, -1) with its column into that
// owner's run of a buffer, (3) each owner adds its run into its own columns. Every term is read
// and multiplied once, on all threads, and the buffer holds 40 bytes a term of one segment
// (~320 MB). Measured at 2^27 rows and 738 M terms on the 16-core host, this scatter takes
// ~3.5 s; the alternative without a buffer, every owner scanning all the terms for its own
// columns, took ~16 s: each thread reads every column index and row start (~6 GB), so it does
// not get faster with more threads. A full transposed index (counting sort by column) reads
// each term once too, but needs ~8 bytes a term of a whole matrix (2-6 GB) and a histogram over
// all 128 M columns. Field addition is exact, so any order gives the sequential sums.
//
// Dense means a non-zero coefficient; as L_row is never zero (tau is not a root of unity), that
// is a non-zero coeff · L_row.
void accumulate_at_tau(const r1cs::CompiledR1cs<Fr>& r1cs, std::span<const Fr> lagrange,
                       const detail::KeyScalarsSplit& split, AtTau& u, AtTau& v, AtTau& w, ThreadPool& pool) {
  const size_t n_in = r1cs.num_inputs, n_c = r1cs.num_constraints();
  const size_t chunk = std::max<size_t>(split.chunk, 1), segment_terms = std::max<size_t>(split.segment_terms, 1);
  const size_t n_summed = std::min(n_in, kBlockSummedColumns);
  const size_t owners = std::bit_ceil(split.owners != 0 ? split.owners : 4 * size_t{pool.threads()});
  const auto owner_of = [&](uint32_t col) -> size_t {
    return ((col < n_in ? col : col - n_in) / kStripe) & (owners - 1);
  };
  const Fr minus_one = -Fr::one();

  struct Contribution {
    Fr value;  // coeff · L_row
    uint32_t column;
  };
  std::vector<Contribution> buffer;
  std::vector<Fr> block_sums;         // block b's sum for column i < n_summed at b·n_summed + i
  std::vector<uint64_t> block_dense;  // and which of them it holds with a non-zero coefficient
  for (const auto& matrix_sums : {std::pair{&r1cs.a, &u}, std::pair{&r1cs.b, &v}, std::pair{&r1cs.c, &w}}) {
    // Named variables, not a structured binding: clang 14 (the fuzz preset) cannot capture those.
    auto* const mat = matrix_sums.first;
    auto* const x = matrix_sums.second;
    const auto& row_start = mat->row_start;
    const bool mark_inputs = !x->dense_inputs.empty(), mark_aux = !x->dense_aux.empty();
    for (size_t row0 = 0; row0 < n_c;) {
      // Rows [row0, row1): as many as fit in segment_terms, at least one.
      const uint64_t t0 = row_start[row0];
      const auto after =
          std::upper_bound(row_start.begin() + ptrdiff_t(row0) + 1, row_start.end(), t0 + segment_terms);
      const size_t row1 = std::max(size_t(after - row_start.begin()) - 1, row0 + 1);
      // Blocks of rows: a few per thread, at most chunk rows.
      const size_t rows = std::min(chunk, ceil_div(row1 - row0, 4 * size_t{pool.threads()}));
      const size_t blocks = ceil_div(row1 - row0, rows);
      const auto block_rows = [&](size_t b) {
        return std::pair{row0 + b * rows, std::min(row1, row0 + (b + 1) * rows)};
      };

      // (1) start[b·owners + o]: where block b's terms for owner o go (counts first).
      std::vector<size_t> start(blocks * owners, 0), owner_end(owners);
      pool.for_each_index(blocks, [&](size_t b) {
        const auto [r0, r1] = block_rows(b);
        size_t* count = start.data() + b * owners;
        for (uint64_t t = row_start[r0]; t < row_start[r1]; ++t) {
          const uint32_t col = mat->column[t];
          if (col >= n_summed) ++count[owner_of(col)];
        }
      });
      size_t at = 0;
      for (size_t o = 0; o < owners; ++o) {
        for (size_t b = 0; b < blocks; ++b) at += std::exchange(start[b * owners + o], at);
        owner_end[o] = at;
      }
      buffer.resize(at);
      block_sums.assign(blocks * n_summed, Fr::zero());
      block_dense.assign(blocks, 0);

      // (2) coeff · L_row into the block's sums (columns below n_summed) or its owner's run.
      pool.for_each_index(blocks, [&](size_t b) {
        const auto [r0, r1] = block_rows(b);
        std::vector<size_t> next(start.begin() + ptrdiff_t(b * owners), start.begin() + ptrdiff_t((b + 1) * owners));
        Fr* const sums = block_sums.data() + b * n_summed;
        uint64_t dense = 0;
        for (size_t row = r0; row < r1; ++row) {
          const Fr& l = lagrange[row];
          for (uint64_t t = row_start[row]; t < row_start[row + 1]; ++t) {
            const Fr& k = mat->coeff[t];
            const uint32_t col = mat->column[t];
            const Fr value = k.is_zero() ? Fr::zero() : k.is_one() ? l : k == minus_one ? -l : k * l;
            if (col < n_summed) {
              sums[col] += value;
              dense |= uint64_t{!value.is_zero()} << col;
            } else {
              buffer[next[owner_of(col)]++] = {value, col};
            }
          }
        }
        block_dense[b] = dense;
      });

      // (3) Each owner adds its run into its columns.
      pool.for_each_index(owners, [&](size_t o) {
        for (size_t e = o == 0 ? 0 : owner_end[o - 1]; e < owner_end[o]; ++e) {
          const auto& [value, col] = buffer[e];
          if (value.is_zero()) continue;  // a zero coefficient: adds nothing, not dense
          const bool input = col < n_in;
          const size_t j = input ? col : col - n_in;
          (input ? x->inputs[j] : x->aux[j]) += value;
          if (input ? mark_inputs : mark_aux) {
            uint64_t& word = (input ? x->dense_inputs : x->dense_aux)[j / 64];
            const uint64_t bit = uint64_t{1} << (j % 64);
            if (!(word & bit)) word |= bit;  // written once: the line stays shared between readers
          }
        }
      });
      for (size_t b = 0; b < blocks; ++b) {
        for (size_t i = 0; i < n_summed; ++i) x->inputs[i] += block_sums[b * n_summed + i];
        if (mark_inputs) x->dense_inputs[0] |= block_dense[b];
      }
      row0 = row1;
    }
  }
  for (size_t i = 0; i < n_in; ++i) u.inputs[i] += lagrange[n_c + i];
}

// prefix ‖ values[j] for the j whose bit is set, in order; parallel by chunks (count, prefix
// sums, copy).
std::vector<Fr> dense_values(std::span<const Fr> prefix, std::span<const Fr> values,
                             const std::vector<uint64_t>& bits, size_t chunk, ThreadPool& pool) {
  const size_t chunks = ceil_div(values.size(), chunk);
  std::vector<size_t> offset(chunks + 1, 0);
  for_each_chunk(values.size(), chunk, pool, [&](size_t begin, size_t end) {
    size_t count = 0;
    for (size_t j = begin; j < end; ++j) count += test_bit(bits, j);
    offset[begin / chunk + 1] = count;
  });
  offset[0] = prefix.size();
  for (size_t c = 0; c < chunks; ++c) offset[c + 1] += offset[c];
  std::vector<Fr> out = zeros(offset[chunks], chunk, pool);
  std::copy(prefix.begin(), prefix.end(), out.begin());
  for_each_chunk(values.size(), chunk, pool, [&](size_t begin, size_t end) {
    size_t k = offset[begin / chunk];
    for (size_t j = begin; j < end; ++j)
      if (test_bit(bits, j)) out[k++] = values[j];
  });
  return out;
}

// Scalars → affine multiples of a fixed base, in parallel, batch-normalized per chunk.
template <class Curve, class Table>
std::vector<ec::Affine<Curve>> fixed_base_mul(const Table& table, std::span<const Fr> scalars, ThreadPool& pool,
                                             Progress& progress) {
  std::vector<ec::Affine<Curve>> out(scalars.size());
  pool.parallel_for(scalars.size(), 1024, [&](size_t begin, size_t end) {
    std::vector<ec::Jacobian<Curve>> j(end - begin);
    for (size_t i = begin; i < end; ++i) j[i - begin] = table.mul(scalars[i].to_int());
    ec::batch_normalize<Curve>(j, std::span(out).subspan(begin, end - begin));
    progress.advance(end - begin);
  });
  return out;
}

}  // namespace

ToxicWaste ToxicWaste::from_seed(uint64_t seed) {
  std::mt19937_64 g(seed);
  const auto fill = [&](std::span<uint8_t> b) {
    for (auto& x : b) x = static_cast<uint8_t>(g());
  };
  return {random_nonzero_scalar(fill), random_nonzero_scalar(fill), random_nonzero_scalar(fill),
          random_nonzero_scalar(fill), random_nonzero_scalar(fill)};
}

ToxicWaste ToxicWaste::random() {
  const auto fill = [](std::span<uint8_t> b) { secure_random_bytes(b); };
  return {random_nonzero_scalar(fill), random_nonzero_scalar(fill), random_nonzero_scalar(fill),
          random_nonzero_scalar(fill), random_nonzero_scalar(fill)};
}

namespace detail {

Expected<KeyScalars> key_scalars(const r1cs::CompiledR1cs<Fr>& r1cs, const ToxicWaste& tw, ThreadPool& pool,
                                 const KeyScalarsSplit& split) {
  const size_t n_c = r1cs.num_constraints(), n_in = r1cs.num_inputs, n_aux = r1cs.num_aux;
  const size_t chunk = std::max<size_t>(split.chunk, 1);
  auto domain = poly::EvaluationDomain<Fr>::for_size(n_c + n_in);
  if (!domain) return domain.error();
  const size_t m = domain->size();
  const Fr z_tau = tw.tau.pow(ff::BigInt<1>(m)) - Fr::one();  // Z(tau) = tau^m - 1
  if (z_tau.is_zero())
    return invalid_argument("setup: tau is a root of unity of the domain (tau^m = 1, m = " + std::to_string(m) + ")");
  if (tw.gamma.is_zero() || tw.delta.is_zero()) return invalid_argument("setup: gamma and delta must be non-zero");

  // u, v, w at tau: their aux parts are ~4 GB each at 32 GiB; w's becomes l, so it is a vector.
  std::vector<Fr> u_inputs(n_in), v_inputs(n_in), w_inputs(n_in);
  Scratch u_aux(n_aux), v_aux(n_aux);
  fill_zero(u_aux.span(), chunk, pool);
  fill_zero(v_aux.span(), chunk, pool);
  std::vector<Fr> w_aux = zeros(n_aux, chunk, pool);
  const auto bitmap = [](size_t n) { return std::vector<uint64_t>(ceil_div(n, 64), 0); };
  AtTau u{u_inputs, u_aux.span(), {}, bitmap(n_aux)};  // every input is in A: no bitmap
  AtTau v{v_inputs, v_aux.span(), bitmap(n_in), bitmap(n_aux)};
  AtTau w{w_inputs, w_aux, {}, {}};
  {
    Scratch lagrange(m);
    lagrange_at(*domain, tw.tau, z_tau, lagrange.span(), chunk, pool);
    accumulate_at_tau(r1cs, lagrange.span(), split, u, v, w, pool);
  }  // the Lagrange basis is freed here

  // ic from the inputs; l in place of w's aux part.
  KeyScalars ks;
  const Fr gamma_inv = tw.gamma.inverse(), delta_inv = tw.delta.inverse();
  ks.ic.resize(n_in);
  for (size_t i = 0; i < n_in; ++i)
    ks.ic[i] = (tw.beta * u.inputs[i] + tw.alpha * v.inputs[i] + w.inputs[i]) * gamma_inv;
  for_each_chunk(n_aux, chunk, pool, [&](size_t begin, size_t end) {
    for (size_t j = begin; j < end; ++j) w.aux[j] = (tw.beta * u.aux[j] + tw.alpha * v.aux[j] + w.aux[j]) * delta_inv;
  });
  ks.l = std::move(w_aux);

  // a: every input, then the aux dense in A; b: the inputs dense in B, then the aux dense in B.
  ks.a = dense_values(u.inputs, u.aux, u.dense_aux, chunk, pool);
  u_aux = {};
  const std::vector<Fr> b_inputs = dense_values({}, v.inputs, v.dense_inputs, chunk, pool);
  ks.b = dense_values(b_inputs, v.aux, v.dense_aux, chunk, pool);
  v_aux = {};

  // h[i] = tau^i Z(tau)/delta; each chunk starts at its own power of tau.
  ks.h = zeros(m - 1, chunk, pool);
  const Fr z_over_delta = z_tau * delta_inv;
  for_each_chunk(m - 1, chunk, pool, [&](size_t begin, size_t end) {
    Fr t = z_over_delta * tw.tau.pow(uint64_t(begin));
    for (size_t i = begin; i < end; ++i, t *= tw.tau) ks.h[i] = t;
  });
  return ks;
}

}  // namespace detail

Expected<KeyScalars> key_scalars(const r1cs::CompiledR1cs<Fr>& r1cs, const ToxicWaste& tw, ThreadPool& pool) {
  return detail::key_scalars(r1cs, tw, pool, {});
}

VerifyingKey verifying_key(const ToxicWaste& tw, std::vector<G1Affine> ic) {
  const auto g1 = ec::Jacobian<ec::G1Curve>::from_affine(G1Affine::generator());
  const auto g2 = ec::Jacobian<ec::G2Curve>::from_affine(G2Affine::generator());
  VerifyingKey vk;
  vk.alpha_g1 = ec::scalar_mul(g1, tw.alpha).to_affine();
  vk.beta_g1 = ec::scalar_mul(g1, tw.beta).to_affine();
  vk.beta_g2 = ec::scalar_mul(g2, tw.beta).to_affine();
  vk.gamma_g2 = ec::scalar_mul(g2, tw.gamma).to_affine();
  vk.delta_g1 = ec::scalar_mul(g1, tw.delta).to_affine();
  vk.delta_g2 = ec::scalar_mul(g2, tw.delta).to_affine();
  vk.ic = std::move(ic);
  return vk;
}

namespace {

// From this many points a key's fixed-base tables take 16-bit digits (ec/fixed_base.hpp).
constexpr size_t kWideTableFromPoints = size_t{1} << 20;

// The key's points from its scalars with fixed-base tables of w-bit digits.
template <unsigned Window>
Parameters key_points(KeyScalars& s, const ToxicWaste& tw, ThreadPool& pool, Progress& progress) {
  const auto for_each_digit = [&pool](size_t n, auto&& fn) { pool.for_each_index(n, fn); };
  const ec::FixedBaseTable<ec::G1Curve, 4, Window> g1(G1Affine::generator(), for_each_digit);
  const ec::FixedBaseTable<ec::G2Curve, 4, Window> g2(G2Affine::generator(), for_each_digit);
  // Each scalar vector is freed once its points are made.
  const auto g1_points = [&](std::vector<Fr>& scalars) {
    auto points = fixed_base_mul<ec::G1Curve>(g1, std::span<const Fr>(scalars), pool, progress);
    release(scalars);
    return points;
  };
  Parameters p;
  p.vk = verifying_key(tw, g1_points(s.ic));
  p.h = g1_points(s.h);
  p.l = g1_points(s.l);
  p.a = g1_points(s.a);
  p.b_g1 = fixed_base_mul<ec::G1Curve>(g1, std::span<const Fr>(s.b), pool, progress);
  p.b_g2 = fixed_base_mul<ec::G2Curve>(g2, std::span<const Fr>(s.b), pool, progress);
  return p;
}

}  // namespace

Expected<Parameters> setup(const r1cs::CompiledR1cs<Fr>& r1cs, const ToxicWaste& tw, ThreadPool& pool) {
  auto scalars = key_scalars(r1cs, tw, pool);
  if (!scalars) return scalars.error();
  KeyScalars& s = *scalars;

  // Progress in points (a G2 point counted as one; for large keys only).
  const size_t points = s.ic.size() + s.h.size() + s.l.size() + s.a.size() + 2 * s.b.size();
  Progress progress("setup", points, points >= 100'000 ? Progress::stderr_style() : ProgressStyle::off);
  // 16-bit digits halve the additions a point; their tables (~1 M points each) pay from ~10^6
  // points (docs/PERF.md 30).
  if (points >= kWideTableFromPoints) return key_points<16>(s, tw, pool, progress);
  return key_points<8>(s, tw, pool, progress);
}

}  // namespace cuzk::groth16
