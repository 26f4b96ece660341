// insert (insertion.hpp) and the Merkle inclusion gadget (por.hpp) against storage-proofs-core
// gadgets/{insertion,por}.rs as read in shared/SPEC-POREP.md §5-§6, SPEC.md §1 per-level counts,
// a native Poseidon tree built here, and the Python model shared/tools/porep_circuit_model.py.
//
// Model digests (TestCS::digest serialisation) printed by this script (any directory):
//   python3 - <<'PY'
//   import sys; sys.path.insert(0, '/work/shared/tools'); import porep_circuit_model as m
//   for n in (2, 4, 8):   # insert alone: alloc x, index bits, siblings, then insert
//       cs = m.CS(); x = cs.alloc(1000)
//       bits = [('I', m.sha.bit_alloc(cs, 0)) for i in range(n.bit_length() - 1)]
//       s = [cs.alloc(2000 + j) for j in range(n - 1)]; m.insert(cs, x, bits, s)
//       print(n, cs.nrows, len(cs.aux), cs.h.hexdigest())
//   for base, sub, top, levels, c in [(2,0,0,1,1),(4,0,0,1,2),(8,0,0,1,5),(2,0,0,3,5),(4,0,0,2,9),
//                                      (8,0,0,2,45),(8,8,0,2,300),(8,8,2,2,777)]:
//       nb = (top or 1) * (sub or 1); leaves = [(i * 7919 + 13) % m.P for i in range(nb * base ** levels)]
//       t = m.Tree(leaves, base, sub, top, m.poseidon_native); cs = m.CS()
//       leaf = cs.alloc(leaves[c]); root = cs.alloc(t.root)   # por alone: alloc leaf, root, then por
//       m.enforce_inclusion(cs, t, c, root, leaf, m.poseidon_tree_hash_circuit)
//       print(base, sub, top, levels, cs.nrows, len(cs.aux), len(cs.inputs), cs.h.hexdigest())
//   PY
// The digests depend on the shape only (rows carry coefficients, not values), so the random
// trees below are checked against the same figures.

#include <array>
#include <bit>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "gadgets/boolean.hpp"
#include "gadgets/insertion.hpp"
#include "gadgets/num.hpp"
#include "gadgets/por.hpp"
#include "gadgets/poseidon.hpp"
#include "gadgets/poseidon_constants.hpp"
#include "gadgets/tree_hash.hpp"
#include "r1cs/keygen_cs.hpp"
#include "r1cs/test_cs.hpp"
#include "r1cs/witness_cs.hpp"
#include "support/random.hpp"

