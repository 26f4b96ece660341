#pragma once
// A prime field in Montgomery form, generic over its parameters:
//   struct Config {
//     static constexpr BigInt<N> kModulus;     // odd prime, top bit of the top limb clear
//     static constexpr uint64_t kNonResidue;   // a quadratic non-residue (Tonelli-Shanks)
//     static constexpr const char* kName;      // "Fp", "Fr": names the field in errors
//   };
// Every constant of the Montgomery representation is derived from kModulus at compile time;
// tests/ff/constants_test.cpp derives them again with GMP.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/expected.hpp"
#include "ff/bigint.hpp"
#include "ff/modular_add.hpp"
#include "ff/montgomery.hpp"
#include "ff/pow.hpp"
#include "ff/mont_x86_64.hpp"

namespace cuzk::ff {

template <class Config>
class Field {
 public:
  static constexpr size_t kLimbs = std::remove_cvref_t<decltype(Config::kModulus)>::kLimbs;
  using Int = BigInt<kLimbs>;

  static constexpr Int kModulus = Config::kModulus;
  static constexpr size_t kBits = kModulus.num_bits();
  static constexpr size_t kBytes = (kBits + 7) / 8;
  static constexpr uint64_t kNegInv = mont_neg_inverse(kModulus);  // -M^-1 mod 2^64
  static constexpr Int kR = pow2_mod(64 * kLimbs, kModulus);       // R mod M (Montgomery one)
  static constexpr Int kR2 = pow2_mod(128 * kLimbs, kModulus);     // R^2 mod M (to Montgomery)
  static_assert(kModulus.is_odd() && (kModulus.limbs[kLimbs - 1] >> 63) == 0,
                "the modulus must be odd and leave the top bit free");

  constexpr Field() = default;  // zero

  static constexpr Field zero() { return Field(); }
  static constexpr Field one() { return from_montgomery(kR); }
  static constexpr Field from_uint(uint64_t v) { return from_int(Int(v)); }
  // v must be < M (not checked: use from_canonical for untrusted input).
  static constexpr Field from_int(const Int& v) { return from_montgomery(mul_raw(v, kR2)); }
  // From big-endian hex; a value >= M fails to compile in a constant expression (throws otherwise).
  static constexpr Field from_hex(std::string_view hex) {
    const Int v = Int::from_hex(hex);
    if (v >= kModulus) throw "Field::from_hex: value is not canonical";
    return from_int(v);
  }
  // The raw Montgomery representation; for kernels and serialisation of internal state only.
  static constexpr Field from_montgomery(const Int& raw) {
    Field f;
    f.mont_ = raw;
    return f;
  }
  static Expected<Field> from_canonical(const Int& v) {
    if (v >= kModulus) return invalid_argument(std::string(Config::kName) + ": value is not canonical (>= modulus)");
    return from_int(v);
  }

  constexpr Int to_int() const { return mul_raw(mont_, Int(1)); }
  constexpr const Int& montgomery() const { return mont_; }

  constexpr bool is_zero() const { return mont_.is_zero(); }
  constexpr bool is_one() const { return mont_ == kR; }
  friend constexpr bool operator==(const Field&, const Field&) = default;

  constexpr Field operator+(const Field& b) const {
#ifdef CUZK_ADD_ASM
    if (!std::is_constant_evaluated() && kUseMontAsm && (kLimbs == 6 || kLimbs == 4)) {
      Field r;
      if constexpr (kLimbs == 6) add_mod_6(r.mont_.limbs.data(), mont_.limbs.data(), b.mont_.limbs.data(), kModulus.limbs.data());
      else add_mod_4(r.mont_.limbs.data(), mont_.limbs.data(), b.mont_.limbs.data(), kModulus.limbs.data());
      return r;
    }
#endif
    return from_montgomery(add_mod(mont_, b.mont_, kModulus));
  }
  constexpr Field operator-(const Field& b) const {
#ifdef CUZK_ADD_ASM
    if (!std::is_constant_evaluated() && kUseMontAsm && (kLimbs == 6 || kLimbs == 4)) {
      Field r;
      if constexpr (kLimbs == 6) sub_mod_6(r.mont_.limbs.data(), mont_.limbs.data(), b.mont_.limbs.data(), kModulus.limbs.data());
      else sub_mod_4(r.mont_.limbs.data(), mont_.limbs.data(), b.mont_.limbs.data(), kModulus.limbs.data());
      return r;
    }
#endif
    return from_montgomery(sub_mod(mont_, b.mont_, kModulus));
  }
  constexpr Field operator-() const { return zero() - *this; }
  constexpr Field operator*(const Field& b) const { return from_montgomery(mul_raw(mont_, b.mont_)); }
  constexpr Field& operator+=(const Field& b) { return *this = *this + b; }
  constexpr Field& operator-=(const Field& b) { return *this = *this - b; }
  constexpr Field& operator*=(const Field& b) { return *this = *this * b; }

  constexpr Field dbl() const { return *this + *this; }
  constexpr Field square() const {
    if (!std::is_constant_evaluated()) {
#ifdef CUZK_MONT_ASM
      if (kUseMontAsm) {
        Field r;
        if constexpr (kLimbs == 6) cuzk_mont_sqr_6(r.mont_.limbs.data(), mont_.limbs.data(), kModulus.limbs.data(), kNegInv);
        else if constexpr (kLimbs == 4) cuzk_mont_sqr_4(r.mont_.limbs.data(), mont_.limbs.data(), kModulus.limbs.data(), kNegInv);
        else return *this * *this;
        return r;
      }
#endif
    }
    return *this * *this;
  }
  // square() under the spelling of the GPU's fields, which the point formulas shared by CPU and GPU
  // use (ec/formulas.hpp).
  constexpr Field sqr() const { return square(); }

