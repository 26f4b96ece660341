#pragma once
// Constants of the Frobenius map x -> x^p on the tower Fp12 = Fp2[w]/(w^6 - xi), xi = 1 + u.
// w^p = w * w^(p-1) = w * xi^((p-1)/6), so (a*w^i)^p = conj(a) * gamma_i * w^i with
//   gamma_i = xi^(i(p-1)/6),  i = 0..5.

#include <array>

#include "ff/fp2.hpp"

namespace cuzk::ff {

// Printed from that definition; tests/ff/tower_test.cpp recomputes each one. (Computing them here
// at compile time cost every including file seconds.)
inline constexpr std::array<Fp2, 6> kFrobeniusGamma = {
    Fp2::one(),
    Fp2{Fp::from_hex("1904d3bf02bb0667c231beb4202c0d1f0fd603fd3cbd5f4f7b2443d784bab9c4f67ea53d63e7813d8d0775ed92235fb8"),
        Fp::from_hex("00fc3e2b36c4e03288e9e902231f9fb854a14787b6c7b36fec0c8ec971f63c5f282d5ac14d6c7ec22cf78a126ddc4af3")},
    Fp2{Fp::zero(),
        Fp::from_hex("1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaac")},
    Fp2{Fp::from_hex("06af0e0437ff400b6831e36d6bd17ffe48395dabc2d3435e77f76e17009241c5ee67992f72ec05f4c81084fbede3cc09"),
        Fp::from_hex("06af0e0437ff400b6831e36d6bd17ffe48395dabc2d3435e77f76e17009241c5ee67992f72ec05f4c81084fbede3cc09")},
    Fp2{Fp::from_hex("1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaad"),
        Fp::zero()},
    Fp2{Fp::from_hex("05b2cfd9013a5fd8df47fa6b48b1e045f39816240c0b8fee8beadf4d8e9c0566c63a3e6e257f87329b18fae980078116"),
        Fp::from_hex("144e4211384586c16bd3ad4afa99cc9170df3560e77982d0db45f3536814f0bd5871c1908bd478cd1ee605167ff82995")},
};

}  // namespace cuzk::ff
