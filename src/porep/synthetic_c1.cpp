#include "porep/synthetic_c1.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <random>
#include <span>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/thread_pool.hpp"
#include "gadgets/tree_hash.hpp"
#include "porep/graph.hpp"
#include "porep/verify.hpp"

namespace cuzk::porep {

namespace {

using ff::Fr;

// 32 bytes from four 64-bit outputs, little-endian, trimmed below 2^254 (fr32, like a label).
Bytes32 draw_bytes(std::mt19937_64& rng) {
  Bytes32 out{};
  for (size_t w = 0; w < 4; ++w) {
    const uint64_t x = rng();
    for (size_t i = 0; i < 8; ++i) out[8 * w + i] = static_cast<uint8_t>(x >> (8 * i));
  }
  out[31] &= 0x3f;
  return out;
}

Bytes32 bytes_of(const Fr& v) {
  Bytes32 out{};
  v.to_bytes_le(out);
  return out;
}

// A Merkle tree of which only a few leaves are not the default (0): one sorted vector of the
// non-default nodes per level; a node absent from it has its level's default hash. Levels may
// differ in arity (trees R and C: base arity 8, then the sub and top levels), and a path's
// indices spell the leaf index in that mixed radix, base digits first (as c1.hpp validates).
class SparseTree {
 public:
  using Level = std::vector<std::pair<uint64_t, Fr>>;  // (index, hash), ascending index

  SparseTree(std::vector<uint32_t> arities, Level leaves, const gadgets::PoseidonTreeHash& hash, ThreadPool& pool)
      : arities_(std::move(arities)) {
    defaults_.push_back(Fr::zero());
    levels_.push_back(std::move(leaves));
    for (const uint32_t arity : arities_) {
      const Level& below = levels_.back();
      std::vector<size_t> groups;  // start in `below` of each run of siblings
      for (size_t i = 0; i < below.size(); ++i)
        if (i == 0 || below[i].first / arity != below[i - 1].first / arity) groups.push_back(i);
      groups.push_back(below.size());
      Level above(groups.size() - 1);
      const Fr child_default = defaults_.back();
      pool.parallel_for(above.size(), 16, [&](size_t begin, size_t end) {
        std::vector<Fr> children;
        for (size_t g = begin; g < end; ++g) {
          children.assign(arity, child_default);
          for (size_t i = groups[g]; i < groups[g + 1]; ++i) children[below[i].first % arity] = below[i].second;
          above[g] = {below[groups[g]].first / arity, hash.native(children)};
        }
      });
      const std::vector<Fr> all_default(arity, child_default);
      defaults_.push_back(hash.native(all_default));
      levels_.push_back(std::move(above));
    }
  }

  Fr root() const { return at(arities_.size(), 0); }

  MerkleProof proof(uint64_t leaf) const {
    MerkleProof p;
    p.root = root();
    p.leaf = at(0, leaf);
    uint64_t index = leaf;
    for (size_t level = 0; level < arities_.size(); ++level) {
      const uint32_t arity = arities_[level];
      const uint64_t first = index - index % arity;
      PathElement el;
      el.index = static_cast<uint32_t>(index % arity);
      for (uint64_t j = first; j < first + arity; ++j)
        if (j != index) el.hashes.push_back(at(level, j));
      p.path.push_back(std::move(el));
      index /= arity;
    }
    return p;
  }

 private:
  Fr at(size_t level, uint64_t index) const {
    const Level& nodes = levels_[level];
    const auto it = std::lower_bound(nodes.begin(), nodes.end(), index,
                                     [](const std::pair<uint64_t, Fr>& n, uint64_t i) { return n.first < i; });
    return it != nodes.end() && it->first == index ? it->second : defaults_[level];
  }

