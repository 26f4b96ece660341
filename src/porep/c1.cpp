#include "porep/c1.hpp"

#include <simdjson.h>

#include <bit>
#include <charconv>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>

#include <fmt/format.h>

#include "core/base64.hpp"
#include "core/json_check.hpp"

namespace cuzk::porep {
namespace {

// A JSON path, built on the stack as the parser descends and rendered only for an error:
// key ".comm_r" or index "[3]".
struct Loc {
  const Loc* parent = nullptr;
  std::string_view key;
  size_t index = 0;

  Loc at(std::string_view k) const { return {this, k, 0}; }
  Loc at(size_t i) const { return {this, {}, i}; }
};

void render(const Loc* loc, std::string& out) {
  if (loc == nullptr) return;
  render(loc->parent, out);
  if (loc->parent == nullptr && loc->key.empty()) return;  // the root
  if (!loc->key.empty()) {
    if (!out.empty()) out.push_back('.');
    out.append(loc->key);
  } else {
    out.append("[").append(std::to_string(loc->index)).append("]");
  }
}

// Every refusal: "<source>: <json path>: <what>".
struct Failer {
  std::string_view source;
  Error operator()(const Loc& at, std::string_view what) const {
    std::string path;
    render(&at, path);
    if (path.empty()) return invalid_argument(fmt::format("{}: {}", source, what));
    return invalid_argument(fmt::format("{}: {}: {}", source, path, what));
  }
};

// 2^254: SHA-256 domains of tree D are trimmed to 254 bits (top two bits of byte 31 clear).
constexpr uint8_t kShaTopMask = 0xc0;

ff::Fr::Int int_from_le(const std::array<uint8_t, 32>& b) {
  ff::Fr::Int v;
  static_assert(std::endian::native == std::endian::little && sizeof(v.limbs) == 32);
  std::memcpy(v.limbs.data(), b.data(), 32);
  return v;
}

enum class Domain : uint8_t { kPoseidon, kSha256 };

// simdjson On-Demand: no tape is built, and every 32-byte value (nearly all of a C1's text: 32
// small integers each) is read from its raw text by read_bytes32 rather than number by number.
using simdjson::ondemand::array;
using simdjson::ondemand::object;
using simdjson::ondemand::value;

bool is_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// Parses "[b0,b1,...]" (JSON integers 0..255, optional whitespace). Returns the number of
// elements seen, or the index of the first bad element as `bad`.
struct ByteArrayScan {
  size_t count = 0;
  std::optional<size_t> bad;
};
// Any JSON layout (whitespace allowed): the reference the fast path falls back to.
ByteArrayScan read_bytes32_general(std::string_view raw, std::array<uint8_t, 32>& out) {
  ByteArrayScan scan;
  size_t i = 1;  // after '['
  const size_t end = raw.size() - 1;  // at ']'
  while (i < end && is_space(raw[i])) ++i;
  if (i == end) return scan;  // []
  for (;;) {
    while (i < end && is_space(raw[i])) ++i;
    uint32_t v = 0;
    size_t digits = 0;
    while (i < end && raw[i] >= '0' && raw[i] <= '9' && digits < 4) v = v * 10 + static_cast<uint32_t>(raw[i++] - '0'), ++digits;
    // JSON forbids leading zeros; a byte has at most 3 digits.
    if (digits == 0 || v > 255 || (digits > 1 && raw[i - digits] == '0')) {
      scan.bad = scan.count;
      return scan;
    }
    if (scan.count < 32) out[scan.count] = static_cast<uint8_t>(v);
    ++scan.count;
    while (i < end && is_space(raw[i])) ++i;
    if (i == end) return scan;
    if (raw[i] != ',') {
      scan.bad = scan.count - 1;
      return scan;
    }
    ++i;
  }
}

// serde_json's compact "[b0,b1,...,b31]". Each number's length comes from a 4-byte word without
// branching (1-3 digits at random mispredict a digit loop ~2 times per number); anything else
// goes to the general reader. Reads up to 3 bytes past ']', which the simdjson padding covers.
ByteArrayScan read_bytes32(std::string_view raw, std::array<uint8_t, 32>& out) {
  const char* p = raw.data() + 1;
  const char* const end = raw.data() + raw.size() - 1;  // at ']'
  for (size_t k = 0; k < 32; ++k) {
    uint32_t w;
    std::memcpy(&w, p, 4);
    // Per byte: t = c − '0' (a borrow only reaches bytes after a non-digit, which are ignored);
    // non-digit ⇔ t ≥ 10 ⇔ the top bit of t or of t + 0x76 is set.
    const uint32_t t = w - 0x30303030u;
    const uint32_t non_digit = ((t + 0x76767676u) | t) & 0x80808080u;
    const int len = non_digit == 0 ? 4 : __builtin_ctz(non_digit) >> 3;
    if (len == 0 || len > 3 || (len > 1 && (t & 0xff) == 0)) return read_bytes32_general(raw, out);
    const uint32_t u = t << (8 * (3 - len));  // right-align the digits in bytes 0..2
    const uint32_t v = (u & 0xff) * 100 + ((u >> 8) & 0xff) * 10 + ((u >> 16) & 0xff);
    if (v > 255) return read_bytes32_general(raw, out);
    out[k] = static_cast<uint8_t>(v);
    p += len;
    if (k < 31 ? *p != ',' : p != end) return read_bytes32_general(raw, out);
    ++p;
  }
  return {32, std::nullopt};
}

class Parser {
 public:
  explicit Parser(std::string_view source) : fail_{source} {}

