#include "snap/poseidon.hpp"

#include <cstdint>
#include <string>

#include "core/error.hpp"

#include "ff/bls12_381.hpp"

namespace cuzk::snap {

UpdatePoseidon::UpdatePoseidon(gadgets::PoseidonKernel kernel)
    : c2_(gadgets::PoseidonConstants::merkle_tree(2)),
      c4_(gadgets::PoseidonConstants::merkle_tree(4)),
      c8_(gadgets::PoseidonConstants::merkle_tree(8)),
      // neptune hash_type.rs: Custom(Arbitrary(id)).domain_tag() = id · 2^40.
      gen_(gadgets::PoseidonConstants::with_tag(2, ff::Fr::from_uint(uint64_t{1} << 40))),
      b2_(c2_, kernel),
      b4_(c4_, kernel),
      b8_(c8_, kernel) {}

const gadgets::PoseidonBatch& UpdatePoseidon::batch(size_t arity) const {
  switch (arity) {
    case 2: return b2_;
    case 4: return b4_;
    case 8: return b8_;
    default: throw Exception(invalid_argument("UpdatePoseidon: arity 2, 4 or 8, not " + std::to_string(arity)));
  }
}

}  // namespace cuzk::snap
