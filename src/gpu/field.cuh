#pragma once
// A prime field in Montgomery form on 32-bit limbs, for CUDA kernels and, compiled as plain C++,
// for the CPU (the tests run it there against ff::Field: decision 6, every kernel has a CPU twin).
//
// Layout: DeviceField<Config> is bit for bit ff::Field<Config>: the same Montgomery value
// (R = 2^(64 * 64-bit limbs) = 2^(32 * 32-bit limbs)), 64-bit limbs little-endian being 32-bit
// limbs little-endian on a little-endian machine; so a CPU array copied to the device needs no
// conversion. Multiplication is CIOS (Koc, Acar, Kaliski 1996) with a 32-bit word: per word b[i],
// t += a*b[i] and t += m*p with m = t[0] * (-p^-1 mod 2^32), each as two carry chains (the low
// halves of the products into t[j], the high halves into t[j+1]), then t shifts one word down.
// On the GPU each step is one PTX instruction (mad.lo.cc / madc.hi.cc ...); on the CPU the same
// instruction sequence runs through CarryChain's emulation, so the host tests exercise the
// algorithm that the device runs.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>

// In a .cu file, include the gpu/ headers before any ff/ or ec/ header: nvcc's front end reads
// ff/modular_add.hpp's host inline-asm scratch outputs as unused variables (warning 550, an
// error under -Werror), and only this include silences it.
#if defined(__CUDACC__)
#pragma nv_diag_suppress 550
#endif
#include "ff/bls12_381.hpp"
#include "ff/fp2.hpp"
#if defined(__CUDACC__)
#pragma nv_diag_default 550
#endif

#if defined(__CUDACC__)
#define CUZK_HD __host__ __device__ __forceinline__
#define CUZK_HD_NOINLINE __host__ __device__ __noinline__
#else
#define CUZK_HD inline
#define CUZK_HD_NOINLINE inline
#endif

// Unrolled loops keep every limb in a register and every modulus word an immediate. nvcc's
// host pass gets none (g++ would warn on "unroll" and cudafe rejects "GCC unroll").
#if defined(__CUDA_ARCH__) || (defined(__clang__) && !defined(__CUDACC__))
#define CUZK_UNROLL _Pragma("unroll")
#elif defined(__CUDACC__)
#define CUZK_UNROLL
#elif defined(__GNUC__)
#define CUZK_UNROLL _Pragma("GCC unroll 32")
#else
#define CUZK_UNROLL
#endif

namespace cuzk::gpu {

// One PTX carry chain (CC.CF). On the device each call is one instruction and the flag lives in
// the hardware; the chain's instructions are volatile so the compiler keeps their order. On the
// host the flag is a member, with PTX's semantics: for add/mad it is the carry, for sub the
// borrow. Start a chain with a non-"c" call (add_cc, sub_cc, mad_*_cc).
class CarryChain {
 public:
  CUZK_HD uint32_t add_cc(uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__)
    uint32_t r;
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#else
    const uint64_t s = uint64_t(a) + b;
    cf_ = uint32_t(s >> 32);
    return uint32_t(s);
#endif
  }
  CUZK_HD uint32_t addc_cc(uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__)
    uint32_t r;
    asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#else
    const uint64_t s = uint64_t(a) + b + cf_;
    cf_ = uint32_t(s >> 32);
    return uint32_t(s);
#endif
  }
  // a - b, borrow out.
  CUZK_HD uint32_t sub_cc(uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__)
    uint32_t r;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#else
    const uint64_t s = uint64_t(a) - b;
    cf_ = uint32_t(s >> 32) & 1;
    return uint32_t(s);
#endif
  }
  // a - b - borrow, borrow out.
  CUZK_HD uint32_t subc_cc(uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__)
    uint32_t r;
    asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#else
    const uint64_t s = uint64_t(a) - b - cf_;
    cf_ = uint32_t(s >> 32) & 1;
    return uint32_t(s);
#endif
  }
  // lo(a*b) + c, carry out.
  CUZK_HD uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) {
#if defined(__CUDA_ARCH__)
    uint32_t r;
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
#else
    return add_cc(a * b, c);
#endif
  }
  // lo(a*b) + c + carry, carry out.
  CUZK_HD uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) {
#if defined(__CUDA_ARCH__)
    uint32_t r;
    asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
#else
    return addc_cc(a * b, c);
#endif
  }
  // hi(a*b) + c, carry out.
  CUZK_HD uint32_t mad_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
#if defined(__CUDA_ARCH__)
    uint32_t r;
    asm volatile("mad.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
#else
    return add_cc(uint32_t((uint64_t(a) * b) >> 32), c);
#endif
  }
  // hi(a*b) + c + carry, carry out.
  CUZK_HD uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
#if defined(__CUDA_ARCH__)
    uint32_t r;
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
#else
    return addc_cc(uint32_t((uint64_t(a) * b) >> 32), c);
#endif
  }

 private:
#if !defined(__CUDA_ARCH__)
  uint32_t cf_ = 0;
#endif
};

