#pragma once
// The FallbackPoSt circuit of one partition (storage-proofs-post fallback/circuit.rs
// FallbackPoStCircuit::synthesize, rust-fil-proofs @87348a74), which WindowPoSt and WinningPoSt
// share, in bellperson's variable and row order (shared/SPEC-POST.md §3):
//   per sector, in order: comm_r_last, comm_c (aux); comm_r (aux, inputized);
//   comm_r = Poseidon2(comm_c, comm_r_last); per challenge: the leaf (aux) and its tree-R
//   inclusion (por.hpp: index bits, siblings, insert, Poseidon per level; the packed index is one
//   public input; computed root = comm_r_last).
// Sectors share no variable but ONE, so a sector's aux and inputs do not depend on where it is
// synthesised: the witness-only path (synthesize_partition_witness) and compile_partition run the
// sectors in parallel, each into a range of its own.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/progress.hpp"
#include "core/thread_pool.hpp"
#include "ff/bls12_381.hpp"
#include "gadgets/num.hpp"
#include "gadgets/por.hpp"
#include "gadgets/poseidon_gadget.hpp"
#include "porep/c1.hpp"
#include "porep/circuit.hpp"
#include "post/registered.hpp"
#include "post/vanilla.hpp"
#include "r1cs/compiled.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::post {

// The circuit's shape: nodes per sector, tree R arities, sectors and challenges per partition.
struct PostCircuitShape {
  uint64_t nodes = 64;
  gadgets::MerkleShape tree{8, 0, 0};
  size_t sector_count = 2;
  size_t challenge_count = 10;
};

inline PostCircuitShape circuit_shape(const PostParams& p) {
  return {p.sector.nodes, gadgets::MerkleShape{p.sector.base_arity, p.sector.sub_arity, p.sector.top_arity},
          p.sector_count, p.challenge_count};
}

// One circuit sector: its commitments and its challenges' tree-R inclusion proofs (paths flattened
// leaf → root: base, sub, top; porep::MerkleProof's root is not read: the circuit uses comm_r_last).
struct SectorWitness {
  ff::Fr comm_r, comm_c, comm_r_last;
  std::span<const porep::MerkleProof> inclusions;
};

// The partition circuit's sectors from its validated vanilla proofs (ascending sector order):
// WindowPoSt: each proof's SectorProof, the last repeated up to sector_count (SPEC-POST.md §5);
// WinningPoSt: the one proof's 66 inclusion proofs as 66 one-challenge sectors. The result refers
// into `proofs`. Errors: no proofs, more than sector_count, WinningPoSt with more than one.
Expected<std::vector<SectorWitness>> circuit_sectors(const PostParams& params,
                                                     std::span<const FallbackPoStSectorProof> proofs);

// Sector::synthesize for circuit sector i. Throws r1cs::SynthesisError when the inclusion count
// differs from the shape's challenge count (por_inclusion throws for a path of the wrong shape).
// traces (witness-only backends): the sector's hashes computed ahead (sector_traces).
template <r1cs::ConstraintSystem CS>
void synthesize_sector(CS& cs, const PostCircuitShape& shape, const PostPoseidon& poseidon, const SectorWitness& w,
                       size_t i, gadgets::PoseidonTraces* traces = nullptr) {
  using Num = gadgets::AllocatedNum<ff::Fr>;
  using LC = r1cs::LinearCombination<ff::Fr>;
  const auto ns = [&cs](const std::string& name, auto fn) { return r1cs::in_namespace(cs, name, fn); };
  if (w.inclusions.size() != shape.challenge_count)
    throw r1cs::SynthesisError("post: sector " + std::to_string(i) + " has " + std::to_string(w.inclusions.size()) +
                               " inclusion proofs, the circuit " + std::to_string(shape.challenge_count));
  r1cs::Namespace sector_ns(cs, [i] { return "sector_" + std::to_string(i); });
  const Num comm_r_last = ns("comm_r_last", [&] { return Num::alloc(cs, w.comm_r_last); });
  const Num comm_c = ns("comm_c", [&] { return Num::alloc(cs, w.comm_c); });
  const Num comm_r = ns("comm_r", [&] { return Num::alloc(cs, w.comm_r); });
  ns("comm_r_input", [&] { return comm_r.inputize(cs); });
  {
    const std::array<Num, 2> pair = {comm_c, comm_r_last};  // hash2_circuit(comm_c, comm_r_last)
    const Num hash = ns("H_comm_c_comm_r_last", [&] {
      return gadgets::poseidon_hash_gadget(cs, poseidon.arity(2), std::span<const Num>(pair), traces);
    });
    // constraint::equal: comm_r · ONE = H
    cs.enforce("enforce_comm_r_equal", [&](LC lc) { return lc + comm_r.variable(); },
               [](LC lc) { return lc + CS::one(); }, [&](LC lc) { return lc + hash.variable(); });
  }
  const gadgets::PoseidonTreeHash tree_hash = poseidon.tree_hash().traced(traces);
  std::vector<gadgets::MerklePathElement<ff::Fr>> path;
  for (size_t n = 0; n < w.inclusions.size(); ++n) {
    r1cs::Namespace challenge_ns(cs, [n] { return "challenge_inclusion_" + std::to_string(n); });
    const porep::MerkleProof& proof = w.inclusions[n];
    const Num leaf = ns("leaf", [&] { return Num::alloc(cs, proof.leaf); });  // Root::Val(leaf).allocated()
    path.resize(proof.path.size());
    for (size_t l = 0; l < path.size(); ++l) path[l] = {proof.path[l].hashes, proof.path[l].index};
    gadgets::por_inclusion(cs, tree_hash, shape.tree, leaf,
                           std::span<const gadgets::MerklePathElement<ff::Fr>>(path), comm_r_last);
  }
}

