#include "porep/sector_shape.hpp"

#include <gtest/gtest.h>

#include "core/hex.hpp"

namespace cuzk::porep {
namespace {

// shared/SPEC.md §1 table and constraint counts, row by row.
TEST(SectorShape, TableMatchesSpec) {
  struct Row {
    uint64_t bytes, nodes;
    uint32_t depth, base, sub, top, layers, partitions, challenges;
    uint64_t constraints;
    uint32_t inputs, base_len, rc_len;
  } rows[] = {
      {2048, 64, 6, 8, 0, 0, 2, 1, 2, 2'687'921, 40, 2, 2},
      {8ull << 20, 1ull << 18, 18, 8, 0, 0, 2, 1, 2, 3'844'929, 40, 6, 6},
      {512ull << 20, 1ull << 24, 24, 8, 0, 0, 2, 1, 2, 4'423'433, 40, 8, 8},
      {34'359'738'368ull, 1ull << 30, 30, 8, 8, 0, 11, 10, 18, 130'278'541, 328, 9, 10},
      {68'719'476'736ull, 1ull << 31, 31, 8, 8, 2, 11, 10, 18, 131'185'849, 328, 9, 11},
  };
  for (const Row& r : rows) {
    const SectorShape s = shape_for_sector_size(r.bytes).value();
    SCOPED_TRACE(s.name);
    EXPECT_EQ(s.sector_size, r.bytes);
    EXPECT_EQ(s.nodes, r.nodes);
    EXPECT_EQ(s.tree_d_depth, r.depth);
    EXPECT_EQ(s.base_arity, r.base);
    EXPECT_EQ(s.sub_arity, r.sub);
    EXPECT_EQ(s.top_arity, r.top);
    EXPECT_EQ(s.layers, r.layers);
    EXPECT_EQ(s.partitions, r.partitions);
    EXPECT_EQ(s.challenges_per_partition, r.challenges);
    EXPECT_EQ(s.drg_degree, 6u);
    EXPECT_EQ(s.expansion_degree, 8u);
    EXPECT_EQ(s.constraints, r.constraints);
    EXPECT_EQ(s.public_inputs, r.inputs);
    EXPECT_EQ(s.base_path_len(), r.base_len);
    EXPECT_EQ(s.tree_rc_path_len(), r.rc_len);
  }
  // The 32 GiB partition circuit: 328 inputs (SPEC.md §1), 10 partitions of 18 challenges.
  EXPECT_EQ(shape_for_sector_size(32ull << 30)->public_inputs, 328u);
}

TEST(SectorShape, RejectsOtherSizes) {
  for (uint64_t bytes : {0ull, 1024ull, 4096ull, 16ull << 30, (32ull << 30) + 1}) {
    const auto s = shape_for_sector_size(bytes);
    ASSERT_FALSE(s) << bytes;
    EXPECT_NE(s.error().message.find("2KiB, 8MiB, 512MiB, 32GiB, 64GiB"), std::string::npos) << s.error().message;
  }
}

TEST(SectorShape, ParsesSizeNames) {
  EXPECT_EQ(parse_sector_size("2KiB").value(), 2048u);
  EXPECT_EQ(parse_sector_size("8mib").value(), 8u << 20);
  EXPECT_EQ(parse_sector_size("512MiB").value(), 512u << 20);
  EXPECT_EQ(parse_sector_size("32GiB").value(), 32ull << 30);
  EXPECT_EQ(parse_sector_size("34359738368").value(), 32ull << 30);
  EXPECT_EQ(parse_sector_size("64GiB").value(), 64ull << 30);
  for (const char* bad : {"", "32", "32G", "32GB", "2KiB ", "-2048", "0x800", "99999999999999999999999"}) {
    EXPECT_FALSE(parse_sector_size(bad)) << bad;
  }
}

// porep_id hex from rust-filecoin-proofs-api @0e64ce8 src/registry.rs test_porep_id_aux
// (lines 984-1054): the id u64 LE in bytes 0..8, nonce 0 in 8..16.
TEST(RegisteredSealProof, PorepIdsMatchTheRustRegistryTest) {
  const std::pair<const char*, const char*> pinned[] = {
      {"StackedDrg2KiBV1", "0000000000000000000000000000000000000000000000000000000000000000"},
      {"StackedDrg2KiBV1_1", "0500000000000000000000000000000000000000000000000000000000000000"},
      {"StackedDrg32GiBV1", "0300000000000000000000000000000000000000000000000000000000000000"},
      {"StackedDrg32GiBV1_1", "0800000000000000000000000000000000000000000000000000000000000000"},
      {"StackedDrg64GiBV1_1", "0900000000000000000000000000000000000000000000000000000000000000"},
  };
  for (const auto& [name, hex] : pinned) {
    EXPECT_EQ(to_hex(registered_seal_proof(name)->porep_id()), hex) << name;
  }
  EXPECT_EQ(to_hex(kRegisteredSealProofs[15].porep_id()), "0f00000000000000000000000000000000000000000000000000000000000000");
}

TEST(RegisteredSealProof, NamesIdsSizesVersions) {
  const auto p = registered_seal_proof("StackedDrg32GiBV1_1").value();
  EXPECT_EQ(p.id, 8u);
  EXPECT_EQ(p.sector_size, 32ull << 30);
  EXPECT_EQ(p.api_version, ApiVersion::kV1_1);
  EXPECT_EQ(registered_seal_proof(uint64_t{8})->name, "StackedDrg32GiBV1_1");
  EXPECT_EQ(registered_seal_proof("StackedDrg512MiBV1")->api_version, ApiVersion::kV1_0);
  EXPECT_EQ(registered_seal_proof("StackedDrg512MiBV1")->id, 2u);
  EXPECT_EQ(registered_seal_proof("StackedDrg64GiBV1")->sector_size, 64ull << 30);
  EXPECT_EQ(registered_seal_proof(uint64_t{6})->name, "StackedDrg8MiBV1_1");
  EXPECT_EQ(vanilla_proof_variant(*registered_seal_proof("StackedDrg32GiBV1_1")), "StackedDrg32GiBV1");
  EXPECT_EQ(vanilla_proof_variant(*registered_seal_proof("StackedDrg2KiBV1")), "StackedDrg2KiBV1");
  // Every size has a V1, a V1_1 and a V1_1_Feat_SyntheticPoRep entry of that size.
  for (const auto& shape : kSectorShapes) {
    int n = 0;
    for (const auto& q : kRegisteredSealProofs) n += q.sector_size == shape.sector_size && q.supported();
    EXPECT_EQ(n, 3) << shape.name;
  }
}

TEST(RegisteredSealProof, RefusesUnknownAndNonInteractiveProofs) {
  const auto unknown = registered_seal_proof("StackedDrg32GiBV2");
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().code, ErrorCode::kInvalidArgument);
  EXPECT_FALSE(registered_seal_proof(uint64_t{20}));
  for (const char* name : {"StackedDrg32GiBV1_2_Feat_NonInteractivePoRep", "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"}) {
    const auto r = registered_seal_proof(name);
    ASSERT_FALSE(r) << name;
    EXPECT_EQ(r.error().code, ErrorCode::kUnsupported);
    EXPECT_NE(r.error().message.find("not supported"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find(name), std::string::npos) << r.error().message;
    ASSERT_NE(registered_seal_proof_entry(name), nullptr);
  }
  EXPECT_EQ(registered_seal_proof(uint64_t{18}).error().code, ErrorCode::kUnsupported);
  EXPECT_EQ(registered_seal_proof_entry("StackedDrg32GiBV1_1_Feat_SyntheticPoRep")->id, 13u);
  EXPECT_EQ(registered_seal_proof_entry("StackedDrg64GiBV1_2_Feat_NonInteractivePoRep")->id, 19u);
}

}  // namespace
}  // namespace cuzk::porep