  std::vector<uint32_t> arities_;  // leaf level first
  std::vector<Fr> defaults_;       // default hash per level, leaves (0) first
  std::vector<Level> levels_;
};

// Trees R and C: base_path_len levels of the base arity, then the sub and top levels if any.
std::vector<uint32_t> tree_rc_arities(const SectorShape& shape) {
  std::vector<uint32_t> arities(shape.base_path_len(), shape.base_arity);
  if (shape.sub_arity) arities.push_back(shape.sub_arity);
  if (shape.top_arity) arities.push_back(shape.top_arity);
  return arities;
}

MerkleProof::Kind tree_rc_kind(const SectorShape& shape) {
  return shape.top_arity ? MerkleProof::Kind::kTop : shape.sub_arity ? MerkleProof::Kind::kSub : MerkleProof::Kind::kSingle;
}

// The public values, first in the stream (synthetic_c1.hpp SyntheticC1Inputs).
SyntheticC1Inputs draw_inputs(std::mt19937_64& rng, const SyntheticC1Options& options) {
  SyntheticC1Inputs in;
  in.miner_id = 1000 + rng() % 1'000'000;
  in.sector_id = rng() >> 32;
  if (options.miner_id) in.miner_id = *options.miner_id;
  if (options.sector_id) in.sector_id = *options.sector_id;
  in.prover_id = prover_id_from_miner(in.miner_id);
  in.ticket = draw_bytes(rng);
  in.seed = draw_bytes(rng);
  if (options.ticket) in.ticket = *options.ticket;
  if (options.porep_seed) in.seed = *options.porep_seed;
  return in;
}

}  // namespace

SyntheticC1Inputs synthetic_c1_inputs(const SyntheticC1Options& options) {
  std::mt19937_64 rng(options.seed);
  return draw_inputs(rng, options);
}

std::vector<Fr> zero_tree_d_hashes(uint32_t depth) {
  std::vector<Fr> hashes{Fr::zero()};
  for (uint32_t i = 0; i < depth; ++i) {
    const std::array<Fr, 2> pair{hashes.back(), hashes.back()};
    hashes.push_back(gadgets::Sha256TreeHash::native(pair));
  }
  return hashes;
}

Expected<C1> generate_synthetic_c1(const SyntheticC1Options& options) {
  const PorepPoseidon poseidon;
  ThreadPool pool;
  return generate_synthetic_c1(options, poseidon, pool);
}

Expected<C1> generate_synthetic_c1(const SyntheticC1Options& options, const PorepPoseidon& poseidon,
                                  ThreadPool& pool) {
  RegisteredSealProof proof;
  CUZK_TRY_ASSIGN(proof, registered_seal_proof(options.registered_proof));
  SectorShape shape;
  CUZK_TRY_ASSIGN(shape, shape_for_sector_size(proof.sector_size));
  const uint32_t layers = shape.layers;
  const bool synthetic = proof.feature == PorepFeature::kSyntheticPoRep;
  if (synthetic && shape.nodes > kMaxSyntheticPorepNodes) {
    return Error{ErrorCode::kUnsupported,
                 fmt::format("{}: a synthetic-PoRep C1 labels every node of the sector (its challenges follow from "
                             "comm_r); generated for sectors of up to {} nodes (2KiB, 8MiB) only",
                             proof.name, kMaxSyntheticPorepNodes)};
  }

  // The public values. The stream continues below with the random labels.
  std::mt19937_64 rng(options.seed);
  const SyntheticC1Inputs in = draw_inputs(rng, options);

  C1 c1;
  c1.registered_proof = std::string(proof.name);
  c1.ticket = in.ticket;
  c1.seed = in.seed;
  const std::vector<Fr> tree_d = zero_tree_d_hashes(shape.tree_d_depth);
  c1.comm_d = bytes_of(tree_d.back());
  const Bytes32 porep_id = proof.porep_id();
  const Fr rid = replica_id(in.prover_id, in.sector_id, in.ticket, c1.comm_d, porep_id);
  c1.replica_id = bytes_of(rid);

  // The nodes whose labels are computed (the rest are random), each with its 14 parents from the
  // real graph: interactive PoRep, the challenges of every partition; synthetic PoRep, whose
  // challenges depend on comm_r and so on these very labels, every node but 0 (never challenged).
  const StackedGraph graph(shape.nodes, porep_id, graph_version(proof.api_version));
  std::vector<std::vector<uint64_t>> challenges(shape.partitions);
  std::map<uint64_t, std::array<uint32_t, kParentCount>> parents;  // labelled node -> parents
  if (synthetic) {
    for (uint64_t c = 1; c < shape.nodes; ++c) graph.parents(c, parents[c]);
  } else {
    for (uint32_t k = 0; k < shape.partitions; ++k) {
      challenges[k] = interactive_challenges(rid, c1.seed, shape.nodes, k, shape.challenges_per_partition);
      for (const uint64_t c : challenges[k])
        if (!parents.contains(c)) graph.parents(c, parents[c]);
    }
  }

  // Columns: random labels for every parent that is not labelled (ascending node order, so the
  // stream is reproducible; for synthetic PoRep only node 0, given its real labels instead);
  // labelled nodes' labels computed layer by layer.
  std::map<uint64_t, std::vector<Fr>> columns;
  for (const auto& [c, ps] : parents) {
    columns.try_emplace(c);
    for (const uint32_t p : ps) columns.try_emplace(p);
  }
  for (auto& [node, column] : columns) {
    if (parents.contains(node)) {
      column.assign(layers, Fr::zero());
      continue;
    }
    if (synthetic) {  // node 0, a whole sector's only parentless node: its real labels
      for (uint32_t l = 1; l <= layers; ++l) column.push_back(create_label_without_parents(rid, l, node));
      continue;
    }
    for (uint32_t l = 0; l < layers; ++l) column.push_back(Fr::from_bytes_le(draw_bytes(rng)).value());
  }
  // Layer l's label of c: DRG parents' layer-l labels (those parents are < c, so a challenged one
  // is already done in this layer), then the expander parents' layer l−1 labels (complete).
  const auto label_parents = [&](uint64_t c, uint32_t layer) {
    std::array<Fr, kParentCount> own{};
    const std::array<uint32_t, kParentCount>& ps = parents.at(c);
    const size_t count = layer == 1 ? kDrgDegree : kParentCount;
    for (size_t i = 0; i < count; ++i) own[i] = columns.at(ps[i])[i < kDrgDegree ? layer - 1 : layer - 2];
    std::array<Fr, kLabelParents> expanded{};
    expand_label_parents(layer, std::span<const Fr>(own.data(), count), expanded);
    return expanded;
  };
  for (uint32_t layer = 1; layer <= layers; ++layer) {
    for (const auto& [c, ps] : parents) {
      const std::array<Fr, kLabelParents> expanded = label_parents(c, layer);
      columns.at(c)[layer - 1] = create_label(rid, layer, c, expanded);
    }
  }

  // Tree C over the column hashes (Poseidon of arity = layers), tree R over the replica
  // (last label + data 0) of the challenged nodes; comm_r = Poseidon2(comm_c, comm_r_last).
  const gadgets::PoseidonTreeHash tree_hash = poseidon.tree_hash();
  SparseTree::Level c_leaves, r_leaves;
  for (const auto& [node, column] : columns) c_leaves.emplace_back(node, Fr::zero());
  pool.for_each_index(c_leaves.size(), [&](size_t i) {
    c_leaves[i].second = gadgets::poseidon_hash(poseidon.arity(layers), columns.at(c_leaves[i].first));
  });
  if (synthetic) {  // the whole replica, node 0 included
    for (const auto& [node, column] : columns) r_leaves.emplace_back(node, column.back());
  } else {
    for (const auto& [c, ps] : parents) r_leaves.emplace_back(c, columns.at(c).back());
  }
  const SparseTree tree_c(tree_rc_arities(shape), std::move(c_leaves), tree_hash, pool);
  const SparseTree tree_r(tree_rc_arities(shape), std::move(r_leaves), tree_hash, pool);
  const std::array<Fr, 2> roots{tree_c.root(), tree_r.root()};
  const Fr comm_r = gadgets::poseidon_hash(poseidon.arity(2), roots);
  c1.comm_r = bytes_of(comm_r);
  if (synthetic) {
    for (uint32_t k = 0; k < shape.partitions; ++k)
      challenges[k] = synthetic_challenges(rid, comm_r, c1.seed, shape.nodes, k, shape.challenges_per_partition);
  }

  // The vanilla proofs (stacked/vanilla/proof.rs prove_layers_generate).
  const MerkleProof::Kind rc_kind = tree_rc_kind(shape);
  const auto column_proof = [&](uint64_t node) {
    ColumnProof out{static_cast<uint32_t>(node), columns.at(node), tree_c.proof(node)};
    out.inclusion.kind = rc_kind;
    return out;
  };
  c1.partitions.resize(shape.partitions);
  for (uint32_t k = 0; k < shape.partitions; ++k) {
    for (const uint64_t c : challenges[k]) {
      ChallengeProof p;
      p.comm_d_proof.kind = MerkleProof::Kind::kSingle;
      p.comm_d_proof.root = tree_d.back();
      p.comm_d_proof.leaf = Fr::zero();
      for (uint32_t level = 0; level < shape.tree_d_depth; ++level)
        p.comm_d_proof.path.push_back(PathElement{{tree_d[level]}, static_cast<uint32_t>((c >> level) & 1)});
      p.comm_r_last_proof = tree_r.proof(c);
      p.comm_r_last_proof.kind = rc_kind;
      p.c_x = column_proof(c);
      const std::array<uint32_t, kParentCount>& ps = parents.at(c);
      for (size_t i = 0; i < kParentCount; ++i)
        (i < kDrgDegree ? p.drg_parents : p.exp_parents).push_back(column_proof(ps[i]));
      for (uint32_t layer = 1; layer <= layers; ++layer) {
        const std::array<Fr, kLabelParents> expanded = label_parents(c, layer);
        p.labeling_proofs.push_back(LabelingProof{std::vector<Fr>(expanded.begin(), expanded.end()), layer, c});
      }
      p.encoding_proof = p.labeling_proofs.back();  // the key is layer L's label (proof.rs:447)
      c1.partitions[k].push_back(std::move(p));
    }
  }

  if (Expected<void> ok = validate(c1, shape, "synthetic C1"); !ok) return ok.error();
  return c1;
}

}  // namespace cuzk::porep
