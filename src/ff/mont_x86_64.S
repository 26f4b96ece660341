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

// =============================================================================================
// Fp2 = Fp[u]/(u^2 + 1) over a 6-limb modulus m: elements are 12 limbs, c0 then c1, each a
// Montgomery residue (R = 2^384) < m. Declared in ff/mont_x86_64.hpp.
//
// Method: Karatsuba with lazy reduction (Aranha, Karabina, Longa, Gebotys, Lopez, "Faster
// explicit formulas for computing pairings over ordinary curves", Eurocrypt 2011, §3). The
// products are formed as full 768-bit integers, combined unreduced, and only the two output
// coordinates are Montgomery-reduced: 3 products + 2 reductions instead of 3 + 3.
//
// Bound: m odd and m < 2^383 (top bit of the top limb clear), as for cuzk_mont_mul_6; BLS12-381's
// p < 2^381 leaves two bits more. Then a sum of two residues is < 2m < 2^384 (6 limbs, no
// carry out), a product of two such sums is < 4m^2 < 2^768 (12 limbs), and every value V that is
// reduced below satisfies 0 <= V < m*2^384.
//
// Reduction of a 12-limb V = V_hi*2^384 + V_lo: six word-by-word REDC steps on V_lo alone give
// u = (V_lo + Q*m)/2^384 <= m, with Q < 2^384 chosen so that 2^384 divides V_lo + Q*m; then
// u + V_hi = (V + Q*m)/2^384, which is V*2^-384 mod m and < (m*2^384 + 2^384*m)/2^384 = 2m: it
// fits 6 limbs, and one conditional subtraction of m makes it fully reduced.

// t = x * rdx for a zero t (first row of a product), x at xo(x); one carry chain.
.macro PROW0_6 x, xo, lo, t0, t1, t2, t3, t4, t5, t6
        mulx    \xo+0(\x), \t0, \t1
        mulx    \xo+8(\x), \lo, \t2
        add     \lo, \t1
        mulx    \xo+16(\x), \lo, \t3
        adc     \lo, \t2
        mulx    \xo+24(\x), \lo, \t4
        adc     \lo, \t3
        mulx    \xo+32(\x), \lo, \t5
        adc     \lo, \t4
        mulx    \xo+40(\x), \lo, \t6
        adc     \lo, \t5
        adc     $0, \t6
.endm

// t += x * rdx (t0..t5 in, t6 written): lo halves on CF, hi halves on OF, z = 0. The window is
// < 2^384 and x*rdx < 2^384 * (2^64 - 1), so the sum fits 7 limbs.
.macro PROW_6 x, xo, lo, hi, z, t0, t1, t2, t3, t4, t5, t6
        xor     \lo, \lo                // CF = OF = 0
        mulx    \xo+0(\x), \lo, \hi
        adcx    \lo, \t0
        adox    \hi, \t1
        mulx    \xo+8(\x), \lo, \hi
        adcx    \lo, \t1
        adox    \hi, \t2
        mulx    \xo+16(\x), \lo, \hi
        adcx    \lo, \t2
        adox    \hi, \t3
        mulx    \xo+24(\x), \lo, \hi
        adcx    \lo, \t3
        adox    \hi, \t4
        mulx    \xo+32(\x), \lo, \hi
        adcx    \lo, \t4
        adox    \hi, \t5
        mulx    \xo+40(\x), \lo, \t6
        adcx    \lo, \t5
        adox    \z, \t6
        adc     $0, \t6
.endm

// The 768-bit product x*y (x at xo(x), y at yo(y)), schoolbook by rows of y's limbs. Limbs 0..5
// are stored to d(%rsp) as they complete; limbs 6..11 are left in t6 t0 t1 t2 t3 t4 (t5 free).
.macro PROD_6 x, xo, y, yo, d, lo, hi, z, t0, t1, t2, t3, t4, t5, t6
        mov     \yo+0(\y), %rdx
        PROW0_6 \x, \xo, \lo, \t0, \t1, \t2, \t3, \t4, \t5, \t6
        mov     \t0, \d+0(%rsp)
        mov     \yo+8(\y), %rdx
        PROW_6  \x, \xo, \lo, \hi, \z, \t1, \t2, \t3, \t4, \t5, \t6, \t0
        mov     \t1, \d+8(%rsp)
        mov     \yo+16(\y), %rdx
        PROW_6  \x, \xo, \lo, \hi, \z, \t2, \t3, \t4, \t5, \t6, \t0, \t1
        mov     \t2, \d+16(%rsp)
        mov     \yo+24(\y), %rdx
        PROW_6  \x, \xo, \lo, \hi, \z, \t3, \t4, \t5, \t6, \t0, \t1, \t2
        mov     \t3, \d+24(%rsp)
        mov     \yo+32(\y), %rdx
        PROW_6  \x, \xo, \lo, \hi, \z, \t4, \t5, \t6, \t0, \t1, \t2, \t3
        mov     \t4, \d+32(%rsp)
        mov     \yo+40(\y), %rdx
        PROW_6  \x, \xo, \lo, \hi, \z, \t5, \t6, \t0, \t1, \t2, \t3, \t4
        mov     \t5, \d+40(%rsp)
.endm

