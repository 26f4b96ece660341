#include "post/vanilla.hpp"

#include <array>
#include <bit>
#include <string>

#include "core/byte_reader.hpp"
#include "core/error.hpp"
#include "core/mapped_file.hpp"
#include "gadgets/poseidon.hpp"

namespace cuzk::post {

namespace {

using porep::MerkleProof;
using porep::PathElement;

// The smallest encodings, to refuse a count that the bytes left cannot hold before allocating.
constexpr size_t kMinPathElement = 8 + 8;       // no hashes, index
constexpr size_t kMinMerkleProof = 4 + 64 + 8;  // Single with an empty path
constexpr size_t kMinSectorProof = 8 + 64;      // no inclusion proofs

class Decoder {
 public:
  Decoder(std::span<const uint8_t> bytes, std::string_view source) : r_(bytes, std::string(source)) {}

  Expected<FallbackPoStSectorProof> proof() {
    FallbackPoStSectorProof out;
    CUZK_TRY_ASSIGN(out.sector_id, r_.u64_le("sector_id"));
    CUZK_TRY_ASSIGN(out.comm_r, domain("comm_r"));
    uint64_t n = 0;
    CUZK_TRY_ASSIGN(n, count("vanilla_proof.sectors", kMinSectorProof));
    for (uint64_t s = 0; s < n; ++s) {
      const std::string field = "vanilla_proof.sectors[" + std::to_string(s) + "]";
      SectorProof sp;
      uint64_t m = 0;
      CUZK_TRY_ASSIGN(m, count(field + ".inclusion_proofs", kMinMerkleProof));
      for (uint64_t i = 0; i < m; ++i) {
        InclusionLayout layout;
        MerkleProof proof;
        if (auto ok = merkle_proof(field + ".inclusion_proofs[" + std::to_string(i) + "]", proof, layout); !ok)
          return ok.error();
        sp.inclusion_proofs.push_back(std::move(proof));
        sp.layout.push_back(layout);
      }
      CUZK_TRY_ASSIGN(sp.comm_c, domain(field + ".comm_c"));
      CUZK_TRY_ASSIGN(sp.comm_r_last, domain(field + ".comm_r_last"));
      out.sectors.push_back(std::move(sp));
    }
    if (r_.remaining() != 0)
      return r_.error(ErrorCode::kCorruption, "end", std::to_string(r_.remaining()) + " bytes after the proof");
    return out;
  }

 private:
  // A 32-byte domain value (PoseidonDomain): the Fr of its little-endian bytes, canonical.
  Expected<ff::Fr> domain(const std::string& field) {
    const size_t at = r_.offset();
    std::span<const uint8_t> b;
    CUZK_TRY_ASSIGN(b, r_.take(32, field));
    Expected<ff::Fr> v = ff::Fr::from_bytes_le(b.first<32>());
    if (!v) return r_.error_at(at, ErrorCode::kCorruption, field, "not a canonical field element (≥ r)");
    return v;
  }

  // A bincode Vec length (u64) that the bytes left can hold at min_size bytes an element.
  Expected<uint64_t> count(const std::string& field, size_t min_size) {
    const size_t at = r_.offset();
    uint64_t n = 0;
    CUZK_TRY_ASSIGN(n, r_.u64_le(field + " (length)"));
    if (n > r_.remaining() / min_size)
      return r_.error_at(at, ErrorCode::kCorruption, field,
                         "length " + std::to_string(n) + " does not fit the " + std::to_string(r_.remaining()) +
                             " bytes left");
    return n;
  }

  Expected<uint32_t> path(const std::string& field, std::vector<PathElement>& out) {
    uint64_t n = 0;
    CUZK_TRY_ASSIGN(n, count(field + ".path", kMinPathElement));
    for (uint64_t e = 0; e < n; ++e) {
      const std::string el = field + ".path[" + std::to_string(e) + "]";
      PathElement element;
      uint64_t h = 0;
      CUZK_TRY_ASSIGN(h, count(el + ".hashes", 32));
      for (uint64_t j = 0; j < h; ++j) {
        ff::Fr v;
        CUZK_TRY_ASSIGN(v, domain(el + ".hashes[" + std::to_string(j) + "]"));
        element.hashes.push_back(v);
      }
      const size_t at = r_.offset();
      uint64_t index = 0;
      CUZK_TRY_ASSIGN(index, r_.u64_le(el + ".index"));
      if (index > h)  // a position among h + 1 nodes
        return r_.error_at(at, ErrorCode::kCorruption, el + ".index",
                           std::to_string(index) + " is not a position among " + std::to_string(h + 1) + " nodes");
      element.index = static_cast<uint32_t>(index);
      out.push_back(std::move(element));
    }
    return static_cast<uint32_t>(n);
  }

