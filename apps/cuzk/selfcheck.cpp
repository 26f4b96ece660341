#include "selfcheck.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <string>
#include <vector>

#include "ec/scalar_mul.hpp"
#include "ff/mont_x86_64.hpp"
#include "pairing/pairing.hpp"

namespace cuzk::app {

namespace {

using Clock = std::chrono::steady_clock;
using ec::G1Jacobian;
using ec::G2Jacobian;
using ff::Fp;
using ff::Fr;

Fr random_scalar(std::mt19937_64& g) {
  ff::BigInt<4> v;
  do {
    for (auto& l : v.limbs) l = g();
    v.limbs[3] &= (uint64_t(1) << 63) - 1;
  } while (v >= Fr::kModulus);
  return Fr::from_int(v);
}

// Median over `rounds` of the time per call of `op`, run `iterations` times a round.
template <class Op>
double median_ns(int rounds, int iterations, Op&& op) {
  std::vector<double> samples;
  for (int r = 0; r < rounds; ++r) {
    const auto start = Clock::now();
    for (int i = 0; i < iterations; ++i) op();
    samples.push_back(std::chrono::duration<double, std::nano>(Clock::now() - start).count() / iterations);
  }
  std::nth_element(samples.begin(), samples.begin() + rounds / 2, samples.end());
  return samples[rounds / 2];
}

struct Timing {
  std::string name;
  double ns;
};

}  // namespace

int run_selfcheck(const SelfcheckOptions& options) {
  std::random_device rd;
  std::mt19937_64 g((uint64_t(rd()) << 32) | rd());

  // e(aP, bQ) = e(P, Q)^(ab) for random a, b and random P, Q.
  const Fr a = random_scalar(g), b = random_scalar(g);
  const auto p = ec::scalar_mul(G1Jacobian::generator(), random_scalar(g)).to_affine();
  const auto q = ec::scalar_mul(G2Jacobian::generator(), random_scalar(g)).to_affine();
  const auto ap = ec::scalar_mul(G1Jacobian::from_affine(p), a).to_affine();
  const auto bq = ec::scalar_mul(G2Jacobian::from_affine(q), b).to_affine();
  const auto lhs = pairing::pairing(ap, bq);
  const auto rhs = pairing::pairing(p, q).pow((a * b).to_int());
  const bool bilinear = lhs == rhs && !lhs.is_one();

  const int rounds = options.quick ? 3 : 7;
  const int scale = options.quick ? 1 : 10;
  Fp x = Fp::from_int(ff::BigInt<6>(g())), y = x.square() + Fp::one();
  Fr fx = random_scalar(g), fy = random_scalar(g);
  G1Jacobian g1 = ec::scalar_mul(G1Jacobian::generator(), random_scalar(g));
  const G1Jacobian g1b = g1.dbl();
  const auto k = random_scalar(g);
  std::vector<Timing> timings{
      {"fp_mul", median_ns(rounds, 100000 * scale, [&] { x = x * y; })},
      {"fp_square", median_ns(rounds, 100000 * scale, [&] { x = x.square(); })},
      {"fp_inverse", median_ns(rounds, 100 * scale, [&] { x = x.inverse() + y; })},
      {"fr_mul", median_ns(rounds, 100000 * scale, [&] { fx = fx * fy; })},
      {"g1_add", median_ns(rounds, 10000 * scale, [&] { g1 = g1 + g1b; })},
      {"g1_double", median_ns(rounds, 10000 * scale, [&] { g1 = g1.dbl(); })},
      {"g1_scalar_mul", median_ns(rounds, 10 * scale, [&] { g1 = ec::scalar_mul(g1, k); })},
      {"pairing", median_ns(rounds, 2 * scale, [&] { static_cast<void>(pairing::pairing(p, q)); })},
  };
  // Publish the chains' results so the timed loops cannot be optimised away.
  volatile bool sink = x.is_zero() || fx.is_zero() || g1.is_identity();
  static_cast<void>(sink);

  if (options.json) {
    fmt::print("{{\"bilinear\": {}, \"asm\": {}", bilinear, ff::kUseMontAsm);
    for (const auto& t : timings) fmt::print(", \"{}_ns\": {:.1f}", t.name, t.ns);
    fmt::print("}}\n");
  } else {
    fmt::print("cuzk selfcheck (BLS12-381, one core, {} Montgomery multiplication)\n",
               ff::kUseMontAsm ? "x86-64 MULX/ADX" : "portable");
    fmt::print("  pairing bilinearity e(aP, bQ) == e(P, Q)^(ab) on random P, Q, a, b: {}\n",
               bilinear ? "ok" : "FAILED");
    for (const auto& t : timings) {
      if (t.ns >= 1e6) fmt::print("  {:<16} {:>10.3f} ms\n", t.name, t.ns / 1e6);
      else if (t.ns >= 1e3) fmt::print("  {:<16} {:>10.2f} us\n", t.name, t.ns / 1e3);
      else fmt::print("  {:<16} {:>10.1f} ns\n", t.name, t.ns);
    }
  }
  return bilinear ? 0 : 1;
}

}  // namespace cuzk::app