// u = REDC(w0..w5) by six REDCZ_6 steps (w6 is scratch, z = 0); u is left in w6 w0 w1 w2 w3 w4.
.macro REDC6X_6 m, ninv, lo, hi, z, w0, w1, w2, w3, w4, w5, w6
        REDCZ_6 \m, \ninv, \lo, \hi, \z, \w0, \w1, \w2, \w3, \w4, \w5, \w6
        REDCZ_6 \m, \ninv, \lo, \hi, \z, \w1, \w2, \w3, \w4, \w5, \w6, \w0
        REDCZ_6 \m, \ninv, \lo, \hi, \z, \w2, \w3, \w4, \w5, \w6, \w0, \w1
        REDCZ_6 \m, \ninv, \lo, \hi, \z, \w3, \w4, \w5, \w6, \w0, \w1, \w2
        REDCZ_6 \m, \ninv, \lo, \hi, \z, \w4, \w5, \w6, \w0, \w1, \w2, \w3
        REDCZ_6 \m, \ninv, \lo, \hi, \z, \w5, \w6, \w0, \w1, \w2, \w3, \w4
.endm

// t += 6 limbs at h(%rsp) (the sum is known to fit 6 limbs).
.macro ADDHI_6 h, t0, t1, t2, t3, t4, t5
        add     \h+0(%rsp), \t0
        adc     \h+8(%rsp), \t1
        adc     \h+16(%rsp), \t2
        adc     \h+24(%rsp), \t3
        adc     \h+32(%rsp), \t4
        adc     \h+40(%rsp), \t5
.endm

// ---------------------------------------------------------------------------------------------
// void cuzk_fp2_mul_6(uint64_t out[12], const uint64_t a[12], const uint64_t b[12],
//                     const uint64_t m[6], uint64_t m_neg_inv)
// c0 = a0 b0 - a1 b1, c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1, each reduced once.
// Frame (bytes from %rsp): T0 = a0*b0 (12 limbs), T1 = a1*b1 (12 limbs), T2 = limbs 0..5 of
// (a0+a1)(b0+b1), SA = a0 + a1, SB = b0 + b1, H = high half of the value being reduced, then
// out, m and m_neg_inv.

        .set    F2M_T0, 0
        .set    F2M_T1, 96
        .set    F2M_T2, 192
        .set    F2M_SA, 240
        .set    F2M_SB, 288
        .set    F2M_H, 336
        .set    F2M_OUT, 384
        .set    F2M_M, 392
        .set    F2M_NINV, 400
        .set    F2M_FRAME, 408

        .globl  cuzk_fp2_mul_6
        .type   cuzk_fp2_mul_6, @function
        .p2align 5
