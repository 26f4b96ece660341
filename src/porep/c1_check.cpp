#include "porep/c1_check.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/hex.hpp"
#include "gadgets/poseidon.hpp"
#include "gadgets/tree_hash.hpp"
#include "porep/challenges.hpp"
#include "porep/graph.hpp"
#include "porep/path_roots.hpp"
#include "porep/sector_shape.hpp"
#include "porep/verify.hpp"

namespace cuzk::porep {
namespace {

using ff::Fr;

const char* kind_name(MerkleProof::Kind k) {
  switch (k) {
    case MerkleProof::Kind::kSingle: return "Single";
    case MerkleProof::Kind::kSub: return "Sub";
    case MerkleProof::Kind::kTop: return "Top";
  }
  return "?";
}

// The root a path leads to from its leaf: per element (leaf level first), the current node put
// at its index among the arity − 1 siblings, and the group hashed (por.hpp's insert + hash).
template <class Hash>
Fr climb(const MerkleProof& p, const Hash& hash, std::vector<Fr>& children) {
  Fr node = p.leaf;
  for (const PathElement& el : p.path) {
    children.assign(el.hashes.begin(), el.hashes.end());
    children.insert(children.begin() + el.index, node);
    node = hash(std::span<const Fr>(children));
  }
  return node;
}

class Checker {
 public:
  Checker(const C1& c1, const RegisteredShape& r, const PorepPoseidon& poseidon, const Fr& replica_id,
          std::string_view source)
      : c1_(c1),
        shape_(r.shape),
        poseidon_(poseidon),
        graph_(r.shape.nodes, r.proof.porep_id(), graph_version(r.proof.api_version)),
        replica_id_(replica_id),
        comm_d_(Fr::from_bytes_le(c1.comm_d).value()),  // below 2^254: validate() checked it
        variant_(vanilla_proof_variant(r.proof)),
        source_(source) {}

