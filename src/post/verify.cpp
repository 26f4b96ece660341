#include "post/verify.hpp"

#include <string>
#include <vector>

#include "groth16/proof.hpp"

namespace cuzk::post {

Expected<bool> verify_post(const groth16::PreparedVerifyingKey& pvk, std::span<const uint8_t> proofs,
                           const PostPublicData& data, std::optional<uint32_t> partition) {
  const uint32_t first = partition.value_or(0);
  const uint32_t count = partition ? 1 : partition_count(data);
  if (proofs.size() != size_t(count) * groth16::Proof::kBytes) {
    return Error{ErrorCode::kInvalidArgument, "proof: " + std::to_string(proofs.size()) + " bytes, expected " +
                                                  std::to_string(count) + " partition" + (count == 1 ? "" : "s") +
                                                  " × 192"};
  }
  bool all = true;
  for (uint32_t i = 0; i < count; ++i) {
    groth16::Proof proof;
    CUZK_TRY_ASSIGN(proof, groth16::Proof::from_bytes(proofs.subspan(i * groth16::Proof::kBytes, groth16::Proof::kBytes)));
    std::vector<ff::Fr> inputs;
    CUZK_TRY_ASSIGN(inputs, partition_public_inputs(data, first + i));
    bool ok = false;
    CUZK_TRY_ASSIGN(ok, groth16::verify(pvk, proof, inputs));
    all = all && ok;
  }
  return all;
}

}  // namespace cuzk::post
