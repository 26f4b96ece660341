#pragma once
// Points in affine coordinates (x, y) on a short Weierstrass curve y^2 = x^3 + b (a = 0), with an
// explicit flag for the point at infinity. The storage form of bases and of encoded points.

namespace cuzk::ec {

template <class Curve>
struct Affine {
  using Field = typename Curve::Field;
  Field x{}, y{};
  bool infinity = true;

  static constexpr Affine identity() { return {}; }
  static constexpr Affine generator() { return {Curve::kGeneratorX, Curve::kGeneratorY, false}; }
  constexpr bool is_identity() const { return infinity; }

  constexpr bool is_on_curve() const { return infinity || y.square() == x.square() * x + Curve::kB; }
  constexpr Affine operator-() const { return infinity ? *this : Affine{x, -y, false}; }
  friend constexpr bool operator==(const Affine& a, const Affine& b) {
    if (a.infinity || b.infinity) return a.infinity == b.infinity;
    return a.x == b.x && a.y == b.y;
  }
};

}  // namespace cuzk::ec
