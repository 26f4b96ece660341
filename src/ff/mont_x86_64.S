// Montgomery multiplication and squaring for 6-limb (381-bit Fp) and 4-limb (255-bit Fr) moduli,
// x86-64 System V, Linux ELF, AT&T syntax. Declared in ff/mont_x86_64.hpp; the oracle is
// mont_mul_portable in ff/montgomery.hpp. Uses MULX (BMI2), ADCX/ADOX (ADX) and BLSI (BMI1,
// present on every CPU that has BMI2).
//
// Method. The multiply is CIOS (Koc, Acar, Kaliski, "Analyzing and comparing Montgomery
// multiplication algorithms", IEEE Micro 1996), fully unrolled, with each row "t += x*y_i" done
// as in the Intel white paper "New Instructions Supporting Large Integer Arithmetic on Intel
// Architecture Processors" (2012): MULX leaves the flags alone, the low halves go onto t along
// the CF chain (ADCX) and the high halves along the OF chain (ADOX), so two carry chains are in
// flight at once.
//
// Bounds (R = 2^(64N), m < R/2 because the top bit of m is clear). Between CIOS rows t < 2m < R,
// so t fits N limbs; within a row t + a*b_i + q*m <= 2^64 (2m - 1), so N+1 limbs hold it and
// nothing carries out of the top limb. Each half-row therefore ends by adding the pending carries
// into the top limb, with no limb beyond it. After the last row t < 2m: one branch-free
// conditional subtraction of m.
//
// Squaring computes T = a^2 (2N limbs) with the N(N-1)/2 cross products once, doubled, plus the
// N squares, then u = REDC(T mod R) = (T_lo + Q m)/R <= m and returns T_hi + u - (m or 0);
// T_hi = floor(a^2/R) < m/2, so T_hi + u < 2m and again one subtraction suffices. It is about
// 10% (6 limbs) and 5% (4 limbs) faster than the multiply with b = a.
//
// All functions read every input limb before writing out[], so out may alias a and/or b.
// Leaf functions: the stack is used only above %rsp (pushes, and a frame made by moving %rsp).

#if defined(__CET__)
#define CUZK_ENDBR endbr64
#else
#define CUZK_ENDBR
#endif

        .text

// ---------------------------------------------------------------------------------------------
// Building blocks. Register arguments rotate between rows of the unrolled code: after a
// reduction row the window t1..tN is the new t0..t(N-1) and the old t0 (dead) the new top.

// t = x * y[0] for a zero t (first CIOS row); rdx = y[0]. One carry chain suffices.
.macro ROW0_6 x, lo, t0, t1, t2, t3, t4, t5, t6
        mulx    0(\x), \t0, \t1
        mulx    8(\x), \lo, \t2
        add     \lo, \t1
        mulx    16(\x), \lo, \t3
        adc     \lo, \t2
        mulx    24(\x), \lo, \t4
        adc     \lo, \t3
        mulx    32(\x), \lo, \t5
        adc     \lo, \t4
        mulx    40(\x), \lo, \t6
        adc     \lo, \t5
        adc     $0, \t6
.endm

// t += x * rdx: lo parts on the CF chain, hi parts on the OF chain; the top limb t6 is written
// by the last MULX, then takes both carries (z = 0).
.macro ROW_6 x, lo, hi, z, t0, t1, t2, t3, t4, t5, t6
        xor     \lo, \lo                // CF = OF = 0
        mulx    0(\x), \lo, \hi
        adcx    \lo, \t0
        adox    \hi, \t1
        mulx    8(\x), \lo, \hi
        adcx    \lo, \t1
        adox    \hi, \t2
        mulx    16(\x), \lo, \hi
        adcx    \lo, \t2
        adox    \hi, \t3
        mulx    24(\x), \lo, \hi
        adcx    \lo, \t3
        adox    \hi, \t4
        mulx    32(\x), \lo, \hi
        adcx    \lo, \t4
        adox    \hi, \t5
        mulx    40(\x), \lo, \t6
        adcx    \lo, \t5
        adox    \z, \t6
        adc     $0, \t6                 // close the CF chain (the total fits 7 limbs)
