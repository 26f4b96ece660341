#pragma once
// A prime field in Montgomery form on 32-bit limbs, for CUDA kernels and, compiled as plain C++,
// for the CPU (the tests run it there against ff::Field: decision 6, every kernel has a CPU twin).
//
// Layout: DeviceField<Config> is bit for bit ff::Field<Config>: the same Montgomery value
// (R = 2^(64 * 64-bit limbs) = 2^(32 * 32-bit limbs)), 64-bit limbs little-endian being 32-bit
// limbs little-endian on a little-endian machine; so a CPU array copied to the device needs no
// conversion. Multiplication is CIOS (Koc, Acar, Kaliski 1996) with a 32-bit word: per word b[i],
// t += a*b[i] and t += m*p with m = t[0] * (-p^-1 mod 2^32), then t shifts one word down; by
// default with the partial products split by parity so that each chain adds whole 64-bit
// products (mul_even_odd), squares with each cross product once (sqr_even_odd); the textbook form
// (mul_cios: low halves into t[j], high halves into t[j+1], two chains per product) stays as the
// A/B reference. On the GPU each step is one PTX instruction (mad.lo.cc / madc.hi.cc ...); on
// the CPU the same instruction sequence runs through CarryChain's emulation, so the host tests
// exercise the algorithm that the device runs.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
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

#include "core/hd.hpp"

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
  // The same two, ending the chain (no carry out: the caller knows none can arise).
  CUZK_HD uint32_t addc(uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__)
    uint32_t r;
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
#else
    return addc_cc(a, b);
#endif
  }
  CUZK_HD uint32_t madc_hi(uint32_t a, uint32_t b, uint32_t c) {
#if defined(__CUDA_ARCH__)
    uint32_t r;
    asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
#else
    return madc_hi_cc(a, b, c);
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

// Word I of p^2 (2n 32-bit words): the constant a lazily reduced Fp2 product adds (curve.cuh).
template <class Config>
constexpr uint32_t modulus_squared_word(size_t i) {
  constexpr size_t n = 2 * Config::kModulus.limbs.size();
  uint32_t p[n] = {}, sq[2 * n] = {};
  for (size_t j = 0; j < n; ++j) p[j] = uint32_t(Config::kModulus.limbs[j / 2] >> (32 * (j % 2)));
  for (size_t a = 0; a < n; ++a) {
    uint64_t carry = 0;
    for (size_t b = 0; b < n; ++b) {
      const uint64_t t = uint64_t(p[a]) * p[b] + sq[a + b] + carry;
      sq[a + b] = uint32_t(t);
      carry = t >> 32;
    }
    sq[a + n] = uint32_t(carry);
  }
  return sq[i];
}
template <class Config, size_t I>
inline constexpr uint32_t kModulusSquaredWord = modulus_squared_word<Config>(I);

// hi(a * b), outside any chain.
CUZK_HD uint32_t mul_hi(uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__)
  return __umulhi(a, b);
#else
  return uint32_t((uint64_t(a) * b) >> 32);
#endif
}

// Rows of 64-bit products for the even/odd multiplication below. Each reads a[0], a[2], ...,
// a[len - 2] (the caller passes a or a + 1) and puts a[j] * bi into the word pair
// (acc[j], acc[j + 1]): the lo and hi halves of one product sit next to each other in one chain,
// which ptxas can issue as one 64-bit multiply-add (IMAD.WIDE.U32.X) per product instead of two
// chains of IMAD.LO / IMAD.HI with their own carry-outs (the layout sppark's mont_t uses for this
// reason; measured on the H200, docs/PERF.md 16: Fp mul 1.48x, G1 madd 2.9x the two-chain form).
//   acc = a * bi
template <size_t len>
CUZK_HD void mul_row(uint32_t* acc, const uint32_t* a, uint32_t bi) {
  CUZK_UNROLL for (size_t j = 0; j < len; j += 2) {
    acc[j] = a[j] * bi;
    acc[j + 1] = mul_hi(a[j], bi);
  }
}
//   acc += a * bi + carry in (c continues); its carry out is left in c.
template <size_t len>
CUZK_HD void madc_row(CarryChain& c, uint32_t* acc, const uint32_t* a, uint32_t bi) {
  if constexpr (len != 0) {  // len 0: "j < 0" would be nvcc warning 186
    CUZK_UNROLL for (size_t j = 0; j < len; j += 2) {
      acc[j] = c.madc_lo_cc(a[j], bi, acc[j]);
      acc[j + 1] = c.madc_hi_cc(a[j], bi, acc[j + 1]);
    }
  }
}
//   acc += a * bi, starting chain c; its carry out is left in c.
template <size_t len>
CUZK_HD void mad_row(CarryChain& c, uint32_t* acc, const uint32_t* a, uint32_t bi) {
  acc[0] = c.mad_lo_cc(a[0], bi, acc[0]);
  acc[1] = c.madc_hi_cc(a[0], bi, acc[1]);
  madc_row<len - 2>(c, acc + 2, a + 2, bi);
}
//   acc = (acc >> 64) + a * bi + carry in (c continues), ending the chain: the two top words of
//   the shifted acc are 0 and the sum fits len words (the caller's bound).
template <size_t len>
CUZK_HD void madc_row_shift2(CarryChain& c, uint32_t* acc, const uint32_t* a, uint32_t bi) {
  CUZK_UNROLL for (size_t j = 0; j + 2 < len; j += 2) {
    acc[j] = c.madc_lo_cc(a[j], bi, acc[j + 2]);
    acc[j + 1] = c.madc_hi_cc(a[j], bi, acc[j + 3]);
  }
  acc[len - 2] = c.madc_lo_cc(a[len - 2], bi, 0);
  acc[len - 1] = c.madc_hi(a[len - 2], bi, 0);
}

