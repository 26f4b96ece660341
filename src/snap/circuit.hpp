#pragma once
// The SnapDeals circuit of one partition, EmptySectorUpdateCircuit::synthesize
// (storage-proofs-update src/circuit.rs and gadgets.rs, rust-fil-proofs @87348a74), in
// bellperson's exact variable and row order (shared/SPEC-SNAP.md §5), so that Filecoin's
// published v28 parameters fit it:
//   k_and_h_select (input; its pbl + 6 bits and their decomposition row), partition = pack of the
//   partition bits, comm_r_old / comm_d_new / comm_r_new (inputs), phi = PoseidonGen(comm_d_new,
//   comm_r_old), comm_c, root_r_old, root_r_new, the apex leafs and the partition path;
//   comm_r_old = Poseidon2(comm_c, root_r_old), the same for new; the apex tree (SHA-256) and its
//   path up to comm_d_new; the challenge bits from PoseidonGen(comm_r_new, digest index);
//   per challenge: c_high selected by h_select, rho = PoseidonGen(phi, c_high), the leaves,
//   label_r_new = leaf_r_old + leaf_d_new·rho, both tree R paths, the apex leaf picked by the
//   challenge's apex bits, and the tree D path below the apex row.
// Unlike PoRep, no Merkle index is a public input: the index bits are the challenge bits the
// circuit derives itself (por.rs por_no_challenge_input).

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "core/progress.hpp"
#include "core/thread_pool.hpp"
#include "ff/bls12_381.hpp"
#include "gadgets/boolean.hpp"
#include "gadgets/insertion.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/num.hpp"
#include "gadgets/poseidon_constants.hpp"
#include "gadgets/poseidon_gadget.hpp"
#include "gadgets/tree_hash.hpp"
#include "r1cs/compiled.hpp"
#include "r1cs/constraint_system.hpp"
#include "snap/partition_proof.hpp"
#include "snap/poseidon.hpp"
#include "snap/update_shape.hpp"

