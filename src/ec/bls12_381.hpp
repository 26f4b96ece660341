#pragma once
// The groups of BLS12-381: G1 on E(Fp): y^2 = x^3 + 4, and G2 on the M-type sextic twist
// E'(Fp2): y^2 = x^3 + 4(u + 1); both of prime order r (ff::Fr's modulus). Generators from
// draft-irtf-cfrg-pairing-friendly-curves-11 §4.2.1 (the zcash/Filecoin ones); the tests compare
// them with @noble/curves.

#include "ec/affine.hpp"
#include "ec/jacobian.hpp"
#include "ec/xyzz.hpp"
#include "ff/fp2.hpp"

namespace cuzk::ec {

using ff::Fp;
using ff::Fp2;
using ff::Fr;

struct G1Curve {
  using Field = Fp;
  static constexpr const char* kName = "G1";
  static constexpr Fp kB = Fp::from_uint(4);
  static constexpr Fp kGeneratorX = Fp::from_hex("17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb");
  static constexpr Fp kGeneratorY = Fp::from_hex("08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1");
};

struct G2Curve {
  using Field = Fp2;
  static constexpr const char* kName = "G2";
  static constexpr Fp2 kB = {Fp::from_uint(4), Fp::from_uint(4)};  // 4 * xi
  static constexpr Fp2 kGeneratorX = {
      Fp::from_hex("024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d177"
                                           "0bac0326a805bbefd48056c8c121bdb8"),
      Fp::from_hex("13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049"
                                           "334cf11213945d57e5ac7d055d042b7e")};
  static constexpr Fp2 kGeneratorY = {
      Fp::from_hex("0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c"
                                           "923ac9cc3baca289e193548608b82801"),
      Fp::from_hex("0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab"
                                           "3f370d275cec1da1aaa9075ff05f79be")};
};

using G1Affine = Affine<G1Curve>;
using G1Jacobian = Jacobian<G1Curve>;
using G1XYZZ = XYZZ<G1Curve>;
using G2Affine = Affine<G2Curve>;
using G2Jacobian = Jacobian<G2Curve>;
using G2XYZZ = XYZZ<G2Curve>;

extern template struct Jacobian<G1Curve>;
extern template struct Jacobian<G2Curve>;
extern template struct XYZZ<G1Curve>;
extern template struct XYZZ<G2Curve>;

}  // namespace cuzk::ec