namespace cuzk::gadgets {
namespace {

using ff::Fr;
using Num = AllocatedNum<Fr>;
using Element = MerklePathElement<Fr>;

const PoseidonConstants& constants(size_t arity) {
  static const std::array<PoseidonConstants, 3> all = {PoseidonConstants::merkle_tree(2),
                                                       PoseidonConstants::merkle_tree(4),
                                                       PoseidonConstants::merkle_tree(8)};
  for (const PoseidonConstants& c : all)
    if (c.arity == arity) return c;
  throw std::logic_error("no constants for this arity");
}

const PoseidonTreeHash& tree_hash() {
  static const PoseidonTreeHash h(constants(2), constants(4), constants(8));
  return h;
}

// ---------------------------------------------------------------------------------------------
// insert

struct InsertModel {
  size_t arity, rows, aux;
  const char* digest;
};
constexpr InsertModel kInsertModel[] = {
    {2, 3, 5, "13192d59c4f4c0467c35c655e2a2c18495654dafc98c9308558df93b618ff5e3"},
    {4, 10, 14, "d9b3acd6ba8151ba8f4a8166c4fc7d7e3cbbbf091c22956514035c81398a3fc1"},
    {8, 25, 33, "dc777c72840a9bebcfa793599be52867b4edb589cd8e6a3fd7c6d0852a053268"},
};

// Every position of arity 2/4/8: output = siblings with x inserted at `index` (a naive
// std::vector insert), rows/aux/digest as the model, and a wrong output is caught.
TEST(Insertion, AllPositionsMatchNaiveInsertAndModelRows) {
  for (const InsertModel& model : kInsertModel) {
    const size_t nbits = static_cast<size_t>(std::countr_zero(model.arity));
    for (uint32_t index = 0; index < model.arity; ++index) {
      SCOPED_TRACE("arity " + std::to_string(model.arity) + " index " + std::to_string(index));
      r1cs::TestCS<Fr> cs;
      const Num x = Num::alloc(cs, Fr::from_uint(1000));
      std::vector<Boolean> bits;
      for (size_t b = 0; b < nbits; ++b) {
        r1cs::Namespace ns(cs, "bit " + std::to_string(b));
        bits.emplace_back(AllocatedBit::alloc(cs, ((index >> b) & 1) != 0));
      }
      std::vector<Num> siblings;
      std::vector<Fr> expected;
      for (size_t s = 0; s + 1 < model.arity; ++s) {
        r1cs::Namespace ns(cs, "sibling " + std::to_string(s));
        siblings.push_back(Num::alloc(cs, Fr::from_uint(2000 + s)));
        expected.push_back(Fr::from_uint(2000 + s));
      }
      expected.insert(expected.begin() + index, Fr::from_uint(1000));
      const size_t rows_before = cs.num_constraints();
      const std::vector<Num> out = [&] {
        r1cs::Namespace ns(cs, "insert");
        return insert(cs, x, std::span<const Boolean>(bits), std::span<const Num>(siblings));
      }();
      ASSERT_EQ(out.size(), model.arity);
      for (size_t i = 0; i < model.arity; ++i) {
        EXPECT_EQ(out[i].value(), expected[i]) << "position " << i;
        EXPECT_EQ(cs.aux()[out[i].variable().index], expected[i]);
      }
      EXPECT_TRUE(cs.is_satisfied()) << *cs.first_unsatisfied();
      EXPECT_EQ(cs.num_constraints() - rows_before, model.rows - nbits);  // model rows include the bits'
      EXPECT_EQ(cs.num_constraints(), model.rows);
      EXPECT_EQ(cs.num_aux(), model.aux);
      EXPECT_EQ(cs.digest(), model.digest);
      // The last output claims x's slot value: caught.
      const std::string last = model.arity == 2 ? "insert/1/pick result/num" : "insert/p" +
                                   std::to_string(model.arity - 1) + "/pick result/num";
      cs.set(last, expected.back() + Fr::one());
      EXPECT_TRUE(cs.first_unsatisfied().has_value());
    }
  }
}

TEST(Insertion, RejectsBadShapes) {
  r1cs::TestCS<Fr> cs;
  const Num x = Num::alloc(cs, Fr::one());
  std::vector<Num> siblings(2, x);  // arity 3
  std::vector<Boolean> bits = {Boolean::constant(false), Boolean::constant(true)};
  EXPECT_THROW(insert(cs, x, std::span<const Boolean>(bits), std::span<const Num>(siblings)), Exception);
  // arity 8 with a constant low bit: insert_8 needs allocated bits for nor/and.
  std::vector<Num> seven(7, x);
  std::vector<Boolean> three = {Boolean::constant(false), Boolean::constant(false), Boolean::constant(false)};
  EXPECT_THROW(insert(cs, x, std::span<const Boolean>(three), std::span<const Num>(seven)), Exception);
}

// ---------------------------------------------------------------------------------------------
// por

// A native compound Poseidon tree (merkletree's base trees, then sub and top levels).
struct NativeTree {
  using NodeFn = Fr (*)(std::span<const Fr>);
  MerkleShape shape;
  NodeFn node;
  size_t base_leaves;                       // leaves per base tree
  std::vector<std::vector<std::vector<Fr>>> bases;  // [base tree][level][node]
  std::vector<Fr> sub_roots;
  Fr root;

  static Fr poseidon_node(std::span<const Fr> children) { return tree_hash().native(children); }

  NativeTree(MerkleShape s, const std::vector<Fr>& leaves, NodeFn node_fn = poseidon_node) : shape(s), node(node_fn) {
    const size_t trees = (s.sub ? s.sub : 1) * (s.top ? s.top : 1);
    base_leaves = leaves.size() / trees;
    for (size_t t = 0; t < trees; ++t) {
      std::vector<std::vector<Fr>> levels{{leaves.begin() + t * base_leaves, leaves.begin() + (t + 1) * base_leaves}};
      while (levels.back().size() > 1) {
        const std::vector<Fr>& cur = levels.back();
        std::vector<Fr> next;
        for (size_t i = 0; i < cur.size(); i += s.base) next.push_back(node(std::span(cur).subspan(i, s.base)));
        levels.push_back(std::move(next));
      }
      bases.push_back(std::move(levels));
    }
    std::vector<Fr> base_roots;
    for (const auto& levels : bases) base_roots.push_back(levels.back()[0]);
    if (!s.sub) {
      root = base_roots[0];
      return;
    }
    for (size_t i = 0; i < base_roots.size(); i += s.sub) sub_roots.push_back(node(std::span(base_roots).subspan(i, s.sub)));
    root = s.top ? node(sub_roots) : sub_roots[0];
  }