// Which multiplication DeviceField uses (all give the same bytes):
//   MulEvenOdd        even/odd-split CIOS products, dedicated squaring;
//   MulCios           the textbook CIOS, one chain per product half, for products and squares;
//   MulCiosSqrEvenOdd CIOS products, dedicated squaring. In register-bound kernels (XYZZ madd in
//                     the MSM accumulation) the even/odd product's 2n-word accumulator costs
//                     registers (ptxas: 152 -> 188 for G1 level 1), this one far fewer (161);
//   MulKaratsuba      products by one level of Karatsuba, then redc_wide (a quarter fewer wide
//                     products), dedicated squaring. Fp products alone 1.08x MulEvenOdd's rate,
//                     but its temporaries spill in the kernels: G1 MSM +9 %, H +21 % (docs/PERF.md
//                     52). Kept for bench_gpu_field, so a card with more registers can be measured.
// bench_gpu_field measures them side by side. The default is MulEvenOdd; building with
// -DCUZK_GPU_MUL=1 (MulCios), 2 (MulCiosSqrEvenOdd) or 3 (MulKaratsuba) changes it for every
// kernel, so that a whole-kernel A/B (MSM, NTT) needs no source edit.
struct MulEvenOdd {};
struct MulCios {};
struct MulCiosSqrEvenOdd {};
struct MulKaratsuba {};
#if !defined(CUZK_GPU_MUL) || CUZK_GPU_MUL == 0
using DefaultMul = MulEvenOdd;
#elif CUZK_GPU_MUL == 1
using DefaultMul = MulCios;
#elif CUZK_GPU_MUL == 2
using DefaultMul = MulCiosSqrEvenOdd;
#elif CUZK_GPU_MUL == 3
using DefaultMul = MulKaratsuba;
#else
#error "CUZK_GPU_MUL: 0 (even/odd), 1 (CIOS), 2 (CIOS products, dedicated squaring) or 3 (Karatsuba products)"
#endif

}  // namespace detail

template <class Config, class MulAlgo = detail::DefaultMul>
struct alignas(8) DeviceField {
  using Cpu = ff::Field<Config>;
  static constexpr size_t kLimbs = 2 * Cpu::kLimbs;  // 32-bit words
  // -p^-1 mod 2^32: the low word of the CPU's -p^-1 mod 2^64 (reduction mod 2^32 commutes).
  static constexpr uint32_t kNegInv = uint32_t(Cpu::kNegInv);
  static_assert(uint32_t(detail::kModulusWord<Config, 0> * kNegInv) == 0xffffffffu, "p * (-p^-1) = -1 mod 2^32");
  // a + b of two reduced values must not carry out of the top word.
  static_assert((detail::kModulusWord<Config, kLimbs - 1> >> 31) == 0, "the modulus must leave the top bit free");

  // Lazy reduction (values in [0, 2p) between operations) needs 4p < 2^(32n): the top word of p
  // below 2^30. Fp (p < 2^381, 32n = 384) has it, Fr (r > 2^254, 32n = 256) does not.
  static constexpr bool kLazy = (detail::kModulusWord<Config, kLimbs - 1> >> 30) == 0;
  // Sums of two products before one reduction (product2_even_odd) need 8p < 2^(32n): Fp's top
  // word is below 2^29 (p < 2^381), Fr has no such room.
  static constexpr bool kRoomForSums = (detail::kModulusWord<Config, kLimbs - 1> >> 29) == 0;

  // p = 1 - 2^32 mod 2^64, i.e. words p[0] = 1 and p[1] = 2^32 - 1 (BLS12-381's r: its 2-adicity
  // of 32 comes from this form): then -p^-1 = -1 mod 2^32 and the products' reduction rows start
  // with two products that are adds (reduce_row).
  static constexpr bool kOneAndOnesLow =
      detail::kModulusWord<Config, 0> == 1 && detail::kModulusWord<Config, 1> == 0xffffffffu;
  static_assert(!kOneAndOnesLow || kNegInv == 0xffffffffu);

  uint32_t limbs[kLimbs];  // limbs[0] least significant; no initialiser: trivial, like device memory

  // ---- constants --------------------------------------------------------------------------
  CUZK_HD static DeviceField zero() {
    DeviceField r;
    CUZK_UNROLL for (size_t i = 0; i < kLimbs; ++i) r.limbs[i] = 0;
    return r;
  }
  CUZK_HD static DeviceField one() { return words<true>(std::make_index_sequence<kLimbs>{}); }
  CUZK_HD static DeviceField modulus() { return words<false>(std::make_index_sequence<kLimbs>{}); }
  CUZK_HD static DeviceField twice_modulus() { return twice_p_words(std::make_index_sequence<kLimbs>{}); }

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
  // t = a + b (fits: top bit free), then t - p where that does not borrow.
  CUZK_HD friend DeviceField operator+(const DeviceField& a, const DeviceField& b) {
    return reduce_once(add_unreduced(a, b));
  }
  // t = a - b; add p back where that borrowed.
  CUZK_HD friend DeviceField operator-(const DeviceField& a, const DeviceField& b) {
    return sub_add_back(a, b, modulus());
  }
  CUZK_HD DeviceField operator-() const { return zero() - *this; }
  CUZK_HD DeviceField dbl() const { return *this + *this; }

  CUZK_HD friend DeviceField operator*(const DeviceField& a, const DeviceField& b) {
    if constexpr (std::is_same_v<MulAlgo, detail::MulEvenOdd>) return mul_even_odd(a, b);
    else if constexpr (std::is_same_v<MulAlgo, detail::MulKaratsuba>) return reduce_once(product_karatsuba(a, b));
    else return mul_cios(a, b);
  }

  // CIOS (as mul_cios below) with the partial products split by the parity of a's word index
  // (the trick of sppark's mont_t, re-derived here). The running value is T = E + 2^32 O with two
  // n-word arrays: E gets a[j] * b[i] for even j in its words (j, j + 1), O gets it for odd j in
  // its words (j - 1, j), which are T's words (j, j + 1) (O sits one word up), so every row is a
  // single chain of 64-bit products and needs no carry word of its own.
  // Round i (t = b[i]):  E += a_even t; O += a_odd t; m = E[0] (-p^-1); E += p_even m;
  // O += p_odd m (E[0] is now 0); carries out of E's top word go into O's top word (word n).
  // T / 2^32 = O + E[1..n-1]: O becomes the next round's E and E, shifted down two words, the next
  // round's O (E[1] is added into O[0], at word 0; E[2..] land at O's words 1..), fused with the
  // next round's O += a_odd t as one chain (madc_row_shift2). So rounds alternate the two arrays'
  // roles, and after the last (odd) round the result is (second array) + (first array)[1..].
  // Bounds, as in CIOS: T < 2p before each round, and T + a t + m p <= 2^33 p - 2^32 < 2^(32n+32)
  // because p < 2^(32n-1); every partial sum is below that total, so 2^32 O < 2^(32n+32): no chain
  // into O carries out of its word n - 1, and the dropped carries are 0. The result < 2p < 2^(32n)
  // gets one conditional subtraction of p.
  // Counts: 4n^2 multiply-adds (2n^2 wide products), 3 carry adds per round, n - 1 + n adds at
  // the end; the same as CIOS in IMAD count, half the chains and carry-outs.
  CUZK_HD static DeviceField mul_even_odd(const DeviceField& a, const DeviceField& b) {
    return reduce_once(product_even_odd(a, b));
  }
  // mul_even_odd before its conditional subtraction: a b R^-1 + {0 or p}, below 2p.
  CUZK_HD static DeviceField product_even_odd(const DeviceField& a, const DeviceField& b) {
    return rounds_even_odd(a.limbs, b.limbs);
  }