namespace cuzk::snap {

// One partition's witness: the public values and the partition's vanilla proof (validated against
// the shape first: vanilla.hpp). root_r_old / root_r_new are the roots of challenge 0's proofs.
struct PartitionWitness {
  uint32_t partition = 0;
  ff::Fr comm_r_old, comm_d_new, comm_r_new;
  const PartitionProof* proof = nullptr;
};

namespace detail {

using Num = gadgets::AllocatedNum<ff::Fr>;
using gadgets::Boolean;
using LC = r1cs::LinearCombination<ff::Fr>;

// nbits AllocatedBits of num's value (LE, "bit i"), then row A = Σ 2^i b_i, B = ONE, C = num
// (circuit.rs k_and_h_select bits; gadgets.rs allocated_num_to_allocated_bits, 255 bits).
template <r1cs::ConstraintSystem CS>
std::vector<Boolean> alloc_bits_decomposed(CS& cs, const Num& num, size_t nbits) {
  const ff::Fr::Int v = num.value().to_int();
  std::vector<Boolean> bits;
  bits.reserve(nbits);
  for (size_t i = 0; i < nbits; ++i) {
    r1cs::Namespace ns(cs, [i] { return "bit " + std::to_string(i); });
    bits.emplace_back(gadgets::AllocatedBit::alloc(cs, v.bit(i)));
  }
  cs.enforce("decomposition", [&](LC lc) {
    ff::Fr coeff = ff::Fr::one();
    for (const Boolean& b : bits) {
      lc.add(coeff, b.bit().variable());
      coeff = coeff.dbl();
    }
    return lc;
  }, [](LC lc) { return lc + CS::one(); }, [&](LC lc) { return lc + num.variable(); });
  return bits;
}

// por.rs por_no_challenge_input: per level (arities leaf → root) insert the current node among its
// siblings (already allocated) at the position the next log2(arity) bits give, hash; then
// computed · ONE = root. Every bit is used.
template <r1cs::ConstraintSystem CS, class Hash>
void por_no_challenge_input(CS& cs, const Hash& hash, std::span<const size_t> arities, std::span<const Boolean> bits,
                            const Num& leaf, std::span<const std::vector<Num>> path, const Num& root) {
  if (arities.size() != path.size()) throw r1cs::SynthesisError("snap por: path length differs from the tree's");
  Num cur = leaf;
  size_t at = 0;
  for (size_t i = 0; i < arities.size(); ++i) {
    const size_t nbits = static_cast<size_t>(std::countr_zero(arities[i]));
    if (path[i].size() + 1 != arities[i] || at + nbits > bits.size())
      throw r1cs::SynthesisError("snap por: path element or index bits do not fit the arity");
    r1cs::Namespace level(cs, [i] { return "merkle tree hash " + std::to_string(i); });
    const std::vector<Num> inserted = gadgets::insert(cs, cur, bits.subspan(at, nbits), std::span<const Num>(path[i]));
    at += nbits;
    r1cs::Namespace hash_ns(cs, "computation of commitment hash");
    cur = hash(cs, std::span<const Num>(inserted));
  }
  if (at != bits.size()) throw r1cs::SynthesisError("snap por: index bits left over");
  cs.enforce("enforce root is correct", [&](LC lc) { return lc + cur.variable(); },
             [](LC lc) { return lc + CS::one(); }, [&](LC lc) { return lc + root.variable(); });
}

// A Merkle proof's siblings, allocated element by element, sibling by sibling ("path i/sib j").
template <r1cs::ConstraintSystem CS>
std::vector<std::vector<Num>> alloc_path(CS& cs, const MerkleProof& proof, size_t levels) {
  if (proof.path.size() < levels) throw r1cs::SynthesisError("snap: Merkle path shorter than the tree");
  std::vector<std::vector<Num>> out(levels);
  for (size_t i = 0; i < levels; ++i) {
    for (size_t s = 0; s < proof.path[i].hashes.size(); ++s) {
      r1cs::Namespace ns(cs, [i, s] { return "path " + std::to_string(i) + " sibling " + std::to_string(s); });
      out[i].push_back(Num::alloc(cs, proof.path[i].hashes[s]));
    }
  }
  return out;
}

}  // namespace detail

// What every challenge of a partition refers to (synthesize_partition_head's result).
struct PartitionHead {
  std::vector<gadgets::Boolean> k_and_h_select_bits;  // the partition bits, then the 6 h_select bits
  gadgets::AllocatedNum<ff::Fr> phi, root_r_old, root_r_new;
  std::vector<gadgets::AllocatedNum<ff::Fr>> apex_leafs;
  std::vector<std::vector<gadgets::Boolean>> challenge_bits;  // per challenge its random bits (LE)
};

// Steps 1-9 (SPEC-SNAP.md §5): the inputs, phi, comm_c and the roots, the comm_r checks, the apex
// tree and partition path, the challenge bits. The witness's proof must have the shape's sizes
// (validate_partition_proof checks them before any work); throws r1cs::SynthesisError otherwise.
template <r1cs::ConstraintSystem CS>
PartitionHead synthesize_partition_head(CS& cs, const UpdateShape& shape, const UpdatePoseidon& poseidon,
                                        const PartitionWitness& w) {
  using detail::Num;
  using detail::LC;
  using gadgets::Boolean;
  const auto ns = [&cs](const std::string& name, auto fn) { return r1cs::in_namespace(cs, name, fn); };
  const PartitionProof& proof = *w.proof;
  const size_t cbl = shape.challenge_bits(), pbl = shape.partition_bits();
  if (proof.challenge_proofs.size() != shape.challenges || proof.apex_leafs.size() != shape.apex_leafs)
    throw r1cs::SynthesisError("snap: the partition proof does not have the shape's challenges and apex leafs");
  const gadgets::Sha256TreeHash sha_tree;
  const auto gen_hash = [&](const Num& a, const Num& b) {
    const std::array<Num, 2> pair = {a, b};
    return gadgets::poseidon_hash_gadget(cs, poseidon.gen(), std::span<const Num>(pair));
  };
  const auto enforce_equal = [&](const char* name, const Num& calc, const Num& expected) {
    cs.enforce(name, [&](LC lc) { return lc + calc.variable(); }, [](LC lc) { return lc + CS::one(); },
               [&](LC lc) { return lc + expected.variable(); });
  };

  // 1.-3. k_and_h_select: input, bits (partition bits, then the six h_select bits), partition.
  const ff::Fr k_and_h_select = ff::Fr::from_uint(uint64_t{w.partition} | (uint64_t{shape.h_select()} << pbl));
  const Num khs = ns("k_and_h_select", [&] { return Num::alloc(cs, k_and_h_select); });
  ns("k_and_h_select_input", [&] { return khs.inputize(cs); });
  const std::vector<Boolean> kh_bits =
      ns("k_and_h_select_bits", [&] { return detail::alloc_bits_decomposed(cs, khs, pbl + shape.hs.size()); });
  const std::span<const Boolean> partition_bits(kh_bits.data(), pbl);
  const std::span<const Boolean> h_select_bits(kh_bits.data() + pbl, shape.hs.size());
  const Num partition = ns("partition", [&] { return gadgets::pack_bits(cs, partition_bits); });

  // 4.-5. The three commitments (inputs) and phi.
  const Num comm_r_old = ns("comm_r_old", [&] { return Num::alloc(cs, w.comm_r_old); });
  ns("comm_r_old_input", [&] { return comm_r_old.inputize(cs); });
  const Num comm_d_new = ns("comm_d_new", [&] { return Num::alloc(cs, w.comm_d_new); });
  ns("comm_d_new_input", [&] { return comm_d_new.inputize(cs); });
  const Num comm_r_new = ns("comm_r_new", [&] { return Num::alloc(cs, w.comm_r_new); });
  ns("comm_r_new_input", [&] { return comm_r_new.inputize(cs); });
  const Num phi = ns("phi", [&] { return gen_hash(comm_d_new, comm_r_old); });

  // 6. comm_c, the roots, the apex leafs, the partition path (challenge 0's tree D levels
  // cbl − pbl .. cbl − 1, shared by every challenge of the partition).
  const ChallengeProof& first = proof.challenge_proofs.front();
  const Num comm_c = ns("comm_c", [&] { return Num::alloc(cs, proof.comm_c); });
  const Num root_r_old = ns("root_r_old", [&] { return Num::alloc(cs, first.proof_r_old.root); });
  const Num root_r_new = ns("root_r_new", [&] { return Num::alloc(cs, first.proof_r_new.root); });
  std::vector<Num> apex_leafs;
  for (size_t i = 0; i < proof.apex_leafs.size(); ++i) {
    apex_leafs.push_back(ns("apex_leaf_" + std::to_string(i), [&] { return Num::alloc(cs, proof.apex_leafs[i]); }));
  }
  if (first.proof_d_new.path.size() != cbl) throw r1cs::SynthesisError("snap: tree D path length differs from log2(nodes)");
  std::vector<std::vector<Num>> partition_path(pbl);
  for (size_t i = 0; i < pbl; ++i) {
    const PathElement& e = first.proof_d_new.path[cbl - pbl + i];
    if (e.hashes.size() != 1) throw r1cs::SynthesisError("snap: a tree D path element has one sibling");
    partition_path[i].push_back(ns("partition_path_" + std::to_string(i), [&] { return Num::alloc(cs, e.hashes[0]); }));
  }

  // 7. comm_r_old = Poseidon2(comm_c, root_r_old); comm_r_new = Poseidon2(comm_c, root_r_new).
  for (const auto& [root, comm_r, name] : {std::tuple{&root_r_old, &comm_r_old, "comm_r_old"},
                                           std::tuple{&root_r_new, &comm_r_new, "comm_r_new"}}) {
    const std::array<Num, 2> pair = {comm_c, *root};
    r1cs::Namespace check_ns(cs, std::string(name) + "_calc");
    const Num calc = gadgets::poseidon_hash_gadget(cs, poseidon.merkle2(), std::span<const Num>(pair));
    enforce_equal("check comm_r", calc, *comm_r);
  }

  // 8. The apex tree, rows bottom-up, then its root's path (partition bits) up to comm_d_new.
  const std::vector<size_t> binary_path(pbl, 2);
  {
    r1cs::Namespace apex_ns(cs, "apex_por");
    std::vector<Num> row = apex_leafs;
    for (size_t level = 0; row.size() > 1; ++level) {
      std::vector<Num> next;
      for (size_t i = 0; i < row.size() / 2; ++i) {
        r1cs::Namespace node(cs, [level, i] { return "apex_" + std::to_string(level) + "_" + std::to_string(i); });
        next.push_back(sha_tree(cs, std::span<const Num>(&row[2 * i], 2)));
      }
      row = std::move(next);
    }
    r1cs::Namespace por_ns(cs, "partition_por");
    detail::por_no_challenge_input(cs, sha_tree, std::span<const size_t>(binary_path.data(), pbl), partition_bits, row[0],
                                   std::span<const std::vector<Num>>(partition_path), comm_d_new);
  }

  // 9. gen_challenge_bits: digest j = PoseidonGen(comm_r_new, dpp·partition + j), its 255 bits, cut
  // into chunks of random_bits (the last digest gives what is left).
  const size_t bits_per = shape.random_bits(), per_digest = shape.challenges_per_digest();
  const size_t dpp = shape.digests_per_partition();
  std::vector<std::vector<Boolean>> challenge_bits;
  for (size_t j = 0; j < dpp; ++j) {
    r1cs::Namespace digest_ns(cs, [j] { return "gen_challenge_bits digest " + std::to_string(j); });
    const ff::Fr index_value = partition.value() * ff::Fr::from_uint(dpp) + ff::Fr::from_uint(j);
    const Num digest_index = ns("digest_index", [&] { return Num::alloc(cs, index_value); });
    // The j·ONE term stays with coefficient 0 when j = 0 (bellpepper keeps zero terms).
    cs.enforce("digest_index", [&](LC lc) {
      lc.add(ff::Fr::from_uint(dpp), partition.variable());
      lc.add(ff::Fr::from_uint(j), CS::one());
      return lc;
    }, [](LC lc) { return lc + CS::one(); }, [&](LC lc) { return lc + digest_index.variable(); });
    const Num digest = ns("digest", [&] { return gen_hash(comm_r_new, digest_index); });
    const std::vector<Boolean> bits =
        ns("digest_bits", [&] { return detail::alloc_bits_decomposed(cs, digest, ff::Fr::kBits); });
    for (size_t i = 0; i < per_digest && challenge_bits.size() < shape.challenges; ++i) {
      challenge_bits.emplace_back(bits.begin() + i * bits_per, bits.begin() + (i + 1) * bits_per);
    }
  }
  return PartitionHead{kh_bits, phi, root_r_old, root_r_new, std::move(apex_leafs), std::move(challenge_bits)};
}

// Step 10 for challenge c (after the head and challenges 0..c-1). A witness-only synthesis may run
// each challenge into a constraint system of its own (synthesize_partition_witness): its rows refer
// to the head's variables only through linear combinations, which WitnessCS drops, and every
// challenge allocates the same number of aux variables.
template <r1cs::ConstraintSystem CS>
void synthesize_challenge(CS& cs, const UpdateShape& shape, const UpdatePoseidon& poseidon, const PartitionHead& head,
                          const ChallengeProof& cp, size_t c) {
  using detail::Num;
  using detail::LC;
  using gadgets::Boolean;
  const auto ns = [&cs](const std::string& name, auto fn) { return r1cs::in_namespace(cs, name, fn); };
  const size_t cbl = shape.challenge_bits(), pbl = shape.partition_bits(), abl = shape.apex_bits();
  const size_t below_apex = shape.tree_d_levels_below_apex();
  const gadgets::PoseidonTreeHash poseidon_tree = poseidon.tree_hash();
  const gadgets::Sha256TreeHash sha_tree;
  const std::vector<size_t> binary_path(below_apex, 2);
  const auto gen_hash = [&](const Num& a, const Num& b) {
    const std::array<Num, 2> pair = {a, b};
    return gadgets::poseidon_hash_gadget(cs, poseidon.gen(), std::span<const Num>(pair));
  };
  const std::span<const Boolean> partition_bits(head.k_and_h_select_bits.data(), pbl);
  const std::span<const Boolean> h_select_bits(head.k_and_h_select_bits.data() + pbl, shape.hs.size());
  const Num& phi = head.phi;
  const Num& root_r_old = head.root_r_old;
  const Num& root_r_new = head.root_r_new;
  const std::vector<Num>& apex_leafs = head.apex_leafs;
  const std::vector<size_t> r_arities = detail::tree_r_arities(shape);
  if (c >= head.challenge_bits.size()) throw r1cs::SynthesisError("snap: no challenge " + std::to_string(c));
  {
    r1cs::Namespace challenge_ns(cs, [c] { return "challenge_" + std::to_string(c); });
    std::vector<Boolean> c_bits = head.challenge_bits[c];
    c_bits.insert(c_bits.end(), partition_bits.begin(), partition_bits.end());

    // get_challenge_high_bits: per (h, h_select bit) c_high_or_zero = pack(top h bits) · bit.
    std::vector<Num> or_zero;
    for (size_t i = 0; i < shape.hs.size(); ++i) {
      r1cs::Namespace h_ns(cs, [i] { return "c_high " + std::to_string(i); });
      const Num c_high = gadgets::pack_bits(cs, std::span<const Boolean>(c_bits).subspan(cbl - shape.hs[i]));
      const Boolean& selected = h_select_bits[i];
      const ff::Fr value = selected.value() ? c_high.value() : ff::Fr::zero();
      or_zero.push_back(ns("c_high_or_zero", [&] { return Num::alloc(cs, value); }));
      cs.enforce("c_high_or_zero", [&](LC lc) { return lc + c_high.variable(); },
                 [&](LC) { return selected.lc(CS::one(), ff::Fr::one()); },
                 [&](LC lc) { return lc + or_zero.back().variable(); });
    }
    ff::Fr selected_value = ff::Fr::zero();
    for (const Num& z : or_zero) selected_value += z.value();
    const Num c_high = ns("c_high_selected", [&] { return Num::alloc(cs, selected_value); });
    cs.enforce("c_high_selected", [&](LC lc) {
      for (const Num& z : or_zero) lc += z.variable();
      return lc;
    }, [](LC lc) { return lc + CS::one(); }, [&](LC lc) { return lc + c_high.variable(); });

    const Num rho = ns("rho", [&] { return gen_hash(phi, c_high); });
    const Num leaf_r_old = ns("leaf_r_old", [&] { return Num::alloc(cs, cp.proof_r_old.leaf); });
    const Num leaf_d_new = ns("leaf_d_new", [&] { return Num::alloc(cs, cp.proof_d_new.leaf); });
    const Num label_r_new = ns("label_r_new", [&] {
      const Num product = ns("product", [&] { return leaf_d_new.mul(cs, rho); });
      return leaf_r_old.add(cs, product);
    });

    for (const auto& [tree_proof, leaf, root, name] :
         {std::tuple{&cp.proof_r_old, &leaf_r_old, &root_r_old, "r_old"},
          std::tuple{&cp.proof_r_new, &label_r_new, &root_r_new, "r_new"}}) {
      // (an init-capture: clang 14, the fuzz preset, cannot capture a structured binding)
      r1cs::Namespace tree_ns(cs, [tree = name] { return std::string("path_") + tree; });
      const std::vector<std::vector<Num>> path = detail::alloc_path(cs, *tree_proof, r_arities.size());
      if (tree_proof->path.size() != r_arities.size()) throw r1cs::SynthesisError("snap: tree R path length");
      detail::por_no_challenge_input(cs, poseidon_tree, std::span<const size_t>(r_arities), std::span<const Boolean>(c_bits),
                                     *leaf, std::span<const std::vector<Num>>(path), *root);
    }

    // insertion.rs select: the apex leaf at c_bits[below_apex .. below_apex + abl), most significant first.
    const Num apex_leaf = ns("apex_leaf", [&] {
      std::vector<Num> state = apex_leafs;
      size_t half = state.size() / 2;
      for (size_t b = abl; b-- > 0;) {
        r1cs::Namespace level(cs, [b] { return "select " + std::to_string(b); });
        std::vector<Num> next;
        for (size_t j = 0; j < half; ++j) {
          r1cs::Namespace pick_ns(cs, [j] { return "pick " + std::to_string(j); });
          next.push_back(Num::pick(cs, c_bits[below_apex + b], state[half + j], state[j]));
        }
        state = std::move(next);
        half /= 2;
      }
      return state[0];
    });
    r1cs::Namespace d_ns(cs, "path_d_new");
    const std::vector<std::vector<Num>> d_path = detail::alloc_path(cs, cp.proof_d_new, below_apex);
    detail::por_no_challenge_input(cs, sha_tree, std::span<const size_t>(binary_path.data(), below_apex),
                                   std::span<const Boolean>(c_bits).first(below_apex), leaf_d_new,
                                   std::span<const std::vector<Num>>(d_path), apex_leaf);
  }
}

// Synthesises one partition into `cs` (then the caller adds Groth16's x_i·0 = 0 rows, as for any
// circuit): the head, then each challenge.
template <r1cs::ConstraintSystem CS>
void synthesize_partition(CS& cs, const UpdateShape& shape, const UpdatePoseidon& poseidon, const PartitionWitness& w) {
  const PartitionHead head = synthesize_partition_head(cs, shape, poseidon, w);
  for (size_t c = 0; c < shape.challenges; ++c) synthesize_challenge(cs, shape, poseidon, head, w.proof->challenge_proofs[c], c);
}

// A partition of the shape with every value zero: what parameter generation (KeygenCS) and
// constraint counting synthesise.
PartitionProof blank_partition_proof(const UpdateShape& shape);

// The partition circuit compiled (KeygenCS on a blank partition). With a pool, the challenges are
// recorded in parallel after the head, each into a KeygenCS part, and joined (equal to the
// sequential compile, tested). `progress` (when given) advances by one a challenge recorded.
r1cs::CompiledR1cs<ff::Fr> compile_partition(const UpdateShape& shape, const UpdatePoseidon& poseidon,
                                             ThreadPool* pool = nullptr, Progress* progress = nullptr);

// One partition's witness z = [inputs ‖ aux] (ONE first) written into `z`, which has the
// partition circuit's size (num_inputs inputs, then the aux): the head, then each challenge into
// its own range of z, in parallel on `pool` when given. Equal, element for element, to WitnessCS
// on synthesize_partition (tested). Throws r1cs::SynthesisError when the partition does not fill
// z exactly.
void synthesize_partition_witness(const UpdateShape& shape, const UpdatePoseidon& poseidon, const PartitionWitness& w,
                                  std::span<ff::Fr> z, size_t num_inputs, ThreadPool* pool = nullptr);

}  // namespace cuzk::snap