  Expected<C1> document(object top, const Loc& at) {
    C1 c1;
    std::string_view name;
    CUZK_TRY_ASSIGN(name, string(top, at, "registered_proof"));
    const RegisteredSealProof* proof = registered_seal_proof_entry(name);
    if (proof == nullptr) return fail_(at.at("registered_proof"), fmt::format("unknown registered seal proof '{}'", name));
    if (auto supported = registered_seal_proof(name); !supported) {
      Error e = supported.error();
      e.message = fmt::format("{}: registered_proof: {}", fail_.source, e.message);
      return e;
    }
    c1.registered_proof = std::string(name);

    // {"StackedDrg2KiBV1": [[Proof; challenges]; partitions]}: exactly the variant of this size.
    const Loc vp = at.at("vanilla_proofs");
    object variants;
    CUZK_TRY_ASSIGN(variants, as_object(field(top, "vanilla_proofs"), vp));
    const std::string_view variant = vanilla_proof_variant(*proof);
    const Loc partitions_at = vp.at(variant);
    size_t keys = 0;
    for (auto f : variants) {
      simdjson::ondemand::field entry;
      std::string_view key;
      if (std::move(f).get(entry) != simdjson::SUCCESS || entry.unescaped_key().get(key) != simdjson::SUCCESS) return fail_(vp, "not valid JSON");
      if (keys++ != 0) return fail_(vp, fmt::format("expected one key, {}, got more", variant));
      if (key != variant) return fail_(vp, fmt::format("expected key {} for {}, got {}", variant, name, key));
      array partitions;
      CUZK_TRY_ASSIGN(partitions, as_array(std::move(entry.value()), partitions_at));
      size_t k = 0;
      for (auto partition : partitions) {
        const Loc pk = partitions_at.at(k++);
        array challenges;
        CUZK_TRY_ASSIGN(challenges, as_array(std::move(partition), pk));
        auto& out = c1.partitions.emplace_back();
        size_t i = 0;
        for (auto challenge : challenges) CUZK_TRY_ASSIGN(out.emplace_back(), challenge_proof(std::move(challenge), pk.at(i++)));
      }
    }
    if (keys == 0) return fail_(vp, fmt::format("expected one key, {}, got none", variant));

    // Commitments: comm_r and replica_id are Poseidon domains (canonical Fr), comm_d a tree-D
    // root; seed and ticket are free bytes.
    CUZK_TRY_ASSIGN(c1.comm_r, bytes32(top, at, "comm_r", Domain::kPoseidon));
    CUZK_TRY_ASSIGN(c1.comm_d, bytes32(top, at, "comm_d", Domain::kSha256));
    CUZK_TRY_ASSIGN(c1.replica_id, bytes32(top, at, "replica_id", Domain::kPoseidon));
    CUZK_TRY_ASSIGN(c1.seed, bytes32(top, at, "seed", std::nullopt));
    CUZK_TRY_ASSIGN(c1.ticket, bytes32(top, at, "ticket", std::nullopt));
    return c1;
  }

  Failer fail_;

  // A field looked up in any order (Go re-marshals with sorted keys); "missing" names it.
  using Found = simdjson::simdjson_result<value>;
  static Found field(object& o, std::string_view key) { return o.find_field_unordered(key); }
  Error missing_or_bad(simdjson::error_code err, const Loc& at) const {
    return fail_(at, err == simdjson::NO_SUCH_FIELD ? "missing" : simdjson::error_message(err));
  }
  // On-Demand reports a syntax error where the reader meets it, as the value there.
  Error type_error(simdjson::error_code err, const Loc& at, std::string_view wrong_type) const {
    if (err == simdjson::INCORRECT_TYPE) return fail_(at, wrong_type);
    return fail_(at, fmt::format("not valid JSON: {}", simdjson::error_message(err)));
  }
  Expected<object> as_object(Found found, const Loc& at) const {
    object o;
    if (found.error() == simdjson::NO_SUCH_FIELD) return fail_(at, "missing");
    if (const auto err = found.get_object().get(o); err != simdjson::SUCCESS) return type_error(err, at, "not an object");
    return o;
  }
  Expected<array> as_array(Found found, const Loc& at) const {
    array a;
    if (found.error() == simdjson::NO_SUCH_FIELD) return fail_(at, "missing");
    if (const auto err = found.get_array().get(a); err != simdjson::SUCCESS) return type_error(err, at, "not an array");
    return a;
  }
  Expected<std::string_view> string(object& o, const Loc& at, std::string_view key) {
    Found found = field(o, key);
    if (found.error()) return missing_or_bad(found.error(), at.at(key));
    std::string_view s;
    if (const auto err = found.get_string().get(s); err != simdjson::SUCCESS) return type_error(err, at.at(key), "not a string");
    return s;
  }
  Expected<uint64_t> integer(object& o, const Loc& at, std::string_view key, uint64_t max) {
    Found found = field(o, key);
    if (found.error()) return missing_or_bad(found.error(), at.at(key));
    uint64_t v = 0;
    if (const auto err = found.get_uint64().get(v); err != simdjson::SUCCESS) {
      return type_error(err == simdjson::NUMBER_OUT_OF_RANGE ? simdjson::INCORRECT_TYPE : err, at.at(key), "not an unsigned integer");
    }
    if (v > max) return fail_(at.at(key), fmt::format("{} is out of range (> {})", v, max));
    return v;
  }

