#include "porep/merkle_bincode.hpp"

#include <algorithm>
#include <array>
#include <span>

#include "core/error.hpp"

namespace cuzk::porep::bincode {

namespace {

// An InclusionPath appended to `out`; its element count. A sub or top path must have exactly one
// element (`one`): the flattened MerkleProof keeps no split, so put_merkle_proof writes the last
// element (Sub) or last two (Top) back as those paths, and a sub or top tree has one level.
enum class Elements { kAny, kOne };
Expected<uint32_t> read_path(ByteReader& r, const std::string& field, std::vector<PathElement>& out,
                             Elements elements = Elements::kAny) {
  const size_t at = r.offset();
  uint64_t n = 0;
  CUZK_TRY_ASSIGN(n, read_length(r, field + ".path", kMinPathElement));
  if (elements == Elements::kOne && n != 1)
    return r.error_at(at, ErrorCode::kCorruption, field + ".path",
                      "length " + std::to_string(n) + ", a sub or top tree's path has 1 element");
  for (uint64_t e = 0; e < n; ++e) {
    const std::string el = field + ".path[" + std::to_string(e) + "]";
    PathElement element;
    uint64_t h = 0;
    CUZK_TRY_ASSIGN(h, read_length(r, el + ".hashes", 32));
    element.hashes.reserve(h);
    for (uint64_t j = 0; j < h; ++j) {
      ff::Fr v;
      CUZK_TRY_ASSIGN(v, read_domain(r, el + ".hashes[" + std::to_string(j) + "]"));
      element.hashes.push_back(v);
    }
    const size_t at = r.offset();
    uint64_t index = 0;
    CUZK_TRY_ASSIGN(index, r.u64_le(el + ".index"));
    if (index > h)  // a position among h + 1 nodes
      return r.error_at(at, ErrorCode::kCorruption, el + ".index",
                        std::to_string(index) + " is not a position among " + std::to_string(h + 1) + " nodes");
    element.index = static_cast<uint32_t>(index);
    out.push_back(std::move(element));
  }
  return static_cast<uint32_t>(n);
}

void put_path(std::vector<uint8_t>& out, std::span<const PathElement> path) {
  put_u64(out, path.size());
  for (const PathElement& e : path) {
    put_u64(out, e.hashes.size());
    for (const ff::Fr& h : e.hashes) put_domain(out, h);
    put_u64(out, e.index);
  }
}

}  // namespace

Expected<ff::Fr> read_domain(ByteReader& r, const std::string& field) {
  const size_t at = r.offset();
  std::span<const uint8_t> b;
  CUZK_TRY_ASSIGN(b, r.take(32, field));
  Expected<ff::Fr> v = ff::Fr::from_bytes_le(b.first<32>());
  if (!v) return r.error_at(at, ErrorCode::kCorruption, field, "not a canonical field element (≥ r)");
  return v;
}

Expected<uint64_t> read_length(ByteReader& r, const std::string& field, size_t min_size) {
  const size_t at = r.offset();
  uint64_t n = 0;
  CUZK_TRY_ASSIGN(n, r.u64_le(field + " (length)"));
  if (n > r.remaining() / min_size)
    return r.error_at(at, ErrorCode::kCorruption, field,
                      "length " + std::to_string(n) + " does not fit the " + std::to_string(r.remaining()) +
                          " bytes left");
  return n;
}

Expected<DecodedMerkleProof> read_merkle_proof(ByteReader& r, const std::string& field) {
  DecodedMerkleProof out;
  MerkleProof& proof = out.proof;
  MerkleProofLayout& layout = out.layout;
  layout.offset = r.offset();
  uint32_t variant = 0;
  CUZK_TRY_ASSIGN(variant, r.u32_le(field + ".data (variant)"));
  static constexpr std::array<const char*, 3> kNames = {"Single", "Sub", "Top"};
  if (variant > 2)
    return r.error_at(layout.offset, ErrorCode::kCorruption, field + ".data",
                      "variant " + std::to_string(variant) + " is none of 0 Single, 1 Sub, 2 Top");
  const std::string data = field + ".data." + kNames[variant];
  proof.kind = static_cast<MerkleProof::Kind>(variant);
  if (variant == 0) {
    CUZK_TRY_ASSIGN(proof.root, read_domain(r, data + ".root"));
    CUZK_TRY_ASSIGN(proof.leaf, read_domain(r, data + ".leaf"));
    CUZK_TRY_ASSIGN(layout.base, read_path(r, data + ".path", proof.path));
    return out;
  }
  CUZK_TRY_ASSIGN(layout.base, read_path(r, data + ".base_proof", proof.path));
  CUZK_TRY_ASSIGN(layout.sub, read_path(r, data + ".sub_proof", proof.path, Elements::kOne));
  if (variant == 2) {
    CUZK_TRY_ASSIGN(layout.top, read_path(r, data + ".top_proof", proof.path, Elements::kOne));
  }
  CUZK_TRY_ASSIGN(proof.root, read_domain(r, data + ".root"));
  CUZK_TRY_ASSIGN(proof.leaf, read_domain(r, data + ".leaf"));
  return out;
}

void put_u64(std::vector<uint8_t>& out, uint64_t v) {
  for (size_t i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

void put_domain(std::vector<uint8_t>& out, const ff::Fr& v) {
  std::array<uint8_t, 32> b{};
  v.to_bytes_le(b);
  out.insert(out.end(), b.begin(), b.end());
}

void put_merkle_proof(std::vector<uint8_t>& out, const MerkleProof& proof) {
  const uint32_t variant = static_cast<uint32_t>(proof.kind);
  for (size_t i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(variant >> (8 * i)));
  const std::span<const PathElement> path(proof.path);
  if (proof.kind == MerkleProof::Kind::kSingle) {
    put_domain(out, proof.root);
    put_domain(out, proof.leaf);
    put_path(out, path);
    return;
  }
  const size_t extra = proof.kind == MerkleProof::Kind::kSub ? 1 : 2;
  const size_t base = path.size() - std::min(extra, path.size());
  put_path(out, path.first(base));
  put_path(out, path.subspan(base, std::min<size_t>(1, path.size() - base)));
  if (proof.kind == MerkleProof::Kind::kTop) put_path(out, path.subspan(std::min(path.size(), base + 1)));
  put_domain(out, proof.root);
  put_domain(out, proof.leaf);
}

}  // namespace cuzk::porep::bincode
