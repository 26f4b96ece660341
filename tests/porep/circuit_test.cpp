// The PoRep partition circuit (porep/circuit.hpp) against the published constraint counts
// (shared/SPEC.md §1) and the independent Python model's R1CS fingerprint:
//   python3 shared/tools/porep_circuit_model.py --shape 2KiB --no-tamper
// prints "R1CS fingerprint, circuit rows: c48acf08…8429", 2,687,921 rows, 40 inputs and 2,685,673
// aux for one 2 KiB partition. The fingerprint covers every coefficient, variable index and row
// order, and does not depend on the witness (all values enter through allocated variables), so a
// blank partition must give it. create_label: rust-fil-proofs create_label.rs test_create_label.

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gadgets/sha256_native.hpp"
#include "porep/circuit.hpp"
#include "core/thread_pool.hpp"
#include "porep/create_label.hpp"
#include "r1cs/compiled.hpp"
#include "r1cs/keygen_cs.hpp"
#include "r1cs/test_cs.hpp"
#include "support/random.hpp"

namespace cuzk::porep {
namespace {

using ff::Fr;
using gadgets::AllocatedBit;
using gadgets::Boolean;

const PorepPoseidon& poseidon() {
  static const PorepPoseidon p;
  return p;
}

struct Counted {
  size_t rows, inputs, aux;
  std::string digest;
};

Counted count(const StackedCircuitShape& shape, bool with_digest) {
  const std::vector<ChallengeProof> blank = blank_challenges(shape);
  r1cs::KeygenCS<Fr> cs;
  const PartitionWitness w{Fr::zero(), Fr::zero(), Fr::zero(), Fr::zero(), Fr::zero(), blank};
  synthesize_partition(cs, shape, poseidon(), w);
  Counted out{cs.num_constraints(), cs.num_inputs(), cs.num_aux(), ""};
  if (with_digest) {
    const r1cs::CompiledR1cs<Fr> compiled = std::move(cs).finish();
    out.digest = r1cs::row_digest(compiled, compiled.a.num_rows());
  }
  return out;
}

TEST(PorepCircuit, TwoKiBPartitionMatchesModelFingerprint) {
  const Counted c = count({64, 2, {8, 0, 0}, 2}, true);
  EXPECT_EQ(c.rows, 2'687'921u);  // published (SPEC.md §1)
  EXPECT_EQ(c.inputs, 40u);       // 3 + 18·2, plus ONE
  EXPECT_EQ(c.aux, 2'685'673u);
  EXPECT_EQ(c.digest, "c48acf08e6220b0839cc17ab449cb1bf5d81d70f6c4048d301be4cadb3658429");
}

// rust-fil-proofs storage-proofs-porep/tests/stacked_circuit.rs: 2 layers, 1 challenge, 22 inputs.
// The partition compiled with its challenges recorded in parallel (KeygenCS parts joined) is the
// sequentially compiled one, element for element: the 2 KiB shape on 2 threads (its fingerprint
// holds) and one of five challenges on 3 (four parts after the first, in parallel, as a 32 GiB
// partition's 18).
TEST(PorepCircuit, ParallelCompileEqualsSequential) {
  for (const auto& [challenges, threads] : {std::pair<size_t, unsigned>{2, 2}, {5, 3}}) {
    const StackedCircuitShape shape{64, 2, {8, 0, 0}, challenges};
    Progress one("compiling", challenges, ProgressStyle::off), many("compiling", challenges, ProgressStyle::off);
    const r1cs::CompiledR1cs<Fr> sequential = compile_partition(shape, poseidon(), nullptr, &one);
    ThreadPool pool(threads);
    const r1cs::CompiledR1cs<Fr> parallel = compile_partition(shape, poseidon(), &pool, &many);
    EXPECT_TRUE(parallel == sequential) << challenges << " challenges, " << threads << " threads";
    EXPECT_EQ(one.done(), challenges);  // the progress counts every challenge once, either way
    EXPECT_EQ(many.done(), challenges);
    if (challenges == 2) {
      EXPECT_EQ(r1cs::row_digest(sequential, sequential.a.num_rows()),
                "c48acf08e6220b0839cc17ab449cb1bf5d81d70f6c4048d301be4cadb3658429");
    }
  }
}

TEST(PorepCircuit, PublishedTestCircuitCounts) {
  struct Case {
    const char* name;
    StackedCircuitShape shape;
    size_t rows;
  };
  const Case cases[] = {
      {"U2", {8, 2, {2, 0, 0}, 1}, 1'206'212},
      {"U8", {8, 2, {8, 0, 0}, 1}, 1'199'620},
      {"U8-4", {32, 2, {8, 4, 0}, 1}, 1'296'576},
      {"U8-4-2", {64, 2, {8, 4, 2}, 1}, 1'346'982},
  };
  for (const Case& k : cases) {
    const Counted c = count(k.shape, false);
    EXPECT_EQ(c.rows, k.rows) << k.name;
    EXPECT_EQ(c.inputs, 22u) << k.name;
  }
}

// One label with every input bit allocated, as Rust's test does (id and 37 parents through
// bytes_into_boolean_vec_be, layer and node constants): 532,025 rows, and the value is the
// vanilla label SHA-256(replica_id ‖ layer BE ‖ node BE ‖ 0^20 ‖ parents), byte 31 &= 0x3f.
TEST(PorepCircuit, CreateLabelCountAndValue) {
  auto g = test::rng(0x6c61);
  std::array<uint8_t, 32> id{};
  for (uint8_t& b : id) b = uint8_t(g());
  id[31] &= 0x3f;
  std::vector<std::array<uint8_t, 32>> parent_bytes(14);
  for (auto& p : parent_bytes) {
    for (uint8_t& b : p) b = uint8_t(g());
    p[31] &= 0x3f;
  }
  std::vector<std::array<uint8_t, 32>> expanded;
  for (size_t i = 0; expanded.size() < kTotalParents; ++i) expanded.push_back(parent_bytes[i % 14]);
  const uint32_t layer = 3;
  const uint64_t node = 22;

  r1cs::TestCS<Fr> cs;
  const auto alloc_be = [&](const std::string& name, const std::array<uint8_t, 32>& bytes) {
    r1cs::Namespace ns(cs, name);
    std::vector<Boolean> bits;
    for (size_t i = 0; i < 256; ++i) {
      r1cs::Namespace bit_ns(cs, "bit " + std::to_string(i));
      bits.emplace_back(AllocatedBit::alloc(cs, ((bytes[i / 8] >> (7 - i % 8)) & 1) != 0));
    }
    return bits;
  };
  std::vector<std::vector<Boolean>> parents;
  for (size_t i = 0; i < kTotalParents; ++i) parents.push_back(alloc_be("parents " + std::to_string(i), expanded[i]));
  const std::vector<Boolean> id_bits = alloc_be("id", id);
  const auto label = [&] {
    r1cs::Namespace ns(cs, "create_label");
    return create_label_circuit(cs, std::span<const Boolean>(id_bits), std::span<const std::vector<Boolean>>(parents),
                                gadgets::UInt32::constant(layer), gadgets::UInt64::constant(node));
  }();
  EXPECT_EQ(cs.num_constraints(), 532'025u);
  EXPECT_TRUE(cs.is_satisfied());

  std::vector<uint8_t> message(id.begin(), id.end());
  for (int i = 3; i >= 0; --i) message.push_back(uint8_t(layer >> (8 * i)));
  for (int i = 7; i >= 0; --i) message.push_back(uint8_t(node >> (8 * i)));
  message.resize(64, 0);
  for (const auto& p : expanded) message.insert(message.end(), p.begin(), p.end());
  gadgets::native::Sha256Digest d = gadgets::native::sha256(message);
  d[31] &= 0x3f;
  EXPECT_EQ(label.value(), Fr::from_bytes_le(d).value());
}

}  // namespace
}  // namespace cuzk::porep
