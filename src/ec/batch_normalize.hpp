#pragma once
// Jacobian -> affine for many points with one field inversion (Montgomery's trick: invert the
// product of all Z, then peel off each 1/Z with two multiplications).

#include <span>
#include <stdexcept>
#include <vector>

#include "ec/affine.hpp"
#include "ec/jacobian.hpp"

namespace cuzk::ec {

template <class Curve>
void batch_normalize(std::span<const Jacobian<Curve>> in, std::span<Affine<Curve>> out) {
  using Field = typename Curve::Field;
  if (in.size() != out.size()) throw std::invalid_argument("batch_normalize: input and output sizes differ");
  // prefix[i] = product of the non-zero Z of in[0..i)
  std::vector<Field> prefix(in.size() + 1);
  prefix[0] = Field::one();
  for (size_t i = 0; i < in.size(); ++i) prefix[i + 1] = in[i].is_identity() ? prefix[i] : prefix[i] * in[i].z;
  Field inv = prefix[in.size()].inverse();  // 1 / prod Z
  for (size_t i = in.size(); i-- > 0;) {
    if (in[i].is_identity()) {
      out[i] = Affine<Curve>::identity();
      continue;
    }
    const Field zinv = inv * prefix[i];  // 1/Z_i
    inv *= in[i].z;                      // drop Z_i from the running inverse
    const Field zinv2 = zinv.square();
    out[i] = {in[i].x * zinv2, in[i].y * zinv2 * zinv, false};
  }
}

}  // namespace cuzk::ec