.endm

// q = t0 * m_neg_inv; t = (t + q*m) / 2^64, leaving the quotient in t1..t6 (t0 is dead).
// t0 + lo(q*m0) is 0 mod 2^64 by the choice of q, so that limb is never formed: its carry is
// (t0 != 0), which BLSI puts in CF (clearing OF) before q is known and without an ADCX.
.macro REDC_6 m, ninv, lo, hi, t0, t1, t2, t3, t4, t5, t6
        mov     \t0, %rdx
        imul    \ninv, %rdx             // q = t0 * m_neg_inv mod 2^64
        blsi    \t0, \lo                // CF = (t0 != 0), OF = 0
        mulx    0(\m), \hi, \hi         // hi(q*m0) only
        adox    \hi, \t1
        mulx    8(\m), \lo, \hi
        adcx    \lo, \t1
        adox    \hi, \t2
        mulx    16(\m), \lo, \hi
        adcx    \lo, \t2
        adox    \hi, \t3
        mulx    24(\m), \lo, \hi
        adcx    \lo, \t3
        adox    \hi, \t4
        mulx    32(\m), \lo, \hi
        adcx    \lo, \t4
        adox    \hi, \t5
        mulx    40(\m), \lo, \hi
        adcx    \lo, \t5
        adox    \hi, \t6                // the sum fits 7 limbs: no OF out
        adc     $0, \t6
.endm

// The same for a window whose top limb is still empty (the squaring's reduction of T_lo):
// hi(q*m5) is written straight into t6, which then takes both carries (z = 0).
.macro REDCZ_6 m, ninv, lo, hi, z, t0, t1, t2, t3, t4, t5, t6
        mov     \t0, %rdx
        imul    \ninv, %rdx
        blsi    \t0, \lo
        mulx    0(\m), \hi, \hi
        adox    \hi, \t1
        mulx    8(\m), \lo, \hi
        adcx    \lo, \t1
        adox    \hi, \t2
        mulx    16(\m), \lo, \hi
        adcx    \lo, \t2
        adox    \hi, \t3
        mulx    24(\m), \lo, \hi
        adcx    \lo, \t3
        adox    \hi, \t4
        mulx    32(\m), \lo, \hi
        adcx    \lo, \t4
        adox    \hi, \t5
        mulx    40(\m), \lo, \t6
        adcx    \lo, \t5
        adox    \z, \t6
        adc     $0, \t6
.endm

// out = t - m if that does not borrow, else t (t < 2m); s0..s5 are scratch.
.macro FINAL_6 out, m, t0, t1, t2, t3, t4, t5, s0, s1, s2, s3, s4, s5
        mov     \t0, \s0
        sub     0(\m), \s0
        mov     \t1, \s1
        sbb     8(\m), \s1
        mov     \t2, \s2
        sbb     16(\m), \s2
        mov     \t3, \s3
        sbb     24(\m), \s3
        mov     \t4, \s4
        sbb     32(\m), \s4
        mov     \t5, \s5
        sbb     40(\m), \s5
        cmovnc  \s0, \t0                // no borrow: t >= m, keep t - m
        cmovnc  \s1, \t1
        cmovnc  \s2, \t2
        cmovnc  \s3, \t3
        cmovnc  \s4, \t4
        cmovnc  \s5, \t5
        mov     \t0, 0(\out)
        mov     \t1, 8(\out)
        mov     \t2, 16(\out)
        mov     \t3, 24(\out)
        mov     \t4, 32(\out)
        mov     \t5, 40(\out)
.endm

// 4-limb versions of the above, window t0..t4.
.macro ROW0_4 x, lo, t0, t1, t2, t3, t4
        mulx    0(\x), \t0, \t1
        mulx    8(\x), \lo, \t2
        add     \lo, \t1
        mulx    16(\x), \lo, \t3
        adc     \lo, \t2
        mulx    24(\x), \lo, \t4
        adc     \lo, \t3
        adc     $0, \t4
.endm

