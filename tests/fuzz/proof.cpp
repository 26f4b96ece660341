// 192-byte Groth16 proofs (groth16/proof.hpp): a proof accepted re-encodes to the same bytes.

#include <algorithm>

#include "fuzz/fuzz.hpp"
#include "groth16/proof.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using cuzk::fuzz::check;
  const auto in = cuzk::fuzz::bytes(data, size);
  const auto proof = cuzk::groth16::Proof::from_bytes(in);
  if (proof) {
    const auto again = proof->to_bytes();
    check(std::equal(again.begin(), again.end(), in.begin(), in.end()), "a decoded proof re-encodes to its bytes");
    check(!proof->a.infinity && !proof->b.infinity && !proof->c.infinity, "no part of a proof is at infinity");
  } else {
    check(!proof.error().message.empty(), "a refusal says why");
  }
  return 0;
}
