// iden3 .wtns witness files (r1cs/iden3.hpp). A file accepted holds exactly its values: 32 bytes
// each after the header and two section headers.

#include "fuzz/fuzz.hpp"
#include "r1cs/iden3.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  constexpr std::string_view kSource = "fuzz-input.wtns";
  const auto witness = r1cs::iden3::parse_wtns(fuzz::bytes(data, size), std::string(kSource));
  if (!witness) {
    fuzz::check_names_source(witness.error(), kSource);
    return 0;
  }
  fuzz::check(witness->size() * 32 <= size, "every value comes from 32 bytes of the input");
  return 0;
}
