#include <cstdlib>
#include <cstring>

#include "ff/mont_x86_64.hpp"

#ifdef CUZK_MONT_ASM
#include <cpuid.h>
#endif

namespace cuzk::ff {

bool cpu_has_mont_asm() noexcept {
#ifdef CUZK_MONT_ASM
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
  // CPUID.(EAX=7,ECX=0):EBX. The assembly also uses BLSI (BMI1).
  constexpr unsigned kBmi1 = 1u << 3, kBmi2 = 1u << 8, kAdx = 1u << 19;
  return (ebx & kBmi1) && (ebx & kBmi2) && (ebx & kAdx);
#else
  return false;
#endif
}

bool use_mont_asm() noexcept {
  const char* env = std::getenv("CUZK_NO_ASM");
  const bool disabled = env && std::strcmp(env, "0") != 0;
  return !disabled && cpu_has_mont_asm();
}

}  // namespace cuzk::ff