  // A 32-byte value: an array of 32 integers 0..255 (serde's [u8; 32]).
  Expected<std::array<uint8_t, 32>> raw32(Found found, const Loc& at) const {
    array a;
    CUZK_TRY_ASSIGN(a, as_array(std::move(found), at));
    std::string_view raw;
    if (a.raw_json().get(raw) != simdjson::SUCCESS) return fail_(at, "not valid JSON");
    while (!raw.empty() && is_space(raw.back())) raw.remove_suffix(1);  // raw_json keeps what follows ']'
    if (raw.size() < 2 || raw.back() != ']') return fail_(at, "not valid JSON");
    std::array<uint8_t, 32> out{};
    const ByteArrayScan scan = read_bytes32(raw, out);
    if (scan.bad) return fail_(at.at(*scan.bad), "not a byte (0..255)");
    if (scan.count != 32) return fail_(at, fmt::format("expected 32 bytes, got {}", scan.count));
    return out;
  }
  Expected<void> check_domain(const std::array<uint8_t, 32>& b, const Loc& at, Domain domain) const {
    if (domain == Domain::kSha256) {
      if ((b[31] & kShaTopMask) != 0) return fail_(at, "not a SHA-256 tree domain (>= 2^254)");
    } else if (int_from_le(b) >= ff::Fr::kModulus) {
      return fail_(at, "not a canonical field element (>= r)");
    }
    return {};
  }
  Expected<std::array<uint8_t, 32>> bytes32(object& o, const Loc& at, std::string_view key, std::optional<Domain> domain) {
    std::array<uint8_t, 32> b{};
    CUZK_TRY_ASSIGN(b, raw32(field(o, key), at.at(key)));
    if (domain) {
      if (auto ok = check_domain(b, at.at(key), *domain); !ok) return ok.error();
    }
    return b;
  }
  Expected<ff::Fr> fr(Found found, const Loc& at, Domain domain) const {
    std::array<uint8_t, 32> b{};
    CUZK_TRY_ASSIGN(b, raw32(std::move(found), at));
    if (auto ok = check_domain(b, at, domain); !ok) return ok.error();
    return ff::Fr::from_int(int_from_le(b));
  }
  Expected<ff::Fr> fr(object& o, const Loc& at, std::string_view key, Domain domain) {
    return fr(field(o, key), at.at(key), domain);
  }
  Expected<std::vector<ff::Fr>> fr_array(object& o, const Loc& at, std::string_view key, Domain domain) {
    const Loc here = at.at(key);
    array a;
    CUZK_TRY_ASSIGN(a, as_array(field(o, key), here));
    std::vector<ff::Fr> out;
    size_t i = 0;
    for (auto v : a) CUZK_TRY_ASSIGN(out.emplace_back(), fr(std::move(v), here.at(i++), domain));
    return out;
  }

  // InclusionPath {"path": [{"hashes": [D...], "index": n}]} appended to out. `exactly`, when
  // nonzero, is the element count a Sub/Top proof's sub_proof/top_proof must have (one level).
  Expected<void> inclusion_path(object& o, const Loc& at, std::string_view key, Domain domain, size_t exactly,
                                std::vector<PathElement>& out) {
    const Loc here = at.at(key);
    object path_obj;
    CUZK_TRY_ASSIGN(path_obj, as_object(field(o, key), here));
    const Loc path_at = here.at("path");
    array elements;
    CUZK_TRY_ASSIGN(elements, as_array(field(path_obj, "path"), path_at));
    size_t i = 0;
    for (auto pe : elements) {
      const Loc pe_at = path_at.at(i++);
      object pe_obj;
      CUZK_TRY_ASSIGN(pe_obj, as_object(std::move(pe), pe_at));
      PathElement& el = out.emplace_back();
      CUZK_TRY_ASSIGN(el.hashes, fr_array(pe_obj, pe_at, "hashes", domain));
      uint64_t index = 0;
      CUZK_TRY_ASSIGN(index, integer(pe_obj, pe_at, "index", UINT32_MAX));
      el.index = static_cast<uint32_t>(index);
    }
    if (exactly != 0 && i != exactly) return fail_(path_at, fmt::format("expected {} element, got {}", exactly, i));
    return {};
  }