  // Challenge i of partition k, whose index the seed gives as `expected`.
  Expected<void> challenge(uint32_t k, size_t i, uint64_t expected) const {
    const ChallengeProof& p = c1_.partitions[k][i];
    const auto fail = [&](std::string_view field, std::string_view what) {
      return invalid_argument(fmt::format("{}: vanilla_proofs.{}[{}][{}].{}: {}", source_, variant_, k, i, field, what));
    };
    const uint64_t node = p.c_x.index;
    if (node != expected) {
      return fail("replica_column_proofs.c_x.column.index",
                  fmt::format("{} is not the challenge derived from replica_id and seed ({})", node, expected));
    }
    std::array<uint32_t, kParentCount> parents{};
    graph_.parents(node, parents);
    for (size_t j = 0; j < kDrgDegree; ++j) {
      if (p.drg_parents[j].index != parents[j]) {
        return fail(fmt::format("replica_column_proofs.drg_parents[{}].column.index", j),
                    fmt::format("{} is not DRG parent {} of node {} ({})", p.drg_parents[j].index, j, node, parents[j]));
      }
    }
    for (size_t j = 0; j < kExpanderDegree; ++j) {
      if (p.exp_parents[j].index != parents[kDrgDegree + j]) {
        return fail(fmt::format("replica_column_proofs.exp_parents[{}].column.index", j),
                    fmt::format("{} is not expander parent {} of node {} ({})", p.exp_parents[j].index, j, node,
                                parents[kDrgDegree + j]));
      }
    }

    std::vector<Fr> children;
    const auto sha = [](std::span<const Fr> c) { return gadgets::Sha256TreeHash::native(c); };
    if (climb(p.comm_d_proof, sha, children) != comm_d_) {
      return fail("comm_d_proofs", "the path from the leaf does not reach the root (comm_d)");
    }

    // The Poseidon work of the checks below, done together (eight lanes at a time where the CPU
    // has IFMA): the columns' leaf hashes, and the roots of their paths and of tree R's. The
    // checks then run in their order on these values.
    std::vector<const ColumnProof*> columns;
    for (const ColumnProof& c : p.drg_parents) columns.push_back(&c);
    for (const ColumnProof& c : p.exp_parents) columns.push_back(&c);
    columns.push_back(&p.c_x);
    const size_t layers = shape_.layers;
    std::vector<Fr> rows, leaves(columns.size());
    std::vector<const MerkleProof*> paths;
    for (const ColumnProof* c : columns) {
      rows.insert(rows.end(), c->rows.begin(), c->rows.end());  // layers each: validate() checked
      paths.push_back(&c->inclusion);
    }
    paths.push_back(&p.comm_r_last_proof);
    poseidon_.batch(layers).hash(rows, leaves);
    const std::vector<Fr> roots = poseidon_path_roots(poseidon_, paths);

    // A column: leaf = Poseidon_L(rows), and its path up to its root (comm_c, one throughout).
    const auto column = [&](size_t k, const std::string& at) -> Expected<void> {
      const ColumnProof& c = *columns[k];
      if (leaves[k] != c.inclusion.leaf) {
        return fail(fmt::format("{}.inclusion_proof.data.{}.leaf", at, kind_name(c.inclusion.kind)),
                    "not the Poseidon hash of the column's rows");
      }
      if (roots[k] != c.inclusion.root) {
        return fail(at + ".inclusion_proof", "the path from the leaf does not reach the root (comm_c)");
      }
      return {};
    };
    for (size_t j = 0; j < p.drg_parents.size(); ++j) {
      if (auto ok = column(j, fmt::format("replica_column_proofs.drg_parents[{}]", j)); !ok) return ok;
    }
    for (size_t j = 0; j < p.exp_parents.size(); ++j) {
      if (auto ok = column(p.drg_parents.size() + j, fmt::format("replica_column_proofs.exp_parents[{}]", j)); !ok)
        return ok;
    }

    // Labels, layer by layer, from the parents' rows (the circuit computes them so): the
    // labeling proofs must list those parents, and the challenge's column must hold the labels.
    std::array<Fr, kLabelParents> expanded;
    std::vector<Fr> parent_labels;
    for (uint32_t layer = 1; layer <= shape_.layers; ++layer) {
      parent_labels.clear();
      for (const ColumnProof& c : p.drg_parents) parent_labels.push_back(c.rows[layer - 1]);
      if (layer > 1) {
        for (const ColumnProof& c : p.exp_parents) parent_labels.push_back(c.rows[layer - 2]);
      }
      expand_label_parents(layer, parent_labels, expanded);
      const LabelingProof& lp = p.labeling_proofs[layer - 1];
      for (size_t j = 0; j < kLabelParents; ++j) {
        if (lp.parents[j] != expanded[j]) {
          return fail(fmt::format("labeling_proofs[{}].parents[{}]", layer - 1, j),
                      "not the parent label the parent columns hold");
        }
      }
      if (create_label(replica_id_, layer, node, expanded) != p.c_x.rows[layer - 1]) {
        return fail(fmt::format("replica_column_proofs.c_x.column.rows[{}]", layer - 1),
                    fmt::format("not the layer-{} label of node {} computed from its parents and replica_id", layer, node));
      }
    }
    const LabelingProof& last = p.labeling_proofs.back();
    for (size_t j = 0; j < kLabelParents; ++j) {
      if (p.encoding_proof.parents[j] != last.parents[j]) {
        return fail(fmt::format("encoding_proof.parents[{}]", j), "differs from the last layer's labeling proof");
      }
    }
    if (auto ok = column(columns.size() - 1, "replica_column_proofs.c_x"); !ok) return ok;

    // Tree R: the replica node = the last label + the data leaf.
    if (p.comm_r_last_proof.leaf != p.c_x.rows.back() + p.comm_d_proof.leaf) {
      return fail(fmt::format("comm_r_last_proof.data.{}.leaf", kind_name(p.comm_r_last_proof.kind)),
                  "not the encoding (the last label + the data leaf)");
    }
    if (roots.back() != p.comm_r_last_proof.root) {
      return fail("comm_r_last_proof", "the path from the leaf does not reach the root (comm_r_last)");
    }
    return {};
  }

