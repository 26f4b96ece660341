#include "post/circuit.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "core/error.hpp"
#include "r1cs/keygen_cs.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::post {

Expected<std::vector<SectorWitness>> circuit_sectors(const PostParams& params,
                                                     std::span<const FallbackPoStSectorProof> proofs) {
  if (proofs.empty()) return Error{ErrorCode::kInvalidArgument, "no vanilla proofs"};
  for (const FallbackPoStSectorProof& p : proofs)
    if (p.sectors.size() != 1)
      return Error{ErrorCode::kInvalidArgument, "vanilla proof of sector " + std::to_string(p.sector_id) +
                                                    ": expected 1 SectorProof"};
  std::vector<SectorWitness> out;
  if (params.kind == PostKind::kWinning) {
    if (proofs.size() != 1)
      return Error{ErrorCode::kInvalidArgument, "WinningPoSt proves one sector, got " + std::to_string(proofs.size()) +
                                                    " vanilla proofs"};
    const SectorProof& sp = proofs[0].sectors[0];
    for (size_t n = 0; n < sp.inclusion_proofs.size(); ++n)
      out.push_back({proofs[0].comm_r, sp.comm_c, sp.comm_r_last, std::span(sp.inclusion_proofs).subspan(n, 1)});
    return out;
  }
  if (proofs.size() > params.sector_count)
    return Error{ErrorCode::kInvalidArgument, std::to_string(proofs.size()) + " vanilla proofs, a partition holds " +
                                                  std::to_string(params.sector_count)};
  for (const FallbackPoStSectorProof& p : proofs)
    out.push_back({p.comm_r, p.sectors[0].comm_c, p.sectors[0].comm_r_last, p.sectors[0].inclusion_proofs});
  while (out.size() < params.sector_count) out.push_back(out.back());
  return out;
}

std::vector<porep::MerkleProof> blank_inclusions(const PostCircuitShape& shape) {
  const gadgets::MerkleShape& t = shape.tree;
  const uint64_t trees = (t.sub ? t.sub : 1) * (t.top ? t.top : 1);
  if (!std::has_single_bit(shape.nodes) || shape.nodes % trees != 0 || !std::has_single_bit(t.base) || t.base < 2)
    throw Exception(invalid_argument("blank_inclusions: nodes and tree shape do not fit"));
  const size_t base_levels = static_cast<size_t>(std::countr_zero(shape.nodes / trees)) /
                             static_cast<size_t>(std::countr_zero(t.base));
  porep::MerkleProof proof;
  proof.root = proof.leaf = ff::Fr::zero();
  proof.path.assign(base_levels, porep::PathElement{std::vector<ff::Fr>(t.base - 1, ff::Fr::zero()), 0});
  proof.kind = porep::MerkleProof::Kind::kSingle;
  if (t.sub) {
    proof.path.push_back(porep::PathElement{std::vector<ff::Fr>(t.sub - 1, ff::Fr::zero()), 0});
    proof.kind = porep::MerkleProof::Kind::kSub;
  }
  if (t.top) {
    proof.path.push_back(porep::PathElement{std::vector<ff::Fr>(t.top - 1, ff::Fr::zero()), 0});
    proof.kind = porep::MerkleProof::Kind::kTop;
  }
  return std::vector<porep::MerkleProof>(shape.challenge_count, proof);
}

r1cs::CompiledR1cs<ff::Fr> compile_partition(const PostCircuitShape& shape, const PostPoseidon& poseidon,
                                             ThreadPool* pool, Progress* progress) {
  const ff::Fr z = ff::Fr::zero();
  const std::vector<porep::MerkleProof> blank = blank_inclusions(shape);
  const SectorWitness sector{z, z, z, blank};
  const std::vector<SectorWitness> sectors(shape.sector_count, sector);
  const auto advance = [progress](uint64_t n) {
    if (progress != nullptr) progress->advance(n);
  };
  if (pool == nullptr || pool->threads() == 1 || sectors.size() < 2) {
    r1cs::KeygenCS<ff::Fr> cs;
    synthesize_partition(cs, shape, poseidon, sectors);
    advance(sectors.size());
    return std::move(cs).finish();
  }
  // The sectors in parts of their own after ONE (KeygenCS::record_units).
  return r1cs::KeygenCS<ff::Fr>::record_units(std::vector<r1cs::KeygenCS<ff::Fr>>(1), sectors.size(), *pool,
                                              [&](r1cs::KeygenCS<ff::Fr>& cs, size_t k) {
                                                synthesize_sector(cs, shape, poseidon, sectors[k], k);
                                                advance(1);
                                              });
}

void synthesize_partition_witness(const PostCircuitShape& shape, const PostPoseidon& poseidon,
                                  std::span<const SectorWitness> sectors, std::span<ff::Fr> z, size_t num_inputs,
                                  ThreadPool* pool) {
  const size_t n = sectors.size();
  if (n != shape.sector_count || n == 0)
    throw r1cs::SynthesisError("post witness: " + std::to_string(n) + " circuit sectors, the partition has " +
                               std::to_string(shape.sector_count));
  if (num_inputs != 1 + n * (1 + shape.challenge_count) || num_inputs > z.size())
    throw r1cs::SynthesisError("post witness: " + std::to_string(num_inputs) + " inputs do not fit the partition or z");
  const std::span<ff::Fr> aux = z.subspan(num_inputs);
  if (aux.size() % n != 0)
    throw r1cs::SynthesisError("post witness: " + std::to_string(aux.size()) + " aux variables do not split into " +
                               std::to_string(n) + " sectors");
  const size_t share = aux.size() / n, in_share = 1 + shape.challenge_count;
  const auto sector = [&](size_t k) {
    r1cs::WitnessCS<ff::Fr> cs(aux.subspan(k * share, share));
    synthesize_sector(cs, shape, poseidon, sectors[k], k);
    if (cs.num_aux() != share || cs.inputs().size() != 1 + in_share)
      throw r1cs::SynthesisError("post witness: sector " + std::to_string(k) + " allocated " +
                                 std::to_string(cs.num_aux()) + " aux variables, not " + std::to_string(share));
    std::copy(cs.inputs().begin() + 1, cs.inputs().end(), z.begin() + 1 + k * in_share);
  };
  if (pool != nullptr) {
    pool->for_each_index(n, sector);
  } else {
    for (size_t k = 0; k < n; ++k) sector(k);
  }
  z[0] = ff::Fr::one();
}

}  // namespace cuzk::post
