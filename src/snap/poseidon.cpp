#include "snap/poseidon.hpp"

#include <cstdint>

#include "ff/bls12_381.hpp"

namespace cuzk::snap {

UpdatePoseidon::UpdatePoseidon()
    : c2_(gadgets::PoseidonConstants::merkle_tree(2)),
      c4_(gadgets::PoseidonConstants::merkle_tree(4)),
      c8_(gadgets::PoseidonConstants::merkle_tree(8)),
      // neptune hash_type.rs: Custom(Arbitrary(id)).domain_tag() = id · 2^40.
      gen_(gadgets::PoseidonConstants::with_tag(2, ff::Fr::from_uint(uint64_t{1} << 40))) {}

}  // namespace cuzk::snap
