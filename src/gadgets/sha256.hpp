#pragma once
// The SHA-256 gadget (bellpepper-core 0.2.1 gadgets/sha256.rs, as bellperson 0.27): the exact
// variables and rows of SPEC-SHA256.md §5-6, so Filecoin's circuits keep their parameters.
// Additions a' and e' of a round are deferred into the next round's addmany (one addmany for
// h+S1+ch+K+w+d and one for h+S1+ch+K+w+S0+maj), and each compression packs its addmany
// equalities into MultiEq rows.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gadgets/boolean.hpp"
#include "gadgets/multieq.hpp"
#include "gadgets/sha256_native.hpp"
#include "gadgets/sha256_witness.hpp"
#include "gadgets/uint32.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::gadgets {

inline std::vector<UInt32> sha256_iv() {
  std::vector<UInt32> iv;
  for (uint32_t word : native::kSha256Iv) iv.push_back(UInt32::constant(word));
  return iv;
}

namespace detail {

// sha256.rs Maybe: a word known (Concrete) or a list of words still to be summed (Deferred).
struct MaybeWord {
  std::vector<UInt32> terms;  // one word when concrete
  bool deferred = false;

  // The word, summing the deferred list plus `others` by one addmany.
  template <r1cs::ConstraintSystem CS>
  UInt32 compute(CS& cs, MultiEq<typename CS::Field>& multieq, std::span<const UInt32> others = {}) const {
    if (!deferred) return terms.front();
    std::vector<UInt32> all = terms;
    all.insert(all.end(), others.begin(), others.end());
    return UInt32::addmany(cs, multieq, all);
  }
};


}  // namespace detail

// One compression of a 512-bit block (message order: bit 0 is the MSB of word 0) with the
// state `h` (8 words): the 8 words of the new state (sha256.rs sha256_compression_function).
// A backend that records no rows (WitnessCS) gets the same aux from sha256_witness.hpp.
template <r1cs::ConstraintSystem CS>
std::vector<UInt32> sha256_compression_function(CS& cs, std::span<const Boolean> input, std::span<const UInt32> h) {
  using F = typename CS::Field;
  if constexpr (!r1cs::records_constraints<CS>) return sha256_witness::compression(cs, input, h);
  if (input.size() != 512) throw r1cs::SynthesisError("sha256 compression: the block must be 512 bits");
  if (h.size() != 8) throw r1cs::SynthesisError("sha256 compression: the state must be 8 words");
  std::vector<UInt32> w;
  w.reserve(64);
  for (size_t t = 0; t < 16; ++t) w.push_back(UInt32::from_bits_be(input.subspan(32 * t, 32)));

  MultiEq<F> multieq;
  const auto ns = [&cs](const std::string& name, auto fn) { return r1cs::in_namespace(cs, name, fn); };
  for (size_t i = 16; i < 64; ++i) {
    r1cs::Namespace round(cs, [i] { return "w extension " + std::to_string(i); });
    UInt32 s0 = w[i - 15].rotr(7);
    s0 = ns("first xor for s0", [&] { return s0.xor_(cs, w[i - 15].rotr(18)); });
    s0 = ns("second xor for s0", [&] { return s0.xor_(cs, w[i - 15].shr(3)); });
    UInt32 s1 = w[i - 2].rotr(17);
    s1 = ns("first xor for s1", [&] { return s1.xor_(cs, w[i - 2].rotr(19)); });
    s1 = ns("second xor for s1", [&] { return s1.xor_(cs, w[i - 2].shr(10)); });
    const std::array<UInt32, 4> ops = {w[i - 16], s0, w[i - 7], s1};
    w.push_back(ns("computation of w[i]", [&] { return UInt32::addmany(cs, multieq, ops); }));
  }

  detail::MaybeWord a{{h[0]}}, b{{h[1]}}, c{{h[2]}}, d{{h[3]}};
  detail::MaybeWord e{{h[4]}}, f{{h[5]}}, g{{h[6]}}, hh{{h[7]}};
  for (size_t i = 0; i < 64; ++i) {
    r1cs::Namespace round(cs, [i] { return "compression round " + std::to_string(i); });
    const UInt32 new_e = ns("deferred e computation", [&] { return e.compute(cs, multieq); });
    UInt32 big_s1 = new_e.rotr(6);
    big_s1 = ns("first xor for s1", [&] { return big_s1.xor_(cs, new_e.rotr(11)); });
    big_s1 = ns("second xor for s1", [&] { return big_s1.xor_(cs, new_e.rotr(25)); });
    UInt32 ch = ns("ch", [&] { return UInt32::sha256_ch(cs, new_e, f.terms.front(), g.terms.front()); });
    const std::vector<UInt32> temp1 = {hh.terms.front(), big_s1, ch, UInt32::constant(native::kSha256RoundConstants[i]),
                                       w[i]};
    const UInt32 new_a = ns("deferred a computation", [&] { return a.compute(cs, multieq); });
    UInt32 big_s0 = new_a.rotr(2);
    big_s0 = ns("first xor for s0", [&] { return big_s0.xor_(cs, new_a.rotr(13)); });
    big_s0 = ns("second xor for s0", [&] { return big_s0.xor_(cs, new_a.rotr(22)); });
    UInt32 maj = ns("maj", [&] { return UInt32::sha256_maj(cs, new_a, b.terms.front(), c.terms.front()); });

    hh = g;
    g = f;
    f = detail::MaybeWord{{new_e}};
    e = detail::MaybeWord{temp1, true};
    e.terms.push_back(d.terms.front());
    d = c;
    c = b;
    b = detail::MaybeWord{{new_a}};
    a = detail::MaybeWord{temp1, true};
    a.terms.push_back(big_s0);
    a.terms.push_back(maj);
  }

  std::vector<UInt32> out;
  out.reserve(8);
  const auto add2 = [&](const char* name, const UInt32& x, const detail::MaybeWord& y) {
    const std::array<UInt32, 2> ops = {x, y.terms.front()};
    return ns(name, [&] { return UInt32::addmany(cs, multieq, ops); });
  };
  out.push_back(ns("deferred h0 computation", [&] { return a.compute(cs, multieq, std::span(&h[0], 1)); }));
  out.push_back(add2("new h1", h[1], b));
  out.push_back(add2("new h2", h[2], c));
  out.push_back(add2("new h3", h[3], d));
  out.push_back(ns("deferred h4 computation", [&] { return e.compute(cs, multieq, std::span(&h[4], 1)); }));
  out.push_back(add2("new h5", h[5], f));
  out.push_back(add2("new h6", h[6], g));
  out.push_back(add2("new h7", h[7], hh));
  multieq.flush(cs);  // MultiEq's Drop
  return out;
}

