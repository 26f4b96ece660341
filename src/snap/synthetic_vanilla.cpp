#include "snap/synthetic_vanilla.hpp"

#include <array>
#include <functional>
#include <random>
#include <span>
#include <string>

#include "gadgets/poseidon.hpp"
#include "gadgets/tree_hash.hpp"

namespace cuzk::snap {

namespace {

using Hash = std::function<ff::Fr(std::span<const ff::Fr>)>;

// A tree whose leaves are constant within groups of group_size: level l holds one value per group
// while a node spans at most a group, else one value per node.
class GroupedTree {
 public:
  GroupedTree(std::vector<size_t> arities, uint64_t nodes, uint64_t group_size, std::vector<ff::Fr> group_leaves,
              const Hash& hash)
      : arities_(std::move(arities)), group_size_(group_size) {
    levels_.push_back(std::move(group_leaves));
    span_.push_back(1);
    std::vector<ff::Fr> children;
    for (size_t l = 0; l < arities_.size(); ++l) {
      const size_t a = arities_[l];
      span_.push_back(span_[l] * a);
      std::vector<ff::Fr> level;
      if (span_[l + 1] <= group_size_) {
        for (const ff::Fr& v : levels_[l]) {
          children.assign(a, v);
          level.push_back(hash(children));
        }
      } else {
        for (uint64_t n = 0; n < nodes / span_[l + 1]; ++n) {
          children.clear();
          for (size_t j = 0; j < a; ++j) children.push_back(node(l, n * a + j));
          level.push_back(hash(children));
        }
      }
      levels_.push_back(std::move(level));
    }
  }

  const ff::Fr& node(size_t level, uint64_t index) const {
    if (span_[level] <= group_size_) return levels_[level][index * span_[level] / group_size_];
    return levels_[level][index];
  }
  const ff::Fr& root() const { return levels_.back().front(); }

  MerkleProof proof(uint64_t leaf, MerkleProof::Kind kind) const {
    MerkleProof p;
    p.kind = kind;
    p.leaf = node(0, leaf);
    p.root = root();
    uint64_t at = leaf;
    for (size_t l = 0; l < arities_.size(); ++l) {
      const uint64_t a = arities_[l], parent = at / a, pos = at % a;
      PathElement e;
      e.index = static_cast<uint32_t>(pos);
      for (uint64_t j = 0; j < a; ++j) {
        if (j != pos) e.hashes.push_back(node(l, parent * a + j));
      }
      p.path.push_back(std::move(e));
      at = parent;
    }
    return p;
  }

 private:
  std::vector<size_t> arities_;
  uint64_t group_size_;
  std::vector<std::vector<ff::Fr>> levels_;
  std::vector<uint64_t> span_;
};

ff::Fr draw(std::mt19937_64& rng) {
  std::array<uint8_t, 32> bytes{};
  for (int w = 0; w < 4; ++w) {
    const uint64_t x = rng();
    for (int i = 0; i < 8; ++i) bytes[8 * w + i] = static_cast<uint8_t>(x >> (8 * i));
  }
  bytes[31] &= 0x3f;
  return ff::Fr::from_bytes_le(bytes).value();
}

}  // namespace

Expected<SyntheticUpdate> generate_synthetic_update(const UpdateShape& shape, const UpdatePoseidon& poseidon,
                                                    uint64_t seed) {
  std::mt19937_64 rng(seed);
  SyntheticUpdate out;
  out.comm_c = draw(rng);
  const uint64_t groups = uint64_t{1} << shape.h, group_size = shape.nodes >> shape.h;
  std::vector<ff::Fr> old_values, data_values;
  for (uint64_t g = 0; g < groups; ++g) {
    old_values.push_back(draw(rng));
    data_values.push_back(draw(rng));
  }
  const gadgets::PoseidonTreeHash poseidon_tree = poseidon.tree_hash();
  const Hash poseidon_hash = [&](std::span<const ff::Fr> c) { return poseidon_tree.native(c); };
  const Hash sha_hash = [](std::span<const ff::Fr> c) { return gadgets::Sha256TreeHash::native(c); };
  const std::vector<size_t> r_arities = detail::tree_r_arities(shape);
  const std::vector<size_t> d_arities(shape.challenge_bits(), 2);
  const auto poseidon2 = [&](const ff::Fr& a, const ff::Fr& b) {
    const std::array<ff::Fr, 2> pre = {a, b};
    return gadgets::poseidon_hash(poseidon.merkle2(), pre);
  };

  const GroupedTree tree_r_old(r_arities, shape.nodes, group_size, old_values, poseidon_hash);
  const GroupedTree tree_d_new(d_arities, shape.nodes, group_size, data_values, sha_hash);
  out.pub.comm_r_old = poseidon2(out.comm_c, tree_r_old.root());
  out.pub.comm_d_new = tree_d_new.root();
  const ff::Fr phi_value = phi(poseidon, out.pub.comm_d_new, out.pub.comm_r_old);
  std::vector<ff::Fr> new_values;
  for (uint64_t g = 0; g < groups; ++g) new_values.push_back(old_values[g] + data_values[g] * rho(poseidon, phi_value, g));
  const GroupedTree tree_r_new(r_arities, shape.nodes, group_size, new_values, poseidon_hash);
  out.pub.comm_r_new = poseidon2(out.comm_c, tree_r_new.root());

  const MerkleProof::Kind r_kind = shape.tree_r.top ? MerkleProof::Kind::kTop
                                   : shape.tree_r.sub ? MerkleProof::Kind::kSub
                                                      : MerkleProof::Kind::kSingle;
  const size_t apex_level = shape.tree_d_levels_below_apex();
  for (uint32_t k = 0; k < shape.partitions; ++k) {
    PartitionProof p;
    p.comm_c = out.comm_c;
    for (uint64_t i = 0; i < shape.apex_leafs; ++i) p.apex_leafs.push_back(tree_d_new.node(apex_level, k * shape.apex_leafs + i));
    for (uint64_t c : partition_challenges(shape, poseidon, out.pub.comm_r_new, k)) {
      p.challenge_proofs.push_back(ChallengeProof{tree_r_old.proof(c, r_kind), tree_d_new.proof(c, MerkleProof::Kind::kSingle),
                                                  tree_r_new.proof(c, r_kind)});
    }
    if (auto ok = validate_partition_proof(p, shape, poseidon, k, out.pub, "synthetic partition " + std::to_string(k)); !ok)
      return ok.error();
    out.partitions.push_back(std::move(p));
  }
  return out;
}

}  // namespace cuzk::snap
