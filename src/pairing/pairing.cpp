#include "pairing/pairing.hpp"

#include <bit>

#include "ff/bls12_381.hpp"

namespace cuzk::pairing {

namespace {

using ff::Fp;

// T in homogeneous projective coordinates on E': (X : Y : Z) is (X/Z, Y/Z).
struct Projective {
  Fp2 x, y, z;
};

// T <- 2T and the tangent line at T. Doubling from CLN §6 scaled by 4 so no halving is needed:
//   X3 = 2XY(Y^2 - 9b'Z^2), Y3 = (Y^2 + 9b'Z^2)^2 - 108 b'^2 Z^4, Z3 = 8 Y^3 Z.
// b' = 4 xi, so 3b'Z^2 = 12 xi Z^2 needs only additions, and 108 b'^2 Z^4 = 12 (3b'Z^2)^2.
LineCoefficients doubling_step(Projective& t) {
  const Fp2 xx = t.x.square();
  const Fp2 yy = t.y.square();
  const Fp2 zz4 = t.z.square().mul_by_nonresidue().dbl().dbl();  // 4 xi Z^2 = b'Z^2
  const Fp2 b3 = zz4.dbl() + zz4;                                 // 3b'Z^2
  const Fp2 b9 = b3.dbl() + b3;                                   // 9b'Z^2
  const Fp2 yz = t.y * t.z;
  LineCoefficients line{yy - b3, -(xx.dbl() + xx), yz.dbl()};
  const Fp2 new_x = (t.x * t.y).dbl() * (yy - b9);
  const Fp2 s4 = b3.square().dbl().dbl();                         // 4 (3b'Z^2)^2
  const Fp2 new_y = (yy + b9).square() - (s4.dbl() + s4);
  const Fp2 new_z = (yy * yz).dbl().dbl().dbl();
  t = {new_x, new_y, new_z};
  return line;
}

// T <- T + Q and the line through T and Q (Q affine). theta = Y - y2 Z, lambda = X - x2 Z,
//   X3 = lambda H, Y3 = theta (X lambda^2 - H) - Y lambda^3, Z3 = Z lambda^3,
//   H = lambda^3 + Z theta^2 - 2 X lambda^2.
LineCoefficients addition_step(Projective& t, const G2Affine& q) {
  const Fp2 theta = t.y - q.y * t.z;
  const Fp2 lambda = t.x - q.x * t.z;
  LineCoefficients line{theta * q.x - lambda * q.y, -theta, lambda};
  const Fp2 c = theta.square();
  const Fp2 d = lambda.square();
  const Fp2 e = lambda * d;
  const Fp2 g = t.x * d;
  const Fp2 h = e + t.z * c - g.dbl();
  t = {lambda * h, theta * (g - h) - e * t.y, t.z * e};
  return line;
}

// f * line(P)
Fp12 mul_by_line(const Fp12& f, const LineCoefficients& l, const G1Affine& p) {
  return f.mul_by_014(l.c0, l.cx * p.x, l.cy * p.y);
}

// The loop runs over the bits of |z| below its top bit, most significant first.
constexpr int kLoopTopBit = 63 - __builtin_clzll(ff::kBlsX);

}  // namespace

G2Prepared::G2Prepared(const G2Affine& q) {
  if (q.infinity) return;
  Projective t{q.x, q.y, Fp2::one()};
  lines_.reserve(kLoopTopBit - 1 + std::popcount(ff::kBlsX));  // doublings + additions
  for (int i = kLoopTopBit - 1; i >= 0; --i) {
    lines_.push_back(doubling_step(t));
    if ((ff::kBlsX >> i) & 1) lines_.push_back(addition_step(t, q));
  }
}

Fp12 miller_loop(std::span<const std::pair<G1Affine, const G2Prepared*>> pairs) {
  Fp12 f = Fp12::one();
  bool f_is_one = true;  // skip f = 1 products until the first line
  size_t line = 0;
  for (int i = kLoopTopBit - 1; i >= 0; --i) {
    if (i != kLoopTopBit - 1) f = f.square();  // f = 1 at the start: nothing to square
    const int steps = ((ff::kBlsX >> i) & 1) ? 2 : 1;
    for (int s = 0; s < steps; ++s, ++line) {
      for (const auto& [p, q] : pairs) {
        if (p.infinity || q->is_identity()) continue;
        const LineCoefficients& l = q->lines()[line];
        if (f_is_one) {  // 1 * line: the sparse element itself
          f = {{l.c0, l.cx * p.x, {}}, {{}, l.cy * p.y, {}}};
          f_is_one = false;
        } else {
          f = mul_by_line(f, l, p);
        }
      }
    }
  }
  static_assert(ff::kBlsXIsNegative);
  return f.conjugate();  // f_{z} = 1/f_{|z|} up to factors the final exponentiation erases
}

Fp12 miller_loop(const G1Affine& p, const G2Affine& q) {
  const G2Prepared prepared(q);
  const std::pair<G1Affine, const G2Prepared*> pair{p, &prepared};
  return miller_loop(std::span(&pair, 1));
}

namespace {

// x^z for x in the cyclotomic subgroup (z < 0: conjugate = inverse there).
Fp12 cyclotomic_pow_z(const Fp12& x) { return x.cyclotomic_pow(ff::kBlsX).conjugate(); }

}  // namespace

Fp12 final_exponentiation(const Fp12& f) {
  // Easy part: f^((p^6 - 1)(p^2 + 1)). Afterwards f is in the cyclotomic subgroup.
  Fp12 t = f.conjugate() * f.inverse();  // f^(p^6 - 1)
  t = t.frobenius(2) * t;                // ^(p^2 + 1)

  // Hard part. With p and r as polynomials in z (ff/bls12_381.hpp),
  //   3 (p^4 - p^2 + 1)/r = (z - 1)^2 (z + p) (z^2 + p^2 - 1) + 3
  // (Hayashida, Hayasaka, Teruya, eprint 2020/875, §4; tests/pairing pins the identity with GMP).
  // This computes t^(3 (p^4 - p^2 + 1)/r): a fixed power, coprime to r, of the reduced pairing.
  const Fp12 a0 = cyclotomic_pow_z(t) * t.conjugate();   // t^(z - 1)
  const Fp12 a = cyclotomic_pow_z(a0) * a0.conjugate();  // t^((z - 1)^2)
  const Fp12 b = cyclotomic_pow_z(a) * a.frobenius();    // a^(z + p)
  const Fp12 c = cyclotomic_pow_z(cyclotomic_pow_z(b)) * b.frobenius(2) * b.conjugate();  // b^(z^2 + p^2 - 1)
  return c * t.cyclotomic_square() * t;                  // * t^3
}

Fp12 pairing(const G1Affine& p, const G2Affine& q) { return final_exponentiation(miller_loop(p, q)); }

bool pairing_product_is_one(std::span<const std::pair<G1Affine, const G2Prepared*>> pairs) {
  return final_exponentiation(miller_loop(pairs)).is_one();
}

}  // namespace cuzk::pairing
