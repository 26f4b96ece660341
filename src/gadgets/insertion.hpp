#pragma once
// Inserting a node among its arity − 1 siblings at a position given by index bits (least
// significant first), row for row as storage-proofs-core src/gadgets/insertion.rs
// (rust-fil-proofs @87348a74; shared/SPEC-POREP.md §6). Every output is a `pick`
// (AllocatedNum::pick: one aux, one row (b − a)·cond = b − c); arity 8 first builds nor(b0, b1)
// and and(b0, b1) so that 20 picks suffice. The pick order decides the R1CS: keep it.

#include <span>
#include <vector>

#include "core/error.hpp"
#include "gadgets/boolean.hpp"
#include "gadgets/num.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::gadgets {

// Returns the arity = siblings.size() + 1 values [s0 .. x .. s_{arity−2}] with `element` at the
// position encoded by `bits` (LSB first). Arity 2 (2 rows), 4 (8 rows) or 8 (22 rows: nor, and,
// 20 picks); arity 8 needs b0, b1 as unnegated allocated bits (insertion.rs insert_8).
template <r1cs::ConstraintSystem CS>
std::vector<AllocatedNum<typename CS::Field>> insert(CS& cs, const AllocatedNum<typename CS::Field>& element,
                                                     std::span<const Boolean> bits,
                                                     std::span<const AllocatedNum<typename CS::Field>> siblings) {
  using Num = AllocatedNum<typename CS::Field>;
  const size_t arity = siblings.size() + 1;
  if (bits.size() >= 8 || (size_t{1} << bits.size()) != arity)
    throw Exception(invalid_argument("insert: need log2(arity) index bits"));
  const Num& a = element;
  // Each pick in its own namespace (its output's name) so that TestCS paths stay unique.
  auto pick = [&](const char* name, const Boolean& cond, const Num& x, const Num& y) {
    r1cs::Namespace ns(cs, name);
    return Num::pick(cs, cond, x, y);
  };

  if (arity == 2) {  // insert_2
    const Boolean& b0 = bits[0];
    const Num& s0 = siblings[0];
    return {pick("0", b0, s0, a), pick("1", b0, a, s0)};
  }
  if (arity == 4) {  // insert_4: a = element, b, c, d = siblings
    const Boolean &b0 = bits[0], &b1 = bits[1];
    const Num &b = siblings[0], &c = siblings[1], &d = siblings[2];
    const Num p0_x0 = pick("p0_x0", b0, b, a);
    const Num p0 = pick("p0", b1, b, p0_x0);
    const Num p1_x0 = pick("p1_x0", b0, a, b);
    const Num p1 = pick("p1", b1, c, p1_x0);
    const Num p2_x1 = pick("p2_x1", b0, d, a);
    const Num p2 = pick("p2", b1, p2_x1, c);
    const Num p3_x1 = pick("p3_x1", b0, a, d);
    const Num p3 = pick("p3", b1, p3_x1, d);
    return {p0, p1, p2, p3};
  }
  if (arity == 8) {  // insert_8: a = element, b..h = siblings
    const Boolean &b0 = bits[0], &b1 = bits[1], &b2 = bits[2];
    if (b0.kind() != Boolean::Kind::kIs || b1.kind() != Boolean::Kind::kIs)
      throw Exception(invalid_argument("insert_8: b0, b1 must be allocated, unnegated bits"));
    const Num &b = siblings[0], &c = siblings[1], &d = siblings[2], &e = siblings[3], &f = siblings[4],
              &g = siblings[5], &h = siblings[6];
    // (1 − b0)(1 − b1) = nor; b0·b1 = and: position 0 / 3 within each half in one pick.
    const Boolean nor = [&] {
      r1cs::Namespace ns(cs, "nor");
      return Boolean(AllocatedBit::nor(cs, b0.bit(), b1.bit()));
    }();
    const Boolean and_ = [&] {
      r1cs::Namespace ns(cs, "and");
      return Boolean(AllocatedBit::and_(cs, b0.bit(), b1.bit()));
    }();
    const Num p0_xx0 = pick("p0_xx0", nor, a, b);
    const Num p0 = pick("p0", b2, b, p0_xx0);
    const Num p1_x00 = pick("p1_x00", b0, a, b);
    const Num p1_xx0 = pick("p1_xx0", b1, c, p1_x00);
    const Num p1 = pick("p1", b2, c, p1_xx0);
    const Num p2_x10 = pick("p2_x10", b0, d, a);
    const Num p2_xx0 = pick("p2_xx0", b1, p2_x10, c);
    const Num p2 = pick("p2", b2, d, p2_xx0);
    const Num p3_xx0 = pick("p3_xx0", and_, a, d);
    const Num p3 = pick("p3", b2, e, p3_xx0);
    const Num p4_xx1 = pick("p4_xx1", nor, a, f);
    const Num p4 = pick("p4", b2, p4_xx1, e);
    const Num p5_x01 = pick("p5_x01", b0, a, f);
    const Num p5_xx1 = pick("p5_xx1", b1, g, p5_x01);
    const Num p5 = pick("p5", b2, p5_xx1, f);
    const Num p6_x11 = pick("p6_x11", b0, h, a);
    const Num p6_xx1 = pick("p6_xx1", b1, p6_x11, g);
    const Num p6 = pick("p6", b2, p6_xx1, g);
    const Num p7_xx1 = pick("p7_xx1", and_, a, h);
    const Num p7 = pick("p7", b2, p7_xx1, h);
    return {p0, p1, p2, p3, p4, p5, p6, p7};
  }
  // insertion.rs falls back to a generic `select` for other arities; no Filecoin tree uses it.
  throw Exception(invalid_argument("insert: only arity 2, 4 and 8 are supported"));
}

}  // namespace cuzk::gadgets