cuzk_fp2_mul_6:
        CUZK_ENDBR
        push    %rbx
        push    %rbp
        push    %r12
        push    %r13
        push    %r14
        push    %r15
        sub     $F2M_FRAME, %rsp
        mov     %rdi, F2M_OUT(%rsp)
        mov     %rcx, F2M_M(%rsp)
        mov     %r8, F2M_NINV(%rsp)
        mov     %rdx, %r9               // b

        // SA = a0 + a1, SB = b0 + b1: each < 2m < 2^384, so no carry out
        mov     0(%rsi), %rax
        add     48(%rsi), %rax
        mov     %rax, F2M_SA+0(%rsp)
        mov     8(%rsi), %rax
        adc     56(%rsi), %rax
        mov     %rax, F2M_SA+8(%rsp)
        mov     16(%rsi), %rax
        adc     64(%rsi), %rax
        mov     %rax, F2M_SA+16(%rsp)
        mov     24(%rsi), %rax
        adc     72(%rsi), %rax
        mov     %rax, F2M_SA+24(%rsp)
        mov     32(%rsi), %rax
        adc     80(%rsi), %rax
        mov     %rax, F2M_SA+32(%rsp)
        mov     40(%rsi), %rax
        adc     88(%rsi), %rax
        mov     %rax, F2M_SA+40(%rsp)
        mov     0(%r9), %rax
        add     48(%r9), %rax
        mov     %rax, F2M_SB+0(%rsp)
        mov     8(%r9), %rax
        adc     56(%r9), %rax
        mov     %rax, F2M_SB+8(%rsp)
        mov     16(%r9), %rax
        adc     64(%r9), %rax
        mov     %rax, F2M_SB+16(%rsp)
        mov     24(%r9), %rax
        adc     72(%r9), %rax
        mov     %rax, F2M_SB+24(%rsp)
        mov     32(%r9), %rax
        adc     80(%r9), %rax
        mov     %rax, F2M_SB+32(%rsp)
        mov     40(%r9), %rax
        adc     88(%r9), %rax
        mov     %rax, F2M_SB+40(%rsp)

        // T0 = a0*b0, T1 = a1*b1 (each < m^2), all 12 limbs to the frame; z = rcx = 0.
        // After these two products a and b are not read again, so out may alias them.
        xor     %ecx, %ecx
        PROD_6  %rsi, 0, %r9, 0, F2M_T0, %rax, %rbx, %rcx, %r10, %r11, %r12, %r13, %r14, %r15, %rbp
        mov     %rbp, F2M_T0+48(%rsp)
        mov     %r10, F2M_T0+56(%rsp)
        mov     %r11, F2M_T0+64(%rsp)
        mov     %r12, F2M_T0+72(%rsp)
        mov     %r13, F2M_T0+80(%rsp)
        mov     %r14, F2M_T0+88(%rsp)
        PROD_6  %rsi, 48, %r9, 48, F2M_T1, %rax, %rbx, %rcx, %r10, %r11, %r12, %r13, %r14, %r15, %rbp
        mov     %rbp, F2M_T1+48(%rsp)
        mov     %r10, F2M_T1+56(%rsp)
        mov     %r11, F2M_T1+64(%rsp)
        mov     %r12, F2M_T1+72(%rsp)
        mov     %r13, F2M_T1+80(%rsp)
        mov     %r14, F2M_T1+88(%rsp)

        // c0: V = T0 - T1, |V| < m^2; if negative add m*2^384, so 0 <= V < m*2^384.
        // Low half into the reduction window r10..r15, high half to H.
        mov     F2M_T0+0(%rsp), %r10
        sub     F2M_T1+0(%rsp), %r10
        mov     F2M_T0+8(%rsp), %r11
        sbb     F2M_T1+8(%rsp), %r11
        mov     F2M_T0+16(%rsp), %r12
        sbb     F2M_T1+16(%rsp), %r12
        mov     F2M_T0+24(%rsp), %r13
        sbb     F2M_T1+24(%rsp), %r13
        mov     F2M_T0+32(%rsp), %r14
        sbb     F2M_T1+32(%rsp), %r14
        mov     F2M_T0+40(%rsp), %r15
        sbb     F2M_T1+40(%rsp), %r15
        mov     F2M_T0+48(%rsp), %rax
        sbb     F2M_T1+48(%rsp), %rax
        mov     %rax, F2M_H+0(%rsp)
        mov     F2M_T0+56(%rsp), %rax
        sbb     F2M_T1+56(%rsp), %rax
        mov     %rax, F2M_H+8(%rsp)
        mov     F2M_T0+64(%rsp), %rax
        sbb     F2M_T1+64(%rsp), %rax
        mov     %rax, F2M_H+16(%rsp)
        mov     F2M_T0+72(%rsp), %rax
        sbb     F2M_T1+72(%rsp), %rax
        mov     %rax, F2M_H+24(%rsp)
        mov     F2M_T0+80(%rsp), %rax
        sbb     F2M_T1+80(%rsp), %rax
        mov     %rax, F2M_H+32(%rsp)
        mov     F2M_T0+88(%rsp), %rax
        sbb     F2M_T1+88(%rsp), %rax
        mov     %rax, F2M_H+40(%rsp)
        sbb     %rax, %rax              // all ones if T0 < T1
        mov     F2M_M(%rsp), %rdi
        mov     0(%rdi), %rbx           // H += m & mask (the carry out is the wrap back to >= 0)
        and     %rax, %rbx
        mov     8(%rdi), %rdx
        and     %rax, %rdx
        mov     16(%rdi), %rsi
        and     %rax, %rsi
        mov     24(%rdi), %r8
        and     %rax, %r8
        mov     32(%rdi), %r9
        and     %rax, %r9
        and     40(%rdi), %rax
        add     %rbx, F2M_H+0(%rsp)
        adc     %rdx, F2M_H+8(%rsp)
        adc     %rsi, F2M_H+16(%rsp)
        adc     %r8, F2M_H+24(%rsp)
        adc     %r9, F2M_H+32(%rsp)
        adc     %rax, F2M_H+40(%rsp)

        // c0 = REDC(V_lo) + V_hi < 2m, less m if >= m; store out[0..5]
        REDC6X_6 %rdi, F2M_NINV(%rsp), %rax, %rbx, %rcx, %r10, %r11, %r12, %r13, %r14, %r15, %rbp
        ADDHI_6 F2M_H, %rbp, %r10, %r11, %r12, %r13, %r14
        mov     F2M_OUT(%rsp), %rsi
        FINAL_6 %rsi, %rdi, %rbp, %r10, %r11, %r12, %r13, %r14, %rax, %rbx, %rdx, %r8, %r9, %r15

        // T2 = (a0 + a1)(b0 + b1) < 4m^2 < 2^768: limbs 0..5 to the frame, 6..11 in rbp r10..r14
        PROD_6  %rsp, F2M_SA, %rsp, F2M_SB, F2M_T2, %rax, %rbx, %rcx, %r10, %r11, %r12, %r13, %r14, %r15, %rbp

        // c1: V = T2 - T0 - T1 = a0 b1 + a1 b0, 0 <= V < 2m^2 < m*2^384 (neither step borrows out).
        // Low half into rsi rdi r8 r9 r15 rbx, high half rbp r10..r14, then to H.
        mov     F2M_T2+0(%rsp), %rsi
        sub     F2M_T0+0(%rsp), %rsi
        mov     F2M_T2+8(%rsp), %rdi
        sbb     F2M_T0+8(%rsp), %rdi
        mov     F2M_T2+16(%rsp), %r8
        sbb     F2M_T0+16(%rsp), %r8
        mov     F2M_T2+24(%rsp), %r9
        sbb     F2M_T0+24(%rsp), %r9
        mov     F2M_T2+32(%rsp), %r15
        sbb     F2M_T0+32(%rsp), %r15
        mov     F2M_T2+40(%rsp), %rbx
        sbb     F2M_T0+40(%rsp), %rbx
        sbb     F2M_T0+48(%rsp), %rbp
        sbb     F2M_T0+56(%rsp), %r10
        sbb     F2M_T0+64(%rsp), %r11
        sbb     F2M_T0+72(%rsp), %r12
        sbb     F2M_T0+80(%rsp), %r13
        sbb     F2M_T0+88(%rsp), %r14
        sub     F2M_T1+0(%rsp), %rsi
        sbb     F2M_T1+8(%rsp), %rdi
        sbb     F2M_T1+16(%rsp), %r8
        sbb     F2M_T1+24(%rsp), %r9
        sbb     F2M_T1+32(%rsp), %r15
        sbb     F2M_T1+40(%rsp), %rbx
        sbb     F2M_T1+48(%rsp), %rbp
        sbb     F2M_T1+56(%rsp), %r10
        sbb     F2M_T1+64(%rsp), %r11
        sbb     F2M_T1+72(%rsp), %r12
        sbb     F2M_T1+80(%rsp), %r13
        sbb     F2M_T1+88(%rsp), %r14
        mov     %rbp, F2M_H+0(%rsp)
        mov     %r10, F2M_H+8(%rsp)
        mov     %r11, F2M_H+16(%rsp)
        mov     %r12, F2M_H+24(%rsp)
        mov     %r13, F2M_H+32(%rsp)
        mov     %r14, F2M_H+40(%rsp)

        // c1 = REDC(V_lo) + V_hi < 2m, less m if >= m; store out[6..11]
        mov     F2M_M(%rsp), %r11
        REDC6X_6 %r11, F2M_NINV(%rsp), %rax, %r10, %rcx, %rsi, %rdi, %r8, %r9, %r15, %rbx, %rbp
        ADDHI_6 F2M_H, %rbp, %rsi, %rdi, %r8, %r9, %r15
        mov     F2M_OUT(%rsp), %r12
        add     $48, %r12
        FINAL_6 %r12, %r11, %rbp, %rsi, %rdi, %r8, %r9, %r15, %rax, %rbx, %rdx, %r10, %r13, %r14

        add     $F2M_FRAME, %rsp
        pop     %r15
        pop     %r14
        pop     %r13
        pop     %r12
        pop     %rbp
        pop     %rbx
        ret
        .size   cuzk_fp2_mul_6, .-cuzk_fp2_mul_6