  // this^e (ff/pow.hpp).
  template <size_t M>
  constexpr Field pow(const BigInt<M>& e) const {
    return ff::pow(*this, e);
  }
  constexpr Field pow(uint64_t e) const { return pow(BigInt<1>(e)); }

  // 1/this by Fermat (this^(M-2)); zero for zero.
  constexpr Field inverse() const { return pow(kModulusMinus2); }

  // Legendre symbol: 1 for a non-zero square, -1 for a non-square, 0 for zero (Euler's criterion).
  constexpr int legendre() const {
    if (is_zero()) return 0;
    return pow(kHalfModulus).is_one() ? 1 : -1;
  }

  // A square root, if one exists (either of the two; callers pick the sign they need).
  constexpr std::optional<Field> sqrt() const {
    if (is_zero()) return zero();
    Field root;
    if constexpr (kModulus.limbs[0] % 4 == 3) {
      root = pow(kSqrtExponent3Mod4);  // a^((M+1)/4)
    } else {
      root = tonelli_shanks();
    }
    if (root.square() != *this) return std::nullopt;
    return root;
  }

  // Canonical (non-Montgomery) bytes, kBytes of them.
  void to_bytes_le(std::span<uint8_t, kBytes> out) const {
    const Int v = to_int();
    for (size_t i = 0; i < kBytes; ++i) out[i] = uint8_t(v.limbs[i / 8] >> (8 * (i % 8)));
  }
  void to_bytes_be(std::span<uint8_t, kBytes> out) const {
    const Int v = to_int();
    for (size_t i = 0; i < kBytes; ++i) out[kBytes - 1 - i] = uint8_t(v.limbs[i / 8] >> (8 * (i % 8)));
  }
  // Reject values >= M (non-canonical encodings), naming the field.
  static Expected<Field> from_bytes_le(std::span<const uint8_t, kBytes> in) {
    Int v;
    for (size_t i = 0; i < kBytes; ++i) v.limbs[i / 8] |= uint64_t(in[i]) << (8 * (i % 8));
    return from_canonical(v);
  }
  static Expected<Field> from_bytes_be(std::span<const uint8_t, kBytes> in) {
    Int v;
    for (size_t i = 0; i < kBytes; ++i) v.limbs[i / 8] |= uint64_t(in[kBytes - 1 - i]) << (8 * (i % 8));
    return from_canonical(v);
  }

  // "Lexicographically largest" in the zcash encoding: the canonical value exceeds (M-1)/2.
  constexpr bool is_lexicographically_largest() const { return to_int() > kHalfModulus; }

  // Montgomery product of raw representations; the one place the assembly is dispatched.
  static constexpr Int mul_raw(const Int& a, const Int& b) {
    if (!std::is_constant_evaluated()) {
#ifdef CUZK_MONT_ASM
      if (kUseMontAsm) {
        Int r;
        if constexpr (kLimbs == 6) {
          cuzk_mont_mul_6(r.limbs.data(), a.limbs.data(), b.limbs.data(), kModulus.limbs.data(), kNegInv);
          return r;
        } else if constexpr (kLimbs == 4) {
          cuzk_mont_mul_4(r.limbs.data(), a.limbs.data(), b.limbs.data(), kModulus.limbs.data(), kNegInv);
          return r;
        }
      }
#endif
    }
    return mont_mul_portable(a, b, kModulus, kNegInv);
  }

  static constexpr Int kModulusMinus2 = [] {
    Int v = kModulus;
    sub_in_place(v, Int(2));
    return v;
  }();
  static constexpr Int kHalfModulus = shr1(kModulus);  // (M-1)/2
  static constexpr Int kSqrtExponent3Mod4 = [] {       // (M+1)/4, used when M = 3 mod 4
    Int v = kModulus;
    add_in_place(v, Int(1));
    return shr1(shr1(v));
  }();
  // M - 1 = 2^kTwoAdicity * kOddPart, kOddPart odd.
  static constexpr size_t kTwoAdicity = [] {
    size_t s = 1;
    while (!kModulus.bit(s)) ++s;
    return s;
  }();
  static constexpr Int kOddPart = [] {
    Int v = kModulus;
    for (size_t i = 0; i < kTwoAdicity; ++i) v = shr1(v);
    return v;  // the low bit 1 of M is shifted out with the rest
  }();

 private:
  // Tonelli-Shanks (Cohen, "A Course in Computational Algebraic Number Theory", Alg. 1.5.1), with
  // the non-residue of Config; only reached for M = 1 mod 4.
  constexpr Field tonelli_shanks() const {
    const Field z = from_uint(Config::kNonResidue).pow(kOddPart);  // a 2^s-th root of unity
    Int half_odd = shr1(kOddPart);                                 // (t-1)/2
    Field w = pow(half_odd);                                       // a^((t-1)/2)
    Field x = w * *this;                                           // a^((t+1)/2)
    Field b = x * w;                                               // a^t
    Field g = z;
    size_t v = kTwoAdicity;
    while (!b.is_one()) {
      size_t k = 0;
      Field b2k = b;
      while (!b2k.is_one()) {
        b2k = b2k.square();
        if (++k == v) return zero();  // not a square: caught by the caller's check
      }
      Field t = g;
      for (size_t i = 0; i + k + 1 < v; ++i) t = t.square();
      g = t.square();
      x *= t;
      b *= g;
      v = k;
    }
    return x;
  }

  Int mont_{};
};

}  // namespace cuzk::ff
