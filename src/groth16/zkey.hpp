#pragma once
// snarkjs Groth16 proving keys (.zkey), read for proving with snarkjs's own conventions. Layout
// (snarkjs src/zkey_new.js and zkey_utils.js, iden3 binfileutils; read as facts):
//   "zkey", u32 version 1, u32 section count, then sections (u32 type, u64 size, bytes):
//   1 u32 protocol (1 = Groth16)
//   2 u32 n8q, q (LE), u32 n8r, r (LE), u32 nVars, u32 nPublic, u32 domainSize,
//     alpha1, beta1, beta2, gamma2, delta1, delta2
//   3 IC: nPublic + 1 G1      4 coefficients: u32 count, then (u32 matrix 0=A 1=B, u32 row,
//   5 A: nVars G1               u32 signal, 32-byte LE value c·R^2 mod r with R = 2^256)
//   6 B1: nVars G1            7 B2: nVars G2      8 C: nVars − nPublic − 1 G1
//   9 H: domainSize G1        10 contributions (ignored)
// Points are affine (x, y), each coordinate 48 bytes LE in Montgomery form (R = 2^384), an Fp2
// as c0 then c1; all zero bytes encode the point at infinity. Signals: 0 is ONE, then the
// nPublic public signals, then the private ones (as in .wtns). Rows nConstraints + s for s <=
// nPublic carry the a-only input rows (signal s · 0 = 0).

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "core/expected.hpp"
#include "core/thread_pool.hpp"
#include "groth16/keys.hpp"

namespace cuzk::groth16 {

struct ZkeyCoefficient {
  uint32_t matrix;  // 0 = A, 1 = B (snarkjs computes C's rows as A·B)
  uint32_t row;
  uint32_t signal;
  ff::Fr value;
};

struct Zkey {
  uint32_t n_vars = 0, n_public = 0, domain_size = 0;
  VerifyingKey vk;  // ic = section 3
  std::vector<ZkeyCoefficient> coefficients;
  std::vector<G1Affine> a, b1, c, h;
  std::vector<G2Affine> b2;
};

// Every point is checked (on the curve, in the subgroup); errors name the file, the offset and
// the field ("B2[7]"). Only BLS12-381 keys are accepted (a BN254 key is named as such).
Expected<Zkey> read_zkey(const std::filesystem::path& path, ThreadPool& pool);
// The same from bytes in memory; source names them in errors (as the path does above).
Expected<Zkey> parse_zkey(std::span<const uint8_t> bytes, const std::string& source, ThreadPool& pool);

}  // namespace cuzk::groth16
