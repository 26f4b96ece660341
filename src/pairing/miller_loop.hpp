#pragma once
// The Miller loop of the optimal ate pairing on BLS12-381, f_{|z|,Q}(P), conjugated because z < 0.
//
// Lines. Q lives on the M-type twist E': y^2 = x^3 + b', b' = 4 xi, and untwists to E(Fp12) by
// (x, y) -> (x w^-2, y w^-3). A line through T (slope L on E') evaluated at P = (xP, yP), times
// w^3 (an Fp4 factor the final exponentiation erases), is
//     (L xT - yT) + (-L xP) w^2 + (yP) w^3,   i.e. Fp12 slots 0, 1 and 4 (Fp12::mul_by_014).
// With T in homogeneous projective coordinates (X : Y : Z) on E', multiplying through by the
// denominators (again only Fp2 factors) gives, following Costello, Lange and Naehrig, "Faster
// pairing computations on curves with high-degree twists" (eprint 2009/615), §5-6:
//   doubling: slot0 = Y^2 - 3b'Z^2,   slot1 = -3X^2 * xP,  slot4 = 2YZ * yP
//   adding Q = (x2, y2) with theta = Y - y2 Z, lambda = X - x2 Z:
//             slot0 = theta x2 - lambda y2,  slot1 = -theta * xP,  slot4 = lambda * yP.
// A prepared Q stores (slot0, slot1/xP, slot4/yP) for every step, so a fixed Q (a verifying
// key's gamma and delta) pays for its point arithmetic once.

#include <span>
#include <utility>
#include <vector>

#include "ec/bls12_381.hpp"
#include "ff/fp12.hpp"

namespace cuzk::pairing {

using ec::G1Affine;
using ec::G2Affine;
using ff::Fp12;
using ff::Fp2;

// One line: the Fp2 coefficients before P's coordinates are multiplied in.
struct LineCoefficients {
  Fp2 c0;  // slot 0
  Fp2 cx;  // slot 1 = cx * xP
  Fp2 cy;  // slot 4 = cy * yP
};

// The lines of the Miller loop for one G2 point, in loop order.
class G2Prepared {
 public:
  G2Prepared() = default;  // the point at infinity: contributes 1
  explicit G2Prepared(const G2Affine& q);

  bool is_identity() const { return lines_.empty(); }
  const std::vector<LineCoefficients>& lines() const { return lines_; }

 private:
  std::vector<LineCoefficients> lines_;
};

// prod_i f_{|z|,Q_i}(P_i), conjugated (z < 0); pairs with a point at infinity contribute 1.
Fp12 miller_loop(std::span<const std::pair<G1Affine, const G2Prepared*>> pairs);
Fp12 miller_loop(const G1Affine& p, const G2Affine& q);

}  // namespace cuzk::pairing
