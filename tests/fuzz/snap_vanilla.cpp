// SnapDeals vanilla proofs (snap/vanilla.hpp: decode_partition_proof), the bincode PartitionProof
// a client sends per partition. Accepted: encoding it again gives the same bytes, and
// validate_partition_proof against a 2 KiB update answers (a value or an error, never a crash)
// whatever the paths hold. Refused: the error names the input.

#include "fuzz/fuzz.hpp"
#include "snap/vanilla.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  using fuzz::check;
  constexpr std::string_view kSource = "fuzz-input.bin";
  const auto proof = snap::decode_partition_proof(fuzz::bytes(data, size), kSource);
  if (!proof) {
    fuzz::check_names_source(proof.error(), kSource);
    return 0;
  }
  const std::vector<uint8_t> again = snap::encode_partition_proof(*proof);
  check(again.size() == size && std::equal(again.begin(), again.end(), data), "encode(decode(b)) == b");
  static const snap::UpdatePoseidon poseidon;
  static const snap::UpdateShape shape = snap::update_shape_for_sector_size(2048).value();
  const snap::UpdatePublic pub{};
  const auto valid = snap::validate_partition_proof(*proof, shape, poseidon, 0, pub, kSource);
  if (!valid) fuzz::check_names_source(valid.error(), kSource);
  return 0;
}
