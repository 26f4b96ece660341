#include "post/vanilla.hpp"

#include <array>
#include <string>

#include "core/byte_reader.hpp"
#include "core/error.hpp"
#include "core/mapped_file.hpp"
#include "gadgets/poseidon.hpp"
#include "porep/merkle_bincode.hpp"
#include "porep/path_roots.hpp"

namespace cuzk::post {

namespace {

using porep::MerkleProof;
using porep::PathElement;
namespace bincode = porep::bincode;

constexpr size_t kMinSectorProof = 8 + 64;  // no inclusion proofs

Expected<FallbackPoStSectorProof> decode(ByteReader& r) {
  FallbackPoStSectorProof out;
  CUZK_TRY_ASSIGN(out.sector_id, r.u64_le("sector_id"));
  CUZK_TRY_ASSIGN(out.comm_r, bincode::read_domain(r, "comm_r"));
  uint64_t n = 0;
  CUZK_TRY_ASSIGN(n, bincode::read_length(r, "vanilla_proof.sectors", kMinSectorProof));
  for (uint64_t s = 0; s < n; ++s) {
    const std::string field = "vanilla_proof.sectors[" + std::to_string(s) + "]";
    SectorProof sp;
    uint64_t m = 0;
    CUZK_TRY_ASSIGN(m, bincode::read_length(r, field + ".inclusion_proofs", bincode::kMinMerkleProof));
    for (uint64_t i = 0; i < m; ++i) {
      bincode::DecodedMerkleProof d;
      CUZK_TRY_ASSIGN(d, bincode::read_merkle_proof(r, field + ".inclusion_proofs[" + std::to_string(i) + "]"));
      sp.inclusion_proofs.push_back(std::move(d.proof));
      sp.layout.push_back(d.layout);
    }
    CUZK_TRY_ASSIGN(sp.comm_c, bincode::read_domain(r, field + ".comm_c"));
    CUZK_TRY_ASSIGN(sp.comm_r_last, bincode::read_domain(r, field + ".comm_r_last"));
    out.sectors.push_back(std::move(sp));
  }
  if (r.remaining() != 0)
    return r.error(ErrorCode::kCorruption, "end", std::to_string(r.remaining()) + " bytes after the proof");
  return out;
}

}  // namespace

Expected<FallbackPoStSectorProof> decode_vanilla(std::span<const uint8_t> bytes, std::string_view source) {
  ByteReader r(bytes, std::string(source));
  return decode(r);
}

Expected<FallbackPoStSectorProof> read_vanilla_file(const std::string& path) {
  Expected<MappedFile> f = MappedFile::open(path);
  if (!f) return f.error();
  return decode_vanilla(f->bytes(), path);
}

std::vector<uint8_t> encode_vanilla(const FallbackPoStSectorProof& proof) {
  std::vector<uint8_t> out;
  bincode::put_u64(out, proof.sector_id);
  bincode::put_domain(out, proof.comm_r);
  bincode::put_u64(out, proof.sectors.size());
  for (const SectorProof& sp : proof.sectors) {
    bincode::put_u64(out, sp.inclusion_proofs.size());
    for (const MerkleProof& m : sp.inclusion_proofs) bincode::put_merkle_proof(out, m);
    bincode::put_domain(out, sp.comm_c);
    bincode::put_domain(out, sp.comm_r_last);
  }
  return out;
}

namespace {

Error fail_at(std::string_view source, size_t offset, const std::string& field, const std::string& what) {
  return Error{ErrorCode::kInvalidArgument,
               std::string(source) + ": offset " + std::to_string(offset) + ": " + field + ": " + what};
}

// validate()'s checks of one sector before its paths' roots, in the order errors are reported:
// the sector's own (early), then path by path every check but the root, up to the first bad path.
struct ShapeChecked {
  Expected<void> early;      // a failure before any path; then nothing else counts
  size_t shaped = 0;         // paths [0, shaped) passed every check but their root
  Expected<void> bad_shape;  // path `shaped`'s failure, when shaped is below the count
};

ShapeChecked check_shapes(const SectorToValidate& sector, const RegisteredPostProof& registered,
                          std::span<const uint8_t, 32> randomness) {
  const FallbackPoStSectorProof& proof = *sector.proof;
  const std::string_view source = sector.source;
  ShapeChecked out;
  const auto fail = [&](size_t offset, const std::string& field, const std::string& what) -> Expected<void> {
    return fail_at(source, offset, field, what);
  };
  const Expected<PostParams> params = post_params(registered);
  if (!params) {
    out.early = params.error();
    return out;
  }
  const PostParams& p = *params;
  if (proof.sectors.size() != 1) {
    out.early = fail(40, "vanilla_proof.sectors", "expected 1 SectorProof, got " + std::to_string(proof.sectors.size()));
    return out;
  }
  const SectorProof& sp = proof.sectors[0];
  const std::string field = "vanilla_proof.sectors[0]";
  if (sp.layout.size() != sp.inclusion_proofs.size()) {
    out.early = fail(48, field, "inclusion proofs without their layout (not decoded?)");
    return out;
  }
  if (sp.inclusion_proofs.size() != p.vanilla_challenges) {
    out.early = fail(48, field + ".inclusion_proofs", "expected " + std::to_string(p.vanilla_challenges) + " (" +
                                                          std::string(registered.name) + "), got " +
                                                          std::to_string(sp.inclusion_proofs.size()));
    return out;
  }
  const porep::SectorShape& s = p.sector;
  const MerkleProof::Kind kind =
      s.top_arity ? MerkleProof::Kind::kTop : s.sub_arity ? MerkleProof::Kind::kSub : MerkleProof::Kind::kSingle;
  static constexpr std::array<const char*, 3> kNames = {"Single", "Sub", "Top"};
  const InclusionLayout want{0, s.base_path_len(), s.sub_arity ? 1u : 0u, s.top_arity ? 1u : 0u};
  const uint64_t sector_index = sector.position;
  const std::vector<uint64_t> challenges = vanilla_challenges(registered, randomness, proof.sector_id, sector_index);
  // Every check of path n but the last (its root).
  const auto check_shape = [&](size_t n) -> Expected<void> {
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
    // The leaf index in mixed radix (base digits first).
    uint64_t leaf = 0, weight = 1;
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
    }
    if (leaf != challenges[n])
      return fail(at.offset, f, "leaf index " + std::to_string(leaf) + " is not the derived challenge " +
                                    std::to_string(challenges[n]) + " (sector " + std::to_string(proof.sector_id) +
                                    ", position " + std::to_string(sector_index) + ")");
    return {};
  };
  for (; out.shaped < sp.inclusion_proofs.size(); ++out.shaped) {
    out.bad_shape = check_shape(out.shaped);
    if (!out.bad_shape) break;
  }
  return out;
}

// The rest, given the roots the shaped paths hash to: the errors in path order, as one path at a
// time would report them (a root mismatch on an earlier path before a later bad shape), then comm_r.
Expected<void> check_roots(const SectorToValidate& sector, const ShapeChecked& shapes, std::span<const ff::Fr> roots,
                           const PostPoseidon& poseidon) {
  if (!shapes.early) return shapes.early;
  const SectorProof& sp = sector.proof->sectors[0];
  for (size_t n = 0; n < shapes.shaped; ++n) {
    if (!(roots[n] == sp.inclusion_proofs[n].root))
      return fail_at(sector.source, sp.layout[n].offset, "vanilla_proof.sectors[0].inclusion_proofs[" + std::to_string(n) + "]",
                     "the path does not hash to its root");
  }
  if (!shapes.bad_shape) return shapes.bad_shape;
  const std::array<ff::Fr, 2> pair = {sp.comm_c, sp.comm_r_last};
  if (!(gadgets::poseidon_hash(poseidon.arity(2), pair) == sector.proof->comm_r))
    return fail_at(sector.source, 8, "comm_r", "is not Poseidon2(comm_c, comm_r_last)");
  return {};
}

}  // namespace

