#include "post/synthetic_vanilla.hpp"

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <utility>

#include "gadgets/poseidon.hpp"

namespace cuzk::post {

namespace {

using ff::Fr;

Bytes32 draw_bytes(std::mt19937_64& rng) {
  Bytes32 out{};
  for (size_t w = 0; w < 4; ++w) {
    const uint64_t x = rng();
    for (size_t i = 0; i < 8; ++i) out[8 * w + i] = static_cast<uint8_t>(x >> (8 * i));
  }
  out[31] &= 0x3f;  // below 2^254: a canonical field element
  return out;
}

Fr draw_fr(std::mt19937_64& rng) { return Fr::from_bytes_le(draw_bytes(rng)).value(); }

// A tree whose only non-default leaves are a few given ones; a node is its level's default hash
// unless a given leaf lies below it. Levels may differ in arity (base levels, then sub and top).
class SparseTree {
 public:
  SparseTree(std::vector<uint32_t> arities, const std::map<uint64_t, Fr>& leaves, const gadgets::PoseidonTreeHash& hash)
      : arities_(std::move(arities)) {
    defaults_.push_back(Fr::zero());
    levels_.push_back(leaves);
    for (const uint32_t arity : arities_) {
      std::map<uint64_t, Fr> above;
      const std::map<uint64_t, Fr>& below = levels_.back();
      const Fr child_default = defaults_.back();
      for (const auto& [index, value] : below) {
        const uint64_t parent = index / arity;
        if (above.contains(parent)) continue;
        std::vector<Fr> children(arity, child_default);
        for (auto it = below.lower_bound(parent * arity); it != below.end() && it->first < (parent + 1) * arity; ++it)
          children[it->first % arity] = it->second;
        above.emplace(parent, hash.native(children));
      }
      defaults_.push_back(hash.native(std::vector<Fr>(arity, child_default)));
      levels_.push_back(std::move(above));
    }
  }

  Fr root() const { return at(arities_.size(), 0); }

  porep::MerkleProof proof(uint64_t leaf, porep::MerkleProof::Kind kind) const {
    porep::MerkleProof p;
    p.kind = kind;
    p.root = root();
    p.leaf = at(0, leaf);
    uint64_t index = leaf;
    for (size_t level = 0; level < arities_.size(); ++level) {
      const uint32_t arity = arities_[level];
      porep::PathElement el;
      el.index = static_cast<uint32_t>(index % arity);
      for (uint64_t j = index - index % arity; j < index - index % arity + arity; ++j)
        if (j != index) el.hashes.push_back(at(level, j));
      p.path.push_back(std::move(el));
      index /= arity;
    }
    return p;
  }

 private:
  Fr at(size_t level, uint64_t index) const {
    const auto it = levels_[level].find(index);
    return it != levels_[level].end() ? it->second : defaults_[level];
  }

  std::vector<uint32_t> arities_;
  std::vector<Fr> defaults_;
  std::vector<std::map<uint64_t, Fr>> levels_;
};

}  // namespace

PostPublicData SyntheticVanilla::public_data() const {
  PostPublicData d;
  d.proof = proof;
  d.randomness = randomness;
  for (const FallbackPoStSectorProof& p : proofs) {
    PublicSector s;
    s.sector_id = p.sector_id;
    p.comm_r.to_bytes_le(s.comm_r);
    d.sectors.push_back(s);
  }
  return d;
}

Expected<SyntheticVanilla> generate_synthetic_vanilla(const SyntheticVanillaOptions& options,
                                                      const PostPoseidon& poseidon, ThreadPool& pool) {
  PostParams params;
  CUZK_TRY_ASSIGN(params, post_params(options.proof));
  const uint32_t sectors =
      options.sectors != 0 ? options.sectors : params.kind == PostKind::kWinning ? 1 : params.sector_count;
  if (params.kind == PostKind::kWinning && sectors != 1)
    return Error{ErrorCode::kInvalidArgument, "WinningPoSt proves one sector, not " + std::to_string(sectors)};
  SyntheticVanilla out;
  out.proof = options.proof;
  std::mt19937_64 rng(options.seed);
  out.randomness = options.randomness ? *options.randomness : draw_bytes(rng);
  if (!Fr::from_bytes_le(out.randomness))
    return Error{ErrorCode::kInvalidArgument, "randomness: not a canonical field element"};

  const porep::SectorShape& s = params.sector;
  std::vector<uint32_t> arities(s.base_path_len(), s.base_arity);
  if (s.sub_arity) arities.push_back(s.sub_arity);
  if (s.top_arity) arities.push_back(s.top_arity);
  const porep::MerkleProof::Kind kind = s.top_arity   ? porep::MerkleProof::Kind::kTop
                                        : s.sub_arity ? porep::MerkleProof::Kind::kSub
                                                      : porep::MerkleProof::Kind::kSingle;
  const gadgets::PoseidonTreeHash hash = poseidon.tree_hash();
  out.proofs.resize(sectors);
  pool.for_each_index(sectors, [&](size_t i) {
    std::mt19937_64 g(options.seed * 0x9e3779b97f4a7c15ull + i + 1);
    FallbackPoStSectorProof& p = out.proofs[i];
    p.sector_id = options.first_sector_id + i;
    const std::vector<uint64_t> challenges = vanilla_challenges(options.proof, out.randomness, p.sector_id, i);
    std::map<uint64_t, Fr> leaves;
    for (const uint64_t c : challenges)
      if (!leaves.contains(c)) leaves.emplace(c, draw_fr(g));
    const SparseTree tree(arities, leaves, hash);
    SectorProof sp;
    sp.comm_c = draw_fr(g);
    sp.comm_r_last = tree.root();
    for (const uint64_t c : challenges) {
      sp.inclusion_proofs.push_back(tree.proof(c, kind));
      sp.layout.push_back({0, s.base_path_len(), s.sub_arity ? 1u : 0u, s.top_arity ? 1u : 0u});
    }
    const std::array<Fr, 2> pair = {sp.comm_c, sp.comm_r_last};
    p.comm_r = gadgets::poseidon_hash(poseidon.arity(2), pair);
    p.sectors.push_back(std::move(sp));
  });
  std::vector<std::optional<Error>> errors(out.proofs.size());
  pool.for_each_index(out.proofs.size(), [&](size_t i) {
    if (auto ok = validate(out.proofs[i], out.proof, out.randomness, i, poseidon, "synthetic sector " + std::to_string(i));
        !ok)
      errors[i] = ok.error();
  });
  for (const std::optional<Error>& e : errors)
    if (e) return *e;
  return out;
}

}  // namespace cuzk::post
