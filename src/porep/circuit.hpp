#pragma once
// The StackedDRG PoRep circuit of one partition (storage-proofs-porep stacked/circuit/proof.rs
// StackedCircuit::synthesize and params.rs Proof::synthesize, rust-fil-proofs @87348a74), in
// bellperson's exact variable and row order (shared/SPEC.md §2, SPEC-POREP.md §5-§7), so that
// Filecoin's published parameters verify its proofs:
//   replica_id (input, and its bits), comm_d (input), comm_r (input), comm_r_last, comm_c,
//   comm_r = Poseidon2(comm_c, comm_r_last);
//   per challenge: data leaf in tree D; 6 DRG then 8 expander parent columns, each hashed and
//   proved in tree C; the challenge as UInt64 (one input); per layer its label from the parents'
//   rows (create_label.hpp); encoding = last label + data leaf, proved in tree R; the challenge's
//   own column (the labels just computed) hashed and proved in tree C.
// Every inclusion packs its index bits into one public input (por.hpp).

#include <array>
#include <cstdint>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "ff/bls12_381.hpp"
#include "gadgets/boolean.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/num.hpp"
#include "gadgets/por.hpp"
#include "gadgets/poseidon_constants.hpp"
#include "gadgets/poseidon_gadget.hpp"
#include "gadgets/tree_hash.hpp"
#include "gadgets/uint32.hpp"
#include "gadgets/uint64.hpp"
#include "porep/c1.hpp"
#include "porep/create_label.hpp"
#include "porep/poseidon.hpp"
#include "porep/sector_shape.hpp"
#include "core/progress.hpp"
#include "core/thread_pool.hpp"
#include "r1cs/compiled.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::porep {

inline constexpr size_t kDrgParents = 6;       // BASE_DEGREE
inline constexpr size_t kExpanderParents = 8;  // EXP_DEGREE

// The circuit's shape: nodes (tree D is binary over them), layers, the tree R/C arities and the
// challenges per partition.
struct StackedCircuitShape {
  uint64_t nodes = 64;
  size_t layers = 2;
  gadgets::MerkleShape tree_rc{8, 0, 0};
  size_t challenges = 2;
};

// The shape of a registered sector size (the table in sector_shape.hpp).
inline StackedCircuitShape circuit_shape(const SectorShape& s) {
  return {s.nodes, s.layers, gadgets::MerkleShape{s.base_arity, s.sub_arity, s.top_arity}, s.challenges_per_partition};
}

// One partition's witness: the commitments and the challenges' vanilla proofs (from a C1).
struct PartitionWitness {
  ff::Fr replica_id, comm_d, comm_r, comm_r_last, comm_c;
  std::span<const ChallengeProof> challenges;
};