std::vector<Expected<void>> validate_sectors(std::span<const SectorToValidate> sectors,
                                             const RegisteredPostProof& registered,
                                             std::span<const uint8_t, 32> randomness, const PostPoseidon& poseidon) {
  // The shapes first; then the roots of every sector's shaped paths, hashed together level by
  // level (porep/path_roots.hpp: groups of eight across sectors); then each sector's errors.
  std::vector<ShapeChecked> shapes;
  std::vector<size_t> first_path;
  std::vector<const MerkleProof*> paths;
  for (const SectorToValidate& sector : sectors) {
    shapes.push_back(check_shapes(sector, registered, randomness));
    first_path.push_back(paths.size());
    if (!shapes.back().early) continue;
    for (size_t n = 0; n < shapes.back().shaped; ++n) paths.push_back(&sector.proof->sectors[0].inclusion_proofs[n]);
  }
  const std::vector<ff::Fr> roots = porep::poseidon_path_roots(poseidon, paths);
  std::vector<Expected<void>> results;
  for (size_t i = 0; i < sectors.size(); ++i) {
    const std::span<const ff::Fr> own = shapes[i].early ? std::span(roots).subspan(first_path[i], shapes[i].shaped)
                                                        : std::span<const ff::Fr>();
    results.push_back(check_roots(sectors[i], shapes[i], own, poseidon));
  }
  return results;
}

Expected<void> validate(const FallbackPoStSectorProof& proof, const RegisteredPostProof& registered,
                        std::span<const uint8_t, 32> randomness, uint64_t sector_index, const PostPoseidon& poseidon,
                        std::string_view source) {
  const SectorToValidate one{&proof, sector_index, source};
  return std::move(validate_sectors(std::span(&one, 1), registered, randomness, poseidon)[0]);
}

}  // namespace cuzk::post