  // a b - c d, reduced, as one Montgomery product of a sum (docs/PERF.md 50): a b + c (p - d),
  // whose rounds add both operands' rows (a b_i, c (p - d)_i) before one reduction row, so the
  // pair costs 3n^2 multiply-add pairs instead of 4n^2 (product2_even_odd has the bound). The
  // XYZZ formulas' Y3 calls it (ec::mul_sub); mul_sub_lazy is the same on values in [0, 2p).
  CUZK_HD static DeviceField mul_sub(const DeviceField& a, const DeviceField& b, const DeviceField& c,
                                     const DeviceField& d)
    requires kRoomForSums
  {
    if constexpr (std::is_same_v<MulAlgo, detail::MulKaratsuba>) {
      return reduce_once(product2_karatsuba(a, b, c, sub_unreduced(modulus(), d)));
    } else if constexpr (!std::is_same_v<MulAlgo, detail::MulEvenOdd>) {
      return a * b - c * d;
    } else {
      return reduce_once(product2_even_odd(a, b, c, sub_unreduced(modulus(), d)));
    }
  }
  CUZK_HD static DeviceField mul_sub_lazy(const DeviceField& a, const DeviceField& b, const DeviceField& c,
                                          const DeviceField& d)
    requires kRoomForSums
  {
    if constexpr (std::is_same_v<MulAlgo, detail::MulKaratsuba>) {
      return product2_karatsuba(a, b, c, sub_unreduced(twice_modulus(), d));
    } else if constexpr (!std::is_same_v<MulAlgo, detail::MulEvenOdd>) {
      return sub_lazy(mul_unreduced(a, b), mul_unreduced(c, d));
    } else {
      return product2_even_odd(a, b, c, sub_unreduced(twice_modulus(), d));
    }
  }
  // (a b + c d) R^-1 + {0 or p}, below 2p, for a, b, c, d <= 2p. Bound: T < a + c + p <= 5p
  // before each round (T' = (T + (a + c) t + m p) / 2^32 keeps it), so within a round
  // T < 5p 2^32 < 2^(32n + 32); the result (ab + cd + M p) / 2^(32n) < 8p^2 / 2^(32n) + p < 2p.
  // Both need 8p < 2^(32n) (kRoomForSums: Fp, p < 2^381; not Fr, 3r > 2^256).
  CUZK_HD static DeviceField product2_even_odd(const DeviceField& a, const DeviceField& b, const DeviceField& c,
                                               const DeviceField& d)
    requires kRoomForSums
  {
    return rounds_even_odd<true>(a.limbs, b.limbs, c.limbs, d.limbs);
  }

  CUZK_HD DeviceField sqr() const {
    if constexpr (std::is_same_v<MulAlgo, detail::MulCios>) return mul_cios(*this, *this);
    else return sqr_even_odd(*this);
  }

  // a^2 R^-1 mod p, in three steps (SOS-style: the square first, then its reduction):
  //  1. the cross products a_i a_j, i < j, once each, as rows of 64-bit products in two
  //     accumulators by the parity of i + j (s: word k at s[k]; co: word k at co[k - 1]); row i
  //     carries into the word above its top, where no earlier row put a product (cross_rows);
  //  2. s = 2 (s + 2^32 co) + sum a_i^2 2^(64 i): the 2n-word square S < p^2;
  //  3. its Montgomery reduction (redc_wide; S < p^2 < p 2^(32n)).
  // Counts: n(n - 1) + 2n + 2n^2 multiply-adds (Fp: 444 against the product's 576, Fr: 200
  // against 256), and about 10n adds.
  CUZK_HD static DeviceField sqr_even_odd(const DeviceField& x) { return reduce_once(square_even_odd(x)); }
  // sqr_even_odd before its conditional subtraction (below 2p).
  CUZK_HD static DeviceField square_even_odd(const DeviceField& x) {
    constexpr size_t n = kLimbs;
    const uint32_t* a = x.limbs;
    uint32_t s[2 * n], co[2 * n];
    CUZK_UNROLL for (size_t k = 0; k < 2 * n; ++k) s[k] = co[k] = 0;
    // Row 0 fills the accumulators' low words without adding.
    detail::mul_row<n>(co, a + 1, a[0]);         // a_0 a_j, j odd: words j, j + 1
    detail::mul_row<n - 2>(s + 2, a + 2, a[0]);  // a_0 a_j, j even > 0
    cross_rows<1>(s, co, a);
    {  // s += 2^32 co; S < 2^(64n), so the top word takes no carry out
      CarryChain c;
      s[1] = c.add_cc(s[1], co[0]);
      CUZK_UNROLL for (size_t k = 2; k + 1 < 2 * n; ++k) s[k] = c.addc_cc(s[k], co[k - 1]);
      s[2 * n - 1] = c.addc(s[2 * n - 1], co[2 * n - 2]);
    }
    {  // s = 2 s (s[0] = 0)
      CarryChain c;
      s[1] = c.add_cc(s[1], s[1]);
      CUZK_UNROLL for (size_t k = 2; k + 1 < 2 * n; ++k) s[k] = c.addc_cc(s[k], s[k]);
      s[2 * n - 1] = c.addc(s[2 * n - 1], s[2 * n - 1]);
    }
    {  // s += a_i^2 at words (2i, 2i + 1)
      CarryChain c;
      s[0] = c.mad_lo_cc(a[0], a[0], s[0]);
      s[1] = c.madc_hi_cc(a[0], a[0], s[1]);
      CUZK_UNROLL for (size_t i = 1; i + 1 < n; ++i) {
        s[2 * i] = c.madc_lo_cc(a[i], a[i], s[2 * i]);
        s[2 * i + 1] = c.madc_hi_cc(a[i], a[i], s[2 * i + 1]);
      }
      s[2 * n - 2] = c.madc_lo_cc(a[n - 1], a[n - 1], s[2 * n - 2]);
      s[2 * n - 1] = c.madc_hi(a[n - 1], a[n - 1], s[2 * n - 1]);
    }
    return redc_wide_unreduced(s);
  }