namespace detail {

// Word I of a constant BigInt<N/2> (64-bit limbs) as a 32-bit scalar: scalar constexpr variables
// are usable in device code, and unrolled loops turn them into instruction immediates.
template <class Config, size_t I>
inline constexpr uint32_t kModulusWord = uint32_t(Config::kModulus.limbs[I / 2] >> (32 * (I % 2)));
template <class Config, size_t I>
inline constexpr uint32_t kOneWord = uint32_t(ff::Field<Config>::kR.limbs[I / 2] >> (32 * (I % 2)));

}  // namespace detail

template <class Config>
struct alignas(8) DeviceField {
  using Cpu = ff::Field<Config>;
  static constexpr size_t kLimbs = 2 * Cpu::kLimbs;  // 32-bit words
  // -p^-1 mod 2^32: the low word of the CPU's -p^-1 mod 2^64 (reduction mod 2^32 commutes).
  static constexpr uint32_t kNegInv = uint32_t(Cpu::kNegInv);
  static_assert(uint32_t(detail::kModulusWord<Config, 0> * kNegInv) == 0xffffffffu, "p * (-p^-1) = -1 mod 2^32");
  // a + b of two reduced values must not carry out of the top word.
  static_assert((detail::kModulusWord<Config, kLimbs - 1> >> 31) == 0, "the modulus must leave the top bit free");

  uint32_t limbs[kLimbs];  // limbs[0] least significant; no initialiser: trivial, like device memory

  // ---- constants --------------------------------------------------------------------------
  CUZK_HD static DeviceField zero() {
    DeviceField r;
    CUZK_UNROLL for (size_t i = 0; i < kLimbs; ++i) r.limbs[i] = 0;
    return r;
  }
  CUZK_HD static DeviceField one() { return words<true>(std::make_index_sequence<kLimbs>{}); }
  CUZK_HD static DeviceField modulus() { return words<false>(std::make_index_sequence<kLimbs>{}); }

  // ---- the CPU representation (host only; the same bytes) ---------------------------------
  static DeviceField from_cpu(const Cpu& x) {
    DeviceField r;
    std::memcpy(r.limbs, &x, sizeof r.limbs);
    return r;
  }
  Cpu to_cpu() const {
    Cpu r;
    std::memcpy(static_cast<void*>(&r), limbs, sizeof limbs);
    return r;
  }

  // ---- predicates -------------------------------------------------------------------------
  CUZK_HD bool is_zero() const {
    uint32_t acc = 0;
    CUZK_UNROLL for (size_t i = 0; i < kLimbs; ++i) acc |= limbs[i];
    return acc == 0;
  }
  CUZK_HD friend bool operator==(const DeviceField& a, const DeviceField& b) {
    uint32_t acc = 0;
    CUZK_UNROLL for (size_t i = 0; i < kLimbs; ++i) acc |= a.limbs[i] ^ b.limbs[i];
    return acc == 0;
  }
  CUZK_HD friend bool operator!=(const DeviceField& a, const DeviceField& b) { return !(a == b); }

  // ---- arithmetic (inputs reduced, outputs reduced) ---------------------------------------
  // t = a + b (fits: top bit free), s = t - p; keep t where that borrowed.
  CUZK_HD friend DeviceField operator+(const DeviceField& a, const DeviceField& b) {
    const DeviceField p = modulus();
    DeviceField t, s;
    CarryChain c;
    t.limbs[0] = c.add_cc(a.limbs[0], b.limbs[0]);
    CUZK_UNROLL for (size_t i = 1; i < kLimbs; ++i) t.limbs[i] = c.addc_cc(a.limbs[i], b.limbs[i]);
    CarryChain d;
    s.limbs[0] = d.sub_cc(t.limbs[0], p.limbs[0]);
    CUZK_UNROLL for (size_t i = 1; i < kLimbs; ++i) s.limbs[i] = d.subc_cc(t.limbs[i], p.limbs[i]);
    const uint32_t borrow = d.subc_cc(0, 0);  // all ones when t < p
    return select(borrow, t, s);
  }
  // t = a - b; add p back where that borrowed.
  CUZK_HD friend DeviceField operator-(const DeviceField& a, const DeviceField& b) {
    const DeviceField p = modulus();
    DeviceField t;
    CarryChain c;
    t.limbs[0] = c.sub_cc(a.limbs[0], b.limbs[0]);
    CUZK_UNROLL for (size_t i = 1; i < kLimbs; ++i) t.limbs[i] = c.subc_cc(a.limbs[i], b.limbs[i]);
    const uint32_t mask = c.subc_cc(0, 0);
    CarryChain d;
    t.limbs[0] = d.add_cc(t.limbs[0], p.limbs[0] & mask);
    CUZK_UNROLL for (size_t i = 1; i < kLimbs; ++i) t.limbs[i] = d.addc_cc(t.limbs[i], p.limbs[i] & mask);
    return t;
  }
  CUZK_HD DeviceField operator-() const { return zero() - *this; }
  CUZK_HD DeviceField dbl() const { return *this + *this; }

