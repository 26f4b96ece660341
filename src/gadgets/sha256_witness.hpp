#pragma once
// The SHA-256 compression's witness without the gadget machinery: the same aux values, in the
// same order, as sha256_compression_function allocates them (SPEC-SHA256.md §5-6), computed on
// machine words. For a backend that records no rows (r1cs::records_constraints<CS> false, i.e.
// WitnessCS) the Booleans, UInt32 bit vectors and MultiEq linear combinations are pure overhead:
// shared/DESIGN.md ("SHA-256 witness values must come from a native, allocation-free path").
//
// A word is three masks. Which aux a gadget allocates depends only on which bits are constants
// (xor, and, ch and maj fold constants away), and the value it stores for a non-constant bit is
// either the logical value (and, ch, maj, addmany) or the xor of the operands' underlying
// variables (xor of a negated bit allocates x ⊕ y and returns ¬), so the negation mask is kept
// too.

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "gadgets/boolean.hpp"
#include "gadgets/sha256_native.hpp"
#include "gadgets/uint32.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::gadgets::sha256_witness {

struct Word {
  uint32_t value = 0;     // the logical value
  uint32_t constant = 0;  // bit i set: bit i is a constant (no variable)
  uint32_t negated = 0;   // bit i set: bit i is ¬(its variable); meaningful where not constant
  // The values of the variables behind the bits (for non-constant bits).
  uint32_t underlying() const { return value ^ negated; }

  static Word constant_word(uint32_t v) { return {v, ~0u, 0}; }
  Word rotr(unsigned k) const { return {std::rotr(value, int(k)), std::rotr(constant, int(k)), std::rotr(negated, int(k))}; }
  // shr fills the top k bits with constant false.
  Word shr(unsigned k) const { return {value >> k, (constant >> k) | ~(~0u >> k), negated >> k}; }
};

// One bit with the same three attributes, for ch/maj where some operand is a constant.
struct Bit {
  bool value = false, constant = false, negated = false;
  static Bit of(const Word& w, unsigned i) {
    return {((w.value >> i) & 1) != 0, ((w.constant >> i) & 1) != 0, ((w.negated >> i) & 1) != 0};
  }
  static Bit constant_bit(bool v) { return {v, true, false}; }
  Bit not_() const { return {!value, constant, constant ? false : !negated}; }
  bool is_constant(bool v) const { return constant && value == v; }
};

// Allocates aux values through the backend; `Variable`s are kept only where a caller needs them
// (the words a compression returns).
template <r1cs::ConstraintSystem CS>
class Allocator {
 public:
  using F = typename CS::Field;
  explicit Allocator(CS& cs) : cs_(cs) {}

  r1cs::Variable bit(bool v) {
    return cs_.alloc("boolean", [v] { return v ? F::one() : F::zero(); });
  }
  // One aux per set bit of `mask`, lowest first, holding the matching bit of `values`.
  void bits(uint32_t mask, uint32_t values) {
    for (; mask != 0; mask &= mask - 1) bit(((values >> std::countr_zero(mask)) & 1) != 0);
  }

 private:
  CS& cs_;
};

// Boolean::and_ on bits: constants fold, otherwise one aux (and, and_not or nor) holding a ∧ b.
template <class Alloc>
Bit and_(Alloc& alloc, const Bit& a, const Bit& b) {
  if (a.is_constant(false) || b.is_constant(false)) return Bit::constant_bit(false);
  if (a.is_constant(true)) return b;
  if (b.is_constant(true)) return a;
  alloc.bit(a.value && b.value);
  return {a.value && b.value, false, false};
}

// UInt32::xor_: per bit, an aux holding x_var ⊕ y_var where neither is constant.
template <class Alloc>
Word xor_(Alloc& alloc, const Word& x, const Word& y) {
  const uint32_t both = ~x.constant & ~y.constant;
  alloc.bits(both, x.underlying() ^ y.underlying());
  const uint32_t only_x = ~x.constant & y.constant, only_y = x.constant & ~y.constant;
  return {x.value ^ y.value, x.constant & y.constant,
          (both & (x.negated ^ y.negated)) | (only_x & (x.negated ^ y.value)) | (only_y & (y.negated ^ x.value))};
}

// sha256_ch for one bit, the cases in uint32.hpp's order.
template <class Alloc>
Bit ch_bit(Alloc& alloc, const Bit& a, const Bit& b, const Bit& c) {
  const bool value = (a.value && b.value) != (!a.value && c.value);
  if (a.constant && b.constant && c.constant) return Bit::constant_bit(value);
  if (a.is_constant(false)) return c;
  if (b.is_constant(false)) return and_(alloc, a.not_(), c);
  if (c.is_constant(false)) return and_(alloc, a, b);
  if (c.is_constant(true)) return and_(alloc, a, b.not_()).not_();
  if (b.is_constant(true)) return and_(alloc, a.not_(), c.not_()).not_();
  alloc.bit(value);  // "ch"
  return {value, false, false};
}