  // ---- 2n-word values, for lazy reduction (DeviceFp2T's product) ---------------------------
  // T R^-1 mod p, reduced, for T = t[0..2n) < p 2^(32n) (t is clobbered): Montgomery reduction
  // of L = T mod 2^(32n): n rounds T = (T + m p) / 2^32 from T = L, in the even/odd form of
  // mul_even_odd (each round's shift fused into the next round's odd row, after m is taken from
  // the new low word), giving (L + M p) / 2^(32n) <= p; plus H = T >> 32n < p: the sum is below
  // 2p, one conditional subtraction. Within the rounds T + m p < 2^(32n) + 2^32 p < 2^(32n+32).
  CUZK_HD static DeviceField redc_wide(uint32_t* t) { return reduce_once(redc_wide_unreduced(t)); }
  // redc_wide before its conditional subtraction (below 2p).
  CUZK_HD static DeviceField redc_wide_unreduced(uint32_t* t) {
    constexpr size_t n = kLimbs;
    // E = t[0..n) (= L), O = y. Round 0 has no shift; then the roles alternate.
    uint32_t* lo = t;
    uint32_t y[n];
    {
      const DeviceField p = modulus();
      const uint32_t m = lo[0] * kNegInv;
      detail::mul_row<n>(y, p.limbs + 1, m);
      CarryChain c;
      detail::mad_row<n>(c, lo, p.limbs, m);
      y[n - 1] = c.addc(y[n - 1], 0);
    }
    CUZK_UNROLL for (size_t i = 1; i < n; i += 2) {
      redc_round(y, lo);
      if (i + 1 < n) redc_round(lo, y);
    }
    // The last round (odd) left E = y (y[0] = 0), O = lo: T = lo + y[1..]; then + H.
    DeviceField r = last_round_sum(lo, y);
    {
      CarryChain c;
      r.limbs[0] = c.add_cc(r.limbs[0], t[n]);
      CUZK_UNROLL for (size_t j = 1; j + 1 < n; ++j) r.limbs[j] = c.addc_cc(r.limbs[j], t[n + j]);
      r.limbs[n - 1] = c.addc(r.limbs[n - 1], t[2 * n - 1]);
    }
    return r;
  }