.macro ROW_4 x, lo, hi, z, t0, t1, t2, t3, t4
        xor     \lo, \lo
        mulx    0(\x), \lo, \hi
        adcx    \lo, \t0
        adox    \hi, \t1
        mulx    8(\x), \lo, \hi
        adcx    \lo, \t1
        adox    \hi, \t2
        mulx    16(\x), \lo, \hi
        adcx    \lo, \t2
        adox    \hi, \t3
        mulx    24(\x), \lo, \t4
        adcx    \lo, \t3
        adox    \z, \t4
        adc     $0, \t4
.endm

.macro REDC_4 m, ninv, lo, hi, t0, t1, t2, t3, t4
        mov     \t0, %rdx
        imul    \ninv, %rdx
        blsi    \t0, \lo
        mulx    0(\m), \hi, \hi
        adox    \hi, \t1
        mulx    8(\m), \lo, \hi
        adcx    \lo, \t1
        adox    \hi, \t2
        mulx    16(\m), \lo, \hi
        adcx    \lo, \t2
        adox    \hi, \t3
        mulx    24(\m), \lo, \hi
        adcx    \lo, \t3
        adox    \hi, \t4
        adc     $0, \t4
.endm

.macro REDCZ_4 m, ninv, lo, hi, z, t0, t1, t2, t3, t4
        mov     \t0, %rdx
        imul    \ninv, %rdx
        blsi    \t0, \lo
        mulx    0(\m), \hi, \hi
        adox    \hi, \t1
        mulx    8(\m), \lo, \hi
        adcx    \lo, \t1
        adox    \hi, \t2
        mulx    16(\m), \lo, \hi
        adcx    \lo, \t2
        adox    \hi, \t3
        mulx    24(\m), \lo, \t4
        adcx    \lo, \t3
        adox    \z, \t4
        adc     $0, \t4
.endm

.macro FINAL_4 out, m, t0, t1, t2, t3, s0, s1, s2, s3
        mov     \t0, \s0
        sub     0(\m), \s0
        mov     \t1, \s1
        sbb     8(\m), \s1
        mov     \t2, \s2
        sbb     16(\m), \s2
        mov     \t3, \s3
        sbb     24(\m), \s3
        cmovnc  \s0, \t0
        cmovnc  \s1, \t1
        cmovnc  \s2, \t2
        cmovnc  \s3, \t3
        mov     \t0, 0(\out)
        mov     \t1, 8(\out)
        mov     \t2, 16(\out)
        mov     \t3, 24(\out)
.endm

// ---------------------------------------------------------------------------------------------
// void cuzk_mont_mul_6(uint64_t out[6], const uint64_t a[6], const uint64_t b[6],
//                      const uint64_t m[6], uint64_t m_neg_inv)
// rdi = out, rsi = a, r9 = b (moved from rdx), rcx = m, m_neg_inv at 0(%rsp), r8 = 0,
// rax/rbx = lo/hi, window t = rbp r10 r11 r12 r13 r14 r15 (rotating one limb per row).

        .globl  cuzk_mont_mul_6
        .type   cuzk_mont_mul_6, @function
        .p2align 5
