#pragma once
// x86-64 Montgomery multiplication with MULX/ADCX/ADOX (two carry chains in flight), written in
// assembly (mont_x86_64.S). Same contract as mont_mul_portable: inputs < M, output < M,
// out may alias either input. Only call when cpu_has_mont_asm() is true.

#include <cstdint>

#if defined(__x86_64__) && !defined(CUZK_NO_ASM)
#define CUZK_MONT_ASM 1
#endif

namespace cuzk::ff {

// True when this CPU executes MULX (BMI2), ADCX/ADOX (ADX) and BLSI (BMI1).
bool cpu_has_mont_asm() noexcept;
// cpu_has_mont_asm(), unless the environment sets CUZK_NO_ASM=1 (to time or test the portable path).
bool use_mont_asm() noexcept;

// The flag the field types dispatch on; a fact about the machine, fixed at start-up.
inline const bool kUseMontAsm = use_mont_asm();

}  // namespace cuzk::ff

#ifdef CUZK_MONT_ASM
extern "C" {
// out = a*b*2^-384 mod m (6 limbs), m < 2^383.
void cuzk_mont_mul_6(uint64_t out[6], const uint64_t a[6], const uint64_t b[6], const uint64_t m[6],
                     uint64_t m_neg_inv);
void cuzk_mont_sqr_6(uint64_t out[6], const uint64_t a[6], const uint64_t m[6], uint64_t m_neg_inv);
// out = a*b*2^-256 mod m (4 limbs), m < 2^255.
void cuzk_mont_mul_4(uint64_t out[4], const uint64_t a[4], const uint64_t b[4], const uint64_t m[4],
                     uint64_t m_neg_inv);
void cuzk_mont_sqr_4(uint64_t out[4], const uint64_t a[4], const uint64_t m[4], uint64_t m_neg_inv);
// Fp2 = Fp[u]/(u^2 + 1) over the 6-limb modulus m (odd, m < 2^383): 12 limbs, c0 then c1, each in
// Montgomery form (R = 2^384) and < m. out = a*b, i.e. on the raw limbs c0 = (a0 b0 - a1 b1)/R and
// c1 = (a0 b1 + a1 b0)/R mod m, what Fp2::operator* gives (Karatsuba with lazy reduction: three
// 768-bit products, two reductions); out = a^2. Inputs and output fully reduced; out may alias a
// and/or b.
void cuzk_fp2_mul_6(uint64_t out[12], const uint64_t a[12], const uint64_t b[12], const uint64_t m[6],
                    uint64_t m_neg_inv);
void cuzk_fp2_sqr_6(uint64_t out[12], const uint64_t a[12], const uint64_t m[6], uint64_t m_neg_inv);
// Unreduced Fp2 products for lazy reduction (Aranha et al., Eurocrypt 2011, §3-4): out is two
// 768-bit integers V0, V1 (12 limbs each), each in [0, m*2^384), with V0 = a0 b0 - a1 b1 and
// V1 = a0 b1 + a1 b0 modulo m*2^384 (the square: a0^2 - a1^2 and 2 a0 a1). cuzk_fp2_redc_6 maps
// them to what cuzk_fp2_mul_6 / cuzk_fp2_sqr_6 return: out_i = V_i * 2^-384 mod m, fully
// reduced; it requires each V_i < m*2^384. Inputs a, b fully reduced; all input limbs are read
// before out is written.
void cuzk_fp2_mul_wide_6(uint64_t out[24], const uint64_t a[12], const uint64_t b[12], const uint64_t m[6]);
void cuzk_fp2_sqr_wide_6(uint64_t out[24], const uint64_t a[12], const uint64_t m[6]);
void cuzk_fp2_redc_6(uint64_t out[12], const uint64_t in[24], const uint64_t m[6], uint64_t m_neg_inv);
}
#endif