  // out = a b, 2n words, for any n-word a and b: the schoolbook rows in the even/odd layout of
  // mul_even_odd: a_j b_i goes to E at words (i + j, i + j + 1) when i + j is even, to O (word w
  // at o[w - 1]) when it is odd, so every row is two chains of 64-bit products (product_rows);
  // out = E + 2^32 O. 4n^2 multiply-adds, no reduction.
  CUZK_HD static void mul_wide(const uint32_t* a, const uint32_t* b, uint32_t* out) {
    if constexpr (std::is_same_v<MulAlgo, detail::MulKaratsuba>) {
      mul_wide_karatsuba(a, b, out);
      return;
    }
    constexpr size_t n = kLimbs;
    uint32_t e[2 * n], o[2 * n];
    CUZK_UNROLL for (size_t k = 0; k < 2 * n; ++k) e[k] = o[k] = 0;
    detail::mul_row<n>(e, a, b[0]);      // row 0: a_j b_0, j even, at E words j, j + 1
    detail::mul_row<n>(o, a + 1, b[0]);  // j odd: words j, j + 1 = O's j - 1, j
    product_rows<1>(e, o, a, b);
    gather<2 * n>(e, o, out);  // a b < 2^(64n): no carry out
  }
  // out = a b, 2n words, by one level of subtractive Karatsuba (docs/PERF.md 52). With halves of
  // h = n/2 words, a = a0 + X a1, X = 2^(32h), and z0 = a0 b0, z2 = a1 b1:
  //   a b = z0 + X m + X^2 z2,   m = a0 b1 + a1 b0 = z0 + z2 - (a0 - a1)(b0 - b1),
  // the last product as dd = |a0 - a1| |b0 - b1|, subtracted where the two differences have the
  // same sign, added otherwise; m < 2 X^2 takes n + 1 words. Each h-word product is rows of
  // 64-bit products in the even/odd layout (half_rows); z0 and z2 share one pair of arrays.
  // Counts (Fp): 3 h^2 = 108 wide multiply-adds against the schoolbook's n^2 = 144, and about
  // 3h + 2 adds a difference, 2n + n to gather the products, 3n + 6 for m and its place in out.
  CUZK_HD static void mul_wide_karatsuba(const uint32_t* a, const uint32_t* b, uint32_t* out) {
    constexpr size_t n = kLimbs, h = n / 2;
    static_assert(h % 2 == 0, "the halves' rows pair their words");
    uint32_t dd[n], same;  // same: all ones where m = z0 + z2 - dd
    {
      uint32_t da[h], db[h];
      const uint32_t sa = abs_diff<h>(a, a + h, da), sb = abs_diff<h>(b, b + h, db);
      same = ~(sa ^ sb);
      uint32_t e[n], o[n];
      CUZK_UNROLL for (size_t k = 0; k < n; ++k) e[k] = o[k] = 0;
      half_rows<h>(e, o, da, db);
      gather<n>(e, o, dd);  // dd < X^2: no carry out
    }
    {
      uint32_t e[2 * n], o[2 * n];  // z0's O reaches word n - 1 (o[n - 2]); z2's starts at o[n]
      CUZK_UNROLL for (size_t k = 0; k < 2 * n; ++k) e[k] = o[k] = 0;
      half_rows<h>(e, o, a, b);
      half_rows<h>(e + n, o + n, a + h, b + h);
      gather<2 * n>(e, o, out);  // z0 + X^2 z2 < 2^(64n)
    }
    uint32_t m[n + 1];
    {  // m = z0 + z2
      CarryChain c;
      m[0] = c.add_cc(out[0], out[n]);
      CUZK_UNROLL for (size_t j = 1; j < n; ++j) m[j] = c.addc_cc(out[j], out[n + j]);
      m[n] = c.addc(0, 0);
    }
    {  // m += (dd XOR same) + (same & 1): two's complement over n + 1 words, -dd where same.
      CarryChain c;
      c.add_cc(same & 1u, 0xffffffffu);  // the chain's carry in: same & 1
      CUZK_UNROLL for (size_t j = 0; j < n; ++j) m[j] = c.addc_cc(m[j], dd[j] ^ same);
      m[n] = c.addc(m[n], same);
    }
    {  // out += X m; a b < 2^(64n): nothing carries out of the top word
      CarryChain c;
      out[h] = c.add_cc(out[h], m[0]);
      CUZK_UNROLL for (size_t j = 1; j <= n; ++j) out[h + j] = c.addc_cc(out[h + j], m[j]);
      CUZK_UNROLL for (size_t k = h + n + 1; k + 1 < 2 * n; ++k) out[k] = c.addc_cc(out[k], 0);
      out[2 * n - 1] = c.addc(out[2 * n - 1], 0);
    }
  }
  // mul_wide_karatsuba, then the Montgomery reduction: below 2p where a b < p 2^(32n) (redc_wide;
  // the same operands as mul_unreduced's).
  CUZK_HD static DeviceField product_karatsuba(const DeviceField& a, const DeviceField& b) {
    uint32_t t[2 * kLimbs];
    mul_wide_karatsuba(a.limbs, b.limbs, t);
    return redc_wide_unreduced(t);
  }
  // (a b + c d) R^-1 + {0 or p}, below 2p, for a, b, c, d <= 2p: two wide products summed before
  // one reduction (a b + c d < 8p^2 < p 2^(32n): kRoomForSums, as product2_even_odd's bound).
  CUZK_HD static DeviceField product2_karatsuba(const DeviceField& a, const DeviceField& b, const DeviceField& c,
                                                const DeviceField& d)
    requires kRoomForSums
  {
    uint32_t t[2 * kLimbs], u[2 * kLimbs];
    mul_wide_karatsuba(a.limbs, b.limbs, t);
    mul_wide_karatsuba(c.limbs, d.limbs, u);
    add_wide(t, u);
    return redc_wide_unreduced(t);
  }
  // out = |x - y| over len words; returns all ones where x < y, else 0.
  template <size_t len>
  CUZK_HD static uint32_t abs_diff(const uint32_t* x, const uint32_t* y, uint32_t* out) {
    CarryChain c;
    out[0] = c.sub_cc(x[0], y[0]);
    CUZK_UNROLL for (size_t j = 1; j < len; ++j) out[j] = c.subc_cc(x[j], y[j]);
    const uint32_t s = c.subc_cc(0, 0);  // 0 - borrow
    CarryChain d;  // where s: -out = (out XOR s) + 1
    d.add_cc(s & 1u, 0xffffffffu);
    CUZK_UNROLL for (size_t j = 0; j + 1 < len; ++j) out[j] = d.addc_cc(out[j] ^ s, 0);
    out[len - 1] = d.addc(out[len - 1] ^ s, 0);
    return s;
  }
  // out = E + 2^32 O over len words (O's word k at o[k - 1]); the caller knows it fits.
  template <size_t len>
  CUZK_HD static void gather(const uint32_t* e, const uint32_t* o, uint32_t* out) {
    CarryChain c;
    out[0] = e[0];
    out[1] = c.add_cc(e[1], o[0]);
    CUZK_UNROLL for (size_t k = 2; k + 1 < len; ++k) out[k] = c.addc_cc(e[k], o[k - 1]);
    out[len - 1] = c.addc(e[len - 1], o[len - 2]);
  }
  // E + 2^32 O += a b for h-word a, b, into zeros (e[0..2h), o[0..2h - 1)): row i puts a_j b_i
  // with i + j even into E at words (i + j, i + j + 1), the others into O, as product_rows does
  // for n words. A row's top word is fresh (no carry out) or its carry goes to the word above,
  // which no earlier row reached: E rows i >= 2 even, O rows i odd (rows' tops: E h - 1, h + 1,
  // h + 1, h + 3, ...; O h - 1, h - 1, h + 1, h + 1, ...).
  template <size_t h, size_t i = 0>
  CUZK_HD static void half_rows(uint32_t* e, uint32_t* o, const uint32_t* a, const uint32_t* b) {
    if constexpr (i < h) {
      constexpr size_t je = i & 1, eo = i + je, oo = i - je;
      {
        CarryChain c;
        detail::mad_row<h>(c, e + eo, a + je, b[i]);
        if constexpr (i >= 2 && je == 0) e[eo + h] = c.addc(0, 0);
      }
      {
        CarryChain c;
        detail::mad_row<h>(c, o + oo, a + (1 - je), b[i]);
        if constexpr (je == 1) o[oo + h] = c.addc(0, 0);
      }
      half_rows<h, i + 1>(e, o, a, b);
    }
  }
  // x += y (2n words); the caller knows the sum fits.
  CUZK_HD static void add_wide(uint32_t* x, const uint32_t* y) {
    CarryChain c;
    x[0] = c.add_cc(x[0], y[0]);
    CUZK_UNROLL for (size_t k = 1; k + 1 < 2 * kLimbs; ++k) x[k] = c.addc_cc(x[k], y[k]);
    x[2 * kLimbs - 1] = c.addc(x[2 * kLimbs - 1], y[2 * kLimbs - 1]);
  }
  // x -= y (2n words); the caller knows x >= y.
  CUZK_HD static void sub_wide(uint32_t* x, const uint32_t* y) {
    CarryChain c;
    x[0] = c.sub_cc(x[0], y[0]);
    CUZK_UNROLL for (size_t k = 1; k < 2 * kLimbs; ++k) x[k] = c.subc_cc(x[k], y[k]);
  }
  // x += p^2 (2n words); the caller knows the sum fits.
  CUZK_HD static void add_modulus_squared(uint32_t* x) { add_p2_words(x, std::make_index_sequence<2 * kLimbs>{}); }
  // a + b without reduction (< 2^(32n) for reduced a, b: the top bit is free); where `carry` is
  // given, the sum may exceed 2^(32n) and *carry gets the carry out of the top word.
  CUZK_HD static DeviceField add_unreduced(const DeviceField& a, const DeviceField& b, uint32_t* carry = nullptr) {
    DeviceField t;
    CarryChain c;
    t.limbs[0] = c.add_cc(a.limbs[0], b.limbs[0]);
    CUZK_UNROLL for (size_t i = 1; i + 1 < kLimbs; ++i) t.limbs[i] = c.addc_cc(a.limbs[i], b.limbs[i]);
    if (carry == nullptr) {
      t.limbs[kLimbs - 1] = c.addc(a.limbs[kLimbs - 1], b.limbs[kLimbs - 1]);
    } else {
      t.limbs[kLimbs - 1] = c.addc_cc(a.limbs[kLimbs - 1], b.limbs[kLimbs - 1]);
      *carry = c.addc(0, 0);
    }
    return t;
  }

  // a - b for a >= b (no borrow out, nothing added back).
  CUZK_HD static DeviceField sub_unreduced(const DeviceField& a, const DeviceField& b) {
    DeviceField t;
    CarryChain c;
    t.limbs[0] = c.sub_cc(a.limbs[0], b.limbs[0]);
    CUZK_UNROLL for (size_t i = 1; i < kLimbs; ++i) t.limbs[i] = c.subc_cc(a.limbs[i], b.limbs[i]);
    return t;
  }

  // CIOS with n = kLimbs words. Per round i: t += a * b[i], then t += m * p with
  // m = t[0] * (-p^-1) mod 2^32, then t /= 2^32 (KAK96 §4). t < 2p at the end of each round, so a
  // single conditional subtraction reduces. Within a round t stays below
  // (2p - 1) + (p - 1)(2^32 - 1) + p(2^32 - 1) < p 2^33 < 2^(32n + 32) because p < 2^(32n - 1):
  // n + 1 words hold it and nothing carries out of word n, so no chain needs a word n + 1.
  // Each product is two chains (low halves into word j, high halves into word j + 1):
  // 4n^2 multiply-adds and 2n carry adds per multiplication (Fp: 576 + 24, Fr: 256 + 16).
  CUZK_HD static DeviceField mul_cios(const DeviceField& a, const DeviceField& b) {
    return reduce_once(product_cios(a, b));
  }
  // mul_cios before its conditional subtraction (below 2p).
  CUZK_HD static DeviceField product_cios(const DeviceField& a, const DeviceField& b) {
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
    DeviceField r;  // t < 2p < 2^(32n)
    CUZK_UNROLL for (size_t j = 0; j < n; ++j) r.limbs[j] = t[j];
    return r;
  }

