// PoSt vanilla proofs (post/vanilla.hpp: decode_vanilla), the bincode FallbackPoStSectorProof a
// client sends per sector. Accepted: encoding it again gives the same bytes (the format has one
// encoding per value), and validate() against a 2 KiB WindowPoSt answers (a value or an error,
// never a crash) whatever the paths hold. Refused: the error names the input.

#include <array>

#include "fuzz/fuzz.hpp"
#include "post/vanilla.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  using fuzz::check;
  constexpr std::string_view kSource = "fuzz-input.bin";
  const auto proof = post::decode_vanilla(fuzz::bytes(data, size), kSource);
  if (!proof) {
    fuzz::check_names_source(proof.error(), kSource);
    return 0;
  }
  const std::vector<uint8_t> again = post::encode_vanilla(*proof);
  check(again.size() == size && std::equal(again.begin(), again.end(), data), "encode(decode(b)) == b");
  static const post::PostPoseidon poseidon;
  static const post::RegisteredPostProof window = post::registered_post_proof(10).value();  // StackedDrgWindow2KiBV1_1
  const std::array<uint8_t, 32> randomness{};
  const auto valid = post::validate(*proof, window, randomness, 0, poseidon, kSource);
  if (!valid) fuzz::check_names_source(valid.error(), kSource);
  return 0;
}