  Expected<void> merkle_proof(const std::string& field, MerkleProof& proof, InclusionLayout& layout) {
    layout.offset = r_.offset();
    uint32_t variant = 0;
    CUZK_TRY_ASSIGN(variant, r_.u32_le(field + ".data (variant)"));
    static constexpr std::array<const char*, 3> kNames = {"Single", "Sub", "Top"};
    if (variant > 2)
      return r_.error_at(layout.offset, ErrorCode::kCorruption, field + ".data",
                         "variant " + std::to_string(variant) + " is none of 0 Single, 1 Sub, 2 Top");
    const std::string data = field + ".data." + kNames[variant];
    proof.kind = static_cast<MerkleProof::Kind>(variant);
    if (variant == 0) {
      CUZK_TRY_ASSIGN(proof.root, domain(data + ".root"));
      CUZK_TRY_ASSIGN(proof.leaf, domain(data + ".leaf"));
      CUZK_TRY_ASSIGN(layout.base, path(data + ".path", proof.path));
      return {};
    }
    CUZK_TRY_ASSIGN(layout.base, path(data + ".base_proof", proof.path));
    CUZK_TRY_ASSIGN(layout.sub, path(data + ".sub_proof", proof.path));
    if (variant == 2) {
      CUZK_TRY_ASSIGN(layout.top, path(data + ".top_proof", proof.path));
    }
    CUZK_TRY_ASSIGN(proof.root, domain(data + ".root"));
    CUZK_TRY_ASSIGN(proof.leaf, domain(data + ".leaf"));
    return {};
  }