cuzk_mont_mul_6:
        CUZK_ENDBR
        push    %rbx
        push    %rbp
        push    %r12
        push    %r13
        push    %r14
        push    %r15
        push    %r8                     // m_neg_inv, read by IMUL from memory
        xor     %r8d, %r8d              // z = 0
        mov     %rdx, %r9

        mov     0(%r9), %rdx            // row 0: t = a*b0, then reduce
        ROW0_6  %rsi, %rax, %rbp, %r10, %r11, %r12, %r13, %r14, %r15
        REDC_6  %rcx, 0(%rsp), %rax, %rbx, %rbp, %r10, %r11, %r12, %r13, %r14, %r15

        mov     8(%r9), %rdx            // row 1: t += a*b1, reduce
        ROW_6   %rsi, %rax, %rbx, %r8, %r10, %r11, %r12, %r13, %r14, %r15, %rbp
        REDC_6  %rcx, 0(%rsp), %rax, %rbx, %r10, %r11, %r12, %r13, %r14, %r15, %rbp

        mov     16(%r9), %rdx           // row 2: t += a*b2, reduce
        ROW_6   %rsi, %rax, %rbx, %r8, %r11, %r12, %r13, %r14, %r15, %rbp, %r10
        REDC_6  %rcx, 0(%rsp), %rax, %rbx, %r11, %r12, %r13, %r14, %r15, %rbp, %r10

        mov     24(%r9), %rdx           // row 3: t += a*b3, reduce
        ROW_6   %rsi, %rax, %rbx, %r8, %r12, %r13, %r14, %r15, %rbp, %r10, %r11
        REDC_6  %rcx, 0(%rsp), %rax, %rbx, %r12, %r13, %r14, %r15, %rbp, %r10, %r11

        mov     32(%r9), %rdx           // row 4: t += a*b4, reduce
        ROW_6   %rsi, %rax, %rbx, %r8, %r13, %r14, %r15, %rbp, %r10, %r11, %r12
        REDC_6  %rcx, 0(%rsp), %rax, %rbx, %r13, %r14, %r15, %rbp, %r10, %r11, %r12

        mov     40(%r9), %rdx           // row 5: t += a*b5, reduce
        ROW_6   %rsi, %rax, %rbx, %r8, %r14, %r15, %rbp, %r10, %r11, %r12, %r13
        REDC_6  %rcx, 0(%rsp), %rax, %rbx, %r14, %r15, %rbp, %r10, %r11, %r12, %r13

        // t = r15 rbp r10 r11 r12 r13 < 2m: subtract m once if t >= m, store
        FINAL_6 %rdi, %rcx, %r15, %rbp, %r10, %r11, %r12, %r13, %rax, %rbx, %rdx, %rsi, %r8, %r9

        pop     %r8
        pop     %r15
        pop     %r14
        pop     %r13
        pop     %r12
        pop     %rbp
        pop     %rbx
        ret
        .size   cuzk_mont_mul_6, .-cuzk_mont_mul_6

// ---------------------------------------------------------------------------------------------
// void cuzk_mont_sqr_6(uint64_t out[6], const uint64_t a[6], const uint64_t m[6],
//                      uint64_t m_neg_inv)
// Frame: 0..40(%rsp) = T_hi (limbs 6..11 of a^2), 48 = out, 56 = m, 64 = m_neg_inv.
// Square phase: rsi = a, rax/rbx = lo/hi, r0..r10 = rcx rdi rbp r8 r9 r10 r11 r12 r13 r14 r15.

        .globl  cuzk_mont_sqr_6
        .type   cuzk_mont_sqr_6, @function
        .p2align 5
