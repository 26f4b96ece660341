#pragma once
// G1 and G2 points for CUDA kernels (and the CPU, as the tests' twin): Fp2 = Fp[u]/(u^2 + 1),
// affine points with the layout of ec::Affine (x, y, then the infinity flag), XYZZ and Jacobian
// points with the layouts of ec::XYZZ / ec::Jacobian (identity: ZZ = 0, resp. Z = 0, with X = Y = 1
// as the CPU writes it; affine identity: x = y = 0, infinity = true). Their formulas are the CPU's
// own, ec/formulas.hpp (XYZZ: add-2008-s, madd-2008-s, dbl-2008-s-1; Jacobian: add-2007-bl,
// madd-2007-bl, dbl-2009-l), run over the device fields, so both give the same coordinates.

#include <cstddef>
#include <cstring>
#include <type_traits>

#include "gpu/field.cuh"  // first: see there
#include "ec/bls12_381.hpp"
#include "ec/formulas.hpp"

namespace cuzk::gpu {

// c0 + c1 u with u^2 = -1; the layout of ff::Fp2. Fp is DeviceFp (a template only so that
// bench_gpu_field can build it over the old multiplication for its A/B).
template <class Fp>
struct DeviceFp2T {
  using DeviceFp = Fp;
  using DeviceFp2 = DeviceFp2T;
  DeviceFp c0, c1;