  CUZK_HD DeviceField& operator+=(const DeviceField& b) { return *this = *this + b; }
  CUZK_HD DeviceField& operator-=(const DeviceField& b) { return *this = *this - b; }
  CUZK_HD DeviceField& operator*=(const DeviceField& b) { return *this = *this * b; }

  // x^(p-2) = 1/x by Fermat's little theorem (0 for 0): square-and-multiply over the bits of
  // p - 2, top down, ~380 squarings and ~190 products. For batch conversions to affine
  // (gpu/fixed_base.hpp), where one inversion serves a run of points.
  CUZK_HD DeviceField inverse() const {
    uint32_t e[kLimbs];
    const DeviceField p = modulus();
    uint32_t borrow = 2;  // e = p - 2, the borrow carried along (Fr's low word is 1)
    for (size_t i = 0; i < kLimbs; ++i) {
      e[i] = p.limbs[i] - borrow;
      borrow = p.limbs[i] < borrow ? 1 : 0;
    }
    DeviceField r = one();
    for (size_t i = kLimbs; i-- > 0;) {
      for (int bit = 31; bit >= 0; --bit) {
        r = r.sqr();
        if ((e[i] >> bit) & 1) r = r * *this;
      }
    }
    return r;
  }

  // ---- lazy reduction: values in [0, 2p) between operations --------------------------------
  // A Montgomery product before its final subtraction is (a b + M p) / 2^(32n) < a b / 2^(32n) + p,
  // and the rounds' accumulator stays below (a + p) 2^32 (T < a + p before each round, by
  // induction), which n + 1 words hold when a + p <= 2^(32n). So the product is below 2p for
  //  - a < p, b < 2p, in any field here (2p < 2^(32n): the top bit is free), and
  //  - a, b < 2p where kLazy (4p < 2^(32n): a b / 2^(32n) < 4p^2 / 2^(32n) < p; 3p < 2^(32n)).
  // The NTT (Fr: a twiddle times a lazy value) uses the first, the G1 window sums
  // (DeviceXYZZ::add_lazy) the second; each saves the 12- or 8-word subtract-and-select.
  // The operand order matters: a is the reduced one.
  CUZK_HD static DeviceField mul_unreduced(const DeviceField& a, const DeviceField& b) {
    if constexpr (std::is_same_v<MulAlgo, detail::MulEvenOdd>) return product_even_odd(a, b);
    else if constexpr (std::is_same_v<MulAlgo, detail::MulKaratsuba>) return product_karatsuba(a, b);
    else return product_cios(a, b);
  }
  // a^2 for a < 2p, below 2p where kLazy (a^2 < 4p^2 < p 2^(32n), as redc_wide needs).
  CUZK_HD DeviceField sqr_unreduced() const {
    static_assert(kLazy, "needs 4p < 2^(32n)");
    if constexpr (std::is_same_v<MulAlgo, detail::MulCios>) return product_cios(*this, *this);
    else return square_even_odd(*this);
  }
  // a + b for a, b < 2p, less 2p where that does not borrow, or where the sum carried out of the
  // top word (possible unless kLazy: then the 2^(32n) wrap and the subtraction cancel).
  CUZK_HD static DeviceField add_lazy(const DeviceField& a, const DeviceField& b) {
    if constexpr (kLazy) return reduce_below(add_unreduced(a, b), twice_modulus());
    uint32_t carry = 0;
    const DeviceField t = add_unreduced(a, b, &carry);
    return reduce_below(t, twice_modulus(), 0u - carry);
  }
  // a - b for a, b < 2p, plus 2p where that borrowed. `predicated`: see sub_add_back.
  CUZK_HD static DeviceField sub_lazy(const DeviceField& a, const DeviceField& b, bool predicated = false) {
    return sub_add_back(a, b, twice_modulus(), predicated);
  }
  // From [0, 2p) to [0, p).
  CUZK_HD DeviceField reduced() const { return reduce_once(*this); }
  // Zero mod p, for a value in [0, 2p): 0 or p.
  CUZK_HD bool is_zero_lazy() const { return is_zero() || *this == modulus(); }

  // mask all ones: a; mask zero: b (branch-free).
  CUZK_HD static DeviceField select(uint32_t mask, const DeviceField& a, const DeviceField& b) {
    DeviceField r;
    CUZK_UNROLL for (size_t i = 0; i < kLimbs; ++i) r.limbs[i] = (a.limbs[i] & mask) | (b.limbs[i] & ~mask);
    return r;
  }

 private:
  // r < 2p: r - p where that does not borrow, else r.
  CUZK_HD static DeviceField reduce_once(const DeviceField& r) { return reduce_below(r, modulus()); }
  // r < 2m: r - m where that does not borrow, else r; `force` all ones: r - m (mod 2^(32n)) always.
  CUZK_HD static DeviceField reduce_below(const DeviceField& r, const DeviceField& m, uint32_t force = 0) {
    DeviceField s;
    CarryChain d;
    s.limbs[0] = d.sub_cc(r.limbs[0], m.limbs[0]);
    CUZK_UNROLL for (size_t j = 1; j < kLimbs; ++j) s.limbs[j] = d.subc_cc(r.limbs[j], m.limbs[j]);
    const uint32_t borrow = d.subc_cc(0, 0);  // all ones when r < m
    return select(borrow & ~force, r, s);
  }
  // a - b, plus m where that borrowed (a, b < m: the result is in [0, m)). The add-back either
  // adds m & mask (branch-free), or, `predicated`, adds m behind a branch on the borrow, which
  // ptxas turns into predicated adds: n + 1 instructions fewer (no ANDs; Fr: 17 against 25).
  // The NTT's butterflies take the second (2^27 0.6 % faster, docs/PERF.md 19); the MSM kernels,
  // held at their register caps, spill more with it (G1 window sums 404 -> 452 bytes), so they
  // keep the first.
  CUZK_HD static DeviceField sub_add_back(const DeviceField& a, const DeviceField& b, const DeviceField& m,
                                          bool predicated = false) {
    DeviceField t;
    CarryChain c;
    t.limbs[0] = c.sub_cc(a.limbs[0], b.limbs[0]);
    CUZK_UNROLL for (size_t i = 1; i < kLimbs; ++i) t.limbs[i] = c.subc_cc(a.limbs[i], b.limbs[i]);
    const uint32_t mask = c.subc_cc(0, 0);
    if (predicated) {
      if (mask != 0) {
        CarryChain d;
        t.limbs[0] = d.add_cc(t.limbs[0], m.limbs[0]);
        CUZK_UNROLL for (size_t i = 1; i < kLimbs; ++i) t.limbs[i] = d.addc_cc(t.limbs[i], m.limbs[i]);
      }
      return t;
    }
    CarryChain d;
    t.limbs[0] = d.add_cc(t.limbs[0], m.limbs[0] & mask);
    CUZK_UNROLL for (size_t i = 1; i < kLimbs; ++i) t.limbs[i] = d.addc_cc(t.limbs[i], m.limbs[i] & mask);
    return t;
  }