cuzk_mont_sqr_6:
        CUZK_ENDBR
        push    %rbx
        push    %rbp
        push    %r12
        push    %r13
        push    %r14
        push    %r15
        sub     $72, %rsp
        mov     %rdi, 48(%rsp)
        mov     %rdx, 56(%rsp)
        mov     %rcx, 64(%rsp)

        // cross products S = sum_{i<j} a_i a_j 2^(64(i+j)), in r1..r10
        mov     0(%rsi), %rdx           // a0 * (a1..a5) -> r1..r6, one chain
        mulx    8(%rsi), %rdi, %rbp
        mulx    16(%rsi), %rax, %r8
        add     %rax, %rbp
        mulx    24(%rsi), %rax, %r9
        adc     %rax, %r8
        mulx    32(%rsi), %rax, %r10
        adc     %rax, %r9
        mulx    40(%rsi), %rax, %r11
        adc     %rax, %r10
        adc     $0, %r11

        mov     8(%rsi), %rdx           // + a1 * (a2..a5) at limbs 3..7
        xor     %r12d, %r12d            // r7 = 0, CF = OF = 0
        mulx    16(%rsi), %rax, %rbx
        adcx    %rax, %r8
        adox    %rbx, %r9
        mulx    24(%rsi), %rax, %rbx
        adcx    %rax, %r9
        adox    %rbx, %r10
        mulx    32(%rsi), %rax, %rbx
        adcx    %rax, %r10
        adox    %rbx, %r11
        mulx    40(%rsi), %rax, %rbx
        adcx    %rax, %r11
        adox    %rbx, %r12
        adc     $0, %r12

        mov     16(%rsi), %rdx          // + a2 * (a3..a5) at limbs 5..8
        xor     %r13d, %r13d
        mulx    24(%rsi), %rax, %rbx
        adcx    %rax, %r10
        adox    %rbx, %r11
        mulx    32(%rsi), %rax, %rbx
        adcx    %rax, %r11
        adox    %rbx, %r12
        mulx    40(%rsi), %rax, %rbx
        adcx    %rax, %r12
        adox    %rbx, %r13
        adc     $0, %r13

        mov     24(%rsi), %rdx          // + a3 * (a4, a5) at limbs 7..9
        xor     %r14d, %r14d
        mulx    32(%rsi), %rax, %rbx
        adcx    %rax, %r12
        adox    %rbx, %r13
        mulx    40(%rsi), %rax, %rbx
        adcx    %rax, %r13
        adox    %rbx, %r14
        adc     $0, %r14

        mov     32(%rsi), %rdx          // + a4 * a5 at limbs 9..10
        mulx    40(%rsi), %rax, %r15
        add     %rax, %r14
        adc     $0, %r15

        // T = 2S + sum a_i^2 2^(128i): doubling on the CF chain, squares on the OF chain
        xor     %ecx, %ecx
        mov     0(%rsi), %rdx
        mulx    %rdx, %rcx, %rbx        // r0 = lo(a0^2)
        adcx    %rdi, %rdi
        adox    %rbx, %rdi
        mov     8(%rsi), %rdx
        mulx    %rdx, %rax, %rbx
        adcx    %rbp, %rbp
        adox    %rax, %rbp
        adcx    %r8, %r8
        adox    %rbx, %r8
        mov     16(%rsi), %rdx
        mulx    %rdx, %rax, %rbx
        adcx    %r9, %r9
        adox    %rax, %r9
        adcx    %r10, %r10
        adox    %rbx, %r10
        mov     24(%rsi), %rdx
        mulx    %rdx, %rax, %rbx
        adcx    %r11, %r11
        adox    %rax, %r11
        adcx    %r12, %r12
        adox    %rbx, %r12
        mov     32(%rsi), %rdx
        mulx    %rdx, %rax, %rbx
        adcx    %r13, %r13
        adox    %rax, %r13
        adcx    %r14, %r14
        adox    %rbx, %r14
        mov     40(%rsi), %rdx
        mulx    %rdx, %rax, %rbx        // r11 = rbx = hi(a5^2) + both carries
        adcx    %r15, %r15
        adox    %rax, %r15
        mov     $0, %esi                // a no longer needed; MOV keeps the flags
        adcx    %rsi, %rbx
        adox    %rsi, %rbx

        // park T_hi = r6..r11 on the stack
        mov     %r11, 0(%rsp)
        mov     %r12, 8(%rsp)
        mov     %r13, 16(%rsp)
        mov     %r14, 24(%rsp)
        mov     %r15, 32(%rsp)
        mov     %rbx, 40(%rsp)

        // u = REDC(T_lo): window rcx rdi rbp r8 r9 r10, top rsi; m in r11, m_neg_inv in r12, z = r13
        mov     56(%rsp), %r11
        mov     64(%rsp), %r12
        xor     %r13d, %r13d
        REDCZ_6 %r11, %r12, %rax, %rbx, %r13, %rcx, %rdi, %rbp, %r8, %r9, %r10, %rsi
        REDCZ_6 %r11, %r12, %rax, %rbx, %r13, %rdi, %rbp, %r8, %r9, %r10, %rsi, %rcx
        REDCZ_6 %r11, %r12, %rax, %rbx, %r13, %rbp, %r8, %r9, %r10, %rsi, %rcx, %rdi
        REDCZ_6 %r11, %r12, %rax, %rbx, %r13, %r8, %r9, %r10, %rsi, %rcx, %rdi, %rbp
        REDCZ_6 %r11, %r12, %rax, %rbx, %r13, %r9, %r10, %rsi, %rcx, %rdi, %rbp, %r8
        REDCZ_6 %r11, %r12, %rax, %rbx, %r13, %r10, %rsi, %rcx, %rdi, %rbp, %r8, %r9

        // t = u + T_hi < 2m (u in rsi rcx rdi rbp r8 r9), then subtract m once if t >= m
        add     0(%rsp), %rsi
        adc     8(%rsp), %rcx
        adc     16(%rsp), %rdi
        adc     24(%rsp), %rbp
        adc     32(%rsp), %r8
        adc     40(%rsp), %r9
        mov     48(%rsp), %r15
        FINAL_6 %r15, %r11, %rsi, %rcx, %rdi, %rbp, %r8, %r9, %rax, %rbx, %rdx, %r10, %r13, %r14

        add     $72, %rsp
        pop     %r15
        pop     %r14
        pop     %r13
        pop     %r12
        pop     %rbp
        pop     %rbx
        ret
        .size   cuzk_mont_sqr_6, .-cuzk_mont_sqr_6

