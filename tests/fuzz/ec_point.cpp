// zcash-format point encodings (ec/serialize.hpp): the input goes to all four decoders, with and
// without the subgroup check. A point decoded is re-encoded to the same bytes (the encodings are
// canonical: one encoding per point), and the subgroup check only ever refuses more.

#include "ec/serialize.hpp"
#include "fuzz/fuzz.hpp"

namespace {

using cuzk::ec::SubgroupCheck;
using cuzk::fuzz::check;

template <class Decode, class Encode>
void one(std::span<const uint8_t> in, Decode decode, Encode encode) {
  const auto checked = decode(in, SubgroupCheck::kCheck);
  const auto skipped = decode(in, SubgroupCheck::kSkip);
  if (checked) {
    check(skipped && *skipped == *checked, "a point in the subgroup decodes the same without the check");
  }
  if (skipped) {
    check(skipped->infinity || skipped->is_on_curve(), "a decoded point is on the curve");
    const auto again = encode(*skipped);
    check(std::equal(again.begin(), again.end(), in.begin(), in.end()), "a decoded point re-encodes to its bytes");
  } else {
    check(!skipped.error().message.empty(), "a refusal says why");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace ec = cuzk::ec;
  const auto in = cuzk::fuzz::bytes(data, size);
  one(in, ec::g1_from_compressed, [](const ec::G1Affine& p) { return ec::to_compressed(p); });
  one(in, ec::g1_from_uncompressed, [](const ec::G1Affine& p) { return ec::to_uncompressed(p); });
  one(in, ec::g2_from_compressed, [](const ec::G2Affine& p) { return ec::to_compressed(p); });
  one(in, ec::g2_from_uncompressed, [](const ec::G2Affine& p) { return ec::to_uncompressed(p); });
  return 0;
}