// ---------------------------------------------------------------------------------------------
// void cuzk_fp2_sqr_6(uint64_t out[12], const uint64_t a[12], const uint64_t m[6],
//                     uint64_t m_neg_inv)
// c0 = (a0 + a1)(a0 - a1), c1 = (2 a0) a1: two Montgomery products, each reduced once, with one
// factor left unreduced (< 2m). They run as CIOS (the cuzk_mont_mul_6 body) with the reduced
// factor x < m as the row operand and the unreduced y < 2^384 scanned limb by limb: between rows
// t < x + m < 2m, and at the end t = (x*y + Q*m)/2^384 < (m*2^384 + 2^384*m)/2^384 = 2m, so one
// subtraction. (Measured about 8% faster than forming the two 768-bit products and reducing them
// as in cuzk_fp2_mul_6, and about 25% faster than cuzk_fp2_mul_6 with b = a.)
// Frame: SA = a0 + a1, A2 = 2 a0, DA = a0 - a1 mod m, then out and m_neg_inv.

        .set    F2S_SA, 0
        .set    F2S_A2, 48
        .set    F2S_DA, 96
        .set    F2S_OUT, 144
        .set    F2S_NINV, 152
        .set    F2S_FRAME, 160

// Operands of the Fp2 squarings: loads a0 into r10..r15, then A2 = 2 a0 and SA = a0 + a1 (both < 2m <
// 2^384, unreduced) and DA = a0 - a1 + (m if that borrows) (< m), stored at the frame offsets
// a2, sa and da. Expects a in rsi and m in r9; clobbers rax, rbx, rcx, rdx, rbp, r8, r10..r15.
.macro FP2_SQR_OPERANDS a2, sa, da
        mov     0(%rsi), %r10
        mov     8(%rsi), %r11
        mov     16(%rsi), %r12
        mov     24(%rsi), %r13
        mov     32(%rsi), %r14
        mov     40(%rsi), %r15

        // A2 = a0 + a0 < 2m < 2^384
        mov     %r10, %rax
        add     %rax, %rax
        mov     %rax, \a2+0(%rsp)
        mov     %r11, %rax
        adc     %rax, %rax
        mov     %rax, \a2+8(%rsp)
        mov     %r12, %rax
        adc     %rax, %rax
        mov     %rax, \a2+16(%rsp)
        mov     %r13, %rax
        adc     %rax, %rax
        mov     %rax, \a2+24(%rsp)
        mov     %r14, %rax
        adc     %rax, %rax
        mov     %rax, \a2+32(%rsp)
        mov     %r15, %rax
        adc     %rax, %rax
        mov     %rax, \a2+40(%rsp)

        // SA = a0 + a1 < 2m < 2^384
        mov     %r10, %rax
        add     48(%rsi), %rax
        mov     %rax, \sa+0(%rsp)
        mov     %r11, %rax
        adc     56(%rsi), %rax
        mov     %rax, \sa+8(%rsp)
        mov     %r12, %rax
        adc     64(%rsi), %rax
        mov     %rax, \sa+16(%rsp)
        mov     %r13, %rax
        adc     72(%rsi), %rax
        mov     %rax, \sa+24(%rsp)
        mov     %r14, %rax
        adc     80(%rsi), %rax
        mov     %rax, \sa+32(%rsp)
        mov     %r15, %rax
        adc     88(%rsi), %rax
        mov     %rax, \sa+40(%rsp)

        // DA = a0 - a1, plus m if that borrows: < m
        sub     48(%rsi), %r10
        sbb     56(%rsi), %r11
        sbb     64(%rsi), %r12
        sbb     72(%rsi), %r13
        sbb     80(%rsi), %r14
        sbb     88(%rsi), %r15
        sbb     %rax, %rax              // all ones if a0 < a1
        mov     0(%r9), %rbx
        and     %rax, %rbx
        mov     8(%r9), %rcx
        and     %rax, %rcx
        mov     16(%r9), %rdx
        and     %rax, %rdx
        mov     24(%r9), %rbp
        and     %rax, %rbp
        mov     32(%r9), %r8
        and     %rax, %r8
        and     40(%r9), %rax
        add     %rbx, %r10
        adc     %rcx, %r11
        adc     %rdx, %r12
        adc     %rbp, %r13
        adc     %r8, %r14
        adc     %rax, %r15
        mov     %r10, \da+0(%rsp)
        mov     %r11, \da+8(%rsp)
        mov     %r12, \da+16(%rsp)
        mov     %r13, \da+24(%rsp)
        mov     %r14, \da+32(%rsp)
        mov     %r15, \da+40(%rsp)