  // Rows i >= 1 of mul_wide. Row i puts a_j b_i for j = i mod 2, i mod 2 + 2, ... into E at
  // words e_off(i) .. e_off(i) + n - 1 and the other j into O at o_off(i) .. (O's indices). A row
  // whose top word no earlier row reached ends there (that word was 0: hi + carry < 2^32);
  // otherwise its carry goes to the word above, which no earlier row reached (static_assert).
  CUZK_HD_CONSTEXPR static size_t e_off(size_t i) { return i + (i & 1); }
  CUZK_HD_CONSTEXPR static size_t o_off(size_t i) { return (i & 1) ? i - 1 : i; }
  CUZK_HD_CONSTEXPR static size_t product_reach(size_t i, bool in_o) {  // highest word rows < i wrote
    size_t r = kLimbs - 1;  // row 0
    for (size_t j = 1; j < i; ++j) {
      const size_t top = (in_o ? o_off(j) : e_off(j)) + kLimbs - 1;
      r = top > r ? top : top + 1;
    }
    return r;
  }
  template <size_t i>
  CUZK_HD static void product_rows(uint32_t* e, uint32_t* o, const uint32_t* a, const uint32_t* b) {
    constexpr size_t n = kLimbs;
    if constexpr (i < n) {
      constexpr size_t j_e = i & 1;  // E takes j = i mod 2 (i + j even), O the other parity
      {
        constexpr size_t top = e_off(i) + n - 1;
        CarryChain c;
        detail::mad_row<n>(c, e + e_off(i), a + j_e, b[i]);
        if constexpr (top <= product_reach(i, false)) {
          static_assert(top == product_reach(i, false) && top + 1 < 2 * n);
          e[top + 1] = c.addc(0, 0);
        }
      }
      {
        constexpr size_t top = o_off(i) + n - 1;
        CarryChain c;
        detail::mad_row<n>(c, o + o_off(i), a + (1 - j_e), b[i]);
        if constexpr (top <= product_reach(i, true)) {
          static_assert(top == product_reach(i, true) && top + 1 < 2 * n - 1);
          o[top + 1] = c.addc(0, 0);
        }
      }
      product_rows<i + 1>(e, o, a, b);
    }
  }
  template <size_t... I>
  CUZK_HD static void add_p2_words(uint32_t* x, std::index_sequence<I...>) {
    constexpr uint32_t w[] = {detail::kModulusSquaredWord<Config, I>...};
    add_wide(x, w);
  }

  // Cross-product rows i >= 1 of sqr_even_odd: a_i a_j for j = i + 1, i + 3, ... into co (pairs
  // co[2i .. 2i + len)) and for j = i + 2, i + 4, ... into s (pairs s[2i + 2 .. 2i + 2 + len)).
  // Where a row's top word is one no earlier row reached (it is 0), hi + carry < 2^32: the row
  // cannot carry out and ends there. Otherwise its carry goes to the word above its top, which no
  // earlier row reached either (static_assert), and is stored there.
  CUZK_HD_CONSTEXPR static size_t co_len(size_t i) { return 2 * ((kLimbs - i) / 2); }
  CUZK_HD_CONSTEXPR static size_t s_len(size_t i) { return 2 * ((kLimbs - i - 1) / 2); }
  // The highest word rows 0..i-1 wrote (products and stored carries), in co's / s's indices;
  // row 0 (mul_row, no carry) reaches word n - 1 in both.
  CUZK_HD_CONSTEXPR static size_t reach(size_t i, bool in_co) {
    size_t r = kLimbs - 1;
    for (size_t j = 1; j < i; ++j) {
      const size_t len = in_co ? co_len(j) : s_len(j);
      if (len == 0) continue;
      const size_t top = (in_co ? 2 * j : 2 * j + 2) + len - 1;
      r = top > r ? top : (top + 1 > r ? top + 1 : r);  // fresh top: no carry; else a carry above
    }
    return r;
  }
  CUZK_HD_CONSTEXPR static size_t co_reach(size_t i) { return reach(i, true); }
  CUZK_HD_CONSTEXPR static size_t s_reach(size_t i) { return reach(i, false); }
  template <size_t i>
  CUZK_HD static void cross_rows(uint32_t* s, uint32_t* co, const uint32_t* a) {
    constexpr size_t n = kLimbs;
    if constexpr (i + 1 < n) {
      {
        constexpr size_t len = co_len(i), top = 2 * i + len - 1;
        CarryChain c;
        detail::mad_row<len>(c, co + 2 * i, a + i + 1, a[i]);
        if constexpr (top <= co_reach(i)) {
          static_assert(top + 1 > co_reach(i) && top + 1 < 2 * n);
          co[top + 1] = c.addc(0, 0);
        }
      }
      if constexpr (i + 2 < n) {
        constexpr size_t len = s_len(i), top = 2 * i + 2 + len - 1;
        CarryChain c;
        detail::mad_row<len>(c, s + 2 * i + 2, a + i + 2, a[i]);
        if constexpr (top <= s_reach(i)) {
          static_assert(top + 1 > s_reach(i) && top + 1 < 2 * n);
          s[top + 1] = c.addc(0, 0);
        }
      }
      cross_rows<i + 1>(s, co, a);
    }
  }
  // A reduction round of sqr_even_odd: e is the previous round's O, o its E (o[0] = 0). The
  // shift's first word (o[1] into e[0]) decides m; the chain's carry then goes on into the odd row.
  CUZK_HD static void redc_round(uint32_t* e, uint32_t* o) {
    const DeviceField p = modulus();
    {
      CarryChain c;
      e[0] = c.add_cc(e[0], o[1]);
      const uint32_t m = e[0] * kNegInv;
      detail::madc_row_shift2<kLimbs>(c, o, p.limbs + 1, m);
      CarryChain d;
      detail::mad_row<kLimbs>(d, e, p.limbs, m);
      o[kLimbs - 1] = d.addc(o[kLimbs - 1], 0);
    }
  }

