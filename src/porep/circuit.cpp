#include "porep/circuit.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "core/error.hpp"
#include "r1cs/keygen_cs.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::porep {

namespace {

MerkleProof blank_proof(size_t levels, size_t arity) {
  MerkleProof proof;
  proof.root = proof.leaf = ff::Fr::zero();
  proof.path.assign(levels, PathElement{std::vector<ff::Fr>(arity - 1, ff::Fr::zero()), 0});
  return proof;
}

}  // namespace

PartitionWitness partition_witness(const C1& c1, size_t partition) {
  if (partition >= c1.partitions.size() || c1.partitions[partition].empty())
    throw Exception(invalid_argument("C1 has no partition " + std::to_string(partition)));
  const std::vector<ChallengeProof>& proofs = c1.partitions[partition];
  const auto fr = [](const std::array<uint8_t, 32>& bytes) { return ff::Fr::from_bytes_le(bytes).value(); };
  return PartitionWitness{fr(c1.replica_id), fr(c1.comm_d), fr(c1.comm_r), proofs.front().comm_r_last_proof.root,
                          proofs.front().c_x.inclusion.root, proofs};
}

std::vector<ChallengeProof> blank_challenges(const StackedCircuitShape& shape) {
  const gadgets::MerkleShape& t = shape.tree_rc;
  const uint64_t trees = (t.sub ? t.sub : 1) * (t.top ? t.top : 1);
  if (!std::has_single_bit(shape.nodes) || shape.nodes % trees != 0 || !std::has_single_bit(t.base) || t.base < 2)
    throw Exception(invalid_argument("blank_challenges: nodes and tree shape do not fit"));
  const size_t d_levels = static_cast<size_t>(std::countr_zero(shape.nodes));
  const size_t base_levels = static_cast<size_t>(std::countr_zero(shape.nodes / trees)) /
                             static_cast<size_t>(std::countr_zero(t.base));
  MerkleProof rc = blank_proof(base_levels, t.base);
  rc.kind = MerkleProof::Kind::kSingle;
  if (t.sub) {
    rc.path.push_back(PathElement{std::vector<ff::Fr>(t.sub - 1, ff::Fr::zero()), 0});
    rc.kind = MerkleProof::Kind::kSub;
  }
  if (t.top) {
    rc.path.push_back(PathElement{std::vector<ff::Fr>(t.top - 1, ff::Fr::zero()), 0});
    rc.kind = MerkleProof::Kind::kTop;
  }
  ColumnProof column{0, std::vector<ff::Fr>(shape.layers, ff::Fr::zero()), rc};
  ChallengeProof proof;
  proof.comm_d_proof = blank_proof(d_levels, 2);
  proof.comm_r_last_proof = rc;
  proof.c_x = column;
  proof.drg_parents.assign(kDrgParents, column);
  proof.exp_parents.assign(kExpanderParents, column);
  return std::vector<ChallengeProof>(shape.challenges, proof);
}

void synthesize_partition_witness(const StackedCircuitShape& shape, const PorepPoseidon& poseidon,
                                  const PartitionWitness& w, std::span<ff::Fr> z, size_t num_inputs, ThreadPool* pool) {
  if (num_inputs == 0 || num_inputs > z.size())
    throw r1cs::SynthesisError("porep witness: " + std::to_string(num_inputs) + " inputs do not fit z of " +
                               std::to_string(z.size()));
  const std::span<ff::Fr> aux = z.subspan(num_inputs);
  r1cs::WitnessCS<ff::Fr> head_cs(aux);
  const PartitionHead head = synthesize_partition_head(head_cs, poseidon, w);
  const size_t n = w.challenges.size(), head_aux = head_cs.num_aux();
  if (n == 0 || (aux.size() - head_aux) % n != 0)
    throw r1cs::SynthesisError("porep witness: " + std::to_string(aux.size() - head_aux) +
                               " aux variables after the head do not split into " + std::to_string(n) + " challenges");
  const size_t share = (aux.size() - head_aux) / n;  // every challenge allocates as many

  // Challenge k writes its aux into [head_aux + k·share, + share); its inputs (after its own ONE)
  // are gathered below.
  std::vector<std::vector<ff::Fr>> inputs(n);
  const auto challenge = [&](size_t k) {
    r1cs::WitnessCS<ff::Fr> cs(aux.subspan(head_aux + k * share, share));
    synthesize_challenge(cs, shape, poseidon, head, w.challenges[k], k);
    if (cs.num_aux() != share)
      throw r1cs::SynthesisError("porep witness: challenge " + std::to_string(k) + " allocated " +
                                 std::to_string(cs.num_aux()) + " aux variables, not " + std::to_string(share));
    inputs[k].assign(cs.inputs().begin() + 1, cs.inputs().end());
  };
  if (pool != nullptr) {
    pool->for_each_index(n, challenge);
  } else {
    for (size_t k = 0; k < n; ++k) challenge(k);
  }

  std::vector<ff::Fr> all = head_cs.inputs();
  for (const auto& in : inputs) all.insert(all.end(), in.begin(), in.end());
  if (all.size() != num_inputs)
    throw r1cs::SynthesisError("porep witness: the partition has " + std::to_string(all.size()) + " inputs, not " +
                               std::to_string(num_inputs));
  std::copy(all.begin(), all.end(), z.begin());
}

r1cs::CompiledR1cs<ff::Fr> compile_partition(const StackedCircuitShape& shape, const PorepPoseidon& poseidon,
                                             ThreadPool* pool, Progress* progress) {
  const ff::Fr z = ff::Fr::zero();
  const std::vector<ChallengeProof> blank = blank_challenges(shape);
  const PartitionWitness w{z, z, z, z, z, blank};
  const auto advance = [progress](uint64_t n) {
    if (progress != nullptr) progress->advance(n);
  };
  if (pool == nullptr || pool->threads() == 1 || w.challenges.size() < 2) {
    r1cs::KeygenCS<ff::Fr> cs;
    synthesize_partition(cs, shape, poseidon, w);
    advance(w.challenges.size());
    return std::move(cs).finish();
  }
  // The head, then the challenges in parts of their own (KeygenCS::record_units).
  std::vector<r1cs::KeygenCS<ff::Fr>> parts(1);
  const PartitionHead head = synthesize_partition_head(parts[0], poseidon, w);
  return r1cs::KeygenCS<ff::Fr>::record_units(std::move(parts), w.challenges.size(), *pool,
                                              [&](r1cs::KeygenCS<ff::Fr>& cs, size_t k) {
                                                synthesize_challenge(cs, shape, poseidon, head, w.challenges[k], k);
                                                advance(1);
                                              });
}

}  // namespace cuzk::porep
