// bellperson .vk and .params files (groth16/params_file.hpp), in both point encodings: the input
// goes to parse_vk and parse_params, uncompressed and compressed. A verifying key accepted in
// bellperson's (uncompressed) layout is written back to the same bytes; a .params file accepted
// starts with a .vk that parses to its verifying key.

#include <algorithm>

#include "fuzz/fuzz.hpp"
#include "groth16/params_file.hpp"

namespace {

using namespace cuzk;
using fuzz::check;
using groth16::PointEncoding;

constexpr std::string_view kSource = "fuzz-input.params";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static ThreadPool pool(1);
  const auto in = fuzz::bytes(data, size);
  const std::string source(kSource);
  for (const PointEncoding encoding : {PointEncoding::kUncompressed, PointEncoding::kCompressed}) {
    // The .params file without the subgroup checks (the ec_point target fuzzes them; with them a
    // seed of a few dozen points ran at 80 inputs a second), the .vk with them.
    const groth16::ReadOptions options{.encoding = encoding};
    const groth16::ReadOptions unchecked{.encoding = encoding, .subgroup = ec::SubgroupCheck::kSkip};
    const auto vk = groth16::parse_vk(in, source, pool, options);
    if (!vk) {
      fuzz::check_names_source(vk.error(), kSource);
    } else if (encoding == PointEncoding::kUncompressed) {
      const auto again = groth16::vk_bytes(*vk);
      check(std::equal(again.begin(), again.end(), in.begin(), in.end()), "a .vk re-encodes to its bytes");
    }
    const auto params = groth16::parse_params(in, source, pool, unchecked);
    if (!params) {
      fuzz::check_names_source(params.error(), kSource);
    } else if (encoding == PointEncoding::kUncompressed) {
      const auto head = groth16::vk_bytes(params->vk);
      check(head.size() <= in.size() && std::equal(head.begin(), head.end(), in.begin()),
            "a .params file starts with its .vk");
    }
  }
  return 0;
}