  // The n rounds of product_even_odd (kSum: of product2_even_odd, each adding c d_i beside a b_i).
  template <bool kSum = false>
  CUZK_HD static DeviceField rounds_even_odd(const uint32_t* a, const uint32_t* b, const uint32_t* c = nullptr,
                                             const uint32_t* d = nullptr) {
    constexpr size_t n = kLimbs;
    static_assert(n % 2 == 0 && n >= 4, "rows pair the words");
    const auto word = [&](size_t i) -> uint32_t {
      if constexpr (kSum) return d[i];
      else return 0;
    };
    uint32_t x[n], y[n];  // rounds 0, 2, ...: E = x, O = y; rounds 1, 3, ...: E = y, O = x
    round_first<kSum>(x, y, a, b[0], c, word(0));
    CUZK_UNROLL for (size_t i = 1; i < n; i += 2) {
      round_next<kSum>(y, x, a, b[i], c, word(i));
      if (i + 1 < n) round_next<kSum>(x, y, a, b[i + 1], c, word(i + 1));
    }
    // The last round (n - 1, odd) left E = y with y[0] = 0 and O = x: the result is x + y[1..].
    return last_round_sum(x, y);
  }
  // o + e[1..] (e / 2^32, e[0] = 0): T after the last of the even/odd rounds (rounds_even_odd,
  // redc_wide), from its O = o and E = e; below 2^(32n) by the rounds' bounds.
  CUZK_HD static DeviceField last_round_sum(const uint32_t* o, const uint32_t* e) {
    constexpr size_t n = kLimbs;
    DeviceField r;
    CarryChain c;
    r.limbs[0] = c.add_cc(o[0], e[1]);
    CUZK_UNROLL for (size_t j = 1; j + 1 < n; ++j) r.limbs[j] = c.addc_cc(o[j], e[j + 1]);
    r.limbs[n - 1] = c.addc(o[n - 1], 0);
    return r;
  }
  // Round 0 of mul_even_odd: E = a_even t, O = a_odd t (no accumulator yet), then the reduction.
  // kSum (product2_even_odd): plus c u, c's rows after a's; O's chain cannot carry out (O is at
  // most the round's total / 2^32 < 2^(32n), by its bound) and E's carry goes to O's top word.
  template <bool kSum = false>
  CUZK_HD static void round_first(uint32_t* e, uint32_t* o, const uint32_t* a, uint32_t t,
                                  const uint32_t* c = nullptr, uint32_t u = 0) {
    detail::mul_row<kLimbs>(o, a + 1, t);
    if constexpr (kSum) {
      CarryChain ch;
      detail::mad_row<kLimbs>(ch, o, c + 1, u);
    }
    detail::mul_row<kLimbs>(e, a, t);
    if constexpr (kSum) {
      CarryChain ch;
      detail::mad_row<kLimbs>(ch, e, c, u);
      o[kLimbs - 1] = ch.addc(o[kLimbs - 1], 0);
    }
    reduce_row(e, o);
  }
  // Rounds 1..n-1: e is the previous round's O, o its E (o[0] = 0): divide by 2^32 while adding
  // a t (see mul_even_odd), kSum: and c u (as in round_first), then the reduction.
  template <bool kSum = false>
  CUZK_HD static void round_next(uint32_t* e, uint32_t* o, const uint32_t* a, uint32_t t,
                                 const uint32_t* c = nullptr, uint32_t u = 0) {
    {
      CarryChain ch;
      e[0] = ch.add_cc(e[0], o[1]);
      detail::madc_row_shift2<kLimbs>(ch, o, a + 1, t);
    }
    if constexpr (kSum) {
      CarryChain ch;
      detail::mad_row<kLimbs>(ch, o, c + 1, u);
    }
    {
      CarryChain ch;
      detail::mad_row<kLimbs>(ch, e, a, t);
      o[kLimbs - 1] = ch.addc(o[kLimbs - 1], 0);  // E's word n carry, at O's top word
    }
    if constexpr (kSum) {
      CarryChain ch;
      detail::mad_row<kLimbs>(ch, e, c, u);
      o[kLimbs - 1] = ch.addc(o[kLimbs - 1], 0);
    }
    reduce_row(e, o);
  }
  // T += m p with m = E[0] (-p^-1) mod 2^32, which makes E[0] = 0.
  CUZK_HD static void reduce_row(uint32_t* e, uint32_t* o) {
    if constexpr (kOneAndOnesLow) return reduce_row_one_and_ones(e, o);
    const DeviceField p = modulus();
    const uint32_t m = e[0] * kNegInv;
    {
      CarryChain c;  // its carry out is 0 (the bound in mul_even_odd)
      detail::mad_row<kLimbs>(c, o, p.limbs + 1, m);
    }
    CarryChain c;
    detail::mad_row<kLimbs>(c, e, p.limbs, m);
    o[kLimbs - 1] = c.addc(o[kLimbs - 1], 0);
  }
  // reduce_row for p[0] = 1, p[1] = 2^32 - 1 (docs/PERF.md 41): m = -E[0], and each row's first
  // product is made of adds:
  //   m p[0] = m:           E[0] + m = 0 mod 2^32, carrying (E[0] != 0); high word 0;
  //   m p[1] = 2^32 m - m:  low word -m = E[0], high word m - (E[0] != 0).
  // Two wide products and the multiply for m become six adds; every word is reduce_row's.
  CUZK_HD static void reduce_row_one_and_ones(uint32_t* e, uint32_t* o) {
    const DeviceField p = modulus();
    const uint32_t e0 = e[0];
    CarryChain s;
    const uint32_t m = s.sub_cc(0, e0);   // borrow: E[0] != 0
    const uint32_t hi = s.subc_cc(m, 0);  // m - (E[0] != 0)
    {
      CarryChain c;  // its carry out is 0 (the bound in mul_even_odd)
      o[0] = c.add_cc(o[0], e0);
      o[1] = c.addc_cc(o[1], hi);
      detail::madc_row<kLimbs - 2>(c, o + 2, p.limbs + 3, m);
    }
    CarryChain c;
    e[0] = c.add_cc(e0, m);  // 0
    e[1] = c.addc_cc(e[1], 0);
    detail::madc_row<kLimbs - 2>(c, e + 2, p.limbs + 2, m);
    o[kLimbs - 1] = c.addc(o[kLimbs - 1], 0);
  }

  // Word i of 2p: p's words shifted up one bit.
  template <size_t... I>
  CUZK_HD static DeviceField twice_p_words(std::index_sequence<I...>) {
    return {{uint32_t((detail::kModulusWord<Config, I> << 1) |
                      (I == 0 ? 0u : detail::kModulusWord<Config, (I == 0 ? 0 : I - 1)> >> 31))...}};
  }
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