  // MerkleProof {"data": {"Single"|"Sub"|"Top": {...}}} (storage-proofs-core merkle/proof.rs):
  // Single {root, leaf, path}; Sub {base_proof, sub_proof, root, leaf}; Top adds top_proof.
  Expected<MerkleProof> merkle_proof(object& o, const Loc& at, std::string_view key, Domain domain) {
    const Loc here = at.at(key);
    object proof_obj;
    CUZK_TRY_ASSIGN(proof_obj, as_object(field(o, key), here));
    const Loc data_at = here.at("data");
    object data;
    CUZK_TRY_ASSIGN(data, as_object(field(proof_obj, "data"), data_at));
    MerkleProof out;
    size_t keys = 0;
    for (auto f : data) {
      simdjson::ondemand::field entry;
      std::string_view kind;
      if (std::move(f).get(entry) != simdjson::SUCCESS || entry.unescaped_key().get(kind) != simdjson::SUCCESS) return fail_(data_at, "not valid JSON");
      if (keys++ != 0) return fail_(data_at, "expected one key (Single, Sub or Top), got more");
      if (kind == "Single") out.kind = MerkleProof::Kind::kSingle;
      else if (kind == "Sub") out.kind = MerkleProof::Kind::kSub;
      else if (kind == "Top") out.kind = MerkleProof::Kind::kTop;
      else return fail_(data_at, fmt::format("expected Single, Sub or Top, got {}", kind));
      const Loc v_at = data_at.at(kind);
      object v;
      CUZK_TRY_ASSIGN(v, as_object(std::move(entry.value()), v_at));
      // Read in declaration order (any order is accepted, this one is fastest).
      Expected<void> ok;
      if (out.kind == MerkleProof::Kind::kSingle) {
        CUZK_TRY_ASSIGN(out.root, fr(v, v_at, "root", domain));
        CUZK_TRY_ASSIGN(out.leaf, fr(v, v_at, "leaf", domain));
        ok = inclusion_path(v, v_at, "path", domain, 0, out.path);
      } else {
        ok = inclusion_path(v, v_at, "base_proof", domain, 0, out.path);
        if (ok) ok = inclusion_path(v, v_at, "sub_proof", domain, 1, out.path);
        if (ok && out.kind == MerkleProof::Kind::kTop) ok = inclusion_path(v, v_at, "top_proof", domain, 1, out.path);
        if (ok) {
          CUZK_TRY_ASSIGN(out.root, fr(v, v_at, "root", domain));
          CUZK_TRY_ASSIGN(out.leaf, fr(v, v_at, "leaf", domain));
        }
      }
      if (!ok) return ok.error();
    }
    if (keys == 0) return fail_(data_at, "expected one key (Single, Sub or Top), got none");
    return out;
  }

  // ColumnProof {"column": {"index", "rows", "_h"}, "inclusion_proof"}.
  Expected<ColumnProof> column_proof(Found found, const Loc& at) {
    object o;
    CUZK_TRY_ASSIGN(o, as_object(std::move(found), at));
    const Loc c_at = at.at("column");
    object column;
    CUZK_TRY_ASSIGN(column, as_object(field(o, "column"), c_at));
    ColumnProof out;
    uint64_t index = 0;
    CUZK_TRY_ASSIGN(index, integer(column, c_at, "index", UINT32_MAX));
    out.index = static_cast<uint32_t>(index);
    CUZK_TRY_ASSIGN(out.rows, fr_array(column, c_at, "rows", Domain::kPoseidon));
    CUZK_TRY_ASSIGN(out.inclusion, merkle_proof(o, at, "inclusion_proof", Domain::kPoseidon));
    return out;
  }
  Expected<std::vector<ColumnProof>> column_proofs(object& o, const Loc& at, std::string_view key) {
    const Loc here = at.at(key);
    array a;
    CUZK_TRY_ASSIGN(a, as_array(field(o, key), here));
    std::vector<ColumnProof> out;
    size_t i = 0;
    for (auto c : a) CUZK_TRY_ASSIGN(out.emplace_back(), column_proof(std::move(c), here.at(i++)));
    return out;
  }

  // LabelingProof / EncodingProof {"parents", "layer_index", "node"}.
  Expected<LabelingProof> labeling_proof(Found found, const Loc& at) {
    object o;
    CUZK_TRY_ASSIGN(o, as_object(std::move(found), at));
    LabelingProof out;
    CUZK_TRY_ASSIGN(out.parents, fr_array(o, at, "parents", Domain::kPoseidon));
    uint64_t layer = 0;
    CUZK_TRY_ASSIGN(layer, integer(o, at, "layer_index", UINT32_MAX));
    out.layer_index = static_cast<uint32_t>(layer);
    CUZK_TRY_ASSIGN(out.node, integer(o, at, "node", UINT64_MAX));
    return out;
  }

  // stacked/vanilla/params.rs Proof.
  Expected<ChallengeProof> challenge_proof(Found found, const Loc& at) {
    object o;
    CUZK_TRY_ASSIGN(o, as_object(std::move(found), at));
    ChallengeProof out;
    CUZK_TRY_ASSIGN(out.comm_d_proof, merkle_proof(o, at, "comm_d_proofs", Domain::kSha256));
    CUZK_TRY_ASSIGN(out.comm_r_last_proof, merkle_proof(o, at, "comm_r_last_proof", Domain::kPoseidon));
    const Loc r_at = at.at("replica_column_proofs");
    object rcp;
    CUZK_TRY_ASSIGN(rcp, as_object(field(o, "replica_column_proofs"), r_at));
    CUZK_TRY_ASSIGN(out.c_x, column_proof(field(rcp, "c_x"), r_at.at("c_x")));
    CUZK_TRY_ASSIGN(out.drg_parents, column_proofs(rcp, r_at, "drg_parents"));
    CUZK_TRY_ASSIGN(out.exp_parents, column_proofs(rcp, r_at, "exp_parents"));
    const Loc l_at = at.at("labeling_proofs");
    array layers;
    CUZK_TRY_ASSIGN(layers, as_array(field(o, "labeling_proofs"), l_at));
    size_t i = 0;
    for (auto lp : layers) CUZK_TRY_ASSIGN(out.labeling_proofs.emplace_back(), labeling_proof(std::move(lp), l_at.at(i++)));
    CUZK_TRY_ASSIGN(out.encoding_proof, labeling_proof(field(o, "encoding_proof"), at.at("encoding_proof")));
    return out;
  }
};


// ---- validate ----

// The expected form of one tree's Merkle proofs.
struct TreeForm {
  MerkleProof::Kind kind;
  uint32_t base_arity, base_len, sub_arity, top_arity;
};

TreeForm tree_d_form(const SectorShape& s) { return {MerkleProof::Kind::kSingle, 2, s.tree_d_depth, 0, 0}; }
TreeForm tree_rc_form(const SectorShape& s) {
  const auto kind = s.top_arity ? MerkleProof::Kind::kTop : s.sub_arity ? MerkleProof::Kind::kSub : MerkleProof::Kind::kSingle;
  return {kind, s.base_arity, s.base_path_len(), s.sub_arity, s.top_arity};
}
const char* kind_name(MerkleProof::Kind k) {
  switch (k) {
    case MerkleProof::Kind::kSingle: return "Single";
    case MerkleProof::Kind::kSub: return "Sub";
    case MerkleProof::Kind::kTop: return "Top";
  }
  return "?";
}

class Validator {
 public:
  Validator(const C1& c1, const SectorShape& shape, std::string_view source) : c1_(c1), shape_(shape), fail_{source} {}