// The whole partition: its circuit sectors in order (sector_count of them; padding already applied).
template <r1cs::ConstraintSystem CS>
void synthesize_partition(CS& cs, const PostCircuitShape& shape, const PostPoseidon& poseidon,
                          std::span<const SectorWitness> sectors) {
  if (sectors.size() != shape.sector_count)
    throw r1cs::SynthesisError("post: " + std::to_string(sectors.size()) + " circuit sectors, the partition has " +
                               std::to_string(shape.sector_count));
  for (size_t i = 0; i < sectors.size(); ++i) synthesize_sector(cs, shape, poseidon, sectors[i], i);
}

// challenge_count inclusion proofs of the shape's path with every value zero: what setup and
// constraint counting synthesise. Base levels: log_base(nodes / (sub·top)).
std::vector<porep::MerkleProof> blank_inclusions(const PostCircuitShape& shape);

// The partition circuit compiled (KeygenCS on blank sectors). With a pool, the sectors are
// recorded in parallel, each into a KeygenCS part, and joined (equal to the sequential compile).
// `progress` (when given) advances by one a sector recorded.
r1cs::CompiledR1cs<ff::Fr> compile_partition(const PostCircuitShape& shape, const PostPoseidon& poseidon,
                                             ThreadPool* pool = nullptr, Progress* progress = nullptr);

// The Poseidon hashes that synthesize_sector makes for each of `sectors`, in its order (comm_r's,
// then each challenge's path, leaf to root), computed ahead through PoseidonBatch::trace: each
// level of every path of the group in one batch per arity, eight lanes at a time (docs/PERF.md
// 35). One PoseidonTraces a sector; an empty one where a path element is not of arity 2, 4 or 8
// with its index inside (the synthesis then computes and refuses it as before).
std::vector<gadgets::PoseidonTraces> sector_traces(const PostPoseidon& poseidon, std::span<const SectorWitness> sectors);

// The partition's witness z = [inputs ‖ aux] (ONE first) into `z`, sized from the compiled circuit
// (num_inputs inputs, then the aux): the sectors in groups whose paths fill whole groups of eight
// lanes (4 WindowPoSt sectors of 10 paths, 8 WinningPoSt ones of 1), their hashes traced ahead
// (sector_traces), then each sector into its own range; the groups in parallel on `pool` when
// given. Equal to WitnessCS on synthesize_partition (tested). Throws r1cs::SynthesisError when the
// sectors do not fill z exactly.
void synthesize_partition_witness(const PostCircuitShape& shape, const PostPoseidon& poseidon,
                                  std::span<const SectorWitness> sectors, std::span<ff::Fr> z, size_t num_inputs,
                                  ThreadPool* pool = nullptr);

}  // namespace cuzk::post
