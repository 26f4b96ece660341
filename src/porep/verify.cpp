#include "porep/verify.hpp"

#include <string>

#include "core/error.hpp"
#include "groth16/proof.hpp"

namespace cuzk::porep {

PorepPublicData public_data_for(const RegisteredSealProof& proof, const SectorShape& shape) {
  PorepPublicData d;
  d.porep_id = proof.porep_id();
  d.graph = graph_version(proof.api_version);
  d.feature = proof.feature;
  d.nodes = shape.nodes;
  d.partitions = shape.partitions;
  d.challenges_per_partition = shape.challenges_per_partition;
  return d;
}

Expected<PorepPublicData> public_data_of(const C1& c1) {
  RegisteredShape r;
  CUZK_TRY_ASSIGN(r, registered_shape(c1.registered_proof));
  PorepPublicData data = public_data_for(r.proof, r.shape);
  data.comm_r = c1.comm_r;
  data.comm_d = c1.comm_d;
  data.seed = c1.seed;
  data.ticket = c1.ticket;
  Expected<ff::Fr> rid = ff::Fr::from_bytes_le(c1.replica_id);
  if (!rid) return Error{ErrorCode::kInvalidArgument, "replica_id: not a canonical field element"};
  data.replica_id = *rid;
  return data;
}

Expected<std::vector<ff::Fr>> partition_public_inputs(const PorepPublicData& data, uint32_t partition) {
  const auto canonical = [](const Bytes32& bytes, const char* what) -> Expected<ff::Fr> {
    Expected<ff::Fr> v = ff::Fr::from_bytes_le(bytes);
    if (!v) return Error{ErrorCode::kInvalidArgument, std::string(what) + ": not a canonical field element"};
    return v;
  };
  ff::Fr comm_r, comm_d;
  CUZK_TRY_ASSIGN(comm_r, canonical(data.comm_r, "comm_r"));
  CUZK_TRY_ASSIGN(comm_d, canonical(data.comm_d, "comm_d"));
  if (data.feature == PorepFeature::kNonInteractivePoRep)
    return Error{ErrorCode::kUnsupported, "non-interactive PoRep is not supported"};
  if (partition >= data.partitions)
    return Error{ErrorCode::kInvalidArgument, "partition " + std::to_string(partition) + " of " +
                                                  std::to_string(data.partitions)};
  const ff::Fr rid = data.replica_id ? *data.replica_id
                                     : replica_id(data.prover_id, data.sector_id, data.ticket, data.comm_d, data.porep_id);
  const StackedGraph graph(data.nodes, data.porep_id, data.graph);
  const std::vector<uint64_t> challenges =
      porep_challenges(data.feature, rid, comm_r, data.seed, data.nodes, partition, data.challenges_per_partition);
  return porep_public_inputs(rid, comm_d, comm_r, graph, challenges);
}

Expected<bool> verify_porep(const groth16::PreparedVerifyingKey& pvk, std::span<const uint8_t> proofs,
                            const PorepPublicData& data) {
  if (proofs.size() != size_t(data.partitions) * groth16::Proof::kBytes) {
    return Error{ErrorCode::kInvalidArgument, "proof: " + std::to_string(proofs.size()) + " bytes, expected " +
                                                  std::to_string(data.partitions) + " partitions × 192"};
  }
  bool all = true;
  for (uint32_t k = 0; k < data.partitions; ++k) {
    groth16::Proof proof;
    CUZK_TRY_ASSIGN(proof, groth16::Proof::from_bytes(proofs.subspan(k * groth16::Proof::kBytes, groth16::Proof::kBytes)));
    std::vector<ff::Fr> inputs;
    CUZK_TRY_ASSIGN(inputs, partition_public_inputs(data, k));
    bool ok = false;
    CUZK_TRY_ASSIGN(ok, groth16::verify(pvk, proof, inputs));
    all = all && ok;
  }
  return all;
}

}  // namespace cuzk::porep