  // CIOS with n = kLimbs words. Per round i: t += a * b[i], then t += m * p with
  // m = t[0] * (-p^-1) mod 2^32, then t /= 2^32 (KAK96 §4). t < 2p at the end of each round, so a
  // single conditional subtraction reduces. Within a round t stays below
  // (2p - 1) + (p - 1)(2^32 - 1) + p(2^32 - 1) < p 2^33 < 2^(32n + 32) because p < 2^(32n - 1):
  // n + 1 words hold it and nothing carries out of word n, so no chain needs a word n + 1.
  // Each product is two chains (low halves into word j, high halves into word j + 1):
  // 4n^2 multiply-adds and 2n carry adds per multiplication (Fp: 576 + 24, Fr: 256 + 16).
  CUZK_HD friend DeviceField operator*(const DeviceField& a, const DeviceField& b) {
    const DeviceField p = modulus();
    constexpr size_t n = kLimbs;
    uint32_t t[n + 1];
    CUZK_UNROLL for (size_t j = 0; j < n + 1; ++j) t[j] = 0;
    CUZK_UNROLL for (size_t i = 0; i < n; ++i) {
      const uint32_t bi = b.limbs[i];
      {  // t += lo(a * bi) at words j; word n is 0 before, the carry after
        CarryChain c;
        t[0] = c.mad_lo_cc(a.limbs[0], bi, t[0]);
        CUZK_UNROLL for (size_t j = 1; j < n; ++j) t[j] = c.madc_lo_cc(a.limbs[j], bi, t[j]);
        t[n] = c.addc_cc(t[n], 0);
      }
      {  // t += hi(a * bi) at words j + 1
        CarryChain c;
        t[1] = c.mad_hi_cc(a.limbs[0], bi, t[1]);
        CUZK_UNROLL for (size_t j = 1; j < n; ++j) t[j + 1] = c.madc_hi_cc(a.limbs[j], bi, t[j + 1]);
      }
      const uint32_t m = t[0] * kNegInv;
      {  // t += lo(m * p); word 0 becomes 0
        CarryChain c;
        t[0] = c.mad_lo_cc(m, p.limbs[0], t[0]);
        CUZK_UNROLL for (size_t j = 1; j < n; ++j) t[j] = c.madc_lo_cc(m, p.limbs[j], t[j]);
        t[n] = c.addc_cc(t[n], 0);
      }
      {  // t += hi(m * p) at words j + 1
        CarryChain c;
        t[1] = c.mad_hi_cc(m, p.limbs[0], t[1]);
        CUZK_UNROLL for (size_t j = 1; j < n; ++j) t[j + 1] = c.madc_hi_cc(m, p.limbs[j], t[j + 1]);
      }
      CUZK_UNROLL for (size_t j = 0; j < n; ++j) t[j] = t[j + 1];  // divide by 2^32
      t[n] = 0;
    }
    // t < 2p < 2^(32n): subtract p once where that does not borrow.
    DeviceField r, s;
    CUZK_UNROLL for (size_t j = 0; j < n; ++j) r.limbs[j] = t[j];
    CarryChain d;
    s.limbs[0] = d.sub_cc(r.limbs[0], p.limbs[0]);
    CUZK_UNROLL for (size_t j = 1; j < n; ++j) s.limbs[j] = d.subc_cc(r.limbs[j], p.limbs[j]);
    const uint32_t borrow = d.subc_cc(0, 0);  // all ones when t < p
    return select(borrow, r, s);
  }
  CUZK_HD DeviceField sqr() const { return *this * *this; }

  CUZK_HD DeviceField& operator+=(const DeviceField& b) { return *this = *this + b; }
  CUZK_HD DeviceField& operator-=(const DeviceField& b) { return *this = *this - b; }
  CUZK_HD DeviceField& operator*=(const DeviceField& b) { return *this = *this * b; }

  // mask all ones: a; mask zero: b (branch-free).
  CUZK_HD static DeviceField select(uint32_t mask, const DeviceField& a, const DeviceField& b) {
    DeviceField r;
    CUZK_UNROLL for (size_t i = 0; i < kLimbs; ++i) r.limbs[i] = (a.limbs[i] & mask) | (b.limbs[i] & ~mask);
    return r;
  }

 private:
  template <bool kOne, size_t... I>
  CUZK_HD static DeviceField words(std::index_sequence<I...>) {
    if constexpr (kOne) return {{detail::kOneWord<Config, I>...}};
    else return {{detail::kModulusWord<Config, I>...}};
  }
};

using DeviceFp = DeviceField<ff::FpConfig>;
using DeviceFr = DeviceField<ff::FrConfig>;

// The layout promise: a CPU array is a device array, byte for byte.
static_assert(sizeof(DeviceFp) == sizeof(ff::Fp) && alignof(DeviceFp) == alignof(ff::Fp));
static_assert(sizeof(DeviceFr) == sizeof(ff::Fr) && alignof(DeviceFr) == alignof(ff::Fr));
static_assert(DeviceFp::kLimbs == 12 && DeviceFr::kLimbs == 8);

}  // namespace cuzk::gpu
