#pragma once
// Synthetic, valid PoSt vanilla proofs for any sector size (as synthetic_c1 is for PoRep): what
// lets a 32 GiB WindowPoSt partition (2,349 sectors) or a WinningPoSt be proved and benchmarked
// without real sectors. Each sector's tree R is sparse: only the challenged leaves (the challenges
// derived from the randomness and the sector's id and position, exactly as for a real sector)
// hold random values, every other node is its level's default hash (leaves 0), so all paths agree
// on one root; comm_c is random and comm_r = Poseidon2(comm_c, comm_r_last). A verifier working
// from public data alone (randomness, sector ids, comm_r) accepts proofs made from them.

#include <cstdint>
#include <optional>
#include <vector>

#include "core/expected.hpp"
#include "core/thread_pool.hpp"
#include "post/challenges.hpp"
#include "post/circuit.hpp"
#include "post/registered.hpp"
#include "post/vanilla.hpp"

namespace cuzk::post {

struct SyntheticVanillaOptions {
  RegisteredPostProof proof = kRegisteredPostProofs[10];  // StackedDrgWindow2KiBV1_1
  uint64_t seed = 1;                                      // every value is drawn from it
  // Sectors: 0 = one full partition (WindowPoSt: sector_count; WinningPoSt: 1, the only choice).
  uint32_t sectors = 0;
  uint64_t first_sector_id = 1;          // sector ids first_sector_id, +1, ... (ascending)
  std::optional<Bytes32> randomness;     // else drawn: 32 bytes of std::mt19937_64(seed), byte 31 &= 0x3f
};

struct SyntheticVanilla {
  RegisteredPostProof proof;
  Bytes32 randomness{};
  std::vector<FallbackPoStSectorProof> proofs;  // ascending sector id = the verifier's order
  PostPublicData public_data() const;
};

// Each proof passes validate() at its position (checked before returning; sector i's rng is
// seeded from (seed, i), so the result does not depend on the thread count).
Expected<SyntheticVanilla> generate_synthetic_vanilla(const SyntheticVanillaOptions& options,
                                                      const PostPoseidon& poseidon, ThreadPool& pool);

}  // namespace cuzk::post
