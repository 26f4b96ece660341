#include "groth16/snarkjs_json.hpp"

#include <simdjson.h>

#include "ec/subgroup.hpp"
#include "ff/decimal.hpp"
#include "pairing/pairing.hpp"

namespace cuzk::groth16 {
namespace {

using simdjson::dom::element;

// JSON text is built by appending (GCC 12 at -O3 warns falsely on chained operator+).
std::string quoted(std::string digits) {
  std::string s = "\"";
  s.append(digits).append("\"");
  return s;
}
std::string dec(const ff::Fp& x) { return quoted(ff::to_decimal(x.to_int())); }
std::string dec(const ff::Fr& x) { return quoted(ff::to_decimal(x.to_int())); }
std::string fp2(const ff::Fp2& x) {
  std::string s = "[";
  s.append(dec(x.c0)).append(", ").append(dec(x.c1)).append("]");
  return s;
}

std::string g1(const G1Affine& p) {
  if (p.is_identity()) return R"(["0", "1", "0"])";
  std::string s = "[";
  s.append(dec(p.x)).append(", ").append(dec(p.y)).append(", \"1\"]");
  return s;
}
std::string g2(const G2Affine& p) {
  if (p.is_identity()) return R"([["0", "0"], ["1", "0"], ["0", "0"]])";
  std::string s = "[";
  s.append(fp2(p.x)).append(", ").append(fp2(p.y)).append(", [\"1\", \"0\"]]");
  return s;
}

std::string indexed(std::string_view base, size_t i) {
  std::string s(base);
  s.append("[").append(std::to_string(i)).append("]");
  return s;
}

// Parsing: every failure names source and the JSON path of the field.
struct Reader {
  const std::string& source;
  Error fail(const std::string& field, const std::string& what) const {
    return invalid_argument(source + ": " + field + ": " + what);
  }
  Expected<element> at(element e, const std::string& field, const char* key) const {
    element v;
    if (e[key].get(v) != simdjson::SUCCESS) {
      std::string path = field;
      path.append(field.empty() ? "" : ".").append(key);
      return fail(path, "missing");
    }
    return v;
  }
  Expected<std::vector<element>> array(element e, const std::string& field, size_t size) const {
    simdjson::dom::array a;
    if (e.get(a) != simdjson::SUCCESS) return fail(field, "not an array");
    std::vector<element> out(a.begin(), a.end());
    if (size != 0 && out.size() != size) return fail(field, "has " + std::to_string(out.size()) + " entries, expected " + std::to_string(size));
    return out;
  }
  template <class F>
  Expected<F> number(element e, const std::string& field) const {
    std::string_view s;
    if (e.get(s) != simdjson::SUCCESS) return fail(field, "not a string");
    const auto v = ff::from_decimal<F::kLimbs>(s);
    if (!v) return fail(field, "not a decimal number");
    if (*v >= F::kModulus) return fail(field, "not below the field modulus");
    return F::from_int(*v);
  }
  Expected<ff::Fp2> fp2_of(element e, const std::string& field) const {
    auto a = array(e, field, 2);
    if (!a) return a.error();
    auto c0 = number<ff::Fp>((*a)[0], indexed(field, 0)), c1 = number<ff::Fp>((*a)[1], indexed(field, 1));
    if (!c0) return c0.error();
    if (!c1) return c1.error();
    return ff::Fp2{*c0, *c1};
  }
  // [x, y, z] with z = 1 (a point) or z = 0 (infinity).
  template <class Point>
  Expected<Point> point(element e, const std::string& field) const {
    auto a = array(e, field, 3);
    if (!a) return a.error();
    constexpr bool is_g1 = std::is_same_v<Point, G1Affine>;
    using Coord = std::conditional_t<is_g1, ff::Fp, ff::Fp2>;
    Coord c[3];
    for (int i = 0; i < 3; ++i) {
      const std::string f = field + indexed("", i);
      Expected<Coord> v = [&] {
        if constexpr (is_g1) return number<ff::Fp>((*a)[i], f);
        else return fp2_of((*a)[i], f);
      }();
      if (!v) return v.error();
      c[i] = *v;
    }
    if (c[2].is_zero()) return Point::identity();
    if (!c[2].is_one()) return fail(field, "z is neither 0 nor 1 (not an affine point)");
    Point p{c[0], c[1], false};
    if (!p.is_on_curve()) return fail(field, "point is not on the curve");
    if (!ec::in_subgroup(p)) return fail(field, "point is not in the prime-order subgroup");
    return p;
  }
  Expected<element> document(simdjson::dom::parser& parser, simdjson::padded_string& text) const {
    element root;
    if (auto err = parser.parse(text).get(root); err != simdjson::SUCCESS) {
      return invalid_argument(source + ": not valid JSON (" + simdjson::error_message(err) + ")");
    }
    return root;
  }
  Expected<void> expect(element root, const char* key, std::string_view value) const {
    auto v = at(root, "", key);
    if (!v) return v.error();
    std::string_view s;
    if (v->get(s) != simdjson::SUCCESS || s != value) return fail(key, "expected \"" + std::string(value) + "\"");
    return {};
  }
};

}  // namespace

std::string vk_to_snarkjs_json(const VerifyingKey& vk) {
  const ff::Fp12 ab = pairing::pairing(vk.alpha_g1, vk.beta_g2);
  const auto fp6 = [](const ff::Fp6& x) {
    std::string s = "[";
    s.append(fp2(x.c0)).append(", ").append(fp2(x.c1)).append(", ").append(fp2(x.c2)).append("]");
    return s;
  };
  std::string s = "{\n \"protocol\": \"groth16\",\n \"curve\": \"bls12381\",\n \"nPublic\": ";
  s.append(std::to_string(vk.ic.size() - 1));
  s.append(",\n \"vk_alpha_1\": ").append(g1(vk.alpha_g1));
  s.append(",\n \"vk_beta_2\": ").append(g2(vk.beta_g2));
  s.append(",\n \"vk_gamma_2\": ").append(g2(vk.gamma_g2));
  s.append(",\n \"vk_delta_2\": ").append(g2(vk.delta_g2));
  s.append(",\n \"vk_alphabeta_12\": [").append(fp6(ab.c0)).append(", ").append(fp6(ab.c1)).append("]");
  s.append(",\n \"IC\": [");
  for (size_t i = 0; i < vk.ic.size(); ++i) s.append(i ? ",\n  " : "\n  ").append(g1(vk.ic[i]));
  s.append("\n ]\n}\n");
  return s;
}

std::string proof_to_snarkjs_json(const Proof& p) {
  std::string s = "{\n \"pi_a\": ";
  s.append(g1(p.a)).append(",\n \"pi_b\": ").append(g2(p.b)).append(",\n \"pi_c\": ").append(g1(p.c));
  s.append(",\n \"protocol\": \"groth16\",\n \"curve\": \"bls12381\"\n}\n");
  return s;
}

std::string public_to_snarkjs_json(std::span<const ff::Fr> inputs) {
  std::string s = "[";
  for (size_t i = 0; i < inputs.size(); ++i) s.append(i ? ",\n " : "\n ").append(dec(inputs[i]));
  s.append("\n]\n");
  return s;
}

Expected<VerifyingKey> vk_from_snarkjs_json(std::string_view json, const std::string& source) {
  const Reader r{source};
  simdjson::dom::parser parser;
  simdjson::padded_string text(json);
  element root;
  CUZK_TRY_ASSIGN(root, r.document(parser, text))
  if (auto ok = r.expect(root, "protocol", "groth16"); !ok) return ok.error();
  if (auto ok = r.expect(root, "curve", "bls12381"); !ok) return ok.error();
  VerifyingKey vk;
  element e;
  CUZK_TRY_ASSIGN(e, r.at(root, "", "vk_alpha_1"))
  CUZK_TRY_ASSIGN(vk.alpha_g1, r.point<G1Affine>(e, "vk_alpha_1"))
  CUZK_TRY_ASSIGN(e, r.at(root, "", "vk_beta_2"))
  CUZK_TRY_ASSIGN(vk.beta_g2, r.point<G2Affine>(e, "vk_beta_2"))
  CUZK_TRY_ASSIGN(e, r.at(root, "", "vk_gamma_2"))
  CUZK_TRY_ASSIGN(vk.gamma_g2, r.point<G2Affine>(e, "vk_gamma_2"))
  CUZK_TRY_ASSIGN(e, r.at(root, "", "vk_delta_2"))
  CUZK_TRY_ASSIGN(vk.delta_g2, r.point<G2Affine>(e, "vk_delta_2"))
  CUZK_TRY_ASSIGN(e, r.at(root, "", "IC"))
  std::vector<element> ic;
  CUZK_TRY_ASSIGN(ic, r.array(e, "IC", 0))
  if (ic.empty()) return r.fail("IC", "is empty");
  for (size_t i = 0; i < ic.size(); ++i) {
    G1Affine p;
    CUZK_TRY_ASSIGN(p, r.point<G1Affine>(ic[i], indexed("IC", i)))
    vk.ic.push_back(p);
  }
  int64_t n_public = 0;
  CUZK_TRY_ASSIGN(e, r.at(root, "", "nPublic"))
  if (e.get(n_public) != simdjson::SUCCESS || n_public + 1 != static_cast<int64_t>(vk.ic.size())) {
    return r.fail("nPublic", "does not match the " + std::to_string(vk.ic.size()) + " IC points");
  }
  return vk;
}

Expected<Proof> proof_from_snarkjs_json(std::string_view json, const std::string& source) {
  const Reader r{source};
  simdjson::dom::parser parser;
  simdjson::padded_string text(json);
  element root, e;
  CUZK_TRY_ASSIGN(root, r.document(parser, text))
  if (auto ok = r.expect(root, "protocol", "groth16"); !ok) return ok.error();
  if (auto ok = r.expect(root, "curve", "bls12381"); !ok) return ok.error();
  Proof p;
  CUZK_TRY_ASSIGN(e, r.at(root, "", "pi_a"))
  CUZK_TRY_ASSIGN(p.a, r.point<G1Affine>(e, "pi_a"))
  CUZK_TRY_ASSIGN(e, r.at(root, "", "pi_b"))
  CUZK_TRY_ASSIGN(p.b, r.point<G2Affine>(e, "pi_b"))
  CUZK_TRY_ASSIGN(e, r.at(root, "", "pi_c"))
  CUZK_TRY_ASSIGN(p.c, r.point<G1Affine>(e, "pi_c"))
  return p;
}

Expected<std::vector<ff::Fr>> public_from_snarkjs_json(std::string_view json, const std::string& source) {
  const Reader r{source};
  simdjson::dom::parser parser;
  simdjson::padded_string text(json);
  element root;
  CUZK_TRY_ASSIGN(root, r.document(parser, text))
  std::vector<element> values;
  CUZK_TRY_ASSIGN(values, r.array(root, "public", 0))
  std::vector<ff::Fr> out;
  for (size_t i = 0; i < values.size(); ++i) {
    ff::Fr v;
    CUZK_TRY_ASSIGN(v, r.number<ff::Fr>(values[i], indexed("", i)))
    out.push_back(v);
  }
  return out;
}

}  // namespace cuzk::groth16