  Expected<void> run() {
    const Loc root;
    const RegisteredSealProof* proof = registered_seal_proof_entry(c1_.registered_proof);
    if (proof == nullptr) return fail_(root.at("registered_proof"), fmt::format("unknown registered seal proof '{}'", c1_.registered_proof));
    if (!proof->supported()) return fail_(root.at("registered_proof"), fmt::format("{} is not supported", proof->name));
    if (proof->sector_size != shape_.sector_size) {
      return fail_(root.at("registered_proof"), fmt::format("{} is a {}-byte sector proof, expected {} ({} bytes)", proof->name,
                                                            proof->sector_size, shape_.name, shape_.sector_size));
    }
    if (c1_.wrapped && c1_.sector_size != shape_.sector_size) {
      return fail_(root.at("SectorSize"), fmt::format("{} does not match registered_proof {} ({} bytes)", c1_.sector_size,
                                                      proof->name, proof->sector_size));
    }
    comm_d_ = ff::Fr::from_int(int_from_le(c1_.comm_d));
    const Loc vanilla = root.at("vanilla_proofs");  // Locs point at their parents: keep each alive
    const Loc partitions_at = vanilla.at(vanilla_proof_variant(*proof));
    if (c1_.partitions.size() != shape_.partitions) {
      return fail_(partitions_at, fmt::format("expected {} partitions, got {}", shape_.partitions, c1_.partitions.size()));
    }
    for (size_t k = 0; k < c1_.partitions.size(); ++k) {
      const auto& partition = c1_.partitions[k];
      const Loc pk = partitions_at.at(k);
      if (partition.size() != shape_.challenges_per_partition) {
        return fail_(pk, fmt::format("expected {} challenges, got {}", shape_.challenges_per_partition, partition.size()));
      }
      for (size_t i = 0; i < partition.size(); ++i) {
        if (auto ok = challenge(partition[i], pk.at(i)); !ok) return ok;
      }
    }
    return {};
  }

 private:
  const C1& c1_;
  const SectorShape& shape_;
  Failer fail_;
  ff::Fr comm_d_;
  std::optional<ff::Fr> comm_r_last_, comm_c_;

  // The JSON location of flattened path element i.
  Loc element_at(const MerkleProof& p, const Loc& variant, size_t i, Loc& scratch1, Loc& scratch2) const {
    if (p.kind == MerkleProof::Kind::kSingle) {
      scratch1 = variant.at("path");
      scratch2 = scratch1.at("path");
      return scratch2.at(i);
    }
    const size_t base = p.path.size() - (p.kind == MerkleProof::Kind::kTop ? 2 : 1);
    const char* part = i < base ? "base_proof" : i == base ? "sub_proof" : "top_proof";
    scratch1 = variant.at(part);
    scratch2 = scratch1.at("path");
    return scratch2.at(i < base ? i : 0);
  }

  Expected<void> merkle(const MerkleProof& p, const TreeForm& form, uint64_t leaf_index, const Loc& at,
                        std::optional<ff::Fr>& shared_root) {
    const Loc data = at.at("data");
    if (p.kind != form.kind) return fail_(data, fmt::format("expected {}, got {}", kind_name(form.kind), kind_name(p.kind)));
    const Loc variant = data.at(kind_name(p.kind));
    const size_t extra = (form.sub_arity ? 1 : 0) + (form.top_arity ? 1 : 0);
    if (p.path.size() != form.base_len + extra) {
      // Sub/top parts hold one element each (checked when parsed), so a wrong count is the base.
      const Loc part = variant.at(p.kind == MerkleProof::Kind::kSingle ? "path" : "base_proof");
      const Loc path = part.at("path");
      const size_t got = p.path.size() < extra ? 0 : p.path.size() - extra;
      return fail_(path, fmt::format("expected {} elements, got {}", form.base_len, got));
    }
    // The indices spell the leaf index: base digits first (leaf level up), then sub, then top.
    uint64_t index = 0, scale = 1;
    for (size_t i = 0; i < p.path.size(); ++i) {
      const uint32_t arity = i < form.base_len ? form.base_arity : i == form.base_len && form.sub_arity ? form.sub_arity : form.top_arity;
      const PathElement& el = p.path[i];
      if (el.hashes.size() != arity - 1 || el.index >= arity) {
        Loc s1, s2;
        const Loc el_at = element_at(p, variant, i, s1, s2);
        if (el.hashes.size() != arity - 1) {
          return fail_(el_at.at("hashes"), fmt::format("expected {} values, got {}", arity - 1, el.hashes.size()));
        }
        return fail_(el_at.at("index"), fmt::format("{} is out of range for arity {}", el.index, arity));
      }
      index += el.index * scale;
      scale *= arity;
    }
    if (index != leaf_index) {
      return fail_(variant.at("path"), fmt::format("path indices spell leaf {}, expected {}", index, leaf_index));
    }
    if (!shared_root) shared_root = p.root;
    else if (p.root != *shared_root) return fail_(variant.at("root"), "differs from the other proofs' root in this tree");
    return {};
  }