namespace detail {

inline std::vector<gadgets::MerklePathElement<ff::Fr>> path_of(const MerkleProof& proof) {
  std::vector<gadgets::MerklePathElement<ff::Fr>> out(proof.path.size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = {proof.path[i].hashes, proof.path[i].index};
  return out;
}

}  // namespace detail

// The values every challenge of a partition refers to (synthesize_partition_head's result).
struct PartitionHead {
  gadgets::AllocatedNum<ff::Fr> replica_id, comm_d, comm_r, comm_r_last, comm_c;
  std::vector<gadgets::Boolean> replica_id_bits;
};

// The partition's first rows: replica_id (input, and its bits), comm_d and comm_r (inputs),
// comm_r_last, comm_c, comm_r = Poseidon2(comm_c, comm_r_last).
template <r1cs::ConstraintSystem CS>
PartitionHead synthesize_partition_head(CS& cs, const PorepPoseidon& poseidon, const PartitionWitness& w) {
  using Num = gadgets::AllocatedNum<ff::Fr>;
  using gadgets::Boolean;
  const auto ns = [&cs](const std::string& name, auto fn) { return r1cs::in_namespace(cs, name, fn); };
  const Num replica_id = ns("replica_id", [&] { return Num::alloc(cs, w.replica_id); });
  ns("replica_id_input", [&] { return replica_id.inputize(cs); });
  const std::vector<Boolean> replica_id_bits =
      gadgets::reverse_bit_numbering(ns("replica_id_bits", [&] { return replica_id.to_bits_le(cs); }));
  const Num comm_d = ns("comm_d", [&] { return Num::alloc(cs, w.comm_d); });
  ns("comm_d_input", [&] { return comm_d.inputize(cs); });
  const Num comm_r = ns("comm_r", [&] { return Num::alloc(cs, w.comm_r); });
  ns("comm_r_input", [&] { return comm_r.inputize(cs); });
  const Num comm_r_last = ns("comm_r_last", [&] { return Num::alloc(cs, w.comm_r_last); });
  const Num comm_c = ns("comm_c", [&] { return Num::alloc(cs, w.comm_c); });
  {
    const std::array<Num, 2> pair = {comm_c, comm_r_last};
    const Num hash = ns("H_comm_c_comm_r_last", [&] {
      return gadgets::poseidon_hash_gadget(cs, poseidon.arity(2), std::span<const Num>(pair));
    });
    // constraint::equal: comm_r · ONE = H(comm_c, comm_r_last)
    cs.enforce("enforce comm_r = H(comm_c || comm_r_last)",
               [&](r1cs::LinearCombination<ff::Fr> lc) { return lc + comm_r.variable(); },
               [](r1cs::LinearCombination<ff::Fr> lc) { return lc + CS::one(); },
               [&](r1cs::LinearCombination<ff::Fr> lc) { return lc + hash.variable(); });
  }
  return {replica_id, comm_d, comm_r, comm_r_last, comm_c, replica_id_bits};
}

// Challenge k's rows, after the head (and challenges 0..k-1). A witness-only synthesis may run
// each challenge into a constraint system of its own (synthesize_partition_witness): the rows
// refer to the head's variables only through linear combinations, which WitnessCS drops, and the
// values come from the gadgets, so the aux and inputs a challenge allocates do not depend on where
// it runs.
template <r1cs::ConstraintSystem CS>
void synthesize_challenge(CS& cs, const StackedCircuitShape& shape, const PorepPoseidon& poseidon,
                          const PartitionHead& head, const ChallengeProof& proof, size_t k) {
  using Num = gadgets::AllocatedNum<ff::Fr>;
  using gadgets::Boolean;
  const size_t layers = shape.layers;
  const auto ns = [&cs](const std::string& name, auto fn) { return r1cs::in_namespace(cs, name, fn); };
  const gadgets::PoseidonTreeHash poseidon_tree = poseidon.tree_hash();
  const gadgets::Sha256TreeHash sha_tree;
  const Num& comm_d = head.comm_d;
  const Num& comm_c = head.comm_c;
  const Num& comm_r_last = head.comm_r_last;
  const std::vector<Boolean>& replica_id_bits = head.replica_id_bits;
  r1cs::Namespace challenge_ns(cs, [k] { return "challenge_" + std::to_string(k); });
  if (proof.drg_parents.size() != kDrgParents || proof.exp_parents.size() != kExpanderParents)
    throw r1cs::SynthesisError("porep: a challenge needs 6 DRG and 8 expander parents");

  // Tree D: the data leaf under comm_d.
  const Num data_leaf = ns("data_leaf", [&] { return Num::alloc(cs, proof.comm_d_proof.leaf); });
  ns("comm_d_inclusion", [&] {
    const auto path = detail::path_of(proof.comm_d_proof);
    return gadgets::por_inclusion(cs, sha_tree, gadgets::MerkleShape{2, 0, 0}, data_leaf,
                                  std::span<const gadgets::MerklePathElement<ff::Fr>>(path), comm_d);
  });

  // Parent columns: allocated, hashed, proved in tree C.
  const auto parent_columns = [&](const char* kind, const std::vector<ColumnProof>& columns) {
    std::vector<std::vector<Num>> out;
    for (size_t i = 0; i < columns.size(); ++i) {
      r1cs::Namespace parent_ns(cs, [&] { return std::string(kind) + "_" + std::to_string(i); });
      const ColumnProof& column = columns[i];
      if (column.rows.size() != layers) throw r1cs::SynthesisError("porep: a column needs one row per layer");
      std::vector<Num> rows;
      for (size_t l = 0; l < layers; ++l) {
        rows.push_back(ns("column_num_" + std::to_string(l), [&] { return Num::alloc(cs, column.rows[l]); }));
      }
      // stacked/vanilla/hash.rs hash_single_column: Poseidon of arity = layers.
      const Num hash = ns("column_hash", [&] {
        return gadgets::poseidon_hash_gadget(cs, poseidon.arity(layers), std::span<const Num>(rows));
      });
      ns("inclusion", [&] {
        const auto path = detail::path_of(column.inclusion);
        return gadgets::por_inclusion(cs, poseidon_tree, shape.tree_rc, hash,
                                      std::span<const gadgets::MerklePathElement<ff::Fr>>(path), comm_c);
      });
      out.push_back(std::move(rows));
    }
    return out;
  };
  const std::vector<std::vector<Num>> drg = parent_columns("drg_parent", proof.drg_parents);
  const std::vector<std::vector<Num>> exp = parent_columns("exp_parent", proof.exp_parents);

  // The challenge as 64 bits, one public input.
  const uint64_t challenge = proof.c_x.index;
  const gadgets::UInt64 challenge_num = ns("challenge", [&] { return gadgets::UInt64::alloc(cs, challenge); });
  ns("challenge_input", [&] { return challenge_num.pack_into_input(cs); });

  // Labels, layer by layer, from the parents' rows: DRG parents at layer l, expander parents
  // at layer l − 1; expanded to 37 (layer 1: p0..p5 six times, then p0; later layers
  // [d0..d5, e0..e7] twice, then the first 9).
  std::vector<Num> labels;
  for (size_t layer = 1; layer <= layers; ++layer) {
    r1cs::Namespace layer_ns(cs, [layer] { return "labeling_" + std::to_string(layer); });
    std::vector<std::vector<Boolean>> parents;
    for (size_t i = 0; i < kDrgParents; ++i) {
      parents.push_back(gadgets::reverse_bit_numbering(
          ns("drg_bits_" + std::to_string(i), [&] { return drg[i][layer - 1].to_bits_le(cs); })));
    }
    if (layer > 1) {
      for (size_t i = 0; i < kExpanderParents; ++i) {
        parents.push_back(gadgets::reverse_bit_numbering(
            ns("exp_bits_" + std::to_string(i), [&] { return exp[i][layer - 2].to_bits_le(cs); })));
      }
    }
    std::vector<std::vector<Boolean>> expanded;
    expanded.reserve(kTotalParents);
    for (size_t i = 0; expanded.size() < kTotalParents; ++i) expanded.push_back(parents[i % parents.size()]);
    const gadgets::UInt32 layer_word = gadgets::UInt32::constant(static_cast<uint32_t>(layer));
    labels.push_back(ns("create_label", [&] {
      return create_label_circuit(cs, std::span<const Boolean>(replica_id_bits),
                                  std::span<const std::vector<Boolean>>(expanded), layer_word, challenge_num);
    }));
  }

  // Encoding: replica node = last label + data leaf, proved in tree R.
  const Num encoded = ns("encode", [&] { return labels.back().add(cs, data_leaf); });
  ns("comm_r_last_data_inclusion", [&] {
    const auto path = detail::path_of(proof.comm_r_last_proof);
    return gadgets::por_inclusion(cs, poseidon_tree, shape.tree_rc, encoded,
                                  std::span<const gadgets::MerklePathElement<ff::Fr>>(path), comm_r_last);
  });

  // The challenge's column: the labels just computed, hashed and proved in tree C.
  const Num column_hash = ns("c_x_column_hash", [&] {
    return gadgets::poseidon_hash_gadget(cs, poseidon.arity(layers), std::span<const Num>(labels));
  });
  ns("c_x_inclusion", [&] {
    const auto path = detail::path_of(proof.c_x.inclusion);
    return gadgets::por_inclusion(cs, poseidon_tree, shape.tree_rc, column_hash,
                                  std::span<const gadgets::MerklePathElement<ff::Fr>>(path), comm_c);
  });
}

// Synthesises one partition into `cs`. The witness's proofs must have the shape's sizes (C1
// validation checks them before any synthesis); throws r1cs::SynthesisError otherwise.
template <r1cs::ConstraintSystem CS>
void synthesize_partition(CS& cs, const StackedCircuitShape& shape, const PorepPoseidon& poseidon,
                          const PartitionWitness& w) {
  const PartitionHead head = synthesize_partition_head(cs, poseidon, w);
  for (size_t k = 0; k < w.challenges.size(); ++k) synthesize_challenge(cs, shape, poseidon, head, w.challenges[k], k);
}

// One partition's witness z = [inputs ‖ aux] (ONE first) written into `z`, which has the
// partition circuit's size (num_inputs inputs, then the aux: the compiled circuit's counts):
// the head, then each challenge into its own range of z (every challenge allocates the same
// number of aux variables), in parallel on `pool` when given, else one after another. Equal,
// element for element, to WitnessCS on synthesize_partition (tested). Nothing is allocated per
// aux value: z may be memory reused across partitions (a GPU backend's pinned buffers). Throws
// r1cs::SynthesisError when the partition does not fill z exactly.
void synthesize_partition_witness(const StackedCircuitShape& shape, const PorepPoseidon& poseidon,
                                  const PartitionWitness& w, std::span<ff::Fr> z, size_t num_inputs,
                                  ThreadPool* pool = nullptr);

// Partition k of a C1: its commitments as field elements (comm_r_last and comm_c are the roots
// of the first challenge's tree R and tree C proofs) and its challenges' proofs. The C1 must be
// validated first (validate in c1.hpp): every value canonical, every partition there.
PartitionWitness partition_witness(const C1& c1, size_t partition);

// A partition of the right shape with every value zero: what parameter generation (KeygenCS)
// and constraint counting synthesise. Tree D has log2(nodes) levels; trees R and C have
// log_base(nodes / (sub·top)) base levels, then the sub and top elements.
std::vector<ChallengeProof> blank_challenges(const StackedCircuitShape& shape);

// The partition circuit compiled (KeygenCS on a blank partition): what setup and the
// witness-only proving path (a backend holding the compiled circuit) use. With a pool, the challenges are
// recorded in parallel, each into a KeygenCS part of its own, and joined (equal to the
// sequential compile, tested; the rows refer to the head's variables by their numbers, which the
// parts share). `progress` (when given) advances by one a challenge recorded.
r1cs::CompiledR1cs<ff::Fr> compile_partition(const StackedCircuitShape& shape, const PorepPoseidon& poseidon,
                                             ThreadPool* pool = nullptr, Progress* progress = nullptr);

}  // namespace cuzk::porep
