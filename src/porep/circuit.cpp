#include "porep/circuit.hpp"

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

PartitionZ synthesize_partition_witness(const StackedCircuitShape& shape, const PorepPoseidon& poseidon,
                                        const PartitionWitness& w, ThreadPool& pool, size_t aux_hint) {
  r1cs::WitnessCS<ff::Fr> head_cs;
  const PartitionHead head = synthesize_partition_head(head_cs, poseidon, w);
  std::vector<r1cs::WitnessCS<ff::Fr>> parts(w.challenges.size());
  const size_t share = aux_hint > head_cs.aux().size() && !parts.empty()
                           ? (aux_hint - head_cs.aux().size()) / parts.size()
                           : 0;
  pool.for_each_index(parts.size(), [&](size_t k) {
    parts[k].reserve(0, share);
    synthesize_challenge(parts[k], shape, poseidon, head, w.challenges[k], k);
  });

  // Concatenation: the head's then each challenge's (their inputs()[0] is their own ONE: skipped).
  PartitionZ z;
  size_t n_in = head_cs.inputs().size(), n_aux = head_cs.aux().size();
  std::vector<size_t> aux_at;  // where each challenge's aux starts
  for (const auto& p : parts) {
    aux_at.push_back(n_aux);
    n_in += p.inputs().size() - 1;
    n_aux += p.aux().size();
  }
  z.inputs = head_cs.take_inputs();
  z.inputs.reserve(n_in);
  for (const auto& p : parts) z.inputs.insert(z.inputs.end(), p.inputs().begin() + 1, p.inputs().end());
  z.aux.resize(n_aux);
  std::copy(head_cs.aux().begin(), head_cs.aux().end(), z.aux.begin());
  pool.for_each_index(parts.size(), [&](size_t k) {
    std::copy(parts[k].aux().begin(), parts[k].aux().end(), z.aux.begin() + ptrdiff_t(aux_at[k]));
    parts[k] = {};  // its memory goes as soon as it is copied
  });
  return z;
}

r1cs::CompiledR1cs<ff::Fr> compile_partition(const StackedCircuitShape& shape, const PorepPoseidon& poseidon) {
  r1cs::KeygenCS<ff::Fr> cs;
  const ff::Fr z = ff::Fr::zero();
  synthesize_partition(cs, shape, poseidon, PartitionWitness{z, z, z, z, z, blank_challenges(shape)});
  return std::move(cs).finish();
}

}  // namespace cuzk::porep
