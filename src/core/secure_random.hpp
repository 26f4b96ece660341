#pragma once
// Bytes from the operating system's CSPRNG (getrandom(2)); for proof blinding factors and batch
// verification weights, never for test data (tests use seeded generators).

#include <cstdint>
#include <span>

namespace cuzk {

// Fills out; throws cuzk::Exception (kIo) if the kernel refuses.
void secure_random_bytes(std::span<uint8_t> out);

}  // namespace cuzk
