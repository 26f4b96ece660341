#include "post/circuit.hpp"

#include <algorithm>
#include <bit>
#include <numeric>
#include <string>

#include "core/error.hpp"
#include "gadgets/poseidon_batch.hpp"
#include "porep/path_roots.hpp"
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

std::vector<gadgets::PoseidonTraces> sector_traces(const PostPoseidon& poseidon, std::span<const SectorWitness> sectors) {
  using gadgets::PoseidonConstants;
  std::vector<gadgets::PoseidonTraces> traces(sectors.size());
  std::vector<size_t> traced;  // the sectors whose paths fit
  size_t levels = 0;
  for (size_t s = 0; s < sectors.size(); ++s) {
    std::vector<const PoseidonConstants*> hashes = {&poseidon.arity(2)};
    bool ok = true;
    for (const porep::MerkleProof& p : sectors[s].inclusions) {
      for (const porep::PathElement& e : p.path) {
        ok = ok && porep::poseidon_element_fits(e);
        if (ok) hashes.push_back(&poseidon.arity(e.hashes.size() + 1));
      }
      levels = std::max(levels, p.path.size());
    }
    if (!ok) continue;
    traces[s] = gadgets::PoseidonTraces(hashes);
    traced.push_back(s);
  }
  // Where each path's level-l hash sits in its sector's entries, and the node it climbs from.
  struct Path {
    size_t sector, first_entry;
    const porep::MerkleProof* proof;
    ff::Fr node;
  };
  std::vector<Path> paths;
  std::vector<ff::Fr> preimages;
  std::vector<ff::Fr*> out;
  {  // comm_r = Poseidon2(comm_c, comm_r_last), entry 0 of every sector
    for (size_t s : traced) {
      const std::span<ff::Fr> pre = traces[s].preimage(0);
      pre[0] = sectors[s].comm_c;
      pre[1] = sectors[s].comm_r_last;
      preimages.insert(preimages.end(), pre.begin(), pre.end());
      out.push_back(traces[s].values(0).data());
      size_t entry = 1;
      for (const porep::MerkleProof& p : sectors[s].inclusions) {
        paths.push_back({s, entry, &p, p.leaf});
        entry += p.path.size();
      }
    }
    poseidon.batch(2).trace(preimages, out);
  }
  for (size_t l = 0; l < levels; ++l) {
    for (size_t arity : {size_t{2}, size_t{4}, size_t{8}}) {
      preimages.clear();
      out.clear();
      std::vector<Path*> climbing;
      for (Path& p : paths) {
        if (p.proof->path.size() <= l || p.proof->path[l].hashes.size() + 1 != arity) continue;
        const size_t at = preimages.size();
        porep::append_inserted(p.proof->path[l], p.node, preimages);
        const std::span<ff::Fr> pre = traces[p.sector].preimage(p.first_entry + l);
        std::copy(preimages.begin() + static_cast<std::ptrdiff_t>(at), preimages.end(), pre.begin());
        out.push_back(traces[p.sector].values(p.first_entry + l).data());
        climbing.push_back(&p);
      }
      if (climbing.empty()) continue;
      poseidon.batch(arity).trace(preimages, out);
      for (size_t k = 0; k < climbing.size(); ++k)
        climbing[k]->node = traces[climbing[k]->sector].values(climbing[k]->first_entry + l).back();
    }
  }
  return traces;
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
  const size_t group = gadgets::PoseidonBatch::kLanes / std::gcd(gadgets::PoseidonBatch::kLanes, shape.challenge_count);
  const auto sectors_of = [&](size_t g) {
    const size_t first = g * group;
    std::vector<gadgets::PoseidonTraces> traces = sector_traces(poseidon, sectors.subspan(first, std::min(group, n - first)));
    for (size_t j = 0; j < traces.size(); ++j) {
      const size_t k = first + j;
      r1cs::WitnessCS<ff::Fr> cs(aux.subspan(k * share, share));
      synthesize_sector(cs, shape, poseidon, sectors[k], k, &traces[j]);
      if (cs.num_aux() != share || cs.inputs().size() != 1 + in_share)
        throw r1cs::SynthesisError("post witness: sector " + std::to_string(k) + " allocated " +
                                   std::to_string(cs.num_aux()) + " aux variables, not " + std::to_string(share));
      std::copy(cs.inputs().begin() + 1, cs.inputs().end(), z.begin() + 1 + k * in_share);
    }
  };
  const size_t groups = (n + group - 1) / group;
  if (pool != nullptr) {
    pool->for_each_index(groups, sectors_of);
  } else {
    for (size_t g = 0; g < groups; ++g) sectors_of(g);
  }
  z[0] = ff::Fr::one();
}

}  // namespace cuzk::post
