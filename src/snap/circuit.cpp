#include "snap/circuit.hpp"

#include <string>

#include "r1cs/keygen_cs.hpp"
#include "r1cs/witness_cs.hpp"

namespace cuzk::snap {

namespace {

MerkleProof blank_tree_r_proof(const UpdateShape& shape) {
  MerkleProof proof;
  proof.root = proof.leaf = ff::Fr::zero();
  for (size_t arity : detail::tree_r_arities(shape)) {
    proof.path.push_back(PathElement{std::vector<ff::Fr>(arity - 1, ff::Fr::zero()), 0});
  }
  proof.kind = shape.tree_r.top ? MerkleProof::Kind::kTop : shape.tree_r.sub ? MerkleProof::Kind::kSub
                                                                             : MerkleProof::Kind::kSingle;
  return proof;
}

}  // namespace

PartitionProof blank_partition_proof(const UpdateShape& shape) {
  ChallengeProof c;
  c.proof_r_old = c.proof_r_new = blank_tree_r_proof(shape);
  c.proof_d_new.root = c.proof_d_new.leaf = ff::Fr::zero();
  c.proof_d_new.path.assign(shape.challenge_bits(), PathElement{{ff::Fr::zero()}, 0});
  PartitionProof p;
  p.comm_c = ff::Fr::zero();
  p.apex_leafs.assign(shape.apex_leafs, ff::Fr::zero());
  p.challenge_proofs.assign(shape.challenges, c);
  return p;
}

r1cs::CompiledR1cs<ff::Fr> compile_partition(const UpdateShape& shape, const UpdatePoseidon& poseidon,
                                             ThreadPool* pool, Progress* progress) {
  const PartitionProof blank = blank_partition_proof(shape);
  const PartitionWitness w{0, ff::Fr::zero(), ff::Fr::zero(), ff::Fr::zero(), &blank};
  const auto advance = [progress](uint64_t n) {
    if (progress != nullptr) progress->advance(n);
  };
  const std::vector<ChallengeProof>& challenges = blank.challenge_proofs;
  if (pool == nullptr || pool->threads() == 1 || challenges.size() < 2) {
    r1cs::KeygenCS<ff::Fr> cs;
    synthesize_partition(cs, shape, poseidon, w);
    advance(challenges.size());
    return std::move(cs).finish();
  }
  // The head, then the challenges in parts of their own (KeygenCS::record_units).
  std::vector<r1cs::KeygenCS<ff::Fr>> parts(1);
  const PartitionHead head = synthesize_partition_head(parts[0], shape, poseidon, w);
  return r1cs::KeygenCS<ff::Fr>::record_units(std::move(parts), challenges.size(), *pool,
                                              [&](r1cs::KeygenCS<ff::Fr>& cs, size_t k) {
                                                synthesize_challenge(cs, shape, poseidon, head, challenges[k], k);
                                                advance(1);
                                              });
}

void synthesize_partition_witness(const UpdateShape& shape, const UpdatePoseidon& poseidon, const PartitionWitness& w,
                                  std::span<ff::Fr> z, size_t num_inputs, ThreadPool* pool) {
  if (num_inputs == 0 || num_inputs > z.size())
    throw r1cs::SynthesisError("snap witness: " + std::to_string(num_inputs) + " inputs do not fit z of " +
                               std::to_string(z.size()));
  if (w.proof == nullptr || w.proof->challenge_proofs.size() != shape.challenges)
    throw r1cs::SynthesisError("snap witness: the partition proof does not have the shape's challenges");
  const std::span<ff::Fr> aux = z.subspan(num_inputs);
  r1cs::WitnessCS<ff::Fr> head_cs(aux);
  const PartitionHead head = synthesize_partition_head(head_cs, shape, poseidon, w);
  const size_t n = shape.challenges, head_aux = head_cs.num_aux();
  if (head_cs.inputs().size() != num_inputs || (aux.size() - head_aux) % n != 0)
    throw r1cs::SynthesisError("snap witness: the partition does not fill z of " + std::to_string(num_inputs) +
                               " inputs and " + std::to_string(aux.size()) + " aux");
  const size_t share = (aux.size() - head_aux) / n;  // every challenge allocates as many
  const auto challenge = [&](size_t c) {
    r1cs::WitnessCS<ff::Fr> cs(aux.subspan(head_aux + c * share, share));
    synthesize_challenge(cs, shape, poseidon, head, w.proof->challenge_proofs[c], c);
    if (cs.num_aux() != share || cs.inputs().size() != 1)
      throw r1cs::SynthesisError("snap witness: challenge " + std::to_string(c) + " allocated " +
                                 std::to_string(cs.num_aux()) + " aux variables, not " + std::to_string(share));
  };
  if (pool != nullptr) {
    pool->for_each_index(n, challenge);
  } else {
    for (size_t c = 0; c < n; ++c) challenge(c);
  }
  std::copy(head_cs.inputs().begin(), head_cs.inputs().end(), z.begin());
}

}  // namespace cuzk::snap
