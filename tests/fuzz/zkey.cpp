// snarkjs .zkey proving keys (groth16/zkey.hpp). A key accepted has the counts its header states.

#include "fuzz/fuzz.hpp"
#include "groth16/zkey.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  using fuzz::check;
  static ThreadPool pool(1);
  constexpr std::string_view kSource = "fuzz-input.zkey";
  const auto zkey = groth16::parse_zkey(fuzz::bytes(data, size), std::string(kSource), pool);
  if (!zkey) {
    fuzz::check_names_source(zkey.error(), kSource);
    return 0;
  }
  check(zkey->vk.ic.size() == size_t{zkey->n_public} + 1, "IC holds nPublic + 1 points");
  check(zkey->a.size() == zkey->n_vars && zkey->b1.size() == zkey->n_vars && zkey->b2.size() == zkey->n_vars,
        "A, B1 and B2 hold nVars points");
  check(zkey->c.size() == size_t{zkey->n_vars} - zkey->n_public - 1, "C holds the private signals' points");
  check(zkey->h.size() == zkey->domain_size, "H holds domainSize points");
  for (const auto& c : zkey->coefficients) {
    check(c.matrix <= 1 && c.row < zkey->domain_size && c.signal < zkey->n_vars, "coefficients are in range");
  }
  return 0;
}
