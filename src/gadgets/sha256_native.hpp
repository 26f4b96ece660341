#pragma once
// Native SHA-256 (FIPS 180-4): the whole-message hash through OpenSSL, and our own compression
// function on (state, block), which witness generation needs (a circuit hashes blocks without
// the final padding or from a mid-state, which OpenSSL's one-shot API does not expose).

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

namespace cuzk::gadgets::native {

using Sha256State = std::array<uint32_t, 8>;
using Sha256Digest = std::array<uint8_t, 32>;

// FIPS 180-4 §5.3.3 (H(0)) and §4.2.2 (K).
inline constexpr Sha256State kSha256Iv = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                          0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
extern const std::array<uint32_t, 64> kSha256RoundConstants;

// state ← compress(state, block), FIPS 180-4 §6.2.2; the block is 64 bytes, words big-endian.
void sha256_compress(Sha256State& state, std::span<const uint8_t, 64> block);

// The padded message's digest (OpenSSL EVP).
Sha256Digest sha256(std::span<const uint8_t> message);

// The state as the big-endian digest bytes.
Sha256Digest sha256_state_bytes(const Sha256State& state);

}  // namespace cuzk::gadgets::native
