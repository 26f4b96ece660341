#pragma once
// Verifying a PoSt proof from public data alone (what a chain verifier has: the registered proof,
// the randomness, the challenged sectors' numbers and comm_r): every partition's public inputs
// are recomputed (challenges.hpp) and its 192-byte proof checked with the circuit's verifying key.

#include <cstdint>
#include <optional>
#include <span>

#include "core/expected.hpp"
#include "groth16/verifier.hpp"
#include "post/challenges.hpp"

namespace cuzk::post {

// True when every partition's proof verifies. `proofs` holds the partitions' 192-byte proofs
// concatenated in order (util::proofs_to_bytes), as many as partition_count(data); with
// `partition`, only that partition's one proof. Malformed bytes (a wrong length, a point off the
// curve) and bad public data are errors; a well-formed proof that does not verify is false.
Expected<bool> verify_post(const groth16::PreparedVerifyingKey& pvk, std::span<const uint8_t> proofs,
                           const PostPublicData& data, std::optional<uint32_t> partition = std::nullopt);

}  // namespace cuzk::post