  ByteReader r_;
};

void put_u64(std::vector<uint8_t>& out, uint64_t v) {
  for (size_t i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void put_fr(std::vector<uint8_t>& out, const ff::Fr& v) {
  std::array<uint8_t, 32> b{};
  v.to_bytes_le(b);
  out.insert(out.end(), b.begin(), b.end());
}
void put_path(std::vector<uint8_t>& out, std::span<const PathElement> path) {
  put_u64(out, path.size());
  for (const PathElement& e : path) {
    put_u64(out, e.hashes.size());
    for (const ff::Fr& h : e.hashes) put_fr(out, h);
    put_u64(out, e.index);
  }
}

}  // namespace

Expected<FallbackPoStSectorProof> decode_vanilla(std::span<const uint8_t> bytes, std::string_view source) {
  return Decoder(bytes, source).proof();
}

Expected<FallbackPoStSectorProof> read_vanilla_file(const std::string& path) {
  Expected<MappedFile> f = MappedFile::open(path);
  if (!f) return f.error();
  return decode_vanilla(f->bytes(), path);
}

std::vector<uint8_t> encode_vanilla(const FallbackPoStSectorProof& proof) {
  std::vector<uint8_t> out;
  put_u64(out, proof.sector_id);
  put_fr(out, proof.comm_r);
  put_u64(out, proof.sectors.size());
  for (const SectorProof& sp : proof.sectors) {
    put_u64(out, sp.inclusion_proofs.size());
    for (const MerkleProof& m : sp.inclusion_proofs) {
      const uint32_t variant = static_cast<uint32_t>(m.kind);
      for (size_t i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(variant >> (8 * i)));
      const std::span<const PathElement> path(m.path);
      if (m.kind == MerkleProof::Kind::kSingle) {
        put_fr(out, m.root);
        put_fr(out, m.leaf);
        put_path(out, path);
        continue;
      }
      const size_t extra = m.kind == MerkleProof::Kind::kSub ? 1 : 2, base = path.size() - std::min(extra, path.size());
      put_path(out, path.first(base));
      put_path(out, path.subspan(base, std::min<size_t>(1, path.size() - base)));
      if (m.kind == MerkleProof::Kind::kTop) put_path(out, path.subspan(std::min(path.size(), base + 1)));
      put_fr(out, m.root);
      put_fr(out, m.leaf);
    }
    put_fr(out, sp.comm_c);
    put_fr(out, sp.comm_r_last);
  }
  return out;
}

Expected<void> validate(const FallbackPoStSectorProof& proof, const RegisteredPostProof& registered,
                        std::span<const uint8_t, 32> randomness, uint64_t sector_index, const PostPoseidon& poseidon,
                        std::string_view source) {
  const auto fail = [&](size_t offset, const std::string& field, const std::string& what) -> Expected<void> {
    return Error{ErrorCode::kInvalidArgument,
                 std::string(source) + ": offset " + std::to_string(offset) + ": " + field + ": " + what};
  };
  PostParams p;
  CUZK_TRY_ASSIGN(p, post_params(registered));
  if (proof.sectors.size() != 1)
    return fail(40, "vanilla_proof.sectors", "expected 1 SectorProof, got " + std::to_string(proof.sectors.size()));
  const SectorProof& sp = proof.sectors[0];
  const std::string field = "vanilla_proof.sectors[0]";
  if (sp.layout.size() != sp.inclusion_proofs.size())
    return fail(48, field, "inclusion proofs without their layout (not decoded?)");
  if (sp.inclusion_proofs.size() != p.vanilla_challenges)
    return fail(48, field + ".inclusion_proofs", "expected " + std::to_string(p.vanilla_challenges) + " (" +
                                                      std::string(registered.name) + "), got " +
                                                      std::to_string(sp.inclusion_proofs.size()));
  const porep::SectorShape& s = p.sector;
  const MerkleProof::Kind kind =
      s.top_arity ? MerkleProof::Kind::kTop : s.sub_arity ? MerkleProof::Kind::kSub : MerkleProof::Kind::kSingle;
  static constexpr std::array<const char*, 3> kNames = {"Single", "Sub", "Top"};
  const InclusionLayout want{0, s.base_path_len(), s.sub_arity ? 1u : 0u, s.top_arity ? 1u : 0u};
  const std::vector<uint64_t> challenges = vanilla_challenges(registered, randomness, proof.sector_id, sector_index);
  const gadgets::PoseidonTreeHash hash = poseidon.tree_hash();
  std::vector<ff::Fr> children;
  for (size_t n = 0; n < sp.inclusion_proofs.size(); ++n) {
    const MerkleProof& m = sp.inclusion_proofs[n];
    const InclusionLayout& at = sp.layout[n];
    const std::string f = field + ".inclusion_proofs[" + std::to_string(n) + "]";
    if (m.kind != kind)
      return fail(at.offset, f, std::string(kNames[size_t(m.kind)]) + " proof, a " + std::string(s.name) +
                                    " tree R needs " + kNames[size_t(kind)]);
    if (at.base != want.base || at.sub != want.sub || at.top != want.top)
      return fail(at.offset, f, "path of " + std::to_string(at.base) + "+" + std::to_string(at.sub) + "+" +
                                    std::to_string(at.top) + " (base+sub+top) elements, a " + std::string(s.name) +
                                    " tree R has " + std::to_string(want.base) + "+" + std::to_string(want.sub) + "+" +
                                    std::to_string(want.top));
    if (!(m.root == sp.comm_r_last)) return fail(at.offset, f + ".root", "is not the sector's comm_r_last");
    // The leaf index in mixed radix (base digits first) and the root the path hashes to.
    uint64_t leaf = 0, weight = 1;
    ff::Fr node = m.leaf;
    for (size_t l = 0; l < m.path.size(); ++l) {
      const uint32_t arity = l < at.base ? s.base_arity : l < size_t(at.base) + at.sub ? s.sub_arity : s.top_arity;
      const PathElement& e = m.path[l];
      if (e.hashes.size() != arity - 1 || e.index >= arity)
        return fail(at.offset, f + ".path[" + std::to_string(l) + "]",
                    std::to_string(e.hashes.size()) + " siblings at index " + std::to_string(e.index) +
                        ", an arity-" + std::to_string(arity) + " level has " + std::to_string(arity - 1) +
                        " and indices below " + std::to_string(arity));
      leaf += e.index * weight;
      weight *= arity;
      children.assign(e.hashes.begin(), e.hashes.end());
      children.insert(children.begin() + e.index, node);
      node = hash.native(children);
    }
    if (leaf != challenges[n])
      return fail(at.offset, f, "leaf index " + std::to_string(leaf) + " is not the derived challenge " +
                                    std::to_string(challenges[n]) + " (sector " + std::to_string(proof.sector_id) +
                                    ", position " + std::to_string(sector_index) + ")");
    if (!(node == m.root)) return fail(at.offset, f, "the path does not hash to its root");
  }
  const std::array<ff::Fr, 2> pair = {sp.comm_c, sp.comm_r_last};
  if (!(gadgets::poseidon_hash(poseidon.arity(2), pair) == proof.comm_r))
    return fail(8, "comm_r", "is not Poseidon2(comm_c, comm_r_last)");
  return {};
}

Expected<std::vector<SectorWitness>> circuit_sectors(const PostParams& params,
                                                     std::span<const FallbackPoStSectorProof> proofs) {
  if (proofs.empty()) return Error{ErrorCode::kInvalidArgument, "no vanilla proofs"};
  for (const FallbackPoStSectorProof& p : proofs)
    if (p.sectors.size() != 1)
      return Error{ErrorCode::kInvalidArgument, "vanilla proof of sector " + std::to_string(p.sector_id) +
                                                    ": expected 1 SectorProof"};
  std::vector<SectorWitness> out;
  if (params.kind == PostKind::kWinning) {
    if (proofs.size() != 1)
      return Error{ErrorCode::kInvalidArgument, "WinningPoSt proves one sector, got " + std::to_string(proofs.size()) +
                                                    " vanilla proofs"};
    const SectorProof& sp = proofs[0].sectors[0];
    for (size_t n = 0; n < sp.inclusion_proofs.size(); ++n)
      out.push_back({proofs[0].comm_r, sp.comm_c, sp.comm_r_last, std::span(sp.inclusion_proofs).subspan(n, 1)});
    return out;
  }
  if (proofs.size() > params.sector_count)
    return Error{ErrorCode::kInvalidArgument, std::to_string(proofs.size()) + " vanilla proofs, a partition holds " +
                                                  std::to_string(params.sector_count)};
  for (const FallbackPoStSectorProof& p : proofs)
    out.push_back({p.comm_r, p.sectors[0].comm_c, p.sectors[0].comm_r_last, p.sectors[0].inclusion_proofs});
  while (out.size() < params.sector_count) out.push_back(out.back());
  return out;
}

}  // namespace cuzk::post
