#include "support/random.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace cuzk::test {

uint64_t seed() {
  static const uint64_t value = [] {
    uint64_t s = 0;
    if (const char* env = std::getenv("CUZK_TEST_SEED")) {
      s = std::stoull(env);
    } else {
      std::random_device rd;
      s = (uint64_t(rd()) << 32) | rd();
    }
    std::printf("[ seed ] CUZK_TEST_SEED=%llu\n", static_cast<unsigned long long>(s));
    return s;
  }();
  return value;
}

std::mt19937_64 rng(uint64_t salt) {
  std::seed_seq seq{seed(), salt};
  return std::mt19937_64(seq);
}

}  // namespace cuzk::test
