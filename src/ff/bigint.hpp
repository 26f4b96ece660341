#pragma once
// Fixed-width unsigned integers of N 64-bit limbs, little-endian limb order, all constexpr: the
// raw material of field elements and of the constants derived from a modulus at compile time.

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace cuzk::ff {

using u128 = unsigned __int128;

template <size_t N>
struct BigInt {
  static constexpr size_t kLimbs = N;
  static constexpr size_t kBits = 64 * N;
  std::array<uint64_t, N> limbs{};  // limbs[0] is the least significant

  constexpr BigInt() = default;
  constexpr explicit BigInt(uint64_t low) : limbs{} { limbs[0] = low; }

  // Parses big-endian hex ("0x" optional). A digit that is not hex, or a value wider than N
  // limbs, is a compile error in a constant expression and throws at run time.
  static constexpr BigInt from_hex(std::string_view text) {
    if (text.starts_with("0x") || text.starts_with("0X")) text.remove_prefix(2);
    BigInt out;
    size_t bit = 0;
    for (size_t i = text.size(); i-- > 0;) {
      const char c = text[i];
      uint64_t d = 0;
      if (c >= '0' && c <= '9') d = uint64_t(c - '0');
      else if (c >= 'a' && c <= 'f') d = uint64_t(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') d = uint64_t(c - 'A' + 10);
      else throw "BigInt::from_hex: not a hex digit";
      if (bit >= kBits) {
        if (d != 0) throw "BigInt::from_hex: value too wide";
        continue;
      }
      out.limbs[bit / 64] |= d << (bit % 64);
      bit += 4;
    }
    return out;
  }

  constexpr bool is_zero() const {
    for (uint64_t l : limbs)
      if (l != 0) return false;
    return true;
  }
  constexpr bool bit(size_t i) const { return i < kBits && ((limbs[i / 64] >> (i % 64)) & 1) != 0; }
  constexpr bool is_odd() const { return (limbs[0] & 1) != 0; }

  // Index of the highest set bit plus one; 0 for zero.
  constexpr size_t num_bits() const {
    for (size_t i = N; i-- > 0;)
      if (limbs[i] != 0) return 64 * i + 64 - size_t(__builtin_clzll(limbs[i]));
    return 0;
  }

  friend constexpr bool operator==(const BigInt&, const BigInt&) = default;
  friend constexpr std::strong_ordering operator<=>(const BigInt& a, const BigInt& b) {
    for (size_t i = N; i-- > 0;)
      if (a.limbs[i] != b.limbs[i]) return a.limbs[i] <=> b.limbs[i];
    return std::strong_ordering::equal;
  }
};

// a += b, returning the carry out.
template <size_t N>
constexpr uint64_t add_in_place(BigInt<N>& a, const BigInt<N>& b) {
  uint64_t carry = 0;
  for (size_t i = 0; i < N; ++i) {
    const u128 t = u128(a.limbs[i]) + b.limbs[i] + carry;
    a.limbs[i] = uint64_t(t);
    carry = uint64_t(t >> 64);
  }
  return carry;
}

// a -= b, returning the borrow out (1 when b > a).
template <size_t N>
constexpr uint64_t sub_in_place(BigInt<N>& a, const BigInt<N>& b) {
  uint64_t borrow = 0;
  for (size_t i = 0; i < N; ++i) {
    const u128 t = u128(a.limbs[i]) - b.limbs[i] - borrow;
    a.limbs[i] = uint64_t(t);
    borrow = uint64_t(t >> 64) & 1;
  }
  return borrow;
}

template <size_t N>
constexpr BigInt<N> shr1(BigInt<N> a) {
  for (size_t i = 0; i < N; ++i) a.limbs[i] = (a.limbs[i] >> 1) | (i + 1 < N ? a.limbs[i + 1] << 63 : 0);
  return a;
}

// a / d and a % d for a one-limb divisor.
template <size_t N>
constexpr BigInt<N> div_small(BigInt<N> a, uint64_t d, uint64_t* remainder = nullptr) {
  u128 rem = 0;
  for (size_t i = N; i-- > 0;) {
    const u128 cur = (rem << 64) | a.limbs[i];
    a.limbs[i] = uint64_t(cur / d);
    rem = cur % d;
  }
  if (remainder) *remainder = uint64_t(rem);
  return a;
}

// (a + b) mod m for a, b < m.
template <size_t N>
constexpr BigInt<N> add_mod(BigInt<N> a, const BigInt<N>& b, const BigInt<N>& m) {
  const uint64_t carry = add_in_place(a, b);
  if (carry || a >= m) sub_in_place(a, m);
  return a;
}

// (a - b) mod m for a, b < m.
template <size_t N>
constexpr BigInt<N> sub_mod(BigInt<N> a, const BigInt<N>& b, const BigInt<N>& m) {
  if (sub_in_place(a, b)) add_in_place(a, m);
  return a;
}

}  // namespace cuzk::ff
