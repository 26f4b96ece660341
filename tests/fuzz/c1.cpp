// C1 JSON (porep/c1.hpp), raw SealCommitPhase1Output or Curio's base64 wrapper. A C1 accepted
// passes validate() and, written back by to_json (the inner document for a wrapped one), parses
// to the same C1.

#include "fuzz/fuzz.hpp"
#include "porep/c1.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  using fuzz::check;
  constexpr std::string_view kSource = "fuzz-input.json";
  const auto c1 = porep::parse_c1(fuzz::text(data, size), kSource);
  if (!c1) {
    fuzz::check_names_source(c1.error(), kSource);
    return 0;
  }
  const auto registered = porep::registered_shape(c1->registered_proof);
  check(registered && porep::validate(*c1, registered->shape, kSource), "a C1 accepted validates");
  const auto again = porep::parse_c1(porep::to_json(*c1), kSource);
  check(bool(again), "a C1 written back parses");
  porep::C1 inner = *c1;
  inner.wrapped = false;
  inner.sector_num = 0;
  inner.sector_size = 0;
  check(*again == inner, "a C1 written back parses to the same C1");
  return 0;
}