// ---------------------------------------------------------------------------------------------
// void cuzk_mont_mul_4(uint64_t out[4], const uint64_t a[4], const uint64_t b[4],
//                      const uint64_t m[4], uint64_t m_neg_inv)
// rdi = out, rsi = a, r9 = b, rcx = m, r8 = m_neg_inv, r14 = 0, rax/r10 = lo/hi,
// window t = r11 rbx rbp r12 r13 (rotating).

        .globl  cuzk_mont_mul_4
        .type   cuzk_mont_mul_4, @function
        .p2align 5
cuzk_mont_mul_4:
        CUZK_ENDBR
        push    %rbx
        push    %rbp
        push    %r12
        push    %r13
        push    %r14
        xor     %r14d, %r14d
        mov     %rdx, %r9

        mov     0(%r9), %rdx            // row 0: t = a*b0, reduce
        ROW0_4  %rsi, %rax, %r11, %rbx, %rbp, %r12, %r13
        REDC_4  %rcx, %r8, %rax, %r10, %r11, %rbx, %rbp, %r12, %r13

        mov     8(%r9), %rdx            // row 1
        ROW_4   %rsi, %rax, %r10, %r14, %rbx, %rbp, %r12, %r13, %r11
        REDC_4  %rcx, %r8, %rax, %r10, %rbx, %rbp, %r12, %r13, %r11

        mov     16(%r9), %rdx           // row 2
        ROW_4   %rsi, %rax, %r10, %r14, %rbp, %r12, %r13, %r11, %rbx
        REDC_4  %rcx, %r8, %rax, %r10, %rbp, %r12, %r13, %r11, %rbx

        mov     24(%r9), %rdx           // row 3
        ROW_4   %rsi, %rax, %r10, %r14, %r12, %r13, %r11, %rbx, %rbp
        REDC_4  %rcx, %r8, %rax, %r10, %r12, %r13, %r11, %rbx, %rbp

        // t = r13 r11 rbx rbp < 2m
        FINAL_4 %rdi, %rcx, %r13, %r11, %rbx, %rbp, %rax, %r10, %rdx, %rsi

        pop     %r14
        pop     %r13
        pop     %r12
        pop     %rbp
        pop     %rbx
        ret
        .size   cuzk_mont_mul_4, .-cuzk_mont_mul_4

// ---------------------------------------------------------------------------------------------
// void cuzk_mont_sqr_4(uint64_t out[4], const uint64_t a[4], const uint64_t m[4],
//                      uint64_t m_neg_inv)
// rdi = out, rsi = a, r8 = m (moved from rdx), m_neg_inv at 0(%rsp), rax/r9 = lo/hi,
// r0..r7 = r10 r11 rbx rbp r12 r13 r14 r15; rcx = 0 in the reduction.

        .globl  cuzk_mont_sqr_4
        .type   cuzk_mont_sqr_4, @function
        .p2align 5