  static Element element(std::span<const Fr> group, size_t index) {
    Element e;
    e.index = static_cast<uint32_t>(index);
    for (size_t i = 0; i < group.size(); ++i)
      if (i != index) e.siblings.push_back(group[i]);
    return e;
  }

  std::vector<Element> path(size_t c) const {
    std::vector<Element> out;
    const size_t tree = c / base_leaves;
    size_t at = c % base_leaves;
    const auto& levels = bases[tree];
    for (size_t l = 0; l + 1 < levels.size(); ++l) {
      out.push_back(element(std::span(levels[l]).subspan(at / shape.base * shape.base, shape.base), at % shape.base));
      at /= shape.base;
    }
    if (shape.sub) {
      std::vector<Fr> base_roots;
      for (const auto& lv : bases) base_roots.push_back(lv.back()[0]);
      out.push_back(element(std::span(base_roots).subspan(tree / shape.sub * shape.sub, shape.sub), tree % shape.sub));
      if (shape.top) out.push_back(element(sub_roots, tree / shape.sub));
    }
    return out;
  }
};

struct PorModel {
  MerkleShape shape;
  size_t levels;  // base levels
  size_t rows, aux;
  const char* digest;
};
constexpr PorModel kPorModel[] = {
    {{2, 0, 0}, 1, 316, 317, "c5063f0eeecccccd4c8341aeb4596acecdddb40859951481621d94b9ccd58c4e"},
    {{4, 0, 0}, 1, 389, 392, "bfe7a93efe75d9e9ac5c7aadfeed5a57f982ea3639d1a7088a45e11df51893c2"},
    {{8, 0, 0}, 1, 532, 539, "0fcf64549507137ba8ade8c5f7542ac9bcd8360a3dc34d5f5d9b4df970225228"},
    {{2, 0, 0}, 3, 944, 947, "bc79aef80ed2c22693e4956f48b168100441fca9752519f41c4158498aabcd2f"},
    {{4, 0, 0}, 2, 776, 782, "71d01616f2dbf51ea07ea41a0ed4ee01b7a1e24dd9d5592c3183133048d2641b"},
    {{8, 0, 0}, 2, 1062, 1076, "1d3e959c6133af297806546a8e963c3db1b2688e61abae335193e832fa1077f5"},
    {{8, 8, 0}, 2, 1592, 1613, "7b54e4e95b95c0576d69430e4c5dcecc22646df091e4e11e2baf49b5a51fafa7"},
    {{8, 8, 2}, 2, 1906, 1928, "f6ec2c06afba423e74ffceb40e177020067cbdb0ec3fc1f629056acd44e3da52"},
};

size_t level_rows(size_t arity) { return arity == 2 ? 314 : arity == 4 ? 387 : 530; }

std::string shape_name(const PorModel& m) {
  return std::to_string(m.shape.base) + "-" + std::to_string(m.shape.sub) + "-" + std::to_string(m.shape.top) + " x" +
         std::to_string(m.levels);
}

void synthesize(r1cs::TestCS<Fr>& cs, PorOutput& out, MerkleShape shape, const Fr& leaf_value,
                const std::vector<Element>& path, const Fr& root_value) {
  const Num leaf = [&] {
    r1cs::Namespace ns(cs, "leaf");
    return Num::alloc(cs, leaf_value);
  }();
  const Num root = [&] {
    r1cs::Namespace ns(cs, "root");
    return Num::alloc(cs, root_value);
  }();
  r1cs::Namespace ns(cs, "por");
  out = por_inclusion(cs, tree_hash(), shape, leaf, std::span<const Element>(path), root);
}

// Random tree per shape, random leaf: satisfied, computed root = native root, index input = c,
// rows = Σ per-level counts (SPEC §1) + 2, aux and digest = the model's; then each sibling
// level and each index bit flipped is caught.
TEST(Por, RandomTreesSatisfiedAndMatchModel) {
  auto g = test::rng(0x706f72);
  for (const PorModel& m : kPorModel) {
    SCOPED_TRACE(shape_name(m));
    const size_t trees = (m.shape.sub ? m.shape.sub : 1) * (m.shape.top ? m.shape.top : 1);
    size_t per_tree = 1;
    for (size_t l = 0; l < m.levels; ++l) per_tree *= m.shape.base;
    std::vector<Fr> leaves;
    for (size_t i = 0; i < trees * per_tree; ++i) leaves.push_back(test::random_element<Fr>(g));
    const NativeTree tree(m.shape, leaves);
    const size_t c = static_cast<size_t>(g() % leaves.size());
    const std::vector<Element> path = tree.path(c);

    r1cs::TestCS<Fr> cs;
    PorOutput out;
    synthesize(cs, out, m.shape, leaves[c], path, tree.root);
    EXPECT_TRUE(cs.is_satisfied()) << *cs.first_unsatisfied();
    EXPECT_EQ(cs.aux()[out.computed_root.index], tree.root);
    ASSERT_EQ(cs.num_inputs(), 2u);
    EXPECT_TRUE(out.index_input.is_input());
    EXPECT_EQ(cs.inputs()[out.index_input.index], Fr::from_uint(c));
    size_t rows = 2 + m.levels * level_rows(m.shape.base);
    if (m.shape.sub) rows += level_rows(m.shape.sub);
    if (m.shape.top) rows += level_rows(m.shape.top);
    EXPECT_EQ(cs.num_constraints(), rows);
    EXPECT_EQ(cs.num_constraints(), m.rows);
    EXPECT_EQ(cs.num_aux(), m.aux);
    EXPECT_EQ(cs.digest(), m.digest);

    // A sibling changed at any level: the root no longer matches.
    for (size_t level = 0; level < path.size(); ++level) {
      std::vector<Element> bad = path;
      bad[level].siblings[g() % bad[level].siblings.size()] += Fr::one();
      r1cs::TestCS<Fr> cs2;
      PorOutput out2;
      synthesize(cs2, out2, m.shape, leaves[c], bad, tree.root);
      EXPECT_EQ(cs2.first_unsatisfied(), std::optional<std::string>("por/enforce root is correct")) << "level " << level;
    }
    // Any index bit flipped in the witness: some row breaks (insert picks, packing or root).
    for (size_t level = 0; level < m.levels; ++level) {
      for (size_t b = 0; b < static_cast<size_t>(std::countr_zero(m.shape.base)); ++b) {
        r1cs::TestCS<Fr> cs2;
        PorOutput out2;
        synthesize(cs2, out2, m.shape, leaves[c], path, tree.root);
        const std::string bit = "por/base/merkle tree hash " + std::to_string(level) + "/index bit " + std::to_string(b) +
                                "/boolean";
        cs2.set(bit, Fr::one() - cs2.get(bit));
        EXPECT_TRUE(cs2.first_unsatisfied().has_value()) << bit;
      }
    }
    // A proof for leaf c claimed at another index (path element index changed): root mismatch.
    {
      std::vector<Element> moved = path;
      moved[0].index = (moved[0].index + 1) % m.shape.base;
      r1cs::TestCS<Fr> cs2;
      PorOutput out2;
      synthesize(cs2, out2, m.shape, leaves[c], moved, tree.root);
      EXPECT_TRUE(cs2.first_unsatisfied().has_value());
      EXPECT_NE(cs2.inputs()[out2.index_input.index], Fr::from_uint(c));
    }
  }
}

// Tree D: binary SHA-256 (Sha256TreeHash). The model (same script as above, with
// m.sha_node_native / m.sha_multi_leaf_circuit and leaves trimmed to 254 bits) gives rows, aux,
// digest and the root; a level costs 45,382 rows (SPEC-SHA256 §7.3: 44,866 + 2·256 + 1 + 3).
TEST(Por, TreeDSha256MatchesModel) {
  struct Case {
    size_t levels, c, rows, aux;
    const char* digest;
    const char* root;
  };
  const Case cases[] = {
      {1, 1, 45384, 45337, "cd72b9dd73a950915445a78fcfaf2afaa8641c7af75e801a4c014f7c8200c860",
       "3cba051dfe34de896eee9cee24c549ff1559dab262e0572cd00f098f2722c147"},
      {2, 2, 90766, 90672, "c17b0839c182c33841232276ec8d478dfba2773c15482730f9ae4e452af1ff25",
       "194715b008f12bdd73934be96afc70ccde245b1721e204beab46fbfa0d2e3bda"},
  };
  const Sha256TreeHash sha_hash;
  for (const Case& k : cases) {
    SCOPED_TRACE(k.levels);
    std::vector<Fr> leaves;
    for (uint64_t i = 0; i < (1u << k.levels); ++i) {  // (i·7919 + 13) as 32 LE bytes, byte 31 &= 0x3f
      leaves.push_back(Fr::from_uint(i * 7919 + 13));
    }
    const NativeTree tree({2, 0, 0}, leaves, &Sha256TreeHash::native);
    EXPECT_EQ(tree.root, Fr::from_hex(k.root));
    const std::vector<Element> path = tree.path(k.c);
    auto run = [&](auto& cs, const std::vector<Element>& p) {
      const Num leaf = [&] {
        r1cs::Namespace ns(cs, "leaf");
        return Num::alloc(cs, leaves[k.c]);
      }();
      const Num root = [&] {
        r1cs::Namespace ns(cs, "root");
        return Num::alloc(cs, tree.root);
      }();
      r1cs::Namespace ns(cs, "por");
      return por_inclusion(cs, sha_hash, MerkleShape{2, 0, 0}, leaf, std::span<const Element>(p), root);
    };
    r1cs::TestCS<Fr> cs;
    const PorOutput out = run(cs, path);
    EXPECT_TRUE(cs.is_satisfied()) << *cs.first_unsatisfied();
    EXPECT_EQ(cs.num_constraints(), 2 + 45382 * k.levels);
    EXPECT_EQ(cs.num_constraints(), k.rows);
    EXPECT_EQ(cs.num_aux(), k.aux);
    EXPECT_EQ(cs.digest(), k.digest);
    EXPECT_EQ(cs.inputs()[out.index_input.index], Fr::from_uint(k.c));
    EXPECT_EQ(cs.aux()[out.computed_root.index], tree.root);

    r1cs::WitnessCS<Fr> wcs;  // the native SHA-256 witness path
    run(wcs, path);
    EXPECT_EQ(wcs.aux(), cs.aux());

    std::vector<Element> bad = path;
    bad.back().siblings[0] += Fr::one();
    r1cs::TestCS<Fr> cs2;
    run(cs2, bad);
    EXPECT_EQ(cs2.first_unsatisfied(), std::optional<std::string>("por/enforce root is correct"));
  }
}

// WitnessCS (no names, no rows) gives TestCS's assignment; KeygenCS on a blank path its sizes.
TEST(Por, OtherBackendsSameShape) {
  const MerkleShape shape{8, 8, 2};
  std::vector<Fr> leaves(2 * 8 * 8);
  for (size_t i = 0; i < leaves.size(); ++i) leaves[i] = Fr::from_uint(i + 1);
  const NativeTree tree(shape, leaves);
  const size_t c = 77;
  const std::vector<Element> path = tree.path(c);
  r1cs::TestCS<Fr> test_cs;
  PorOutput out;
  synthesize(test_cs, out, shape, leaves[c], path, tree.root);
  ASSERT_TRUE(test_cs.is_satisfied());
  r1cs::WitnessCS<Fr> wcs;
  const Num leaf = Num::alloc(wcs, leaves[c]);
  const Num root = Num::alloc(wcs, tree.root);
  por_inclusion(wcs, tree_hash(), shape, leaf, std::span<const Element>(path), root);
  EXPECT_EQ(wcs.aux(), test_cs.aux());
  EXPECT_EQ(wcs.inputs(), test_cs.inputs());
  // Parameter generation: a blank path (zeros, index 0) of the same shape gives the same sizes.
  std::vector<Element> blank = path;
  for (Element& e : blank) {
    e.index = 0;
    for (Fr& s : e.siblings) s = Fr::zero();
  }
  r1cs::KeygenCS<Fr> kcs;
  const Num kleaf = Num::alloc(kcs, Fr::zero());
  const Num kroot = Num::alloc(kcs, Fr::zero());
  por_inclusion(kcs, tree_hash(), shape, kleaf, std::span<const Element>(blank), kroot);
  EXPECT_EQ(kcs.num_constraints(), test_cs.num_constraints());
  EXPECT_EQ(kcs.num_aux(), test_cs.num_aux());
}

TEST(Por, RejectsMalformedPaths) {
  const MerkleShape shape{8, 0, 0};
  std::vector<Fr> leaves(64);
  for (size_t i = 0; i < leaves.size(); ++i) leaves[i] = Fr::from_uint(i);
  const NativeTree tree(shape, leaves);
  std::vector<Element> path = tree.path(3);
  path[1].siblings.pop_back();
  r1cs::TestCS<Fr> cs;
  PorOutput out;
  EXPECT_THROW(synthesize(cs, out, shape, leaves[3], path, tree.root), Exception);
  path = tree.path(3);
  path[0].index = 8;
  r1cs::TestCS<Fr> cs2;
  EXPECT_THROW(synthesize(cs2, out, shape, leaves[3], path, tree.root), Exception);
}

}  // namespace
}  // namespace cuzk::gadgets
