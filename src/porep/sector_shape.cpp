#include "porep/sector_shape.hpp"

#include <algorithm>
#include <array>
#include <string>

#include <fmt/format.h>

#include "core/memory_size.hpp"

namespace cuzk::porep {

static_assert(kSectorShapes[0].base_path_len() == 2 && kSectorShapes[3].base_path_len() == 9 &&
              kSectorShapes[4].tree_rc_path_len() == 11);
static_assert([] {
  for (size_t i = 0; i < kRegisteredSealProofs.size(); ++i) {
    if (kRegisteredSealProofs[i].id != i) return false;
  }
  for (const auto& s : kSectorShapes) {
    if (s.nodes * 32 != s.sector_size || (uint64_t{1} << s.tree_d_depth) != s.nodes) return false;
    if (s.public_inputs != 1 + 3 + 18 * s.challenges_per_partition) return false;
  }
  return true;
}());

namespace {

std::string supported_sizes() {
  std::string s;
  for (const auto& shape : kSectorShapes) s.append(s.empty() ? "" : ", ").append(shape.name);
  return s;
}

Expected<RegisteredSealProof> refuse_unsupported(const RegisteredSealProof& p) {
  if (p.supported()) return p;
  return Error{ErrorCode::kUnsupported,
               fmt::format("registered proof {} (id {}): non-interactive PoRep is not supported (interactive and "
                           "synthetic PoRep only)",
                           p.name, p.id)};
}

}  // namespace

Expected<SectorShape> shape_for_sector_size(uint64_t bytes) {
  for (const auto& shape : kSectorShapes) {
    if (shape.sector_size == bytes) return shape;
  }
  return invalid_argument(fmt::format("sector size {} bytes is not one of {}", bytes, supported_sizes()));
}

Expected<uint64_t> parse_sector_size(std::string_view text) {
  std::array<uint64_t, kSectorShapes.size()> known{};
  std::transform(kSectorShapes.begin(), kSectorShapes.end(), known.begin(), [](const auto& s) { return s.sector_size; });
  uint64_t bytes = 0;
  CUZK_TRY_ASSIGN(bytes, parse_size_of(text, known));
  if (auto shape = shape_for_sector_size(bytes); !shape) return shape.error();
  return bytes;
}

const RegisteredSealProof* registered_seal_proof_entry(std::string_view name) {
  for (const auto& p : kRegisteredSealProofs) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

Expected<RegisteredSealProof> registered_seal_proof(std::string_view name) {
  const RegisteredSealProof* p = registered_seal_proof_entry(name);
  if (p == nullptr) return invalid_argument(fmt::format("unknown registered seal proof '{}'", name));
  return refuse_unsupported(*p);
}

Expected<RegisteredSealProof> registered_seal_proof(uint64_t id) {
  if (id >= kRegisteredSealProofs.size()) return invalid_argument(fmt::format("unknown registered seal proof id {}", id));
  return refuse_unsupported(kRegisteredSealProofs[id]);
}

std::string_view vanilla_proof_variant(const RegisteredSealProof& proof) {
  // Names of the five ...V1 entries (ids 0..4) are the variant names.
  for (size_t i = 0; i < kSectorShapes.size(); ++i) {
    if (kRegisteredSealProofs[i].sector_size == proof.sector_size) return kRegisteredSealProofs[i].name;
  }
  return {};
}

Expected<RegisteredShape> registered_shape(std::string_view name) {
  RegisteredShape out;
  CUZK_TRY_ASSIGN(out.proof, registered_seal_proof(name));
  CUZK_TRY_ASSIGN(out.shape, shape_for_sector_size(out.proof.sector_size));
  return out;
}

}  // namespace cuzk::porep
