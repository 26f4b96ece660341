// The IFMA kernel (gadgets/poseidon_ifma.hpp): neptune's OptimizedStatic rounds, as
// gadgets/poseidon.cpp runs them, on eight states at once. Compiled with -mavx512f -mavx512ifma;
// includes nothing that the rest of the program also instantiates (see the header).
//
// The arithmetic and its bounds: the header. Costs below count IFMA instructions
// (vpmadd52{l,h}uq) per eight lanes.

#include "gadgets/poseidon_ifma.hpp"

#include <immintrin.h>

namespace cuzk::gadgets::ifma {

namespace {

using V = __m512i;

struct Fe {  // eight elements, limb k of every lane in l[k]; each limb < 2^52
  V l[kLimbs];
};

struct Wide {  // eight unreduced products, column k (weight 2^(52k)) in c[k]
  V c[2 * kLimbs];
};

inline V bcast(uint64_t x) { return _mm512_set1_epi64(static_cast<long long>(x)); }
inline V mask52() { return bcast((uint64_t{1} << 52) - 1); }
// x >> 52, logical and arithmetic. The zero-masked forms with a full mask compile to the plain
// shifts; GCC 12's unmasked intrinsics read an "undefined" register and trip -Wuninitialized.
inline V shr52(V x) { return _mm512_maskz_srli_epi64(0xff, x, 52); }
inline V sar52(V x) { return _mm512_maskz_srai_epi64(0xff, x, 52); }
template <unsigned N>
inline V shl(V x) {
  return _mm512_maskz_slli_epi64(0xff, x, N);
}
template <unsigned N>
inline V shr(V x) {
  return _mm512_maskz_srli_epi64(0xff, x, N);
}

inline Wide zero_wide() {
  Wide w;
  for (V& c : w.c) c = _mm512_setzero_si512();
  return w;
}

inline Fe broadcast(const uint64_t* k) {
  Fe a;
  for (size_t i = 0; i < kLimbs; ++i) a.l[i] = bcast(k[i]);
  return a;
}

// w += a·b: 25 limb products, 50 IFMA.
inline void mul_acc(Wide& w, const Fe& a, const Fe& b) {
  for (size_t i = 0; i < kLimbs; ++i)
    for (size_t j = 0; j < kLimbs; ++j) {
      w.c[i + j] = _mm512_madd52lo_epu64(w.c[i + j], a.l[i], b.l[j]);
      w.c[i + j + 1] = _mm512_madd52hi_epu64(w.c[i + j + 1], a.l[i], b.l[j]);
    }
}

// w += a·k for a constant k (the same in every lane): 50 IFMA, k's limbs broadcast.
inline void mul_acc(Wide& w, const Fe& a, const uint64_t* k) {
  for (size_t j = 0; j < kLimbs; ++j) {
    const V kj = bcast(k[j]);
    for (size_t i = 0; i < kLimbs; ++i) {
      w.c[i + j] = _mm512_madd52lo_epu64(w.c[i + j], a.l[i], kj);
      w.c[i + j + 1] = _mm512_madd52hi_epu64(w.c[i + j + 1], a.l[i], kj);
    }
  }
}

// w = a²: the 10 cross products once (20 IFMA), every column doubled (10 adds), then the 5
// squares (10 IFMA): 30 IFMA.
inline Wide sqr(const Fe& a) {
  Wide w = zero_wide();
  for (size_t i = 0; i < kLimbs; ++i)
    for (size_t j = i + 1; j < kLimbs; ++j) {
      w.c[i + j] = _mm512_madd52lo_epu64(w.c[i + j], a.l[i], a.l[j]);
      w.c[i + j + 1] = _mm512_madd52hi_epu64(w.c[i + j + 1], a.l[i], a.l[j]);
    }
  for (V& c : w.c) c = _mm512_add_epi64(c, c);
  for (size_t i = 0; i < kLimbs; ++i) {
    w.c[2 * i] = _mm512_madd52lo_epu64(w.c[2 * i], a.l[i], a.l[i]);
    w.c[2 * i + 1] = _mm512_madd52hi_epu64(w.c[2 * i + 1], a.l[i], a.l[i]);
  }
  return w;
}

// w += a·2^260: after REDC, a is added to the result (no product, no separate carry pass).
inline void add_high(Wide& w, const Fe& a) {
  for (size_t k = 0; k < kLimbs; ++k) w.c[kLimbs + k] = _mm512_add_epi64(w.c[kLimbs + k], a.l[k]);
}
inline void add_high(Wide& w, const uint64_t* k) {
  for (size_t i = 0; i < kLimbs; ++i) w.c[kLimbs + i] = _mm512_add_epi64(w.c[kLimbs + i], bcast(k[i]));
}

// REDC: (w + Q·r)/2^260, Q's limb i = w_i·(−r⁻¹) mod 2^52 (1 IFMA) clears column i once Q_i·r
// is added (10 IFMA) and column i's carry moves up: 55 IFMA; then 4 carries normalise the
// result, which the bounds above keep below 2^260.
inline Fe reduce(Wide& w, const Tables& c) {
  const V n0 = bcast(c.neg_inverse), zero = _mm512_setzero_si512();
  for (size_t i = 0; i < kLimbs; ++i) {
    const V q = _mm512_madd52lo_epu64(zero, w.c[i], n0);
    for (size_t k = 0; k < kLimbs; ++k) {
      const V rk = bcast(c.modulus[k]);
      w.c[i + k] = _mm512_madd52lo_epu64(w.c[i + k], q, rk);
      w.c[i + k + 1] = _mm512_madd52hi_epu64(w.c[i + k + 1], q, rk);
    }
    w.c[i + 1] = _mm512_add_epi64(w.c[i + 1], shr52(w.c[i]));
  }
  Fe out;
  for (size_t k = 0; k + 1 < kLimbs; ++k) {
    out.l[k] = _mm512_and_si512(w.c[kLimbs + k], mask52());
    w.c[kLimbs + k + 1] = _mm512_add_epi64(w.c[kLimbs + k + 1], shr52(w.c[kLimbs + k]));
  }
  out.l[kLimbs - 1] = w.c[2 * kLimbs - 1];
  return out;
}

// a + k, normalised (no reduction): 5 adds, 4 carries.
inline Fe add(const Fe& a, const uint64_t* k) {
  Fe s;
  for (size_t i = 0; i < kLimbs; ++i) s.l[i] = _mm512_add_epi64(a.l[i], bcast(k[i]));
  for (size_t i = 0; i + 1 < kLimbs; ++i) {
    s.l[i + 1] = _mm512_add_epi64(s.l[i + 1], shr52(s.l[i]));
    s.l[i] = _mm512_and_si512(s.l[i], mask52());
  }
  return s;
}

// a − m where a ≥ m, per lane: a borrow chain over the limbs (the sign of each signed limb
// difference), the difference kept where the last borrow is 0. No IFMA.
inline void subtract_if_at_least(Fe& a, const uint64_t* m) {
  Fe d;
  V borrow = _mm512_setzero_si512();
  for (size_t k = 0; k < kLimbs; ++k) {
    const V diff = _mm512_add_epi64(_mm512_sub_epi64(a.l[k], bcast(m[k])), borrow);
    borrow = sar52(diff);  // 0 or −1
    d.l[k] = _mm512_and_si512(diff, mask52());
  }
  const __mmask8 keep = _mm512_cmpeq_epi64_mask(borrow, _mm512_setzero_si512());
  for (size_t k = 0; k < kLimbs; ++k) a.l[k] = _mm512_mask_mov_epi64(a.l[k], keep, d.l[k]);
}

// x⁵ (+ key): two squarings and a product, 2·(30 + 55) + (50 + 55) = 275 IFMA; the key rides
// in the last reduction. `record` sees x², x⁴ and the result (the gadget's S-box variables).
template <class Record>
inline Fe quintic(const Fe& x, const uint64_t* key, const Tables& c, Record& record) {
  Wide w = sqr(x);
  const Fe x2 = reduce(w, c);
  record(x2);
  w = sqr(x2);
  const Fe x4 = reduce(w, c);
  record(x4);
  w = zero_wide();
  mul_acc(w, x4, x);
  if (key != nullptr) add_high(w, key);
  const Fe y = reduce(w, c);
  record(y);
  return y;
}

// out[j] = Σ_i m[i][j]·s[i], one reduction per output: t·(50t + 55) IFMA (4,545 at t = 9).
inline void mix_dense(const uint64_t* m, Fe* s, const Tables& c) {
  const size_t t = c.width;
  Fe out[kMaxWidth];
  for (size_t j = 0; j < t; ++j) {
    Wide w = zero_wide();
    for (size_t i = 0; i < t; ++i) mul_acc(w, s[i], m + (j * t + i) * kLimbs);
    out[j] = reduce(w, c);
  }
  for (size_t j = 0; j < t; ++j) s[j] = out[j];
}

// s'[0] = Σ w_hat[i]·s[i] (50t + 55 IFMA); s'[j] = s[j] + v_rest[j−1]·s[0], s[j] added in the
// reduction, then below 2r again (105 IFMA each): 155t − 50 IFMA (1,345 at t = 9).
inline void mix_sparse(const uint64_t* sparse, Fe* s, const Tables& c) {
  const size_t t = c.width;
  const uint64_t* w_hat = sparse;
  const uint64_t* v_rest = sparse + t * kLimbs;
  Wide w = zero_wide();
  for (size_t i = 0; i < t; ++i) mul_acc(w, s[i], w_hat + i * kLimbs);
  const Fe first = reduce(w, c);
  for (size_t j = 1; j < t; ++j) {
    w = zero_wide();
    mul_acc(w, s[0], v_rest + (j - 1) * kLimbs);
    add_high(w, s[j]);
    s[j] = reduce(w, c);
    subtract_if_at_least(s[j], c.twice_modulus);
  }
  s[0] = first;
}

// Records nothing: the plain hash.
struct NoRecord {
  void operator()(const Fe&) const {}
};

// Records the gadget's variables: each value canonical in Fr's own form (x·2^256 mod r, 4×64-bit
// limbs), limb j of lane l at (v·4 + j)·kLanes + l for the v-th value. A value X < 3.1r becomes
// REDC(X·(2^256 mod r)) = x·2^256 mod r, below X·r/2^260 + r < 1.09r, so one subtraction of r
// makes it canonical: 105 IFMA a value, ~53 k for the 505 values of eight arity-8 hashes.
struct TraceRecord {
  const Tables& c;
  uint64_t* out;
  void operator()(const Fe& x) {
    Wide w = zero_wide();
    mul_acc(w, x, c.to_fr);
    Fe y = reduce(w, c);
    subtract_if_at_least(y, c.modulus);
    const V words[4] = {
        _mm512_or_si512(y.l[0], shl<52>(y.l[1])),
        _mm512_or_si512(shr<12>(y.l[1]), shl<40>(y.l[2])),
        _mm512_or_si512(shr<24>(y.l[2]), shl<28>(y.l[3])),
        _mm512_or_si512(shr<36>(y.l[3]), shl<16>(y.l[4])),
    };
    for (const V& word : words) {
      _mm512_storeu_si512(out, word);
      out += kLanes;
    }
  }
};

// The permutation of eight states, in the gadget's order of variables (gadgets/poseidon_gadget.hpp):
// the first round records x², x⁴, y of lanes 1..t−1 (lane 0, the domain tag, is a constant
// there); every other S-box records its input l (a mixed lane, allocated by the gadget), l²,
// l⁴, y; the hash (output 1 of the last mix) last. Returns the hash, canonical (< r).
// At t = 9 (arity 8; R_F = 8, R_P = 57): full rounds 8·(9·275 + 4,545) less the last mix's
// unneeded outputs, partial rounds 57·(275 + 1,345): ~148 k IFMA for eight hashes.
template <class Record>
Fe permute(const Tables& c, const uint64_t* in, Record& record) {
  const size_t t = c.width, half = c.full_rounds / 2;
  NoRecord none;
  Fe s[kMaxWidth];
  s[0] = broadcast(c.domain_tag);
  for (size_t i = 1; i < t; ++i)
    for (size_t k = 0; k < kLimbs; ++k) s[i].l[k] = _mm512_loadu_si512(in + ((i - 1) * kLimbs + k) * kLanes);
  const uint64_t* key = c.round_constants;
  const auto next_key = [&key] {
    const uint64_t* k = key;
    key += kLimbs;
    return k;
  };
  for (size_t i = 0; i < t; ++i) s[i] = add(s[i], next_key());  // < 2r
  s[0] = quintic(s[0], next_key(), c, none);
  for (size_t i = 1; i < t; ++i) s[i] = quintic(s[i], next_key(), c, record);
  mix_dense(half == 1 ? c.pre_sparse : c.mds, s, c);
  // The other full rounds of the first half; the last of them mixes with the pre-sparse matrix.
  for (size_t r = 1; r < half; ++r) {
    for (size_t i = 0; i < t; ++i) {
      record(s[i]);
      s[i] = quintic(s[i], next_key(), c, record);
    }
    mix_dense(r + 1 == half ? c.pre_sparse : c.mds, s, c);
  }
  for (size_t p = 0; p < c.partial_rounds; ++p) {
    record(s[0]);
    s[0] = quintic(s[0], next_key(), c, record);
    mix_sparse(c.sparse + p * (2 * t - 1) * kLimbs, s, c);
  }
  for (size_t r = 0; r + 1 < half; ++r) {
    for (size_t i = 0; i < t; ++i) {
      record(s[i]);
      s[i] = quintic(s[i], next_key(), c, record);
    }
    mix_dense(c.mds, s, c);
  }
  // The last round: no key, and only output 1 of its mix is the hash.
  for (size_t i = 0; i < t; ++i) {
    record(s[i]);
    s[i] = quintic(s[i], nullptr, c, record);
  }
  Wide w = zero_wide();
  for (size_t i = 0; i < t; ++i) mul_acc(w, s[i], c.mds + (1 * t + i) * kLimbs);
  Fe h = reduce(w, c);
  record(h);
  subtract_if_at_least(h, c.modulus);
  return h;
}

}  // namespace

void hash8(const Tables& c, const uint64_t* in, uint64_t* out) {
  NoRecord none;
  const Fe h = permute(c, in, none);
  for (size_t k = 0; k < kLimbs; ++k) _mm512_storeu_si512(out + k * kLanes, h.l[k]);
}

void trace8(const Tables& c, const uint64_t* in, uint64_t* trace) {
  TraceRecord record{c, trace};
  permute(c, in, record);
}

}  // namespace cuzk::gadgets::ifma