.endm

// t = x*y*2^-384 mod m, plus m or not (t < 2m), by CIOS: x at 0(x), y at yo(%rsp), m at 0(m),
// m_neg_inv at ninv, z = r8 = 0; lo/hi = rax/rbx; t is left in r15 rbp r10 r11 r12 r13.
.macro CIOS6_6 x, yo, m, ninv
        mov     \yo+0(%rsp), %rdx
        ROW0_6  \x, %rax, %rbp, %r10, %r11, %r12, %r13, %r14, %r15
        REDC_6  \m, \ninv, %rax, %rbx, %rbp, %r10, %r11, %r12, %r13, %r14, %r15
        mov     \yo+8(%rsp), %rdx
        ROW_6   \x, %rax, %rbx, %r8, %r10, %r11, %r12, %r13, %r14, %r15, %rbp
        REDC_6  \m, \ninv, %rax, %rbx, %r10, %r11, %r12, %r13, %r14, %r15, %rbp
        mov     \yo+16(%rsp), %rdx
        ROW_6   \x, %rax, %rbx, %r8, %r11, %r12, %r13, %r14, %r15, %rbp, %r10
        REDC_6  \m, \ninv, %rax, %rbx, %r11, %r12, %r13, %r14, %r15, %rbp, %r10
        mov     \yo+24(%rsp), %rdx
        ROW_6   \x, %rax, %rbx, %r8, %r12, %r13, %r14, %r15, %rbp, %r10, %r11
        REDC_6  \m, \ninv, %rax, %rbx, %r12, %r13, %r14, %r15, %rbp, %r10, %r11
        mov     \yo+32(%rsp), %rdx
        ROW_6   \x, %rax, %rbx, %r8, %r13, %r14, %r15, %rbp, %r10, %r11, %r12
        REDC_6  \m, \ninv, %rax, %rbx, %r13, %r14, %r15, %rbp, %r10, %r11, %r12
        mov     \yo+40(%rsp), %rdx
        ROW_6   \x, %rax, %rbx, %r8, %r14, %r15, %rbp, %r10, %r11, %r12, %r13
        REDC_6  \m, \ninv, %rax, %rbx, %r14, %r15, %rbp, %r10, %r11, %r12, %r13
.endm

        .globl  cuzk_fp2_sqr_6
        .type   cuzk_fp2_sqr_6, @function
        .p2align 5
cuzk_fp2_sqr_6:
        CUZK_ENDBR
        push    %rbx
        push    %rbp
        push    %r12
        push    %r13
        push    %r14
        push    %r15
        sub     $F2S_FRAME, %rsp
        mov     %rdi, F2S_OUT(%rsp)
        mov     %rcx, F2S_NINV(%rsp)
        mov     %rdx, %r9               // m

        FP2_SQR_OPERANDS F2S_A2, F2S_SA, F2S_DA

        // c1 = a1 * (2 a0) first: it is the last read of a, done before out is written.
        add     $48, %rsi               // x = a1
        xor     %r8d, %r8d              // z = 0
        CIOS6_6 %rsi, F2S_A2, %r9, F2S_NINV(%rsp)
        mov     F2S_OUT(%rsp), %rcx
        add     $48, %rcx
        FINAL_6 %rcx, %r9, %r15, %rbp, %r10, %r11, %r12, %r13, %rax, %rbx, %rdx, %rsi, %r8, %r14

        // c0 = (a0 - a1 mod m) * (a0 + a1)
        lea     F2S_DA(%rsp), %rsi
        xor     %r8d, %r8d
        CIOS6_6 %rsi, F2S_SA, %r9, F2S_NINV(%rsp)
        mov     F2S_OUT(%rsp), %rcx
        FINAL_6 %rcx, %r9, %r15, %rbp, %r10, %r11, %r12, %r13, %rax, %rbx, %rdx, %rsi, %r8, %r14

        add     $F2S_FRAME, %rsp
        pop     %r15
        pop     %r14
        pop     %r13
        pop     %r12
        pop     %rbp
        pop     %rbx
        ret
        .size   cuzk_fp2_sqr_6, .-cuzk_fp2_sqr_6

