#include "snap/update_shape.hpp"

#include <algorithm>
#include <array>
#include <bit>

#include <fmt/format.h>

#include "core/memory_size.hpp"

namespace cuzk::snap {

namespace {

uint32_t log2_exact(uint64_t x) { return static_cast<uint32_t>(std::countr_zero(x)); }

// storage-proofs-update constants.rs validate_tree_r_shape: the sizes a tree R shape is known for.
struct KnownSize {
  uint64_t nodes;
  gadgets::MerkleShape tree_r;
};
constexpr std::array<KnownSize, 11> kKnownSizes{{
    {uint64_t{1} << 5, {8, 4, 0}},   // 1 KiB (test)
    {uint64_t{1} << 6, {8, 0, 0}},   // 2 KiB
    {uint64_t{1} << 7, {8, 2, 0}},   // 4 KiB (test)
    {uint64_t{1} << 8, {8, 4, 0}},   // 8 KiB (test)
    {uint64_t{1} << 9, {8, 8, 0}},   // 16 KiB (test)
    {uint64_t{1} << 10, {8, 8, 2}},  // 32 KiB (test)
    {uint64_t{1} << 18, {8, 0, 0}},  // 8 MiB
    {uint64_t{1} << 19, {8, 2, 0}},  // 16 MiB (test)
    {uint64_t{1} << 24, {8, 0, 0}},  // 512 MiB
    {uint64_t{1} << 30, {8, 8, 0}},  // 32 GiB
    {uint64_t{1} << 31, {8, 8, 2}},  // 64 GiB
}};

std::string known_names() {
  std::string s;
  for (const KnownSize& k : kKnownSizes) s.append(s.empty() ? "" : ", ").append(exact_size_text(k.nodes * 32));
  return s;
}

}  // namespace

uint32_t UpdateShape::challenge_bits() const { return log2_exact(nodes); }
uint32_t UpdateShape::partition_bits() const { return log2_exact(partitions); }
uint32_t UpdateShape::apex_bits() const { return log2_exact(apex_leafs); }

uint32_t UpdateShape::h_select() const {
  for (size_t i = 0; i < hs.size(); ++i) {
    if (hs[i] == h) return uint32_t{1} << i;
  }
  return 0;
}

uint32_t UpdateShape::tree_r_base_levels() const {
  const uint64_t trees = (tree_r.sub ? tree_r.sub : 1) * (tree_r.top ? tree_r.top : 1);
  return log2_exact(nodes / trees) / log2_exact(tree_r.base);
}

std::string UpdateShape::name() const { return exact_size_text(sector_size()); }

Expected<UpdateShape> update_shape(uint64_t nodes) {
  for (const KnownSize& k : kKnownSizes) {
    if (k.nodes != nodes) continue;
    UpdateShape s;
    s.nodes = nodes;
    s.tree_r = k.tree_r;
    // constants.rs partition_count, challenge_count, apex_leaf_count, hs, h_default.
    s.partitions = nodes <= (uint64_t{1} << 8) ? 1 : nodes <= (uint64_t{1} << 10) ? 2 : nodes <= (uint64_t{1} << 19) ? 4 : 16;
    s.challenges = nodes <= (uint64_t{1} << 19) ? 10 : 86;
    s.apex_leafs = nodes <= (uint64_t{1} << 8) ? 8 : 128;
    s.hs = nodes <= (uint64_t{1} << 10) ? std::array<uint32_t, 6>{1, 1, 1, 1, 1, 1}
                                        : std::array<uint32_t, 6>{7, 8, 9, 10, 11, 12};
    s.h = s.hs[3];
    return s;
  }
  return invalid_argument(fmt::format("SnapDeals: {} nodes is not a known sector size ({})", nodes, known_names()));
}

Expected<UpdateShape> update_shape_for_sector_size(uint64_t bytes) {
  if (bytes % 32 != 0) return invalid_argument(fmt::format("SnapDeals: sector size {} is not a multiple of 32", bytes));
  return update_shape(bytes / 32);
}

Expected<uint64_t> parse_update_sector_size(std::string_view text) {
  std::array<uint64_t, kKnownSizes.size()> known{};
  std::transform(kKnownSizes.begin(), kKnownSizes.end(), known.begin(), [](const KnownSize& k) { return k.nodes * 32; });
  uint64_t bytes = 0;
  CUZK_TRY_ASSIGN(bytes, parse_size_of(text, known));
  if (auto shape = update_shape_for_sector_size(bytes); !shape) return shape.error();
  return bytes;
}

Expected<RegisteredUpdateProof> registered_update_proof(uint64_t id) {
  if (id >= kRegisteredUpdateProofs.size())
    return invalid_argument(fmt::format("unknown registered update proof id {} (0..4)", id));
  return kRegisteredUpdateProofs[id];
}

Expected<RegisteredUpdateProof> registered_update_proof_for_size(uint64_t sector_size) {
  for (const RegisteredUpdateProof& p : kRegisteredUpdateProofs) {
    if (p.sector_size == sector_size) return p;
  }
  return invalid_argument(fmt::format("no registered update proof for sector size {} (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)",
                                      sector_size));
}

namespace detail {

std::vector<size_t> tree_r_arities(const UpdateShape& shape) {
  std::vector<size_t> out(shape.tree_r_base_levels(), shape.tree_r.base);
  if (shape.tree_r.sub != 0) out.push_back(shape.tree_r.sub);
  if (shape.tree_r.top != 0) out.push_back(shape.tree_r.top);
  return out;
}

}  // namespace detail

}  // namespace cuzk::snap
