#pragma once
// Merkle inclusion ("por"), as storage-proofs-core src/gadgets/por.rs PoRCircuit::synthesize with
// private = true and leaf/root already allocated (Root::Var, how StackedCircuit calls it;
// rust-fil-proofs @87348a74, shared/SPEC-POREP.md §5). Per level: log2(arity) index bits (LSB
// first), arity − 1 sibling nums, insert (insertion.hpp), hash; base levels, then sub, then top.
// Then all index bits go into pack_into_inputs (one public input = the leaf index, for up to 254
// bits) and one row computed · ONE = root. Rows per Poseidon level: arity 2: 314, 4: 387, 8: 530.

#include <bit>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "ff/bls12_381.hpp"
#include "gadgets/boolean.hpp"
#include "gadgets/insertion.hpp"
#include "gadgets/multipack.hpp"
#include "gadgets/num.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::gadgets {

// Tree shape (merkletree's base / sub-tree / top-tree arities; 0 = no such level). 32 GiB trees
// R/C: {8, 8, 0}; 64 GiB: {8, 8, 2}; up to 512 MiB: {8, 0, 0}.
struct MerkleShape {
  size_t base = 8;
  size_t sub = 0;
  size_t top = 0;
};

// One path element (the JSON's {"hashes", "index"}): the arity − 1 siblings in increasing
// position with the current node left out, and the node's position 0..arity−1 in its group.
template <class F>
struct MerklePathElement {
  std::vector<F> siblings;
  uint32_t index = 0;
};

struct PorOutput {
  r1cs::Variable index_input;  // the packed index bits: the leaf's global index
  r1cs::Variable computed_root;
};

// Proves that `leaf` is in the tree of root `root`, along `path` (leaf → root: the base levels,
// then one sub element if shape.sub, then one top element if shape.top). `hash(cs, preimage)`
// is the node hash (tree_hash.hpp: PoseidonTreeHash for trees R and C, Sha256TreeHash for tree D).
template <r1cs::ConstraintSystem CS, class Hash>
PorOutput por_inclusion(CS& cs, const Hash& hash, MerkleShape shape, const AllocatedNum<typename CS::Field>& leaf,
                        std::span<const MerklePathElement<typename CS::Field>> path,
                        const AllocatedNum<typename CS::Field>& root) {
  using F = typename CS::Field;
  using Num = AllocatedNum<F>;
  using LC = r1cs::LinearCombination<F>;
  const size_t extra = (shape.sub ? 1 : 0) + (shape.top ? 1 : 0);
  if (path.size() < extra || (shape.top && !shape.sub)) throw Exception(invalid_argument("por: path/shape mismatch"));

  Num cur = leaf;
  std::vector<Boolean> index_bits;
  // One SubPath (por.rs SubPath::synthesize): elements [begin, end) of arity `arity`.
  auto sub_path = [&](const char* name, size_t arity, size_t begin, size_t end) {
    if (arity == 0) return;
    if (!std::has_single_bit(arity)) throw Exception(invalid_argument("por: arity must be a power of two"));
    const size_t nbits = static_cast<size_t>(std::countr_zero(arity));
    r1cs::Namespace ns(cs, name);
    for (size_t i = begin; i < end; ++i) {
      const MerklePathElement<F>& element = path[i];
      if (element.siblings.size() != arity - 1 || element.index >= arity)
        throw Exception(invalid_argument("por: path element does not fit its arity"));
      r1cs::Namespace level(cs, [&] { return "merkle tree hash " + std::to_string(i - begin); });
      std::vector<Boolean> bits;
      for (size_t b = 0; b < nbits; ++b) {
        r1cs::Namespace bit_ns(cs, [&] { return "index bit " + std::to_string(b); });
        bits.emplace_back(AllocatedBit::alloc(cs, ((element.index >> b) & 1) != 0));
      }
      index_bits.insert(index_bits.end(), bits.begin(), bits.end());
      std::vector<Num> siblings;
      for (size_t s = 0; s < element.siblings.size(); ++s) {
        r1cs::Namespace sib_ns(cs, [&] { return "path element " + std::to_string(s); });
        siblings.push_back(Num::alloc(cs, element.siblings[s]));
      }
      const std::vector<Num> inserted = insert(cs, cur, std::span<const Boolean>(bits), std::span<const Num>(siblings));
      r1cs::Namespace hash_ns(cs, "computation of commitment hash");
      cur = hash(cs, std::span<const Num>(inserted));
    }
  };
  const size_t base_end = path.size() - extra;
  sub_path("base", shape.base, 0, base_end);
  sub_path("sub", shape.sub, base_end, base_end + (shape.sub ? 1 : 0));
  sub_path("top", shape.top, base_end + (shape.sub ? 1 : 0), path.size());

  std::vector<r1cs::Variable> inputs = [&] {
    r1cs::Namespace ns(cs, "path");
    return pack_into_inputs(cs, std::span<const Boolean>(index_bits));
  }();
  if (inputs.size() != 1) throw Exception(invalid_argument("por: index must pack into one input"));
  cs.enforce("enforce root is correct", [&](LC lc) { return lc + cur.variable(); },
             [](LC lc) { return lc + CS::one(); }, [&](LC lc) { return lc + root.variable(); });
  return {inputs[0], cur.variable()};
}

}  // namespace cuzk::gadgets