cuzk_mont_sqr_4:
        CUZK_ENDBR
        push    %rbx
        push    %rbp
        push    %r12
        push    %r13
        push    %r14
        push    %r15
        push    %rcx                    // m_neg_inv, read by IMUL from memory
        mov     %rdx, %r8

        // cross products in r1..r6
        mov     0(%rsi), %rdx           // a0 * (a1..a3) -> r1..r4
        mulx    8(%rsi), %r11, %rbx
        mulx    16(%rsi), %rax, %rbp
        add     %rax, %rbx
        mulx    24(%rsi), %rax, %r12
        adc     %rax, %rbp
        adc     $0, %r12

        mov     8(%rsi), %rdx           // + a1 * (a2, a3) at limbs 3..5
        xor     %r13d, %r13d
        mulx    16(%rsi), %rax, %r9
        adcx    %rax, %rbp
        adox    %r9, %r12
        mulx    24(%rsi), %rax, %r9
        adcx    %rax, %r12
        adox    %r9, %r13
        adc     $0, %r13

        mov     16(%rsi), %rdx          // + a2 * a3 at limbs 5..6
        mulx    24(%rsi), %rax, %r14
        add     %rax, %r13
        adc     $0, %r14

        // T = 2S + squares: doubling on CF, squares on OF
        xor     %r10d, %r10d
        mov     0(%rsi), %rdx
        mulx    %rdx, %r10, %r9
        adcx    %r11, %r11
        adox    %r9, %r11
        mov     8(%rsi), %rdx
        mulx    %rdx, %rax, %r9
        adcx    %rbx, %rbx
        adox    %rax, %rbx
        adcx    %rbp, %rbp
        adox    %r9, %rbp
        mov     16(%rsi), %rdx
        mulx    %rdx, %rax, %r9
        adcx    %r12, %r12
        adox    %rax, %r12
        adcx    %r13, %r13
        adox    %r9, %r13
        mov     24(%rsi), %rdx
        mulx    %rdx, %rax, %r15        // r7 = hi(a3^2) + both carries
        adcx    %r14, %r14
        adox    %rax, %r14
        mov     $0, %esi                // MOV keeps the flags
        adcx    %rsi, %r15
        adox    %rsi, %r15

        // u = REDC(T_lo): window r10 r11 rbx rbp, top rsi, z = rcx
        xor     %ecx, %ecx
        REDCZ_4 %r8, 0(%rsp), %rax, %r9, %rcx, %r10, %r11, %rbx, %rbp, %rsi
        REDCZ_4 %r8, 0(%rsp), %rax, %r9, %rcx, %r11, %rbx, %rbp, %rsi, %r10
        REDCZ_4 %r8, 0(%rsp), %rax, %r9, %rcx, %rbx, %rbp, %rsi, %r10, %r11
        REDCZ_4 %r8, 0(%rsp), %rax, %r9, %rcx, %rbp, %rsi, %r10, %r11, %rbx

        // t = u + T_hi (u in rsi r10 r11 rbx, T_hi in r12..r15) < 2m
        add     %r12, %rsi
        adc     %r13, %r10
        adc     %r14, %r11
        adc     %r15, %rbx
        FINAL_4 %rdi, %r8, %rsi, %r10, %r11, %rbx, %rax, %r9, %rdx, %rbp

        pop     %rcx
        pop     %r15
        pop     %r14
        pop     %r13
        pop     %r12
        pop     %rbp
        pop     %rbx
        ret
        .size   cuzk_mont_sqr_4, .-cuzk_mont_sqr_4

// ---------------------------------------------------------------------------------------------
// No executable stack; under -fcf-protection also mark the object IBT/SHSTK compatible (every
// entry starts with endbr64, and control leaves only by ret).
        .section .note.GNU-stack,"",@progbits

#if defined(__CET__)
        .section .note.gnu.property,"a",@note
        .p2align 3
        .long   4                       // n_namesz
        .long   16                      // n_descsz
        .long   5                       // NT_GNU_PROPERTY_TYPE_0
        .asciz  "GNU"
        .long   0xc0000002              // GNU_PROPERTY_X86_FEATURE_1_AND
        .long   4                       // pr_datasz
        .long   (__CET__ & 3)           // IBT = 1, SHSTK = 2
        .p2align 3
#endif