 private:
  const C1& c1_;
  const SectorShape& shape_;
  const PorepPoseidon& poseidon_;
  StackedGraph graph_;
  Fr replica_id_, comm_d_;
  std::string_view variant_, source_;
};

}  // namespace

Expected<void> check_vanilla_proofs(const C1& c1, const PorepPoseidon& poseidon, ThreadPool* pool,
                                    std::string_view source_name) {
  RegisteredShape r;
  CUZK_TRY_ASSIGN(r, registered_shape(c1.registered_proof));
  if (auto ok = validate(c1, r.shape, source_name); !ok) return ok;
  const auto field = [&](const std::array<uint8_t, 32>& bytes, const char* name) -> Expected<Fr> {
    Expected<Fr> v = Fr::from_bytes_le(bytes);
    if (!v) return invalid_argument(fmt::format("{}: {}: not a canonical field element (>= r)", source_name, name));
    return v;
  };
  Fr replica_id, comm_r;
  CUZK_TRY_ASSIGN(replica_id, field(c1.replica_id, "replica_id"));
  CUZK_TRY_ASSIGN(comm_r, field(c1.comm_r, "comm_r"));

  // comm_r = Poseidon2(comm_c, comm_r_last); validate() made every proof of a tree share its root.
  const ChallengeProof& first = c1.partitions.front().front();
  const std::array<Fr, 2> roots = {first.c_x.inclusion.root, first.comm_r_last_proof.root};
  if (gadgets::poseidon_hash(poseidon.arity(2), roots) != comm_r) {
    return invalid_argument(fmt::format("{}: comm_r: not Poseidon(comm_c, comm_r_last) of the vanilla proofs' tree C and R roots",
                                        source_name));
  }

  const Checker checker(c1, r, poseidon, replica_id, source_name);
  struct Item {
    uint32_t partition;
    size_t index;
    uint64_t challenge;
  };
  std::vector<Item> items;
  for (uint32_t k = 0; k < c1.partitions.size(); ++k) {
    const std::vector<uint64_t> challenges =
        porep_challenges(r.proof.feature, replica_id, comm_r, c1.seed, r.shape.nodes, k, r.shape.challenges_per_partition);
    for (size_t i = 0; i < challenges.size(); ++i) items.push_back({k, i, challenges[i]});
  }
  std::vector<Expected<void>> results(items.size());
  const auto one = [&](size_t n) { results[n] = checker.challenge(items[n].partition, items[n].index, items[n].challenge); };
  if (pool != nullptr) {
    pool->parallel_for(items.size(), 1, [&](size_t begin, size_t end) {
      for (size_t n = begin; n < end; ++n) one(n);
    });
  } else {
    for (size_t n = 0; n < items.size(); ++n) {
      one(n);
      if (!results[n]) break;
    }
  }
  for (Expected<void>& result : results) {
    if (!result) return result;
  }
  return {};
}

Expected<void> check_replica_id(const C1& c1, std::span<const uint8_t, 32> prover_id, uint64_t sector_id,
                                std::string_view source_name) {
  RegisteredShape r;
  CUZK_TRY_ASSIGN(r, registered_shape(c1.registered_proof));
  const auto porep_id = r.proof.porep_id();
  const Fr derived = replica_id(prover_id, sector_id, c1.ticket, c1.comm_d, porep_id);
  std::array<uint8_t, 32> bytes{};
  derived.to_bytes_le(bytes);
  if (bytes != c1.replica_id) {
    return invalid_argument(fmt::format(
        "{}: replica_id: {} is not the one derived from prover id {}, sector id {}, ticket, comm_d and the porep id of {} ({})",
        source_name, to_hex(c1.replica_id), to_hex(prover_id), sector_id, r.proof.name, to_hex(bytes)));
  }
  return {};
}

}  // namespace cuzk::porep
