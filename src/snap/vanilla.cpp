#include "snap/vanilla.hpp"

#include <array>
#include <string>

#include <fmt/format.h>

#include "core/byte_reader.hpp"
#include "core/error.hpp"
#include "gadgets/poseidon.hpp"
#include "gadgets/tree_hash.hpp"
#include "porep/merkle_bincode.hpp"
#include "porep/path_roots.hpp"

namespace cuzk::snap {

namespace bincode = porep::bincode;

namespace {

constexpr std::array<std::string_view, 3> kProofVariants = {"Single", "Sub", "Top"};

}  // namespace

Expected<PartitionProof> decode_partition_proof(std::span<const uint8_t> bytes, std::string_view source_name) {
  ByteReader r(bytes, std::string(source_name));
  PartitionProof p;
  CUZK_TRY_ASSIGN(p.comm_c, bincode::read_domain(r, "comm_c"));
  uint64_t n = 0;
  CUZK_TRY_ASSIGN(n, bincode::read_length(r, "apex_leafs", 32));
  p.apex_leafs.resize(n);
  for (uint64_t i = 0; i < n; ++i)
    CUZK_TRY_ASSIGN(p.apex_leafs[i], bincode::read_domain(r, fmt::format("apex_leafs[{}]", i)));
  CUZK_TRY_ASSIGN(n, bincode::read_length(r, "challenge_proofs", 3 * bincode::kMinMerkleProof));
  p.challenge_proofs.resize(n);
  for (uint64_t i = 0; i < n; ++i) {
    const std::string field = fmt::format("challenge_proofs[{}]", i);
    ChallengeProof& c = p.challenge_proofs[i];
    bincode::DecodedMerkleProof d;
    CUZK_TRY_ASSIGN(d, bincode::read_merkle_proof(r, field + ".proof_r_old"));
    c.proof_r_old = std::move(d.proof);
    CUZK_TRY_ASSIGN(d, bincode::read_merkle_proof(r, field + ".proof_d_new"));
    c.proof_d_new = std::move(d.proof);
    CUZK_TRY_ASSIGN(d, bincode::read_merkle_proof(r, field + ".proof_r_new"));
    c.proof_r_new = std::move(d.proof);
  }
  if (r.remaining() != 0)
    return r.error(ErrorCode::kCorruption, "end", std::to_string(r.remaining()) + " bytes after the proof");
  return p;
}

std::vector<uint8_t> encode_partition_proof(const PartitionProof& proof) {
  std::vector<uint8_t> out;
  bincode::put_domain(out, proof.comm_c);
  bincode::put_u64(out, proof.apex_leafs.size());
  for (const ff::Fr& v : proof.apex_leafs) bincode::put_domain(out, v);
  bincode::put_u64(out, proof.challenge_proofs.size());
  for (const ChallengeProof& c : proof.challenge_proofs) {
    bincode::put_merkle_proof(out, c.proof_r_old);
    bincode::put_merkle_proof(out, c.proof_d_new);
    bincode::put_merkle_proof(out, c.proof_r_new);
  }
  return out;
}

ff::Fr poseidon_gen(const UpdatePoseidon& poseidon, const ff::Fr& a, const ff::Fr& b) {
  const std::array<ff::Fr, 2> pre = {a, b};
  return gadgets::poseidon_hash(poseidon.gen(), pre);
}

ff::Fr phi(const UpdatePoseidon& poseidon, const ff::Fr& comm_d_new, const ff::Fr& comm_r_old) {
  return poseidon_gen(poseidon, comm_d_new, comm_r_old);
}

ff::Fr rho(const UpdatePoseidon& poseidon, const ff::Fr& phi_value, uint64_t high) {
  return poseidon_gen(poseidon, phi_value, ff::Fr::from_uint(high));
}

std::vector<uint64_t> partition_challenges(const UpdateShape& shape, const UpdatePoseidon& poseidon,
                                           const ff::Fr& comm_r_new, uint32_t partition) {
  const uint32_t bits = shape.random_bits(), per_digest = shape.challenges_per_digest();
  const uint64_t dpp = shape.digests_per_partition();
  std::vector<uint64_t> out;
  out.reserve(shape.challenges);
  for (uint64_t j = 0; out.size() < shape.challenges; ++j) {
    const ff::Fr::Int d = poseidon_gen(poseidon, comm_r_new, ff::Fr::from_uint(partition * dpp + j)).to_int();
    for (uint32_t i = 0; i < per_digest && out.size() < shape.challenges; ++i) {
      uint64_t c = 0;
      for (uint32_t b = 0; b < bits; ++b) c |= uint64_t{d.bit(i * bits + b)} << b;
      out.push_back(c | (uint64_t{partition} << bits));
    }
  }
  return out;
}

std::vector<ff::Fr> partition_public_inputs(const UpdateShape& shape, uint32_t partition, const UpdatePublic& pub) {
  const uint64_t k_and_h_select = uint64_t{partition} | (uint64_t{shape.h_select()} << shape.partition_bits());
  return {ff::Fr::from_uint(k_and_h_select), pub.comm_r_old, pub.comm_d_new, pub.comm_r_new};
}

namespace {

// The leaf index a path spells: Σ index_l · Π arities below l.
uint64_t leaf_index(const MerkleProof& p) {
  uint64_t index = 0, scale = 1;
  for (const PathElement& e : p.path) {
    index += e.index * scale;
    scale *= e.hashes.size() + 1;
  }
  return index;
}

// The nodes a path passes through, leaf first, root last (at each level: insert the node at its
// index among the siblings, hash).
template <class Hash>
std::vector<ff::Fr> nodes_of(const MerkleProof& p, const Hash& hash) {
  std::vector<ff::Fr> nodes = {p.leaf};
  std::vector<ff::Fr> group;
  for (const PathElement& e : p.path) {
    group = e.hashes;
    group.insert(group.begin() + e.index, nodes.back());
    nodes.push_back(hash(std::span<const ff::Fr>(group)));
  }
  return nodes;
}

}  // namespace

Expected<void> validate_partition_proof(const PartitionProof& proof, const UpdateShape& shape,
                                        const UpdatePoseidon& poseidon, uint32_t partition, const UpdatePublic& pub,
                                        std::string_view source_name) {
  const auto fail = [&](const std::string& field, const std::string& what) -> Error {
    return invalid_argument(fmt::format("{}: {}: {}", source_name, field, what));
  };
  if (partition >= shape.partitions)
    return fail("partition", fmt::format("{} is not below the {} partitions of {}", partition, shape.partitions, shape.name()));
  if (proof.apex_leafs.size() != shape.apex_leafs)
    return fail("apex_leafs", fmt::format("expected {} values, got {}", shape.apex_leafs, proof.apex_leafs.size()));
  if (proof.challenge_proofs.size() != shape.challenges)
    return fail("challenge_proofs", fmt::format("expected {} challenges, got {}", shape.challenges, proof.challenge_proofs.size()));

  const std::vector<size_t> r_arities = detail::tree_r_arities(shape);
  const MerkleProof::Kind r_kind = shape.tree_r.top ? MerkleProof::Kind::kTop
                                   : shape.tree_r.sub ? MerkleProof::Kind::kSub
                                                      : MerkleProof::Kind::kSingle;
  const auto check_shape = [&](const MerkleProof& p, const std::string& field, MerkleProof::Kind kind,
                               std::span<const size_t> arities) -> Expected<void> {
    if (p.kind != kind)
      return fail(field, fmt::format("a {} proof, expected {}", kProofVariants[size_t(p.kind)], kProofVariants[size_t(kind)]));
    if (p.path.size() != arities.size())
      return fail(field + ".path", fmt::format("expected {} elements, got {}", arities.size(), p.path.size()));
    for (size_t i = 0; i < arities.size(); ++i) {
      if (p.path[i].hashes.size() + 1 != arities[i])
        return fail(fmt::format("{}.path[{}].hashes", field, i),
                    fmt::format("expected {} values, got {}", arities[i] - 1, p.path[i].hashes.size()));
      if (p.path[i].index >= arities[i])
        return fail(fmt::format("{}.path[{}].index", field, i), fmt::format("{} is not below arity {}", p.path[i].index, arities[i]));
    }
    return {};
  };

  const ChallengeProof& first = proof.challenge_proofs.front();
  const ff::Fr root_r_old = first.proof_r_old.root, root_r_new = first.proof_r_new.root;
  const auto poseidon2 = [&](const ff::Fr& a, const ff::Fr& b) {
    const std::array<ff::Fr, 2> pre = {a, b};
    return gadgets::poseidon_hash(poseidon.merkle2(), pre);
  };
  if (poseidon2(proof.comm_c, root_r_old) != pub.comm_r_old)
    return fail("challenge_proofs[0].proof_r_old.root", "Poseidon(comm_c, root) differs from comm_r_old");
  if (poseidon2(proof.comm_c, root_r_new) != pub.comm_r_new)
    return fail("challenge_proofs[0].proof_r_new.root", "Poseidon(comm_c, root) differs from comm_r_new");

  // The apex tree over this partition's apex leafs: rows[l] is the tree D row abl − l levels below
  // the partition's subtree root.
  std::vector<std::vector<ff::Fr>> apex_rows = {proof.apex_leafs};
  while (apex_rows.back().size() > 1) {
    const std::vector<ff::Fr>& row = apex_rows.back();
    std::vector<ff::Fr> next;
    for (size_t i = 0; i + 1 < row.size(); i += 2) next.push_back(gadgets::Sha256TreeHash::native(std::span(&row[i], 2)));
    apex_rows.push_back(std::move(next));
  }

  const std::vector<uint64_t> challenges = partition_challenges(shape, poseidon, pub.comm_r_new, partition);
  const ff::Fr phi_value = phi(poseidon, pub.comm_d_new, pub.comm_r_old);
  const std::vector<size_t> d_arities(shape.challenge_bits(), 2);
  const size_t below_apex = shape.tree_d_levels_below_apex();
  // The roots of every well-shaped tree R path (old and new, per challenge), hashed together
  // level by level (porep/path_roots.hpp: eight lanes of IFMA where the CPU has it); the loop
  // below checks in its order and reads a root only after that path's shape passed.
  std::vector<const MerkleProof*> r_paths;
  std::vector<size_t> r_root_at(2 * challenges.size(), 0);
  for (size_t c = 0; c < challenges.size(); ++c) {
    const ChallengeProof& cp = proof.challenge_proofs[c];
    for (size_t k = 0; k < 2; ++k) {
      const MerkleProof& p = k == 0 ? cp.proof_r_old : cp.proof_r_new;
      if (!check_shape(p, "", r_kind, r_arities)) continue;
      r_root_at[2 * c + k] = r_paths.size();
      r_paths.push_back(&p);
    }
  }
  const std::vector<ff::Fr> r_roots = porep::poseidon_path_roots(poseidon, r_paths);
  for (size_t c = 0; c < challenges.size(); ++c) {
    const ChallengeProof& cp = proof.challenge_proofs[c];
    const std::string field = fmt::format("challenge_proofs[{}]", c);
    const struct {
      const MerkleProof& p;
      const char* name;
      MerkleProof::Kind kind;
      std::span<const size_t> arities;
      ff::Fr root;
    } proofs[3] = {{cp.proof_r_old, "proof_r_old", r_kind, r_arities, root_r_old},
                   {cp.proof_d_new, "proof_d_new", MerkleProof::Kind::kSingle, d_arities, pub.comm_d_new},
                   {cp.proof_r_new, "proof_r_new", r_kind, r_arities, root_r_new}};
    std::vector<ff::Fr> d_nodes;
    for (const auto& t : proofs) {
      const std::string pf = field + "." + t.name;
      const bool tree_d = &t.p == &cp.proof_d_new;
      if (auto ok = check_shape(t.p, pf, t.kind, t.arities); !ok) return ok.error();
      if (leaf_index(t.p) != challenges[c])
        return fail(pf + ".path", fmt::format("the indices spell leaf {}, the challenge is {}", leaf_index(t.p), challenges[c]));
      if (t.p.root != t.root)
        return fail(pf + ".root", tree_d ? "differs from comm_d_new" : "differs from challenge 0's root");
      if (tree_d) {
        d_nodes = nodes_of(t.p, [](std::span<const ff::Fr> g) { return gadgets::Sha256TreeHash::native(g); });
        if (d_nodes.back() != t.p.root) return fail(pf + ".path", "does not hash to the root");
      } else {
        const ff::Fr& root = r_roots[r_root_at[2 * c + (&t.p == &cp.proof_r_old ? 0 : 1)]];
        if (root != t.p.root) return fail(pf + ".path", "does not hash to the root");
      }
    }
    const uint64_t high = challenges[c] >> (shape.challenge_bits() - shape.h);
    if (cp.proof_r_old.leaf + cp.proof_d_new.leaf * rho(poseidon, phi_value, high) != cp.proof_r_new.leaf)
      return fail(field + ".proof_r_new.leaf", "is not leaf_r_old + leaf_d_new · rho(c_high) (the encoding)");
    // The tree D path through the apex rows: its node at the apex row is an apex leaf, its
    // siblings above are the apex tree's nodes (so every apex leaf is checked).
    const uint64_t in_partition = challenges[c] & ((uint64_t{1} << shape.random_bits()) - 1);
    if (d_nodes[below_apex] != apex_rows[0][in_partition >> below_apex])
      return fail(field + ".proof_d_new", fmt::format("its node at level {} is not apex leaf {}", below_apex,
                                                      in_partition >> below_apex));
    for (size_t l = 0; l < apex_rows.size() - 1; ++l) {
      const uint64_t at = (in_partition >> (below_apex + l)) ^ 1;  // the sibling's position in the row
      if (cp.proof_d_new.path[below_apex + l].hashes[0] != apex_rows[l][at])
        return fail(fmt::format("{}.proof_d_new.path[{}]", field, below_apex + l), "does not meet the partition's apex leafs");
    }
  }
  return {};
}

}  // namespace cuzk::snap
