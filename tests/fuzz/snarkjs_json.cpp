// snarkjs JSON (groth16/snarkjs_json.hpp): the text goes to the verification key, proof and
// public-input readers. What one accepts, written back by our writer, reads back equal.

#include "fuzz/fuzz.hpp"
#include "groth16/snarkjs_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  using fuzz::check;
  constexpr std::string_view kSource = "fuzz-input.json";
  const std::string source(kSource);
  const auto text = fuzz::text(data, size);

  if (const auto vk = groth16::vk_from_snarkjs_json(text, source); vk) {
    const auto again = groth16::vk_from_snarkjs_json(groth16::vk_to_snarkjs_json(*vk), source);
    check(again && *again == *vk, "a verification key written back reads back equal");
  } else {
    fuzz::check_names_source(vk.error(), kSource);
  }
  if (const auto proof = groth16::proof_from_snarkjs_json(text, source); proof) {
    const auto again = groth16::proof_from_snarkjs_json(groth16::proof_to_snarkjs_json(*proof), source);
    check(again && *again == *proof, "a proof written back reads back equal");
  } else {
    fuzz::check_names_source(proof.error(), kSource);
  }
  if (const auto inputs = groth16::public_from_snarkjs_json(text, source); inputs) {
    const auto again = groth16::public_from_snarkjs_json(groth16::public_to_snarkjs_json(*inputs), source);
    check(again && *again == *inputs, "public inputs written back read back equal");
  } else {
    fuzz::check_names_source(inputs.error(), kSource);
  }
  return 0;
}
