#pragma once
// `cuzk setup`, `cuzk prove`, `cuzk verify`: Groth16 on files, snarkjs's and bellperson's.
// Wiring only: each reads its files through src/ (r1cs/iden3, groth16/*), runs one operation
// and writes the result. Exit codes: 0 done (verify: the proof is valid), 1 the proof is
// invalid, 2 bad input or an error (the message names the file and the field).

#include <cstdint>
#include <optional>
#include <string>

namespace cuzk::app {

struct SetupOptions {
  std::string r1cs;     // iden3 .r1cs
  std::string params;   // bellperson .params out
  std::string vk;       // bellperson .vk out (optional)
  std::string vk_json;  // snarkjs verification_key.json out (optional)
  std::optional<uint64_t> seed;  // reproducible toxic waste (tests only); default: CSPRNG
  unsigned threads = 0;
};

struct ProveOptions {
  std::string zkey;     // snarkjs .zkey, or
  std::string params;   // bellperson .params with
  std::string r1cs;     //   the circuit's iden3 .r1cs
  std::string wtns;     // iden3 .wtns (always)
  std::string proof;    // out: .json = snarkjs proof.json, anything else = 192-byte binary
  std::string public_json;  // out: snarkjs public.json (optional)
  unsigned threads = 0;
};

struct VerifyOptions {
  std::string vk;       // snarkjs verification_key.json, or bellperson .vk
  std::string proof;    // snarkjs proof.json, or 192-byte binary
  std::string public_json;  // snarkjs public.json
};

int run_setup(const SetupOptions& o);
int run_prove(const ProveOptions& o);
int run_verify(const VerifyOptions& o);

}  // namespace cuzk::app
