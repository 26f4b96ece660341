#include "post/params.hpp"

#include "core/hex.hpp"
#include "gadgets/sha256_native.hpp"

namespace cuzk::post {

namespace fs = std::filesystem;

params::Circuit params_circuit(PostKind kind) {
  return kind == PostKind::kWinning ? params::Circuit::winning_post : params::Circuit::window_post;
}

const OfficialParams* official_params(PostKind kind, uint64_t sector_size) {
  return params::official_file(params_circuit(kind), sector_size);
}

std::string derived_official_stem(const PostParams& p) {
  const std::string identifier = "FallbackPoSt::PublicParams{sector_size: " + std::to_string(p.sector.sector_size) +
                                 ", challenge_count: " + std::to_string(p.challenge_count) +
                                 ", sector_count: " + std::to_string(p.sector_count) + "}";
  const gadgets::native::Sha256Digest h = gadgets::native::sha256(
      std::span(reinterpret_cast<const uint8_t*>(identifier.data()), identifier.size()));
  return "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-" + std::to_string(p.sector.base_arity) + "-" +
         std::to_string(p.sector.sub_arity) + "-" + std::to_string(p.sector.top_arity) + "-" + to_hex(h);
}

std::string own_params_stem(PostKind kind, uint64_t sector_size) {
  return params::own_stem(params_circuit(kind), sector_size);
}

Expected<ParamsFiles> find_params(const fs::path& dir, PostKind kind, uint64_t sector_size) {
  return params::find_files(dir, params_circuit(kind), sector_size);
}

}  // namespace cuzk::post