// ---------------------------------------------------------------------------------------------
// Unreduced ("wide") Fp2 arithmetic for lazy reduction in the tower (Aranha, Karabina, Longa,
// Gebotys, Lopez, Eurocrypt 2011, §3-4): Fp6/Fp12 formulas add and subtract 768-bit Fp2 products
// and Montgomery-reduce once per output coefficient. A wide Fp2 is 24 limbs, V0 then V1, and
// each half is kept in [0, m*2^384), the range the reduction below accepts (see the bound above
// cuzk_fp2_mul_6). The C++ side (ff/fp6.hpp) adds and subtracts them modulo m*2^384.

// void cuzk_fp2_mul_wide_6(uint64_t out[24], const uint64_t a[12], const uint64_t b[12],
//                          const uint64_t m[6])
// V0 = a0 b0 - a1 b1 (+ m*2^384 if negative), V1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1 < 2m^2.
// Every input limb is read before out is written. Frame as in cuzk_fp2_mul_6.

        .set    F2W_T0, 0
        .set    F2W_T1, 96
        .set    F2W_T2, 192
        .set    F2W_SA, 240
        .set    F2W_SB, 288
        .set    F2W_FRAME, 336

        .globl  cuzk_fp2_mul_wide_6
        .type   cuzk_fp2_mul_wide_6, @function
        .p2align 5