// sha256_maj for one bit: the general case allocates maj, then b ∧ c.
template <class Alloc>
Bit maj_bit(Alloc& alloc, const Bit& a, const Bit& b, const Bit& c) {
  const bool value = (int(a.value) + int(b.value) + int(c.value)) >= 2;
  if (a.constant && b.constant && c.constant) return Bit::constant_bit(value);
  if (a.is_constant(false)) return and_(alloc, b, c);
  if (b.is_constant(false)) return and_(alloc, a, c);
  if (c.is_constant(false)) return and_(alloc, a, b);
  if (c.is_constant(true)) return and_(alloc, a.not_(), b.not_()).not_();
  if (b.is_constant(true)) return and_(alloc, a.not_(), c.not_()).not_();
  if (a.is_constant(true)) return and_(alloc, b.not_(), c.not_()).not_();
  alloc.bit(value);               // "maj"
  alloc.bit(b.value && c.value);  // "b and c"
  return {value, false, false};
}

template <class Alloc, class BitFn>
Word bitwise3(Alloc& alloc, const Word& a, const Word& b, const Word& c, BitFn fn) {
  Word out;
  for (unsigned i = 0; i < 32; ++i) {
    const Bit r = fn(alloc, Bit::of(a, i), Bit::of(b, i), Bit::of(c, i));
    out.value |= uint32_t(r.value) << i;
    out.constant |= uint32_t(r.constant) << i;
    out.negated |= uint32_t(r.negated) << i;
  }
  return out;
}

// UInt32::sha256_ch: all-variable operands (every round after the first two) take one aux per bit.
template <class Alloc>
Word ch(Alloc& alloc, const Word& a, const Word& b, const Word& c) {
  if ((a.constant | b.constant | c.constant) == 0) {
    const uint32_t value = (a.value & b.value) ^ (~a.value & c.value);
    alloc.bits(~0u, value);
    return {value, 0, 0};
  }
  return bitwise3(alloc, a, b, c, [](Alloc& al, const Bit& x, const Bit& y, const Bit& z) { return ch_bit(al, x, y, z); });
}

// UInt32::sha256_maj: bit by bit, maj then b ∧ c.
template <class Alloc>
Word maj(Alloc& alloc, const Word& a, const Word& b, const Word& c) {
  if ((a.constant | b.constant | c.constant) == 0) {
    const uint32_t value = (a.value & b.value) ^ (a.value & c.value) ^ (b.value & c.value);
    const uint32_t bc = b.value & c.value;
    for (unsigned i = 0; i < 32; ++i) {
      alloc.bit(((value >> i) & 1) != 0);
      alloc.bit(((bc >> i) & 1) != 0);
    }
    return {value, 0, 0};
  }
  return bitwise3(alloc, a, b, c, [](Alloc& al, const Bit& x, const Bit& y, const Bit& z) { return maj_bit(al, x, y, z); });
}

// UInt32::addmany: unless every operand bit is constant, k = bitlength(n·(2^32 − 1)) aux bits of
// the full sum. `vars`, when given, receives the variables of the low 32 (the word's bits).
template <class CS>
Word addmany(Allocator<CS>& alloc, std::span<const Word> ops, std::array<r1cs::Variable, 32>* vars = nullptr) {
  uint64_t sum = 0;
  uint32_t constant = ~0u;
  for (const Word& op : ops) {
    sum += op.value;
    constant &= op.constant;
  }
  if (constant == ~0u) return Word::constant_word(uint32_t(sum));
  const unsigned k = unsigned(std::bit_width(uint64_t(ops.size()) * 0xffffffffull));
  for (unsigned i = 0; i < k; ++i) {
    const r1cs::Variable v = alloc.bit(((sum >> i) & 1) != 0);
    if (vars != nullptr && i < 32) (*vars)[i] = v;
  }
  return {uint32_t(sum), 0, 0};
}

inline Word word_of(const UInt32& u) {
  Word w;
  for (unsigned i = 0; i < 32; ++i) {
    const Boolean& b = u.bits()[i];
    w.value |= uint32_t(b.value()) << i;
    w.constant |= uint32_t(b.is_constant()) << i;
    w.negated |= uint32_t(b.kind() == Boolean::Kind::kNot) << i;
  }
  return w;
}