  Expected<void> column(const ColumnProof& c, const Loc& at, std::optional<uint64_t> expected_index) {
    const Loc col = at.at("column");
    if (c.index >= shape_.nodes) return fail_(col.at("index"), fmt::format("{} is out of range (>= {} nodes)", c.index, shape_.nodes));
    if (expected_index && c.index != *expected_index) {
      return fail_(col.at("index"), fmt::format("{} is not the challenge {}", c.index, *expected_index));
    }
    if (c.rows.size() != shape_.layers) return fail_(col.at("rows"), fmt::format("expected {} rows, got {}", shape_.layers, c.rows.size()));
    return merkle(c.inclusion, tree_rc_form(shape_), c.index, at.at("inclusion_proof"), comm_c_);
  }

  Expected<void> labeling(const LabelingProof& l, const Loc& at, uint32_t layer, uint64_t challenge) const {
    if (l.parents.size() != SectorShape::kLabelParents) {
      return fail_(at.at("parents"), fmt::format("expected {} values, got {}", SectorShape::kLabelParents, l.parents.size()));
    }
    if (l.layer_index != layer) return fail_(at.at("layer_index"), fmt::format("expected {}, got {}", layer, l.layer_index));
    if (l.node != challenge) return fail_(at.at("node"), fmt::format("{} is not the challenge {}", l.node, challenge));
    return {};
  }