cuzk_fp2_mul_wide_6:
        CUZK_ENDBR
        push    %rbx
        push    %rbp
        push    %r12
        push    %r13
        push    %r14
        push    %r15
        sub     $F2W_FRAME, %rsp
        mov     %rcx, %r8               // m (rdi = out stays live: PROD_6 does not touch it)
        mov     %rdx, %r9               // b

        // SA = a0 + a1, SB = b0 + b1 (< 2m < 2^384)
        mov     0(%rsi), %rax
        add     48(%rsi), %rax
        mov     %rax, F2W_SA+0(%rsp)
        mov     8(%rsi), %rax
        adc     56(%rsi), %rax
        mov     %rax, F2W_SA+8(%rsp)
        mov     16(%rsi), %rax
        adc     64(%rsi), %rax
        mov     %rax, F2W_SA+16(%rsp)
        mov     24(%rsi), %rax
        adc     72(%rsi), %rax
        mov     %rax, F2W_SA+24(%rsp)
        mov     32(%rsi), %rax
        adc     80(%rsi), %rax
        mov     %rax, F2W_SA+32(%rsp)
        mov     40(%rsi), %rax
        adc     88(%rsi), %rax
        mov     %rax, F2W_SA+40(%rsp)
        mov     0(%r9), %rax
        add     48(%r9), %rax
        mov     %rax, F2W_SB+0(%rsp)
        mov     8(%r9), %rax
        adc     56(%r9), %rax
        mov     %rax, F2W_SB+8(%rsp)
        mov     16(%r9), %rax
        adc     64(%r9), %rax
        mov     %rax, F2W_SB+16(%rsp)
        mov     24(%r9), %rax
        adc     72(%r9), %rax
        mov     %rax, F2W_SB+24(%rsp)
        mov     32(%r9), %rax
        adc     80(%r9), %rax
        mov     %rax, F2W_SB+32(%rsp)
        mov     40(%r9), %rax
        adc     88(%r9), %rax
        mov     %rax, F2W_SB+40(%rsp)

        xor     %ecx, %ecx              // z = 0
        PROD_6  %rsi, 0, %r9, 0, F2W_T0, %rax, %rbx, %rcx, %r10, %r11, %r12, %r13, %r14, %r15, %rbp
        mov     %rbp, F2W_T0+48(%rsp)
        mov     %r10, F2W_T0+56(%rsp)
        mov     %r11, F2W_T0+64(%rsp)
        mov     %r12, F2W_T0+72(%rsp)
        mov     %r13, F2W_T0+80(%rsp)
        mov     %r14, F2W_T0+88(%rsp)
        PROD_6  %rsi, 48, %r9, 48, F2W_T1, %rax, %rbx, %rcx, %r10, %r11, %r12, %r13, %r14, %r15, %rbp
        mov     %rbp, F2W_T1+48(%rsp)
        mov     %r10, F2W_T1+56(%rsp)
        mov     %r11, F2W_T1+64(%rsp)
        mov     %r12, F2W_T1+72(%rsp)
        mov     %r13, F2W_T1+80(%rsp)
        mov     %r14, F2W_T1+88(%rsp)
        PROD_6  %rsp, F2W_SA, %rsp, F2W_SB, F2W_T2, %rax, %rbx, %rcx, %r10, %r11, %r12, %r13, %r14, %r15, %rbp

        // V1 = T2 - T0 - T1 >= 0: low half in rsi r9 r15 rbx rax rcx, high half rbp r10..r14
        mov     F2W_T2+0(%rsp), %rsi
        sub     F2W_T0+0(%rsp), %rsi
        mov     F2W_T2+8(%rsp), %r9
        sbb     F2W_T0+8(%rsp), %r9
        mov     F2W_T2+16(%rsp), %r15
        sbb     F2W_T0+16(%rsp), %r15
        mov     F2W_T2+24(%rsp), %rbx
        sbb     F2W_T0+24(%rsp), %rbx
        mov     F2W_T2+32(%rsp), %rax
        sbb     F2W_T0+32(%rsp), %rax
        mov     F2W_T2+40(%rsp), %rcx
        sbb     F2W_T0+40(%rsp), %rcx
        sbb     F2W_T0+48(%rsp), %rbp
        sbb     F2W_T0+56(%rsp), %r10
        sbb     F2W_T0+64(%rsp), %r11
        sbb     F2W_T0+72(%rsp), %r12
        sbb     F2W_T0+80(%rsp), %r13
        sbb     F2W_T0+88(%rsp), %r14
        sub     F2W_T1+0(%rsp), %rsi
        sbb     F2W_T1+8(%rsp), %r9
        sbb     F2W_T1+16(%rsp), %r15
        sbb     F2W_T1+24(%rsp), %rbx
        sbb     F2W_T1+32(%rsp), %rax
        sbb     F2W_T1+40(%rsp), %rcx
        sbb     F2W_T1+48(%rsp), %rbp
        sbb     F2W_T1+56(%rsp), %r10
        sbb     F2W_T1+64(%rsp), %r11
        sbb     F2W_T1+72(%rsp), %r12
        sbb     F2W_T1+80(%rsp), %r13
        sbb     F2W_T1+88(%rsp), %r14
        mov     %rsi, 96(%rdi)
        mov     %r9, 104(%rdi)
        mov     %r15, 112(%rdi)
        mov     %rbx, 120(%rdi)
        mov     %rax, 128(%rdi)
        mov     %rcx, 136(%rdi)
        mov     %rbp, 144(%rdi)
        mov     %r10, 152(%rdi)
        mov     %r11, 160(%rdi)
        mov     %r12, 168(%rdi)
        mov     %r13, 176(%rdi)
        mov     %r14, 184(%rdi)

        // V0 = T0 - T1: low limbs straight to out, high limbs in r10..r15; if it borrowed,
        // add m to the high half (the carry out is the wrap back to >= 0).
        mov     F2W_T0+0(%rsp), %rax
        sub     F2W_T1+0(%rsp), %rax
        mov     %rax, 0(%rdi)
        mov     F2W_T0+8(%rsp), %rax
        sbb     F2W_T1+8(%rsp), %rax
        mov     %rax, 8(%rdi)
        mov     F2W_T0+16(%rsp), %rax
        sbb     F2W_T1+16(%rsp), %rax
        mov     %rax, 16(%rdi)
        mov     F2W_T0+24(%rsp), %rax
        sbb     F2W_T1+24(%rsp), %rax
        mov     %rax, 24(%rdi)
        mov     F2W_T0+32(%rsp), %rax
        sbb     F2W_T1+32(%rsp), %rax
        mov     %rax, 32(%rdi)
        mov     F2W_T0+40(%rsp), %rax
        sbb     F2W_T1+40(%rsp), %rax
        mov     %rax, 40(%rdi)
        mov     F2W_T0+48(%rsp), %r10
        sbb     F2W_T1+48(%rsp), %r10
        mov     F2W_T0+56(%rsp), %r11
        sbb     F2W_T1+56(%rsp), %r11
        mov     F2W_T0+64(%rsp), %r12
        sbb     F2W_T1+64(%rsp), %r12
        mov     F2W_T0+72(%rsp), %r13
        sbb     F2W_T1+72(%rsp), %r13
        mov     F2W_T0+80(%rsp), %r14
        sbb     F2W_T1+80(%rsp), %r14
        mov     F2W_T0+88(%rsp), %r15
        sbb     F2W_T1+88(%rsp), %r15
        sbb     %rax, %rax
        mov     0(%r8), %rbx
        and     %rax, %rbx
        mov     8(%r8), %rcx
        and     %rax, %rcx
        mov     16(%r8), %rdx
        and     %rax, %rdx
        mov     24(%r8), %rsi
        and     %rax, %rsi
        mov     32(%r8), %r9
        and     %rax, %r9
        and     40(%r8), %rax
        add     %rbx, %r10
        adc     %rcx, %r11
        adc     %rdx, %r12
        adc     %rsi, %r13
        adc     %r9, %r14
        adc     %rax, %r15
        mov     %r10, 48(%rdi)
        mov     %r11, 56(%rdi)
        mov     %r12, 64(%rdi)
        mov     %r13, 72(%rdi)
        mov     %r14, 80(%rdi)
        mov     %r15, 88(%rdi)

        add     $F2W_FRAME, %rsp
        pop     %r15
        pop     %r14
        pop     %r13
        pop     %r12
        pop     %rbp
        pop     %rbx
        ret
        .size   cuzk_fp2_mul_wide_6, .-cuzk_fp2_mul_wide_6

// void cuzk_fp2_sqr_wide_6(uint64_t out[24], const uint64_t a[12], const uint64_t m[6])
// V0 = (a0 + a1)(a0 - a1 mod m) < 2m^2, V1 = (2 a0) a1 < 2m^2. Every input limb is read before
// out is written. Frame: SA, A2, DA as in cuzk_fp2_sqr_6, LO = low half of a product.

        .set    F2Q_SA, 0
        .set    F2Q_A2, 48
        .set    F2Q_DA, 96
        .set    F2Q_LO, 144
        .set    F2Q_FRAME, 192

        .globl  cuzk_fp2_sqr_wide_6
        .type   cuzk_fp2_sqr_wide_6, @function
        .p2align 5
