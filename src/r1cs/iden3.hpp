#pragma once
// iden3's binary .r1cs (version 1) and .wtns (version 2) files, as circom writes and snarkjs
// reads them, for the BLS12-381 scalar field only.
//
// Layout (iden3 r1csfile 0.0.48 src/r1csfile.js, @iden3/binfileutils, snarkjs 0.7.6
// src/wtns_utils.js; https://github.com/iden3/r1csfile/blob/master/doc/r1cs_bin_format.md).
// Every integer is little-endian.
//   file    := magic[4] ("r1cs" | "wtns")  version:u32  n_sections:u32  section*
//   section := type:u32  size:u64  payload[size]     (any order; unknown types are skipped)
//   .r1cs  type 1 header      n8:u32 (=32)  prime[n8]  n_wires:u32  n_pub_out:u32  n_pub_in:u32
//                             n_prv_in:u32  n_labels:u64  n_constraints:u32
//          type 2 constraints per constraint the linear combinations A, B, C, each
//                             n_terms:u32 then n_terms x (wire:u32  coeff[n8])
//          type 3 wire->label n_wires x u64
//          types 4, 5         PLONK custom gates (circom `pragma custom_templates`): refused,
//                             the constraints alone would not describe the circuit
//   .wtns  type 1 header      n8:u32 (=32)  prime[n8]  n_witness:u32
//          type 2 values      n_witness x value[n8]
// Field elements (coefficients, witness values, the prime) are stored in standard form, not
// Montgomery form (r1csfile reads them with F.fromRprLE, wtns_utils with Scalar.fromRprLE).
//
// Terms keep the file's order (r1csfile writes one term per wire, ascending; we write the
// caller's order, repeats included). .wtns versions 1 and 2 are read, as snarkjs does. A section
// type we use may appear once. Files are read whole into memory; every count is checked against
// the bytes that remain before anything is allocated for it.
//
// Wire order (iden3's): wire 0 is the constant ONE, then the public outputs, the public inputs,
// the private inputs, then the internal wires. So the public part of a Groth16 statement is
// wires [0, 1 + n_pub_out + n_pub_in).

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "core/expected.hpp"
#include "ff/bls12_381.hpp"

namespace cuzk::r1cs::iden3 {

struct Term {
  uint32_t wire = 0;
  ff::Fr coeff;
  friend bool operator==(const Term&, const Term&) = default;
};

// A · B = C, each a linear combination of wires.
struct Constraint {
  std::vector<Term> a, b, c;
  friend bool operator==(const Constraint&, const Constraint&) = default;
};

struct R1csFile {
  uint32_t n_wires = 0, n_pub_out = 0, n_pub_in = 0, n_prv_in = 0;
  uint64_t n_labels = 0;
  std::vector<Constraint> constraints;
  // Section 3: n_wires entries, or empty when the file has no section 3 (then none is written).
  std::vector<uint64_t> wire_to_label;
  friend bool operator==(const R1csFile&, const R1csFile&) = default;
};

// Reads and checks a whole file: a truncated or inconsistent file, a wire index >= n_wires or a
// non-canonical field element is kCorruption; a wrong magic, an unsupported version or a prime
// other than BLS12-381's r is kInvalidArgument; custom gates are kUnsupported. Messages name the
// path and the byte offset or field at fault.
Expected<R1csFile> read_r1cs(const std::filesystem::path& path);
// The same from bytes in memory; source names them in errors (as the path does above).
Expected<R1csFile> parse_r1cs(std::span<const uint8_t> bytes, const std::string& source);
// Writes sections 1, 2 and (when wire_to_label is not empty) 3; checks wire indices and counts.
Expected<void> write_r1cs(const std::filesystem::path& path, const R1csFile& file);

Expected<std::vector<ff::Fr>> read_wtns(const std::filesystem::path& path);
Expected<std::vector<ff::Fr>> parse_wtns(std::span<const uint8_t> bytes, const std::string& source);
Expected<void> write_wtns(const std::filesystem::path& path, std::span<const ff::Fr> witness);

}  // namespace cuzk::r1cs::iden3