  Expected<void> challenge(const ChallengeProof& p, const Loc& at) {
    // The challenged node, as the labeling proofs name it; every other index must agree.
    const uint64_t node = p.c_x.index;
    std::optional<ff::Fr> comm_d = comm_d_;
    if (auto ok = merkle(p.comm_d_proof, tree_d_form(shape_), node, at.at("comm_d_proofs"), comm_d); !ok) return ok;
    if (auto ok = merkle(p.comm_r_last_proof, tree_rc_form(shape_), node, at.at("comm_r_last_proof"), comm_r_last_); !ok) return ok;
    const Loc r = at.at("replica_column_proofs");
    if (auto ok = column(p.c_x, r.at("c_x"), std::nullopt); !ok) return ok;
    const Loc drg = r.at("drg_parents");
    if (p.drg_parents.size() != shape_.drg_degree) {
      return fail_(drg, fmt::format("expected {} column proofs, got {}", shape_.drg_degree, p.drg_parents.size()));
    }
    for (size_t i = 0; i < p.drg_parents.size(); ++i) {
      if (auto ok = column(p.drg_parents[i], drg.at(i), std::nullopt); !ok) return ok;
    }
    const Loc exp = r.at("exp_parents");
    if (p.exp_parents.size() != shape_.expansion_degree) {
      return fail_(exp, fmt::format("expected {} column proofs, got {}", shape_.expansion_degree, p.exp_parents.size()));
    }
    for (size_t i = 0; i < p.exp_parents.size(); ++i) {
      if (auto ok = column(p.exp_parents[i], exp.at(i), std::nullopt); !ok) return ok;
    }
    const Loc lab = at.at("labeling_proofs");
    if (p.labeling_proofs.size() != shape_.layers) {
      return fail_(lab, fmt::format("expected {} layers, got {}", shape_.layers, p.labeling_proofs.size()));
    }
    for (size_t l = 0; l < p.labeling_proofs.size(); ++l) {
      if (auto ok = labeling(p.labeling_proofs[l], lab.at(l), static_cast<uint32_t>(l + 1), node); !ok) return ok;
    }
    return labeling(p.encoding_proof, at.at("encoding_proof"), shape_.layers, node);
  }
};

}  // namespace

Expected<void> validate(const C1& c1, const SectorShape& shape, std::string_view source_name) {
  return Validator(c1, shape, source_name).run();
}

namespace {

// The document's top-level object; a syntax error found later surfaces at the field it breaks.
Expected<object> top_object(simdjson::ondemand::document& doc, std::string_view source) {
  object o;
  if (const auto err = doc.get_object().get(o); err != simdjson::SUCCESS) {
    if (err == simdjson::INCORRECT_TYPE) return invalid_argument(fmt::format("{}: not an object", source));
    return invalid_argument(fmt::format("{}: not valid JSON: {}", source, simdjson::error_message(err)));
  }
  return o;
}

// `json` has SIMDJSON_PADDING readable bytes past its end; check_json has passed it.
Expected<C1> parse_document(simdjson::padded_string_view json, std::string_view source) {
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document doc;
  if (const auto err = parser.iterate(json).get(doc); err != simdjson::SUCCESS) {
    return invalid_argument(fmt::format("{}: not valid JSON: {}", source, simdjson::error_message(err)));
  }
  object top;
  CUZK_TRY_ASSIGN(top, top_object(doc, source));
  Parser p(source);
  return p.document(top, Loc{});
}

}  // namespace

Expected<C1> parse_c1(std::string_view json, std::string_view source_name) {
  // Strict JSON first (json_check.hpp): syntax errors with their byte offset, one document,
  // no duplicate keys; keys with escapes rewritten plainly for On-Demand's raw key lookups.
  JsonCheck strict;
  CUZK_TRY_ASSIGN(strict, check_json(json, source_name));
  if (strict.unescaped_keys) json = *strict.unescaped_keys;
  // simdjson reads SIMDJSON_PADDING bytes past the end: parse a padded copy.
  const simdjson::padded_string padded(json);
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document doc;
  if (const auto err = parser.iterate(padded).get(doc); err != simdjson::SUCCESS) {
    return invalid_argument(fmt::format("{}: not valid JSON: {}", source_name, simdjson::error_message(err)));
  }
  object o;
  CUZK_TRY_ASSIGN(o, top_object(doc, source_name));
  // Curio's wrapper (curio lib/ffi/cuzk_funcs.go c1OutputWrapper) is told apart by its first
  // key, in whatever order its three keys come; looking further would walk the whole document.
  bool wrapped = false;
  for (auto f : o) {
    simdjson::ondemand::field entry;
    std::string_view key;
    // On an error simdjson abandons the document (its parser pointer becomes null), and the
    // rewind() below would read through it: `{"a" 1}` crashed here (found by the fuzz target c1).
    if (const auto err = std::move(f).get(entry); err != simdjson::SUCCESS) {
      return invalid_argument(fmt::format("{}: not valid JSON: {}", source_name, simdjson::error_message(err)));
    }
    if (const auto err = entry.unescaped_key().get(key); err != simdjson::SUCCESS) {
      return invalid_argument(fmt::format("{}: not valid JSON: {}", source_name, simdjson::error_message(err)));
    }
    wrapped = key == "SectorNum" || key == "Phase1Out" || key == "SectorSize";
    break;
  }
  if (doc.rewind(), doc.get_object().get(o) != simdjson::SUCCESS) return invalid_argument(fmt::format("{}: not valid JSON", source_name));

  const Loc top;
  Parser outer(source_name);
  if (!wrapped) {
    C1 c1;
    CUZK_TRY_ASSIGN(c1, outer.document(o, top));
    const auto shape = shape_for_sector_size(registered_seal_proof_entry(c1.registered_proof)->sector_size);
    if (auto ok = validate(c1, *shape, source_name); !ok) return ok.error();
    return c1;
  }

  // {"SectorNum": Go int64, "Phase1Out": standard base64 of the C1 JSON, "SectorSize": u64}.
  uint64_t sector_num = 0, sector_size = 0;
  CUZK_TRY_ASSIGN(sector_num, outer.integer(o, top, "SectorNum", INT64_MAX));
  std::string_view encoded;
  CUZK_TRY_ASSIGN(encoded, outer.string(o, top, "Phase1Out"));
  auto decoded = base64_decode(encoded);
  if (!decoded) return invalid_argument(fmt::format("{}: Phase1Out: {}", source_name, decoded.error().message));
  CUZK_TRY_ASSIGN(sector_size, outer.integer(o, top, "SectorSize", UINT64_MAX));

  std::string inner_source(source_name);
  inner_source.append(": Phase1Out");
  const size_t n = decoded->size();
  JsonCheck inner_strict;
  CUZK_TRY_ASSIGN(inner_strict, check_json(std::string_view(reinterpret_cast<const char*>(decoded->data()), n), inner_source));
  C1 c1;
  if (inner_strict.unescaped_keys) {
    const simdjson::padded_string inner(*inner_strict.unescaped_keys);
    CUZK_TRY_ASSIGN(c1, parse_document(inner, inner_source));
  } else {
    decoded->resize(n + simdjson::SIMDJSON_PADDING);
    CUZK_TRY_ASSIGN(c1, parse_document(simdjson::padded_string_view(reinterpret_cast<const char*>(decoded->data()), n, decoded->size()),
                                       inner_source));
  }
  c1.wrapped = true;
  c1.sector_num = sector_num;
  c1.sector_size = sector_size;
  // Named as the wrapper's field, so checked here rather than in validate's inner wording.
  const RegisteredSealProof* proof = registered_seal_proof_entry(c1.registered_proof);
  if (proof->sector_size != sector_size) {
    return invalid_argument(fmt::format("{}: SectorSize: {} does not match registered_proof {} ({} bytes)", source_name,
                                        sector_size, proof->name, proof->sector_size));
  }
  const auto shape = shape_for_sector_size(proof->sector_size);
  if (auto ok = validate(c1, *shape, inner_source); !ok) return ok.error();
  return c1;
}

Expected<C1> read_c1_file(const std::filesystem::path& path) {
  // Read, not mapped: a file cut while it is read is a short text (a JSON error), where a mapping
  // would fault the process; a C1 is at most ~100 MB and parse_c1 copies it padded anyway.
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{ErrorCode::kIo, path.string() + ": open: " + std::strerror(errno)};
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return Error{ErrorCode::kIo, path.string() + ": read failed"};
  return parse_c1(text, path.filename().string());
}

}  // namespace cuzk::porep

namespace cuzk::porep {
namespace {

class Writer {
 public:
  explicit Writer(std::string& out) : out_(out) {}