cuzk_fp2_sqr_wide_6:
        CUZK_ENDBR
        push    %rbx
        push    %rbp
        push    %r12
        push    %r13
        push    %r14
        push    %r15
        sub     $F2Q_FRAME, %rsp
        mov     %rdx, %r9               // m

        FP2_SQR_OPERANDS F2Q_A2, F2Q_SA, F2Q_DA

        // V1 = a1 * (2 a0): the last read of a
        xor     %ecx, %ecx              // z = 0
        PROD_6  %rsi, 48, %rsp, F2Q_A2, F2Q_LO, %rax, %rbx, %rcx, %r10, %r11, %r12, %r13, %r14, %r15, %rbp
        mov     F2Q_LO+0(%rsp), %rax
        mov     %rax, 96(%rdi)
        mov     F2Q_LO+8(%rsp), %rax
        mov     %rax, 104(%rdi)
        mov     F2Q_LO+16(%rsp), %rax
        mov     %rax, 112(%rdi)
        mov     F2Q_LO+24(%rsp), %rax
        mov     %rax, 120(%rdi)
        mov     F2Q_LO+32(%rsp), %rax
        mov     %rax, 128(%rdi)
        mov     F2Q_LO+40(%rsp), %rax
        mov     %rax, 136(%rdi)
        mov     %rbp, 144(%rdi)
        mov     %r10, 152(%rdi)
        mov     %r11, 160(%rdi)
        mov     %r12, 168(%rdi)
        mov     %r13, 176(%rdi)
        mov     %r14, 184(%rdi)

        // V0 = (a0 - a1 mod m)(a0 + a1)
        PROD_6  %rsp, F2Q_DA, %rsp, F2Q_SA, F2Q_LO, %rax, %rbx, %rcx, %r10, %r11, %r12, %r13, %r14, %r15, %rbp
        mov     F2Q_LO+0(%rsp), %rax
        mov     %rax, 0(%rdi)
        mov     F2Q_LO+8(%rsp), %rax
        mov     %rax, 8(%rdi)
        mov     F2Q_LO+16(%rsp), %rax
        mov     %rax, 16(%rdi)
        mov     F2Q_LO+24(%rsp), %rax
        mov     %rax, 24(%rdi)
        mov     F2Q_LO+32(%rsp), %rax
        mov     %rax, 32(%rdi)
        mov     F2Q_LO+40(%rsp), %rax
        mov     %rax, 40(%rdi)
        mov     %rbp, 48(%rdi)
        mov     %r10, 56(%rdi)
        mov     %r11, 64(%rdi)
        mov     %r12, 72(%rdi)
        mov     %r13, 80(%rdi)
        mov     %r14, 88(%rdi)

        add     $F2Q_FRAME, %rsp
        pop     %r15
        pop     %r14
        pop     %r13
        pop     %r12
        pop     %rbp
        pop     %rbx
        ret
        .size   cuzk_fp2_sqr_wide_6, .-cuzk_fp2_sqr_wide_6

// void cuzk_fp2_redc_6(uint64_t out[12], const uint64_t in[24], const uint64_t m[6],
//                      uint64_t m_neg_inv)
// out_i = V_i * 2^-384 mod m, fully reduced, for 0 <= V_i < m*2^384: REDC of the low half plus
// the high half, < 2m, then one conditional subtraction (bound above cuzk_fp2_mul_6). out may
// be the start of in (each half is read before its output is stored).

        .globl  cuzk_fp2_redc_6
        .type   cuzk_fp2_redc_6, @function
        .p2align 5
cuzk_fp2_redc_6:
        CUZK_ENDBR
        push    %rbx
        push    %rbp
        push    %r12
        push    %r13
        push    %r14
        push    %r15
        push    %rcx                    // m_neg_inv, read by IMUL from memory
        mov     %rdx, %r9               // m

        mov     0(%rsi), %r10
        mov     8(%rsi), %r11
        mov     16(%rsi), %r12
        mov     24(%rsi), %r13
        mov     32(%rsi), %r14
        mov     40(%rsi), %r15
        xor     %ecx, %ecx              // z = 0
        REDC6X_6 %r9, 0(%rsp), %rax, %rbx, %rcx, %r10, %r11, %r12, %r13, %r14, %r15, %rbp
        add     48(%rsi), %rbp
        adc     56(%rsi), %r10
        adc     64(%rsi), %r11
        adc     72(%rsi), %r12
        adc     80(%rsi), %r13
        adc     88(%rsi), %r14
        FINAL_6 %rdi, %r9, %rbp, %r10, %r11, %r12, %r13, %r14, %rax, %rbx, %rdx, %rcx, %r8, %r15

        mov     96(%rsi), %r10
        mov     104(%rsi), %r11
        mov     112(%rsi), %r12
        mov     120(%rsi), %r13
        mov     128(%rsi), %r14
        mov     136(%rsi), %r15
        xor     %ecx, %ecx
        REDC6X_6 %r9, 0(%rsp), %rax, %rbx, %rcx, %r10, %r11, %r12, %r13, %r14, %r15, %rbp
        add     144(%rsi), %rbp
        adc     152(%rsi), %r10
        adc     160(%rsi), %r11
        adc     168(%rsi), %r12
        adc     176(%rsi), %r13
        adc     184(%rsi), %r14
        lea     48(%rdi), %rdi
        FINAL_6 %rdi, %r9, %rbp, %r10, %r11, %r12, %r13, %r14, %rax, %rbx, %rdx, %rcx, %r8, %r15

        pop     %rcx
        pop     %r15
        pop     %r14
        pop     %r13
        pop     %r12
        pop     %rbp
        pop     %rbx
        ret
        .size   cuzk_fp2_redc_6, .-cuzk_fp2_redc_6

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
