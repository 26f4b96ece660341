// iden3 .r1cs files (r1cs/iden3.hpp). A file accepted uses only wires below n_wires and labels
// every wire or none.

#include "fuzz/fuzz.hpp"
#include "r1cs/iden3.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace cuzk;
  using fuzz::check;
  constexpr std::string_view kSource = "fuzz-input.r1cs";
  const auto file = r1cs::iden3::parse_r1cs(fuzz::bytes(data, size), std::string(kSource));
  if (!file) {
    fuzz::check_names_source(file.error(), kSource);
    return 0;
  }
  for (const auto& constraint : file->constraints) {
    for (const auto* lc : {&constraint.a, &constraint.b, &constraint.c}) {
      for (const auto& term : *lc) check(term.wire < file->n_wires, "every wire is below n_wires");
    }
  }
  check(file->wire_to_label.empty() || file->wire_to_label.size() == file->n_wires, "wire labels: all or none");
  return 0;
}