  void bytes(std::span<const uint8_t> b) {
    out_.push_back('[');
    for (size_t i = 0; i < b.size(); ++i) {
      if (i) out_.push_back(',');
      number(b[i]);
    }
    out_.push_back(']');
  }
  void fr(const ff::Fr& x) {
    std::array<uint8_t, 32> b{};
    x.to_bytes_le(b);
    bytes(b);
  }
  void frs(const std::vector<ff::Fr>& xs) {
    out_.push_back('[');
    for (size_t i = 0; i < xs.size(); ++i) {
      if (i) out_.push_back(',');
      fr(xs[i]);
    }
    out_.push_back(']');
  }
  void number(uint64_t v) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, r.ptr);
  }
  void key(std::string_view k) { out_.append("\"").append(k).append("\":"); }
  void raw(std::string_view s) { out_.append(s); }

  void path(const std::vector<PathElement>& elements, size_t begin, size_t end) {
    raw("{\"path\":[");
    for (size_t i = begin; i < end; ++i) {
      if (i != begin) raw(",");
      raw("{");
      key("hashes");
      frs(elements[i].hashes);
      raw(",");
      key("index");
      number(elements[i].index);
      raw("}");
    }
    raw("]}");
  }
  void merkle(const MerkleProof& p) {
    raw("{\"data\":{");
    if (p.kind == MerkleProof::Kind::kSingle) {
      raw("\"Single\":{");
      key("root");
      fr(p.root);
      raw(",");
      key("leaf");
      fr(p.leaf);
      raw(",");
      key("path");
      path(p.path, 0, p.path.size());
    } else {
      // SubProof / TopProof field order: base_proof, sub_proof, (top_proof), root, leaf.
      const size_t base = p.path.size() - (p.kind == MerkleProof::Kind::kTop ? 2 : 1);
      raw(p.kind == MerkleProof::Kind::kSub ? "\"Sub\":{" : "\"Top\":{");
      key("base_proof");
      path(p.path, 0, base);
      raw(",");
      key("sub_proof");
      path(p.path, base, base + 1);
      if (p.kind == MerkleProof::Kind::kTop) {
        raw(",");
        key("top_proof");
        path(p.path, base + 1, base + 2);
      }
      raw(",");
      key("root");
      fr(p.root);
      raw(",");
      key("leaf");
      fr(p.leaf);
    }
    raw("}}}");
  }
  void column(const ColumnProof& c) {
    raw("{\"column\":{");
    key("index");
    number(c.index);
    raw(",");
    key("rows");
    frs(c.rows);
    raw(",\"_h\":null},");
    key("inclusion_proof");
    merkle(c.inclusion);
    raw("}");
  }
  void columns(const std::vector<ColumnProof>& cs) {
    raw("[");
    for (size_t i = 0; i < cs.size(); ++i) {
      if (i) raw(",");
      column(cs[i]);
    }
    raw("]");
  }
  void labeling(const LabelingProof& l) {
    raw("{");
    key("parents");
    frs(l.parents);
    raw(",");
    key("layer_index");
    number(l.layer_index);
    raw(",");
    key("node");
    number(l.node);
    raw("}");
  }
  void challenge(const ChallengeProof& p) {
    raw("{");
    key("comm_d_proofs");
    merkle(p.comm_d_proof);
    raw(",");
    key("comm_r_last_proof");
    merkle(p.comm_r_last_proof);
    raw(",");
    key("replica_column_proofs");
    raw("{");
    key("c_x");
    column(p.c_x);
    raw(",");
    key("drg_parents");
    columns(p.drg_parents);
    raw(",");
    key("exp_parents");
    columns(p.exp_parents);
    raw("},");
    key("labeling_proofs");
    raw("[");
    for (size_t i = 0; i < p.labeling_proofs.size(); ++i) {
      if (i) raw(",");
      labeling(p.labeling_proofs[i]);
    }
    raw("],");
    key("encoding_proof");
    labeling(p.encoding_proof);
    raw("}");
  }

 private:
  std::string& out_;
};

}  // namespace

std::string to_json(const C1& c1) {
  std::string out;
  Writer w(out);
  w.raw("{");
  w.key("registered_proof");
  w.raw("\"");
  w.raw(c1.registered_proof);
  w.raw("\",");
  w.key("vanilla_proofs");
  w.raw("{");
  const RegisteredSealProof* proof = registered_seal_proof_entry(c1.registered_proof);
  w.key(proof ? vanilla_proof_variant(*proof) : std::string_view(c1.registered_proof));
  w.raw("[");
  for (size_t k = 0; k < c1.partitions.size(); ++k) {
    if (k) w.raw(",");
    w.raw("[");
    for (size_t i = 0; i < c1.partitions[k].size(); ++i) {
      if (i) w.raw(",");
      w.challenge(c1.partitions[k][i]);
    }
    w.raw("]");
  }
  w.raw("]},");
  w.key("comm_r");
  w.bytes(c1.comm_r);
  w.raw(",");
  w.key("comm_d");
  w.bytes(c1.comm_d);
  w.raw(",");
  w.key("replica_id");
  w.bytes(c1.replica_id);
  w.raw(",");
  w.key("seed");
  w.bytes(c1.seed);
  w.raw(",");
  w.key("ticket");
  w.bytes(c1.ticket);
  w.raw("}");
  return out;
}

}  // namespace cuzk::porep
