// uint32.hpp, multieq.hpp, sha256.hpp, sha256_native.hpp: values against native arithmetic and
// NIST FIPS 180-2 vectors; the R1CS against the pinned counts of bellperson's test_full_block /
// test_full_hash and against the row fingerprints of the independent Python model:
//   python3 shared/tools/sha256_circuit_model.py
// (it builds bellman's rows in order; its harness allocates the 512 message bits first, as
// bellperson's tests do, with message sha256(b"sha256-circuit-model block") twice).

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/hex.hpp"
#include "gadgets/sha256.hpp"
#include "gadgets/sha256_native.hpp"
#include "gadgets/uint32.hpp"
#include "r1cs/row_digest.hpp"
#include "r1cs/test_cs.hpp"
#include "r1cs/witness_cs.hpp"
#include "support/random.hpp"

namespace cuzk::gadgets {
namespace {

using F = ff::Fr;
using LC = r1cs::LinearCombination<F>;
using TestCS = r1cs::TestCS<F>;

std::string hex(std::span<const uint8_t> bytes) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (uint8_t b : bytes) {
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}
std::vector<uint8_t> bytes_of(const std::string& s) { return std::vector<uint8_t>(s.begin(), s.end()); }
std::vector<uint8_t> to_vec(const native::Sha256Digest& d) { return std::vector<uint8_t>(d.begin(), d.end()); }

// Message bits in SHA order (MSB of byte 0 first), each allocated as "msg bit i".
template <class CS>
std::vector<Boolean> alloc_message(CS& cs, std::span<const uint8_t> msg) {
  std::vector<Boolean> bits;
  for (size_t i = 0; i < 8 * msg.size(); ++i) {
    r1cs::Namespace ns(cs, [i] { return "msg bit " + std::to_string(i); });
    bits.emplace_back(AllocatedBit::alloc(cs, ((msg[i / 8] >> (7 - i % 8)) & 1) != 0));
  }
  return bits;
}
std::vector<uint8_t> bits_to_bytes(const std::vector<Boolean>& bits) {
  std::vector<uint8_t> out(bits.size() / 8, 0);
  for (size_t i = 0; i < bits.size(); ++i) out[i / 8] |= uint8_t(bits[i].value()) << (7 - i % 8);
  return out;
}
// Fingerprint of rows [from, end) in the model's canonical serialisation.
std::string rows_digest(const TestCS& cs, size_t from) {
  r1cs::Sha256 sha;
  std::vector<uint8_t> buf;
  for (size_t i = from; i < cs.num_constraints(); ++i) {
    buf.clear();
    r1cs::append_canonical(buf, cs.constraints()[i].a);
    r1cs::append_canonical(buf, cs.constraints()[i].b);
    r1cs::append_canonical(buf, cs.constraints()[i].c);
    sha.update(buf);
  }
  return sha.hex_digest();
}
// The model's witness fingerprint: SHA-256 of every aux value, 32 bytes little-endian each.
std::string witness_digest(const std::vector<F>& aux) {
  r1cs::Sha256 sha;
  std::array<uint8_t, F::kBytes> buf;
  for (const F& v : aux) {
    v.to_bytes_le(buf);
    sha.update(buf);
  }
  return sha.hex_digest();
}
std::vector<uint8_t> model_message() {
  const native::Sha256Digest d = native::sha256(bytes_of("sha256-circuit-model block"));
  std::vector<uint8_t> msg(d.begin(), d.end());
  msg.insert(msg.end(), d.begin(), d.end());
  return msg;
}

// ---------------------------------------------------------------------------------------------
// Native twin: FIPS 180-2 appendix B vectors, through OpenSSL and through our compression.
// ---------------------------------------------------------------------------------------------

struct Vector {
  std::string message, digest;
};
const std::vector<Vector> kNist = {
    {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
    {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
    {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
};

// FIPS 180-4 §5.1.1 padding, then our compression over the blocks.
native::Sha256Digest sha256_by_compress(std::span<const uint8_t> msg) {
  std::vector<uint8_t> padded(msg.begin(), msg.end());
  padded.push_back(0x80);
  while (padded.size() % 64 != 56) padded.push_back(0);
  for (int i = 7; i >= 0; --i) padded.push_back(uint8_t((uint64_t(msg.size()) * 8) >> (8 * i)));
  native::Sha256State state = native::kSha256Iv;
  for (size_t off = 0; off < padded.size(); off += 64) {
    native::sha256_compress(state, std::span<const uint8_t, 64>(padded.data() + off, 64));
  }
  return native::sha256_state_bytes(state);
}

TEST(Sha256Native, NistVectors) {
  for (const Vector& v : kNist) {
    EXPECT_EQ(hex(native::sha256(bytes_of(v.message))), v.digest) << v.message;
    EXPECT_EQ(hex(sha256_by_compress(bytes_of(v.message))), v.digest) << v.message;
  }
  // Multi-block and odd lengths: our compression against OpenSSL.
  auto g = test::rng(11);
  for (size_t len : {55u, 56u, 63u, 64u, 65u, 119u, 200u}) {
    std::vector<uint8_t> msg(len);
    for (uint8_t& b : msg) b = uint8_t(g());
    EXPECT_EQ(sha256_by_compress(msg), native::sha256(msg)) << len;
  }
}

// ---------------------------------------------------------------------------------------------
// UInt32
// ---------------------------------------------------------------------------------------------

TEST(UInt32, ConstantBitsRotateShift) {
  auto g = test::rng(1);
  for (int it = 0; it < 20; ++it) {
    const uint32_t v = uint32_t(g());
    const UInt32 x = UInt32::constant(v);
    for (size_t i = 0; i < 32; ++i) {
      ASSERT_TRUE(x.bits()[i].is_constant(((v >> i) & 1) != 0));
    }
    const std::vector<Boolean> be = x.into_bits_be();
    EXPECT_TRUE(be[0].is_constant((v >> 31) != 0));
    EXPECT_EQ(UInt32::from_bits_be(be).value(), v);
    EXPECT_EQ(UInt32::from_bits(x.into_bits()).value(), v);
    for (size_t k : {0u, 1u, 7u, 13u, 31u}) {
      const UInt32 r = x.rotr(k), s = x.shr(k);
      EXPECT_EQ(r.value(), std::rotr(v, int(k)));
      EXPECT_EQ(s.value(), v >> k);
      uint32_t rb = 0, sb = 0;  // the bits, not just the cached value
      for (size_t i = 0; i < 32; ++i) {
        rb |= uint32_t(r.bits()[i].value()) << i;
        sb |= uint32_t(s.bits()[i].value()) << i;
      }
      EXPECT_EQ(rb, std::rotr(v, int(k)));
      EXPECT_EQ(sb, v >> k);
      for (size_t i = 32 - k; i < 32; ++i) EXPECT_TRUE(s.bits()[i].is_constant(false));
    }
  }
}

TEST(UInt32, AllocXorRows) {
  auto g = test::rng(2);
  const uint32_t va = uint32_t(g()), vb = uint32_t(g()), vc = 0x0f0f00ffu;
  TestCS cs;
  const UInt32 a = [&] { r1cs::Namespace ns(cs, "a"); return UInt32::alloc(cs, va); }();
  const UInt32 b = [&] { r1cs::Namespace ns(cs, "b"); return UInt32::alloc(cs, vb); }();
  EXPECT_EQ(cs.num_aux(), 64u);
  EXPECT_EQ(cs.num_constraints(), 64u);
  EXPECT_EQ(a.bits()[5].bit().variable(), r1cs::Variable::aux(5));  // LSB first
  const UInt32 x = [&] { r1cs::Namespace ns(cs, "x"); return a.xor_(cs, b); }();
  EXPECT_EQ(x.value(), va ^ vb);
  EXPECT_EQ(cs.num_constraints(), 96u);
  // Row 64 is bit 0: (2a0) · b0 = a0 + b0 − x0.
  const auto& row = cs.constraints()[64];
  EXPECT_EQ(row.path, "x/xor of bit 0/xor constraint");
  EXPECT_EQ(row.a, LC() + F::from_uint(2) * r1cs::Variable::aux(0));
  EXPECT_EQ(row.b, LC(r1cs::Variable::aux(32)));
  // With a constant every position folds (free): 1 bits become Not(a_i), 0 bits stay Is(a_i).
  const UInt32 y = [&] { r1cs::Namespace ns(cs, "y"); return a.xor_(cs, UInt32::constant(vc)); }();
  EXPECT_EQ(y.value(), va ^ vc);
  EXPECT_EQ(cs.num_constraints(), 96u);
  for (size_t i = 0; i < 32; ++i) {
    EXPECT_EQ(y.bits()[i].kind(), ((vc >> i) & 1) ? Boolean::Kind::kNot : Boolean::Kind::kIs);
  }
  EXPECT_TRUE(cs.is_satisfied());
  cs.set("x/xor of bit 3/xor result", F::from_uint(((va ^ vb) >> 3 & 1) ^ 1));
  EXPECT_EQ(cs.first_unsatisfied(), "x/xor of bit 3/xor constraint");
}

// ch and maj per bit, over every mix of constants, bits and negated bits: values against the
// truth table, rows as SPEC-SHA256 §2.3-2.4, and the system satisfied.
TEST(UInt32, ChMajAllOperandKinds) {
  for (int combo = 0; combo < 4 * 4 * 4; ++combo) {  // per operand: F, T, Is, Not
    for (int vals = 0; vals < 8; ++vals) {
      TestCS cs;
      std::vector<Boolean> ops;
      int n_const = 0;
      for (int k = 0; k < 3; ++k) {
        const int kind = (combo >> (2 * k)) & 3;
        const bool v = (vals >> k) & 1;
        if (kind < 2) {
          ops.push_back(Boolean::constant(kind == 1));
          ++n_const;
          continue;
        }
        r1cs::Namespace ns(cs, "op" + std::to_string(k));
        const AllocatedBit bit = AllocatedBit::alloc(cs, kind == 2 ? v : !v);
        ops.push_back(kind == 2 ? Boolean::is(bit) : Boolean::negation(bit));
      }
      const bool a = ops[0].value(), b = ops[1].value(), c = ops[2].value();
      const size_t base = cs.num_constraints();
      const Boolean ch = [&] { r1cs::Namespace ns(cs, "ch"); return sha256_ch(cs, ops[0], ops[1], ops[2]); }();
      const size_t ch_rows = cs.num_constraints() - base;
      const Boolean maj = [&] { r1cs::Namespace ns(cs, "maj"); return sha256_maj(cs, ops[0], ops[1], ops[2]); }();
      const size_t maj_rows = cs.num_constraints() - base - ch_rows;
      ASSERT_EQ(ch.value(), (a && b) != (!a && c)) << combo << " " << vals;
      ASSERT_EQ(maj.value(), (a && b) || (a && c) || (b && c)) << combo << " " << vals;
      ASSERT_TRUE(cs.is_satisfied()) << combo << " " << vals << " " << *cs.first_unsatisfied();
      // Costs: all constant → 0; no constant → ch 1 row, maj 2 (bc, maj); else at most one.
      if (n_const == 3) {
        EXPECT_EQ(ch_rows + maj_rows, 0u);
      } else if (n_const == 0) {
        EXPECT_EQ(ch_rows, 1u);
        EXPECT_EQ(maj_rows, 2u);
      } else {
        EXPECT_LE(ch_rows, 1u) << combo;
        EXPECT_LE(maj_rows, 1u) << combo;
      }
    }
  }
}

TEST(UInt32, MajGeneralCaseOrder) {
  TestCS cs;
  const AllocatedBit a = AllocatedBit::alloc(cs, true);  // aux 0..2, rows 0..2
  const AllocatedBit b = [&] { r1cs::Namespace ns(cs, "b"); return AllocatedBit::alloc(cs, true); }();
  const AllocatedBit c = [&] { r1cs::Namespace ns(cs, "c"); return AllocatedBit::alloc(cs, false); }();
  const Boolean m = sha256_maj(cs, a, b, c);
  // maj is aux 3, bc aux 4; bc's row (3) comes before the maj row (4).
  EXPECT_EQ(m.bit().variable(), r1cs::Variable::aux(3));
  EXPECT_EQ(cs.constraints()[3].path, "b and c/and constraint");
  EXPECT_EQ(cs.constraints()[3].c, LC(r1cs::Variable::aux(4)));
  const auto& row = cs.constraints()[4];
  EXPECT_EQ(row.path, "maj computation");
  // (2bc − b − c) · a = bc − maj
  LC want_a;
  want_a.add(-F::one(), r1cs::Variable::aux(1));
  want_a.add(-F::one(), r1cs::Variable::aux(2));
  want_a.add(F::from_uint(2), r1cs::Variable::aux(4));
  EXPECT_EQ(row.a, want_a);
  EXPECT_EQ(row.b, LC(r1cs::Variable::aux(0)));
  LC want_c;
  want_c.add(-F::one(), r1cs::Variable::aux(3));
  want_c.add(F::one(), r1cs::Variable::aux(4));
  EXPECT_EQ(row.c, want_c);
  EXPECT_TRUE(m.value());
  EXPECT_TRUE(cs.is_satisfied());
  cs.set("maj", F::zero());
  EXPECT_EQ(cs.first_unsatisfied(), "maj computation");
}

// addmany: k = bitlength(n·(2^32−1)) result bits, the sum mod 2^32, equalities packed by MultiEq
// (flush before the equation that would reach 254 bits), constants free.
TEST(UInt32, AddmanyAndMultiEq) {
  auto g = test::rng(3);
  {
    MultiEq<F> meq;
    TestCS cs;
    const std::array<UInt32, 3> ops = {UInt32::constant(0xffffffffu), UInt32::constant(7), UInt32::constant(9)};
    EXPECT_EQ(UInt32::addmany(cs, meq, ops).value(), 15u);
    EXPECT_EQ(cs.num_constraints(), 0u);
    EXPECT_EQ(meq.bits_used(), 0u);
  }
  for (size_t n : {2u, 3u, 4u, 5u, 8u, 10u}) {
    TestCS cs;
    MultiEq<F> meq;
    std::vector<UInt32> ops;
    uint64_t sum = 0;
    for (size_t j = 0; j < n; ++j) {
      r1cs::Namespace ns(cs, "op" + std::to_string(j));
      const uint32_t v = j == 0 ? 0xffffffffu : uint32_t(g());
      sum += v;
      // One operand a constant, one with negated bits: both reach the LC through ONE.
      ops.push_back(j == 1 ? UInt32::constant(v) : UInt32::alloc(cs, v));
    }
    if (n >= 3) {  // ¬¬: Not bits first, then back to Is, both free
      ops[2] = [&] { r1cs::Namespace ns(cs, "not1"); return ops[2].xor_(cs, UInt32::constant(0xffffffffu)); }();
      ASSERT_EQ(ops[2].bits()[0].kind(), Boolean::Kind::kNot);
      ops[2] = [&] { r1cs::Namespace ns(cs, "not2"); return ops[2].xor_(cs, UInt32::constant(0xffffffffu)); }();
    }
    const size_t k = std::bit_width(uint64_t(n) * 0xffffffffull);
    const size_t before = cs.num_constraints(), aux_before = cs.num_aux();
    const UInt32 r = [&] { r1cs::Namespace ns(cs, "sum"); return UInt32::addmany(cs, meq, ops); }();
    EXPECT_EQ(r.value(), uint32_t(sum));
    EXPECT_EQ(cs.num_aux() - aux_before, k) << n;
    EXPECT_EQ(cs.num_constraints() - before, k) << n;
    EXPECT_EQ(meq.bits_used(), k);
    meq.flush(cs);
    EXPECT_EQ(cs.num_constraints() - before, k + 1);
    EXPECT_EQ(cs.constraints().back().b, LC(TestCS::one()));
    ASSERT_TRUE(cs.is_satisfied()) << *cs.first_unsatisfied();
    // A carry bit is part of the equation: flipping it breaks the MultiEq row.
    const std::string carry = "sum/result bit " + std::to_string(k - 1) + "/boolean";
    cs.set(carry, F::one() - cs.get(carry));
    EXPECT_EQ(cs.first_unsatisfied(), "multieq 0");
  }
  // Packing: seven 35-bit equations share a row; the eighth flushes first (after its own bits).
  TestCS cs;
  MultiEq<F> meq;
  std::vector<UInt32> words;
  for (int j = 0; j < 5; ++j) {
    r1cs::Namespace ns(cs, "w" + std::to_string(j));
    words.push_back(UInt32::alloc(cs, uint32_t(g())));
  }
  std::vector<size_t> row_after;
  for (int t = 0; t < 8; ++t) {
    r1cs::Namespace ns(cs, "add" + std::to_string(t));
    UInt32::addmany(cs, meq, words);
    row_after.push_back(cs.num_constraints());
  }
  EXPECT_EQ(row_after[6], 160u + 7 * 35);
  EXPECT_EQ(row_after[7], 160u + 8 * 35 + 1);
  EXPECT_EQ(cs.constraints()[160 + 8 * 35].path, "add7/multieq 0");  // after add7's bits
  EXPECT_EQ(meq.bits_used(), 35u);
  meq.flush(cs);
  EXPECT_EQ(cs.constraints().back().path, "multieq 1");
  // The first row: Σ_t 2^{35t}·(Σ words) = Σ_t 2^{35t}·(result bits of t), checked via satisfaction.
  EXPECT_TRUE(cs.is_satisfied());
  cs.set("add3/result bit 0/boolean", F::one() - cs.get("add3/result bit 0/boolean"));
  EXPECT_EQ(cs.first_unsatisfied(), "add7/multieq 0");
}

// ---------------------------------------------------------------------------------------------
// SHA-256 gadget
// ---------------------------------------------------------------------------------------------

TEST(Sha256Gadget, BlankBlockIsFree) {
  // bellperson test_blank_hash: all-constant input gives the empty-string digest and no rows.
  TestCS cs;
  std::vector<Boolean> block(512, Boolean::constant(false));
  block[0] = Boolean::constant(true);
  const std::vector<Boolean> out = sha256_block_no_padding(cs, block);
  EXPECT_EQ(cs.num_constraints(), 0u);
  EXPECT_EQ(cs.num_aux(), 0u);
  EXPECT_EQ(hex(bits_to_bytes(out)), kNist[1].digest);
}

TEST(Sha256Gadget, FullBlockMatchesModel) {
  const std::vector<uint8_t> msg = model_message();
  TestCS cs;
  const std::vector<Boolean> bits = alloc_message(cs, msg);
  const std::vector<Boolean> out = sha256_block_no_padding(cs, bits);
  EXPECT_EQ(cs.num_constraints(), 512u + 25840u);
  EXPECT_EQ(cs.num_aux(), 512u + 25814u);
  native::Sha256State state = native::kSha256Iv;
  native::sha256_compress(state, std::span<const uint8_t, 64>(msg.data(), 64));
  EXPECT_EQ(bits_to_bytes(out), to_vec(native::sha256_state_bytes(state)));
  EXPECT_EQ(hex(bits_to_bytes(out)), "507987d4b6de7be26da8cf2eabf28f39ac063717f37598a950b78d88aefd86cb");
  EXPECT_EQ(rows_digest(cs, 512), "b22334579452ad21e2287ddfab1501b89a3ec481ec7ec859ad05740e89dfe70a");
  EXPECT_EQ(cs.digest(), "420fad809340a0c306e289fb89139f8616018629698528291850a28aed991795");
  EXPECT_EQ(witness_digest(cs.aux()), "adfa11e200349f40e5421ae3f6687254db1e230d233dcd54fd9f08eb5977fbab");
  EXPECT_TRUE(cs.is_satisfied());
}

TEST(Sha256Gadget, FullHashMatchesModelAndWitnessCS) {
  const std::vector<uint8_t> msg = model_message();
  TestCS cs;
  const std::vector<Boolean> out = sha256(cs, alloc_message(cs, msg));
  EXPECT_EQ(cs.num_constraints(), 512u + 44874u);
  EXPECT_EQ(cs.num_aux(), 512u + 44828u);
  EXPECT_EQ(bits_to_bytes(out), to_vec(native::sha256(msg)));
  EXPECT_EQ(rows_digest(cs, 512), "2942b443ff2927f0c721820501b32d98b637f3194ed1c43e574a0ed4107e9900");
  EXPECT_EQ(cs.digest(), "f5b5706d8fa6fb52f0a955d46584996bfd764719311ea41c50859b3bdc74cfc5");
  EXPECT_EQ(witness_digest(cs.aux()), "989a51a4339dd22802d3c4a6927b76a655efba25e8ed2974396cbb85f63e3fa8");
  ASSERT_TRUE(cs.is_satisfied());

  r1cs::WitnessCS<F> wcs;
  const std::vector<Boolean> wout = sha256(wcs, alloc_message(wcs, msg));
  EXPECT_EQ(wcs.aux(), cs.aux());
  EXPECT_EQ(bits_to_bytes(wout), bits_to_bytes(out));

  // Flipping witness values is caught, at the row that reads them.
  cs.set("block 1/compression round 5/maj/maj 7/maj", F::one() - cs.get("block 1/compression round 5/maj/maj 7/maj"));
  EXPECT_EQ(cs.first_unsatisfied(), "block 1/compression round 5/maj/maj 7/maj computation");
}

TEST(Sha256Gadget, TreeDNodeMatchesModel) {
  // Two Fr-like children, bits 248 and 504 constant false (SPEC-SHA256 §7.3); the model's message.
  auto child = [](const char* tag) {
    native::Sha256Digest d = native::sha256(bytes_of(tag));
    d[31] &= 0x3f;
    return d;
  };
  std::vector<uint8_t> msg;
  for (const char* tag : {"left", "right"}) {
    const native::Sha256Digest d = child(tag);
    msg.insert(msg.end(), d.begin(), d.end());
  }
  TestCS cs;
  std::vector<Boolean> bits;
  for (size_t i = 0; i < 512; ++i) {
    const bool v = ((msg[i / 8] >> (7 - i % 8)) & 1) != 0;
    if (i == 248 || i == 504) {
      ASSERT_FALSE(v);
      bits.push_back(Boolean::constant(false));
      continue;
    }
    r1cs::Namespace ns(cs, [i] { return "msg bit " + std::to_string(i); });
    bits.emplace_back(AllocatedBit::alloc(cs, v));
  }
  const std::vector<Boolean> out = sha256(cs, bits);
  EXPECT_EQ(cs.num_constraints(), 510u + 44866u);
  EXPECT_EQ(bits_to_bytes(out), to_vec(native::sha256(msg)));
  EXPECT_EQ(rows_digest(cs, 510), "20be9b87c693f76b37150604b9c8367e578311cd67c144cf946990e8e621e4bf");
  EXPECT_EQ(witness_digest(cs.aux()), "4b50a8c9fbdd346b425ebfa07dfc28ac0a599693bfd0896e576ab86036aa7d6b");
}

// The witness-only path (sha256_witness.hpp) must allocate exactly what the gadget allocates, for
// any mix of constant, allocated and negated input bits and state words: constants decide which
// xor/and/ch/maj bits get a variable, negations decide the value an xor stores.
template <class CS>
void mixed_inputs(CS& cs, uint64_t seed, double p_const, std::vector<Boolean>& block, std::vector<UInt32>& state) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  auto bit = [&](size_t i) {
    const bool v = (g() & 1) != 0;
    if (u(g) < p_const) return Boolean::constant(v);
    r1cs::Namespace ns(cs, [i] { return "in " + std::to_string(i); });
    const AllocatedBit a = AllocatedBit::alloc(cs, v);
    return (g() & 1) != 0 ? Boolean(a) : Boolean::negation(a);
  };
  block.clear();
  for (size_t i = 0; i < 512; ++i) block.push_back(bit(i));
  state.clear();
  for (size_t j = 0; j < 8; ++j) {
    std::vector<Boolean> le;
    for (size_t i = 0; i < 32; ++i) le.push_back(bit(512 + 32 * j + i));
    state.push_back(UInt32::from_bits(le));
  }
}

TEST(Sha256Witness, SameAuxAsGadgetForMixedInputs) {
  const uint64_t base = test::seed();
  size_t trial = 0;
  for (double p_const : {0.0, 0.02, 0.3, 0.7, 0.98, 1.0}) {
    for (int rep = 0; rep < 4; ++rep, ++trial) {
      const uint64_t seed = base + trial;
      TestCS cs;
      r1cs::WitnessCS<F> wcs;
      std::vector<Boolean> block, wblock;
      std::vector<UInt32> state, wstate;
      mixed_inputs(cs, seed, p_const, block, state);
      mixed_inputs(wcs, seed, p_const, wblock, wstate);
      const std::vector<UInt32> out = sha256_compression_function(cs, block, state);
      const std::vector<UInt32> wout = sha256_compression_function(wcs, wblock, wstate);
      ASSERT_TRUE(cs.is_satisfied()) << "p_const " << p_const << " seed " << seed;
      ASSERT_EQ(wcs.aux().size(), cs.aux().size()) << "p_const " << p_const << " seed " << seed;
      EXPECT_EQ(wcs.aux(), cs.aux()) << "p_const " << p_const << " seed " << seed;
      for (size_t j = 0; j < 8; ++j) {
        EXPECT_EQ(wout[j].value(), out[j].value()) << j;
        for (size_t i = 0; i < 32; ++i) {  // same kind, and the same variable where allocated
          const Boolean &x = out[j].bits()[i], &y = wout[j].bits()[i];
          ASSERT_EQ(x.kind(), y.kind()) << j << " " << i;
          if (!x.is_constant()) {
            EXPECT_EQ(x.bit().variable(), y.bit().variable()) << j << " " << i;
          }
        }
      }
    }
  }
  // Chained through padding: a two-block message whose second block is constants.
  const std::vector<uint8_t> msg = model_message();
  TestCS cs;
  r1cs::WitnessCS<F> wcs;
  sha256(cs, alloc_message(cs, std::span<const uint8_t>(msg).first(40)));
  sha256(wcs, alloc_message(wcs, std::span<const uint8_t>(msg).first(40)));
  EXPECT_EQ(wcs.aux(), cs.aux());
}

TEST(Sha256Gadget, NistVectorsAndRandomMessages) {
  auto g = test::rng(4);
  std::vector<std::vector<uint8_t>> msgs;
  for (const Vector& v : kNist) msgs.push_back(bytes_of(v.message));
  for (size_t len : {1u, 64u}) {
    std::vector<uint8_t> m(len);
    for (uint8_t& b : m) b = uint8_t(g());
    msgs.push_back(m);
  }
  for (size_t i = 0; i < msgs.size(); ++i) {
    TestCS cs;
    const std::vector<Boolean> out = sha256(cs, alloc_message(cs, msgs[i]));
    const native::Sha256Digest want = native::sha256(msgs[i]);
    EXPECT_EQ(hex(bits_to_bytes(out)), hex(want)) << i;
    EXPECT_TRUE(cs.is_satisfied()) << i;
    if (i < kNist.size()) {
      EXPECT_EQ(hex(bits_to_bytes(out)), kNist[i].digest);
    }
  }
  // "abc" through TestCS: satisfied; a message bit flipped 0↔1 keeps its boolean row but breaks
  // the first xor that reads it (w extension 16 reads w1 = bits 32..63, through σ0 of w[1]).
  TestCS cs;
  const std::vector<Boolean> out = sha256(cs, alloc_message(cs, bytes_of("abc")));
  EXPECT_EQ(hex(bits_to_bytes(out)), kNist[0].digest);
  ASSERT_TRUE(cs.is_satisfied());
  cs.set("msg bit 3/boolean", F::one() - cs.get("msg bit 3/boolean"));
  const auto bad = cs.first_unsatisfied();
  ASSERT_TRUE(bad.has_value());
  EXPECT_NE(bad->find("block 0/"), std::string::npos) << *bad;
}

}  // namespace
}  // namespace cuzk::gadgets