// sha256_compression_function's aux, in its order: schedule (σ0's two xors, σ1's two xors, the
// addmany of w[i]), then per round: deferred e, Σ1's xors, ch, deferred a, Σ0's xors, maj; then
// h0..h7. The deferred additions (sha256.rs Maybe) become one addmany over their terms.
template <r1cs::ConstraintSystem CS>
std::vector<UInt32> compression(CS& cs, std::span<const Boolean> input, std::span<const UInt32> h) {
  if (input.size() != 512) throw r1cs::SynthesisError("sha256 compression: the block must be 512 bits");
  if (h.size() != 8) throw r1cs::SynthesisError("sha256 compression: the state must be 8 words");
  Allocator<CS> alloc(cs);
  std::array<Word, 64> w;
  for (size_t t = 0; t < 16; ++t) w[t] = word_of(UInt32::from_bits_be(input.subspan(32 * t, 32)));
  for (size_t i = 16; i < 64; ++i) {
    const Word s0 = xor_(alloc, xor_(alloc, w[i - 15].rotr(7), w[i - 15].rotr(18)), w[i - 15].shr(3));
    const Word s1 = xor_(alloc, xor_(alloc, w[i - 2].rotr(17), w[i - 2].rotr(19)), w[i - 2].shr(10));
    const std::array<Word, 4> ops = {w[i - 16], s0, w[i - 7], s1};
    w[i] = addmany(alloc, std::span<const Word>(ops));
  }

  std::array<Word, 8> hw;
  for (size_t j = 0; j < 8; ++j) hw[j] = word_of(h[j]);
  // a and e are deferred sums after round 0: {temp1 terms..., d} and {temp1 terms..., Σ0, maj}.
  std::array<Word, 7> a_terms{hw[0]}, e_terms{hw[4]};
  size_t a_count = 1, e_count = 1;
  Word b = hw[1], c = hw[2], d = hw[3], f = hw[5], g = hw[6], hh = hw[7];
  const auto resolve = [&](std::array<Word, 7>& terms, size_t count) {
    return count == 1 ? terms[0] : addmany(alloc, std::span<const Word>(terms.data(), count));
  };
  for (size_t i = 0; i < 64; ++i) {
    const Word new_e = resolve(e_terms, e_count);
    const Word big_s1 = xor_(alloc, xor_(alloc, new_e.rotr(6), new_e.rotr(11)), new_e.rotr(25));
    const Word ch_word = ch(alloc, new_e, f, g);
    const Word new_a = resolve(a_terms, a_count);
    const Word big_s0 = xor_(alloc, xor_(alloc, new_a.rotr(2), new_a.rotr(13)), new_a.rotr(22));
    const Word maj_word = maj(alloc, new_a, b, c);
    const std::array<Word, 5> temp1 = {hh, big_s1, ch_word, Word::constant_word(native::kSha256RoundConstants[i]), w[i]};
    hh = g;
    g = f;
    f = new_e;
    std::copy(temp1.begin(), temp1.end(), e_terms.begin());
    e_terms[5] = d;
    e_count = 6;
    d = c;
    c = b;
    b = new_a;
    std::copy(temp1.begin(), temp1.end(), a_terms.begin());
    a_terms[5] = big_s0;
    a_terms[6] = maj_word;
    a_count = 7;
  }

  std::vector<UInt32> out;
  out.reserve(8);
  const auto finish = [&](std::span<const Word> ops) {
    std::array<r1cs::Variable, 32> vars{};
    const Word sum = addmany(alloc, ops, &vars);
    if (sum.constant == ~0u) return UInt32::constant(sum.value);
    std::vector<Boolean> le;
    le.reserve(32);
    for (unsigned i = 0; i < 32; ++i) le.emplace_back(AllocatedBit(vars[i], ((sum.value >> i) & 1) != 0));
    return UInt32::from_bits(le);
  };
  const auto with = [](const std::array<Word, 7>& terms, size_t count, const Word& extra) {
    std::vector<Word> ops(terms.begin(), terms.begin() + static_cast<std::ptrdiff_t>(count));
    ops.push_back(extra);
    return ops;
  };
  out.push_back(finish(with(a_terms, a_count, hw[0])));
  for (const auto& [x, y] : {std::pair{hw[1], b}, std::pair{hw[2], c}, std::pair{hw[3], d}}) {
    const std::array<Word, 2> ops = {x, y};
    out.push_back(finish(ops));
  }
  out.push_back(finish(with(e_terms, e_count, hw[4])));
  for (const auto& [x, y] : {std::pair{hw[5], f}, std::pair{hw[6], g}, std::pair{hw[7], hh}}) {
    const std::array<Word, 2> ops = {x, y};
    out.push_back(finish(ops));
  }
  return out;
}

}  // namespace cuzk::gadgets::sha256_witness
