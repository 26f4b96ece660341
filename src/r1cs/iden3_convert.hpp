#pragma once
// Between iden3 files (r1cs/iden3.hpp) and our compiled circuits (r1cs/compiled.hpp). The wire
// orders agree: iden3's wires [ONE, public outputs, public inputs | private inputs, internal]
// are our z = [inputs | aux], so wire w is column w, and an iden3 witness is z itself.

#include "r1cs/compiled.hpp"
#include "r1cs/iden3.hpp"

namespace cuzk::r1cs {

// Public wires (outputs and inputs) become our inputs after ONE; every other wire is aux.
CompiledR1cs<ff::Fr> compiled_from_iden3(const iden3::R1csFile& file);

// Our inputs after ONE become public inputs (no outputs), aux become internal wires.
iden3::R1csFile iden3_from_compiled(const CompiledR1cs<ff::Fr>& r1cs);

}  // namespace cuzk::r1cs
