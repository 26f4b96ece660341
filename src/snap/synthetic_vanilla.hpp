#pragma once
// Synthetic, valid SnapDeals vanilla proofs for any sector size (the test and benchmark input of
// every size, as gen-c1 is for PoRep), without a real sector. The challenges derive from
// comm_r_new, which depends on every leaf, so the sector must be fixed before any challenge is
// known: it is made of 2^h groups (h = the shape's h, the rho groups: node i is in group
// i >> (log2(nodes) − h)) in which every node of tree R old and of the new data is one value drawn
// per group. A subtree inside one group then hashes to a value per group and level, and only the
// levels above the groups (at most 2^h nodes) are hashed node by node, so a 32 GiB sector costs a
// few thousand hashes. Encoding as a real update: R_new = R_old + D_new · rho(group). The proofs
// pass validate_partition_proof (checked before returning) and so the circuit.

#include <cstdint>
#include <vector>

#include "core/expected.hpp"
#include "ff/bls12_381.hpp"
#include "snap/circuit.hpp"
#include "snap/partition_proof.hpp"
#include "snap/update_shape.hpp"
#include "snap/vanilla.hpp"

namespace cuzk::snap {

struct SyntheticUpdate {
  UpdatePublic pub;
  ff::Fr comm_c;
  std::vector<PartitionProof> partitions;  // k = 0 .. partitions − 1
};

// Every value from std::mt19937_64(seed), in this order, each field element from four 64-bit
// outputs little-endian with byte 31 &= 0x3f (below 2^254): comm_c, then per group g = 0 .. 2^h − 1
// the old replica value and the new data value.
Expected<SyntheticUpdate> generate_synthetic_update(const UpdateShape& shape, const UpdatePoseidon& poseidon,
                                                    uint64_t seed);

}  // namespace cuzk::snap