  CUZK_HD static DeviceFp2 zero() { return {DeviceFp::zero(), DeviceFp::zero()}; }
  CUZK_HD static DeviceFp2 one() { return {DeviceFp::one(), DeviceFp::zero()}; }
  CUZK_HD bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  CUZK_HD friend bool operator==(const DeviceFp2& a, const DeviceFp2& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
  CUZK_HD friend bool operator!=(const DeviceFp2& a, const DeviceFp2& b) { return !(a == b); }

  CUZK_HD friend DeviceFp2 operator+(const DeviceFp2& a, const DeviceFp2& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  CUZK_HD friend DeviceFp2 operator-(const DeviceFp2& a, const DeviceFp2& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  CUZK_HD DeviceFp2 operator-() const { return {-c0, -c1}; }
  CUZK_HD DeviceFp2 dbl() const { return {c0.dbl(), c1.dbl()}; }
  // Karatsuba with lazy reduction: three 2n-word products, two Montgomery reductions (instead of
  // three full products: 5/6 of the multiply-adds):
  //   c0 = REDC(a0 b0 + p^2 - a1 b1),  in [0, 2p^2) since a1 b1 < p^2;
  //   c1 = REDC((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) = REDC(a0 b1 + a1 b0), in [0, 2p^2),
  // with a0 + a1 and b0 + b1 not reduced (< 2p): the difference is then exactly a0 b1 + a1 b0.
  // Both are below p 2^(32n) (2p < 2^(32n)), as redc_wide needs; p^2 = 0 mod p.
  // Out of line, operands by value (in registers): G2 formulas with every product inlined take
  // nvcc minutes per kernel and spill at 255 registers, and operands by reference go through the
  // stack. Measured in the G2 MSM on the H200 (docs/PERF.md 17): by value 328 ms at 2^24,
  // by reference 473, inlined 521. No mul_sub beside it (a b - c d with two reductions instead of
  // four): its 2n-word accumulators spill in the G2 kernels, 11 % slower at 2^26 (docs/PERF.md
  // 50), so ec::mul_sub takes two products for G2.
  CUZK_HD_NOINLINE static DeviceFp2 mul(DeviceFp2 a, DeviceFp2 b) {
    constexpr size_t w = 2 * DeviceFp::kLimbs;
    uint32_t t0[w], t1[w], v[w];
    DeviceFp::mul_wide(a.c0.limbs, b.c0.limbs, t0);
    DeviceFp::mul_wide(a.c1.limbs, b.c1.limbs, t1);
    CUZK_UNROLL for (size_t k = 0; k < w; ++k) v[k] = t0[k];
    DeviceFp::add_wide(v, t1);  // a0 b0 + a1 b1 < 2p^2
    DeviceFp::add_modulus_squared(t0);
    DeviceFp::sub_wide(t0, t1);
    const DeviceFp c0 = DeviceFp::redc_wide(t0);
    const DeviceFp sa = DeviceFp::add_unreduced(a.c0, a.c1), sb = DeviceFp::add_unreduced(b.c0, b.c1);
    DeviceFp::mul_wide(sa.limbs, sb.limbs, t1);
    DeviceFp::sub_wide(t1, v);
    return {c0, DeviceFp::redc_wide(t1)};
  }
  // (c0 + c1)(c0 - c1) + 2 c0 c1 u: two Fp products.
  CUZK_HD_NOINLINE static DeviceFp2 square(DeviceFp2 a) {
    return {(a.c0 + a.c1) * (a.c0 - a.c1), (a.c0 * a.c1).dbl()};
  }
  CUZK_HD friend DeviceFp2 operator*(const DeviceFp2& a, const DeviceFp2& b) { return mul(a, b); }
  CUZK_HD DeviceFp2 sqr() const { return square(*this); }

  // 1/(c0 + c1 u) = (c0 - c1 u) / (c0^2 + c1^2): one Fp inversion (0 for 0).
  CUZK_HD DeviceFp2 inverse() const {
    const DeviceFp t = (c0.sqr() + c1.sqr()).inverse();
    return {c0 * t, -(c1 * t)};
  }

  CUZK_HD DeviceFp2& operator+=(const DeviceFp2& b) { return *this = *this + b; }
  CUZK_HD DeviceFp2& operator-=(const DeviceFp2& b) { return *this = *this - b; }
  CUZK_HD DeviceFp2& operator*=(const DeviceFp2& b) { return *this = *this * b; }

  static DeviceFp2 from_cpu(const ff::Fp2& x) { return {DeviceFp::from_cpu(x.c0), DeviceFp::from_cpu(x.c1)}; }
  ff::Fp2 to_cpu() const { return {c0.to_cpu(), c1.to_cpu()}; }
};
using DeviceFp2 = DeviceFp2T<DeviceFp>;
static_assert(sizeof(DeviceFp2) == sizeof(ff::Fp2) && alignof(DeviceFp2) == alignof(ff::Fp2));

// ---- affine ------------------------------------------------------------------------------------

template <class F>
struct DeviceAffine {
  F x, y;
  bool infinity;

  CUZK_HD static DeviceAffine identity() { return {F::zero(), F::zero(), true}; }  // as ec::Affine{}
  CUZK_HD bool is_identity() const { return infinity; }
  CUZK_HD DeviceAffine operator-() const { return infinity ? *this : DeviceAffine{x, -y, false}; }
};

// ---- XYZZ --------------------------------------------------------------------------------------

template <class F>
struct DeviceXYZZ {
  F x, y, zz, zzz;

  CUZK_HD static DeviceXYZZ identity() { return {F::one(), F::one(), F::zero(), F::zero()}; }
  CUZK_HD static DeviceXYZZ from_affine(const DeviceAffine<F>& p) {
    return p.infinity ? identity() : DeviceXYZZ{p.x, p.y, F::one(), F::one()};
  }
  CUZK_HD bool is_identity() const { return zz.is_zero(); }
  CUZK_HD DeviceXYZZ operator-() const { return {x, -y, zz, zzz}; }

  CUZK_HD DeviceXYZZ dbl() const { return ec::xyzz_dbl(*this); }
  // P = Q goes to dbl, P = -Q to the identity.
  CUZK_HD friend DeviceXYZZ operator+(const DeviceXYZZ& a, const DeviceXYZZ& q) { return ec::xyzz_add(a, q); }
  CUZK_HD friend DeviceXYZZ operator+(const DeviceXYZZ& a, const DeviceAffine<F>& q) { return ec::xyzz_madd(a, q); }

  // The full sum with the coordinates lazily reduced, in [0, 2p) (DeviceField::mul_unreduced), where
  // the field allows it (Fp: G1), else reduced: the step of the MSM's window sums (running sums of
  // buckets), which call reduced() before they store. The identity stays exact (ZZ = 0: a lazy ZZ
  // is a product of values nonzero mod p, never 0 or p). Measured on the H200 (docs/PERF.md 18):
  // window sums -4 %; the same for the mixed additions of the accumulation was 2 % slower (more
  // spills at its 168-register cap), so madd has only the reduced form.
  CUZK_HD DeviceXYZZ add_lazy(const DeviceXYZZ& q) const {
    if constexpr (kLazy) return LazyXYZZ::add(*this, q);
    else return *this + q;
  }
  CUZK_HD DeviceXYZZ reduced() const {
    if constexpr (kLazy) return {x.reduced(), y.reduced(), zz.reduced(), zzz.reduced()};
    else return *this;
  }

  CUZK_HD DeviceXYZZ& operator+=(const DeviceXYZZ& q) { return *this = *this + q; }
  CUZK_HD DeviceXYZZ& operator+=(const DeviceAffine<F>& q) { return *this = *this + q; }

 private:
  static constexpr bool kLazy = requires { requires F::kLazy; };
  // F's lazy operations under F's spelling, so that add_lazy runs ec::xyzz_add itself: products
  // and squares without their final subtraction (kLazy: both operands < 2p), sums and differences
  // in [0, 2p), and zero tests that take p for 0.
  struct Lazy {
    F v;
    CUZK_HD friend Lazy operator+(const Lazy& a, const Lazy& b) { return {F::add_lazy(a.v, b.v)}; }
    CUZK_HD friend Lazy operator-(const Lazy& a, const Lazy& b) { return {F::sub_lazy(a.v, b.v)}; }
    CUZK_HD friend Lazy operator*(const Lazy& a, const Lazy& b) { return {F::mul_unreduced(a.v, b.v)}; }
    CUZK_HD static Lazy mul_sub(const Lazy& a, const Lazy& b, const Lazy& c, const Lazy& d) {
      return {F::mul_sub_lazy(a.v, b.v, c.v, d.v)};
    }
    CUZK_HD Lazy dbl() const { return *this + *this; }
    CUZK_HD Lazy sqr() const { return {v.sqr_unreduced()}; }
    CUZK_HD bool is_zero() const { return v.is_zero_lazy(); }
  };
  // The point over Lazy, for the formula: the identity test stays exact (see add_lazy), and the
  // doubling the formula falls back to gets reduced operands (dbl wants [0, p)).
  struct LazyXYZZ {
    Lazy x, y, zz, zzz;
    CUZK_HD static LazyXYZZ of(const DeviceXYZZ& a) { return {{a.x}, {a.y}, {a.zz}, {a.zzz}}; }
    CUZK_HD DeviceXYZZ point() const { return {x.v, y.v, zz.v, zzz.v}; }
    CUZK_HD static LazyXYZZ identity() { return of(DeviceXYZZ::identity()); }
    CUZK_HD bool is_identity() const { return zz.v.is_zero(); }
    CUZK_HD LazyXYZZ dbl() const { return of(point().reduced().dbl()); }
    CUZK_HD static DeviceXYZZ add(const DeviceXYZZ& a, const DeviceXYZZ& q) {
      return ec::xyzz_add(of(a), of(q)).point();
    }
  };
};

// ---- Jacobian ----------------------------------------------------------------------------------

template <class F>
struct DeviceJacobian {
  F x, y, z;

  CUZK_HD static DeviceJacobian identity() { return {F::one(), F::one(), F::zero()}; }
  CUZK_HD static DeviceJacobian from_affine(const DeviceAffine<F>& p) {
    return p.infinity ? identity() : DeviceJacobian{p.x, p.y, F::one()};
  }
  CUZK_HD bool is_identity() const { return z.is_zero(); }
  CUZK_HD DeviceJacobian operator-() const { return {x, -y, z}; }

  CUZK_HD DeviceJacobian dbl() const { return ec::jacobian_dbl(*this); }
  CUZK_HD friend DeviceJacobian operator+(const DeviceJacobian& a, const DeviceJacobian& q) {
    return ec::jacobian_add(a, q);
  }
  CUZK_HD friend DeviceJacobian operator+(const DeviceJacobian& a, const DeviceAffine<F>& q) {
    return ec::jacobian_madd(a, q);
  }

  CUZK_HD DeviceJacobian& operator+=(const DeviceJacobian& q) { return *this = *this + q; }
  CUZK_HD DeviceJacobian& operator+=(const DeviceAffine<F>& q) { return *this = *this + q; }
};

using DeviceG1Affine = DeviceAffine<DeviceFp>;
using DeviceG1XYZZ = DeviceXYZZ<DeviceFp>;
using DeviceG1Jacobian = DeviceJacobian<DeviceFp>;
using DeviceG2Affine = DeviceAffine<DeviceFp2>;
using DeviceG2XYZZ = DeviceXYZZ<DeviceFp2>;
using DeviceG2Jacobian = DeviceJacobian<DeviceFp2>;

// The device type of a CPU type (field or point), whose bytes it shares.
template <class Cpu>
struct DeviceTypeOf;
template <> struct DeviceTypeOf<ff::Fp> { using type = DeviceFp; };
template <> struct DeviceTypeOf<ff::Fr> { using type = DeviceFr; };
template <> struct DeviceTypeOf<ff::Fp2> { using type = DeviceFp2; };
template <> struct DeviceTypeOf<ec::G1Affine> { using type = DeviceG1Affine; };
template <> struct DeviceTypeOf<ec::G1XYZZ> { using type = DeviceG1XYZZ; };
template <> struct DeviceTypeOf<ec::G1Jacobian> { using type = DeviceG1Jacobian; };
template <> struct DeviceTypeOf<ec::G2Affine> { using type = DeviceG2Affine; };
template <> struct DeviceTypeOf<ec::G2XYZZ> { using type = DeviceG2XYZZ; };
template <> struct DeviceTypeOf<ec::G2Jacobian> { using type = DeviceG2Jacobian; };
template <class Cpu>
using DeviceType = typename DeviceTypeOf<Cpu>::type;

// Host-side conversions by bytes (the layouts are equal; checked below). The affine form of a
// device XYZZ/Jacobian point is to_cpu(p).to_affine() on the host.
template <class Cpu>
DeviceType<Cpu> to_device(const Cpu& x) {
  static_assert(sizeof(DeviceType<Cpu>) == sizeof(Cpu) && std::is_trivially_copyable_v<Cpu>);
  DeviceType<Cpu> r;
  std::memcpy(static_cast<void*>(&r), static_cast<const void*>(&x), sizeof r);
  return r;
}
template <class Cpu>
Cpu to_cpu(const DeviceType<Cpu>& x) {
  Cpu r;
  std::memcpy(static_cast<void*>(&r), static_cast<const void*>(&x), sizeof r);
  return r;
}

#define CUZK_SAME_LAYOUT(D, C)                                                                  \
  static_assert(sizeof(D) == sizeof(C) && alignof(D) == alignof(C) && std::is_trivially_copyable_v<C>, \
                #D " must have the layout of " #C)
CUZK_SAME_LAYOUT(DeviceG1Affine, ec::G1Affine);
CUZK_SAME_LAYOUT(DeviceG1XYZZ, ec::G1XYZZ);
CUZK_SAME_LAYOUT(DeviceG1Jacobian, ec::G1Jacobian);
CUZK_SAME_LAYOUT(DeviceG2Affine, ec::G2Affine);
CUZK_SAME_LAYOUT(DeviceG2XYZZ, ec::G2XYZZ);
CUZK_SAME_LAYOUT(DeviceG2Jacobian, ec::G2Jacobian);
#undef CUZK_SAME_LAYOUT
static_assert(offsetof(DeviceG1Affine, infinity) == offsetof(ec::G1Affine, infinity));
static_assert(offsetof(DeviceG2Affine, infinity) == offsetof(ec::G2Affine, infinity));

}  // namespace cuzk::gpu