// SHA-256 of a message of whole bytes, given as bits in message order (bit 0 = MSB of byte 0),
// padded with constants (no rows); the digest as 256 bits in the same order (sha256.rs sha256).
template <r1cs::ConstraintSystem CS>
std::vector<Boolean> sha256(CS& cs, std::span<const Boolean> input) {
  if (input.size() % 8 != 0) throw r1cs::SynthesisError("sha256: the message must be whole bytes");
  std::vector<Boolean> padded(input.begin(), input.end());
  const uint64_t length = input.size();
  padded.push_back(Boolean::constant(true));
  while ((padded.size() + 64) % 512 != 0) padded.push_back(Boolean::constant(false));
  for (int i = 63; i >= 0; --i) padded.push_back(Boolean::constant(((length >> i) & 1) != 0));

  std::vector<UInt32> cur = sha256_iv();
  for (size_t block = 0; block < padded.size() / 512; ++block) {
    r1cs::Namespace ns(cs, [block] { return "block " + std::to_string(block); });
    cur = sha256_compression_function(cs, std::span<const Boolean>(padded).subspan(512 * block, 512), cur);
  }
  std::vector<Boolean> digest;
  digest.reserve(256);
  for (const UInt32& word : cur) {
    const std::vector<Boolean> bits = word.into_bits_be();
    digest.insert(digest.end(), bits.begin(), bits.end());
  }
  return digest;
}

// sha256.rs sha256_block_no_padding: one compression of a 512-bit input from the IV.
template <r1cs::ConstraintSystem CS>
std::vector<Boolean> sha256_block_no_padding(CS& cs, std::span<const Boolean> input) {
  const std::vector<UInt32> iv = sha256_iv();
  std::vector<Boolean> digest;
  for (const UInt32& word : sha256_compression_function(cs, input, iv)) {
    const std::vector<Boolean> bits = word.into_bits_be();
    digest.insert(digest.end(), bits.begin(), bits.end());
  }
  return digest;
}

}  // namespace cuzk::gadgets
