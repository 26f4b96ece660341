#include "gadgets/poseidon_batch.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "core/error.hpp"
#include "gadgets/poseidon.hpp"
#include "gadgets/poseidon_gadget.hpp"
#include "gadgets/poseidon_ifma.hpp"
#include "r1cs/witness_cs.hpp"

#ifdef CUZK_POSEIDON_IFMA
#include <cpuid.h>
#endif

namespace cuzk::gadgets {

using ff::Fr;

namespace {

constexpr uint64_t kMask52 = (uint64_t{1} << 52) - 1;
using Limbs = std::array<uint64_t, ifma::kLimbs>;

// A 4×64-bit integer below 2^260 in 52-bit limbs, and back.
Limbs split52(const Fr::Int& v) {
  const auto& w = v.limbs;
  return {w[0] & kMask52, ((w[0] >> 52) | (w[1] << 12)) & kMask52, ((w[1] >> 40) | (w[2] << 24)) & kMask52,
          ((w[2] >> 28) | (w[3] << 36)) & kMask52, w[3] >> 16};
}
#ifdef CUZK_POSEIDON_IFMA  // the kernel's output alone needs the way back
Fr::Int join52(const Limbs& l) {
  Fr::Int v;
  v.limbs[0] = l[0] | (l[1] << 52);
  v.limbs[1] = (l[1] >> 12) | (l[2] << 40);
  v.limbs[2] = (l[2] >> 24) | (l[3] << 28);
  v.limbs[3] = (l[3] >> 36) | (l[4] << 16);
  return v;
}
#endif

// x·2^260 mod r: Fr's representation (·2^256) of 16·x.
Limbs lane_form(const Fr& x) {
  Fr y = x + x;
  y += y;
  y += y;
  y += y;
  return split52(y.montgomery());
}

void append(std::vector<uint64_t>& out, const Fr& x) {
  const Limbs l = lane_form(x);
  out.insert(out.end(), l.begin(), l.end());
}

// M[i][j] at j·t + i (the kernel walks a column per output).
void append_by_column(std::vector<uint64_t>& out, const PoseidonMatrix& m) {
  for (size_t j = 0; j < m.size(); ++j)
    for (size_t i = 0; i < m.size(); ++i) append(out, m[i][j]);
}

}  // namespace

bool cpu_has_avx512_ifma() noexcept {
#ifdef CUZK_POSEIDON_IFMA
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
  constexpr unsigned kOsxsave = 1u << 27;  // CPUID.1:ECX, XGETBV usable
  if (!(ecx & kOsxsave)) return false;
  uint32_t xcr0_lo = 0, xcr0_hi = 0;
  __asm__("xgetbv" : "=a"(xcr0_lo), "=d"(xcr0_hi) : "c"(0));
  constexpr uint32_t kZmmState = 0xe6;  // XCR0: SSE, AVX, opmask, ZMM_Hi256, Hi16_ZMM
  if ((xcr0_lo & kZmmState) != kZmmState) return false;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
  constexpr unsigned kAvx512f = 1u << 16, kAvx512ifma = 1u << 21;  // CPUID.(7,0):EBX
  return (ebx & kAvx512f) && (ebx & kAvx512ifma);
#else
  return false;
#endif
}

PoseidonBatch::PoseidonBatch(const PoseidonConstants& c, PoseidonKernel kernel)
    : c_(c), sixteenth_(Fr::from_uint(16).inverse()) {
  ifma_ = kernel == PoseidonKernel::best && c.width <= ifma::kMaxWidth && cpu_has_avx512_ifma();
  if (!ifma_) return;
  const Limbs r = split52(Fr::kModulus);
  limbs_.insert(limbs_.end(), r.begin(), r.end());
  uint64_t carry = 0;  // 2r, limb by limb
  for (size_t k = 0; k < ifma::kLimbs; ++k) {
    const uint64_t d = 2 * r[k] + carry;
    limbs_.push_back(d & kMask52);
    carry = d >> 52;
  }
  domain_tag_ = limbs_.size();
  append(limbs_, c.domain_tag);
  round_constants_ = limbs_.size();
  for (const Fr& k : c.compressed_round_constants) append(limbs_, k);
  mds_ = limbs_.size();
  append_by_column(limbs_, c.mds);
  pre_sparse_ = limbs_.size();
  append_by_column(limbs_, c.pre_sparse);
  sparse_ = limbs_.size();
  for (const PoseidonSparseMatrix& m : c.sparse) {
    for (const Fr& x : m.w_hat) append(limbs_, x);
    for (const Fr& x : m.v_rest) append(limbs_, x);
  }
  to_fr_ = limbs_.size();  // 2^256 mod r: Fr's representation of 1, as an integer
  const Limbs one = split52(Fr::one().montgomery());
  limbs_.insert(limbs_.end(), one.begin(), one.end());
}

ifma::Tables PoseidonBatch::tables() const {
  ifma::Tables tables;
  tables.width = c_.width;
  tables.full_rounds = c_.full_rounds;
  tables.partial_rounds = c_.partial_rounds;
  tables.modulus = limbs_.data();
  tables.twice_modulus = limbs_.data() + ifma::kLimbs;
  tables.neg_inverse = Fr::kNegInv & kMask52;  // −r⁻¹ mod 2^64, reduced mod 2^52
  tables.domain_tag = limbs_.data() + domain_tag_;
  tables.round_constants = limbs_.data() + round_constants_;
  tables.mds = limbs_.data() + mds_;
  tables.pre_sparse = limbs_.data() + pre_sparse_;
  tables.sparse = limbs_.data() + sparse_;
  tables.to_fr = limbs_.data() + to_fr_;
  return tables;
}

void PoseidonBatch::hash(std::span<const Fr> preimages, std::span<Fr> out) const {
  const size_t arity = c_.arity;
  if (preimages.size() != out.size() * arity)
    throw Exception(invalid_argument("poseidon batch: " + std::to_string(preimages.size()) + " inputs for " +
                                     std::to_string(out.size()) + " hashes of arity " + std::to_string(arity)));
  if (!ifma_) {
    for (size_t k = 0; k < out.size(); ++k) out[k] = poseidon_hash(c_, preimages.subspan(k * arity, arity));
    return;
  }
#ifdef CUZK_POSEIDON_IFMA
  const ifma::Tables tables = this->tables();
  constexpr size_t kL = ifma::kLanes, kN = ifma::kLimbs;
  alignas(64) std::array<uint64_t, (ifma::kMaxWidth - 1) * kN * kL> in;
  alignas(64) std::array<uint64_t, kN * kL> hashed;
  for (size_t first = 0; first < out.size(); first += kL) {
    const size_t lanes = std::min(kL, out.size() - first);
    load_lanes(preimages.subspan(first * arity, lanes * arity), in.data());
    ifma::hash8(tables, in.data(), hashed.data());
    for (size_t l = 0; l < lanes; ++l) {
      Limbs h;
      for (size_t k = 0; k < kN; ++k) h[k] = hashed[k * kL + l];
      out[first + l] = Fr::from_montgomery(join52(h)) * sixteenth_;  // 16·y / 16
    }
  }
#endif
}

void PoseidonBatch::load_lanes(std::span<const Fr> preimages, uint64_t* in) const {
  constexpr size_t kL = ifma::kLanes, kN = ifma::kLimbs;
  const size_t arity = c_.arity, lanes = preimages.size() / arity;
  std::fill(in, in + arity * kN * kL, 0);  // idle lanes hash zeros
  for (size_t l = 0; l < lanes; ++l)
    for (size_t i = 0; i < arity; ++i) {
      const Limbs x = lane_form(preimages[l * arity + i]);
      for (size_t k = 0; k < kN; ++k) in[(i * kN + k) * kL + l] = x[k];
    }
}

void PoseidonBatch::trace(std::span<const Fr> preimages, std::span<Fr* const> out) const {
  const size_t arity = c_.arity, n = poseidon_gadget_variables(c_);
  if (preimages.size() != out.size() * arity)
    throw Exception(invalid_argument("poseidon batch: " + std::to_string(preimages.size()) + " inputs for " +
                                     std::to_string(out.size()) + " traces of arity " + std::to_string(arity)));
  if (!ifma_) {
    std::vector<r1cs::Variable> vars(arity);
    for (size_t k = 0; k < out.size(); ++k) {
      const std::span<const Fr> preimage = preimages.subspan(k * arity, arity);
      r1cs::WitnessCS<Fr> cs;
      for (size_t i = 0; i < arity; ++i) vars[i] = cs.alloc("", [&] { return preimage[i]; });
      poseidon_hash_gadget(cs, c_, vars, preimage);
      std::copy(cs.aux().begin() + static_cast<std::ptrdiff_t>(arity), cs.aux().end(), out[k]);
    }
    return;
  }
#ifdef CUZK_POSEIDON_IFMA
  const ifma::Tables tables = this->tables();
  constexpr size_t kL = ifma::kLanes, kN = ifma::kLimbs;
  alignas(64) std::array<uint64_t, (ifma::kMaxWidth - 1) * kN * kL> in;
  std::vector<uint64_t> traced(n * 4 * kL);
  for (size_t first = 0; first < out.size(); first += kL) {
    const size_t lanes = std::min(kL, out.size() - first);
    load_lanes(preimages.subspan(first * arity, lanes * arity), in.data());
    ifma::trace8(tables, in.data(), traced.data());
    for (size_t l = 0; l < lanes; ++l) {
      Fr* dest = out[first + l];
      const uint64_t* word = traced.data() + l;
      for (size_t v = 0; v < n; ++v, word += 4 * kL) {
        Fr::Int raw;
        for (size_t j = 0; j < 4; ++j) raw.limbs[j] = word[j * kL];
        dest[v] = Fr::from_montgomery(raw);
      }
    }
  }
#endif
}

}  // namespace cuzk::gadgets
