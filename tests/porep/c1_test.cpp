#include "porep/c1.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <sstream>

#include <fmt/format.h>

#include "core/base64.hpp"
#include "core/hex.hpp"
#include "gadgets/sha256_native.hpp"

// Fixtures in tests/data/porep, written by shared/tools/c1gen_model.py (defaults: miner 1000,
// sector 1, ticket 0, seed 0x11.., zero data), which checks its own output (--verify):
//   python3 c1gen_model.py -o c1_2KiB_v1_1.json
//   python3 c1gen_model.py --curio-wrap -o c1_2KiB_v1_1.curio.json
//   python3 c1gen_model.py --porep-proof-id 0 -o c1_2KiB_v1.json
// The pinned values below were read from those files with Python's json module.

namespace cuzk::porep {
namespace {

std::string data_path(const char* name) { return std::string(CUZK_TEST_DATA_DIR) + "/porep/" + name; }

std::string slurp(const char* name) {
  std::ifstream in(data_path(name), std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string le_hex(const ff::Fr& x) {
  std::array<uint8_t, 32> b{};
  x.to_bytes_le(b);
  return to_hex(b);
}

const C1& fixture() {
  static const C1 c1 = read_c1_file(data_path("c1_2KiB_v1_1.json")).value();
  return c1;
}

TEST(C1, ParsesThe2KiBFixture) {
  const C1& c1 = fixture();
  EXPECT_EQ(c1.registered_proof, "StackedDrg2KiBV1_1");
  EXPECT_FALSE(c1.wrapped);
  EXPECT_EQ(to_hex(c1.comm_r), "c647b998c78282296cfd1160714228d43f3b054dfbbb77172b68115ba3c3b762");
  EXPECT_EQ(to_hex(c1.comm_d), "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
  EXPECT_EQ(to_hex(c1.replica_id), "2940faa406e4c6cbad015e2b08e76fd9e3b0e5b852cea7f8174c02ba33039a01");
  EXPECT_EQ(to_hex(c1.seed), "1111111111111111111111111111111111111111111111111111111111111111");
  ASSERT_EQ(c1.partitions.size(), 1u);
  ASSERT_EQ(c1.partitions[0].size(), 2u);

  const ChallengeProof& p0 = c1.partitions[0][0];
  EXPECT_EQ(p0.c_x.index, 57u);
  EXPECT_EQ(p0.labeling_proofs[1].node, 57u);
  EXPECT_EQ(p0.labeling_proofs[1].layer_index, 2u);
  EXPECT_EQ(p0.encoding_proof.layer_index, 2u);
  // Tree D: path indices are the challenge's bits, LSB first (57 = 0b111001).
  ASSERT_EQ(p0.comm_d_proof.path.size(), 6u);
  const uint32_t bits[] = {1, 0, 0, 1, 1, 1};
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(p0.comm_d_proof.path[i].index, bits[i]) << i;
  EXPECT_EQ(le_hex(p0.comm_d_proof.path[5].hashes[0]), "1f7ac9595510e09ea41c460b176430bb322cd6fb412ec57cb17d989a4310372f");
  EXPECT_TRUE(p0.comm_d_proof.leaf.is_zero());
  EXPECT_EQ(le_hex(p0.comm_d_proof.root), to_hex(c1.comm_d));
  // Tree R: 57 = 1 + 7·8.
  EXPECT_EQ(p0.comm_r_last_proof.kind, MerkleProof::Kind::kSingle);
  EXPECT_EQ(le_hex(p0.comm_r_last_proof.root), "d75cfa6d30ece5e2d0354a1f855d7fb128e42e84a16a133278fd9ea8b72a8f15");
  EXPECT_EQ(le_hex(p0.comm_r_last_proof.leaf), "0e97e7d4e4958bf57904a1ba0ed685f3daa3be1c1a2be125028ebc275ac37330");
  EXPECT_EQ(p0.comm_r_last_proof.path[0].index, 1u);
  EXPECT_EQ(p0.comm_r_last_proof.path[1].index, 7u);
  EXPECT_EQ(le_hex(p0.comm_r_last_proof.path[1].hashes[6]), "45fd087eb1de6c771cdb217660264490e7f4f2e4c19efe3961172ed8c51fd649");
  // Parents, in base_parents / expanded_parents order.
  const uint32_t drg[] = {56, 56, 48, 50, 42, 55}, exp[] = {46, 41, 13, 46, 44, 31, 3, 15};
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(p0.drg_parents[i].index, drg[i]) << i;
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(p0.exp_parents[i].index, exp[i]) << i;
  EXPECT_EQ(le_hex(p0.drg_parents[2].rows[1]), "fba9db60c4d6b2fab054c787a930bea317abb312e793566acf3f518b708f0401");
  EXPECT_EQ(le_hex(p0.exp_parents[7].inclusion.root), "95dd0e3fd2b1226dfcff24b2c337b96a965aebea8fa2c3ed1a0470582191de0b");  // comm_c
  EXPECT_EQ(le_hex(p0.labeling_proofs[1].parents[36]), "a2690242b8ae8e3ae09b59f74503ed3b5c92cd2eeae9943aa93ed814e184f903");
  EXPECT_EQ(le_hex(p0.labeling_proofs[0].parents[6]), "683c8ce58c06ede114c6ad83c5324bf201f0f05a5dc44dd34fc3f3a836fc323f");
  // Labeling parents at layer 2: DRG rows of layer 2, then expander rows of layer 1 (c1gen_model.md).
  EXPECT_EQ(p0.labeling_proofs[1].parents[2], p0.drg_parents[2].rows[1]);
  EXPECT_EQ(p0.labeling_proofs[1].parents[6 + 3], p0.exp_parents[3].rows[0]);
  EXPECT_EQ(p0.labeling_proofs[0].parents[6], p0.drg_parents[0].rows[0]);  // layer 1: DRG repeated

  const ChallengeProof& p1 = c1.partitions[0][1];
  EXPECT_EQ(p1.c_x.index, 29u);
  EXPECT_EQ(p1.comm_r_last_proof.path[0].index, 5u);
  EXPECT_EQ(p1.comm_r_last_proof.path[1].index, 3u);
  EXPECT_EQ(le_hex(p1.comm_r_last_proof.leaf), "20c4b2cda6731d00c9e99e145adddb462bce086f580e8624dc9c41436d297a37");
  const uint32_t drg1[] = {28, 27, 7, 28, 27, 28};
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(p1.drg_parents[i].index, drg1[i]) << i;
  EXPECT_EQ(le_hex(p1.labeling_proofs[1].parents[36]), "aaf2c90bc337eb2f8fd752b3ebd7d00524e101afd7fb5f836f57a338fd50972b");
}

// replica_id = SHA-256(prover_id ‖ sector_id u64 BE ‖ ticket ‖ comm_d ‖ porep_id), top 2 bits
// cleared (SPEC.md §2): checks the table's porep_id bytes against both fixtures (ids 5 and 0).
TEST(C1, ReplicaIdFollowsFromTheRegisteredProofsPorepId) {
  for (const char* file : {"c1_2KiB_v1_1.json", "c1_2KiB_v1.json"}) {
    const C1 c1 = read_c1_file(data_path(file)).value();
    const auto proof = registered_seal_proof(c1.registered_proof).value();
    std::vector<uint8_t> msg(32, 0);
    msg[0] = 0xe8;  // prover_id: uvarint(1000)
    msg[1] = 0x07;
    for (int i = 7; i >= 0; --i) msg.push_back(i == 0 ? 1 : 0);  // sector 1, BE
    msg.insert(msg.end(), c1.ticket.begin(), c1.ticket.end());
    msg.insert(msg.end(), c1.comm_d.begin(), c1.comm_d.end());
    const auto porep_id = proof.porep_id();
    msg.insert(msg.end(), porep_id.begin(), porep_id.end());
    auto digest = gadgets::native::sha256(msg);
    digest[31] &= 0x3f;
    EXPECT_EQ(to_hex(digest), to_hex(c1.replica_id)) << file;
  }
  const C1 v1 = read_c1_file(data_path("c1_2KiB_v1.json")).value();
  EXPECT_EQ(v1.registered_proof, "StackedDrg2KiBV1");
  EXPECT_EQ(to_hex(v1.replica_id), "418839c40c9d4af59792ba767c8f79e4f769e79b588a02481041fb715000c500");
  const uint32_t drg[] = {19, 9, 14, 19, 14, 19};  // the V1_0 graph
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(v1.partitions[0][0].drg_parents[i].index, drg[i]) << i;
}

TEST(C1, CurioWrapperGivesTheSameC1) {
  const C1 wrapped = read_c1_file(data_path("c1_2KiB_v1_1.curio.json")).value();
  EXPECT_TRUE(wrapped.wrapped);
  EXPECT_EQ(wrapped.sector_num, 1u);
  EXPECT_EQ(wrapped.sector_size, 2048u);
  C1 unwrapped = wrapped;
  unwrapped.wrapped = false;
  unwrapped.sector_num = unwrapped.sector_size = 0;
  EXPECT_TRUE(unwrapped == fixture());
}

// The writer reproduces the fixture byte for byte: the canonical serde layout is understood.
TEST(C1, WriterReproducesTheFixtureBytes) {
  const std::string text = slurp("c1_2KiB_v1_1.json");
  EXPECT_EQ(to_json(fixture()), text);
  const std::string v1 = slurp("c1_2KiB_v1.json");
  EXPECT_EQ(to_json(parse_c1(v1, "v1").value()), v1);
  // And the wrapper's Phase1Out is the base64 of exactly that text.
  EXPECT_NE(slurp("c1_2KiB_v1_1.curio.json").find(base64_encode(std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()))),
            std::string::npos);
}

// Go re-marshals with keys sorted; serde ignores order and unknown keys.
TEST(C1, AcceptsAnyKeyOrderAndUnknownKeys) {
  std::string text = slurp("c1_2KiB_v1_1.json");
  // Move registered_proof to the end and add an unknown key.
  const std::string head = R"({"registered_proof":"StackedDrg2KiBV1_1",)";
  ASSERT_EQ(text.rfind(head, 0), 0u);
  text = "{" + text.substr(head.size(), text.size() - head.size() - 1) + R"(,"extra":[1,2],"registered_proof":"StackedDrg2KiBV1_1"})";
  EXPECT_TRUE(parse_c1(text, "c1.json").value() == fixture());
}

// Whitespace anywhere JSON allows it (a pretty-printed C1) reads the same as the compact form.
TEST(C1, AcceptsWhitespace) {
  std::string text = slurp("c1_2KiB_v1_1.json");
  std::string pretty;
  for (char c : text) {
    if (c == '[' || c == '{') pretty.append(1, c).append("\n  ");
    else if (c == ',') pretty.append(" ,\t");
    else if (c == ']' || c == '}') pretty.append("\r\n").append(1, c);
    else pretty.push_back(c);
  }
  EXPECT_TRUE(parse_c1(pretty, "pretty.json").value() == fixture());
}

// ---- damage: every kind of malformed input is refused, naming the field ----

constexpr std::string_view kP0 = "vanilla_proofs.StackedDrg2KiBV1[0][0].";
constexpr std::string_view kP1 = "vanilla_proofs.StackedDrg2KiBV1[0][1].";

size_t find_nth(const std::string& s, std::string_view pattern, size_t n, size_t from = 0) {
  size_t pos = from;
  for (size_t i = 0; i <= n; ++i) {
    pos = s.find(pattern, i == 0 ? pos : pos + 1);
    if (pos == std::string::npos) throw std::runtime_error("pattern not found: " + std::string(pattern));
  }
  return pos;
}
// The start of challenge proof i (0 or 1) of the raw fixture.
size_t challenge_at(const std::string& s, size_t i) { return find_nth(s, "{\"comm_d_proofs\"", i); }
// Erases the first element (a 32-integer array) of the array of arrays that begins at or after pos.
void erase_first_value(std::string& s, size_t pos) {
  const size_t open = s.find("[[", pos) + 1;
  const size_t close = s.find(']', open);
  s.erase(open, close - open + 2);  // "[..],"
}
// Replaces the 32-integer array that begins at or after pos.
void replace_value(std::string& s, size_t pos, const std::array<uint8_t, 32>& bytes) {
  const size_t open = s.find('[', pos);
  const size_t close = s.find(']', open);
  std::string v = "[";
  for (size_t i = 0; i < 32; ++i) v.append(i ? "," : "").append(std::to_string(bytes[i]));
  s.replace(open, close - open + 1, v + "]");
}
void replace_once(std::string& s, std::string_view from, std::string_view to, size_t pos = 0) {
  const size_t at = s.find(from, pos);
  if (at == std::string::npos) throw std::runtime_error("pattern not found: " + std::string(from));
  s.replace(at, from.size(), to);
}

std::array<uint8_t, 32> modulus_le() {
  std::array<uint8_t, 32> b{};
  for (size_t i = 0; i < 32; ++i) b[i] = static_cast<uint8_t>(ff::Fr::kModulus.limbs[i / 8] >> (8 * (i % 8)));
  return b;
}

struct Damage {
  const char* name;
  bool wrapped;  // edit the Curio wrapper instead of the raw document
  std::function<void(std::string&)> edit;
  std::string expected;  // a substring of the error message
  ErrorCode code = ErrorCode::kInvalidArgument;
};

std::vector<Damage> damages() {
  const std::string p0(kP0), p1(kP1);
  return {

      {"top-level array", false, [](std::string& s) { s = "[" + s + "]"; }, "c1.json: not an object"},
      {"missing ticket", false, [](std::string& s) { replace_once(s, "\"ticket\"", "\"tickets\""); }, "c1.json: ticket: missing"},
      {"missing registered_proof", false, [](std::string& s) { replace_once(s, "\"registered_proof\"", "\"registered\""); },
       "c1.json: registered_proof: missing"},
      {"missing comm_r_last_proof", false,
       [](std::string& s) { replace_once(s, "\"comm_r_last_proof\"", "\"comm_r_last_proofs\""); },
       "c1.json: " + p0 + "comm_r_last_proof: missing"},
      {"missing column index", false,
       [](std::string& s) { replace_once(s, "\"index\":56", "\"idx\":56", challenge_at(s, 0)); },
       "c1.json: " + p0 + "replica_column_proofs.drg_parents[0].column.index: missing"},
      {"short comm_r", false, [](std::string& s) { replace_once(s, "\"comm_r\":[198,", "\"comm_r\":["); },
       "c1.json: comm_r: expected 32 bytes, got 31"},
      {"byte out of range", false, [](std::string& s) { replace_once(s, "\"seed\":[17,", "\"seed\":[256,"); },
       "c1.json: seed[0]: not a byte (0..255)"},
      {"byte with a leading zero", false, [](std::string& s) { replace_once(s, "\"seed\":[17,", "\"seed\":[017,"); },
       "c1.json: not valid JSON at byte 99736: bad number: leading zero"},  // the '0' of 017: JSON has no leading zeros
      {"byte with four digits", false, [](std::string& s) { replace_once(s, "\"seed\":[17,17,", "\"seed\":[17,1700,"); },
       "c1.json: seed[1]: not a byte (0..255)"},
      {"33 bytes", false, [](std::string& s) { replace_once(s, "\"seed\":[17,", "\"seed\":[17,17,"); },
       "c1.json: seed: expected 32 bytes, got 33"},
      {"empty byte array", false, [](std::string& s) { replace_once(s, "\"ticket\":[0,", "\"ticket\":[],\"x\":[0,"); },
       "c1.json: ticket: expected 32 bytes, got 0"},
      {"string for a number", false, [](std::string& s) { replace_once(s, "\"layer_index\":1", "\"layer_index\":\"1\""); },
       "c1.json: " + p0 + "labeling_proofs[0].layer_index: not an unsigned integer"},
      {"unknown registered_proof", false, [](std::string& s) { replace_once(s, "StackedDrg2KiBV1_1", "StackedDrg2KiBV1_9"); },
       "c1.json: registered_proof: unknown registered seal proof 'StackedDrg2KiBV1_9'"},
      {"non-interactive registered_proof", false,
       [](std::string& s) { replace_once(s, "StackedDrg2KiBV1_1", "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep"); },
       "c1.json: registered_proof: registered proof StackedDrg2KiBV1_2_Feat_NonInteractivePoRep (id 15): non-interactive "
       "PoRep is not supported",
       ErrorCode::kUnsupported},
      {"registered_proof of another size", false, [](std::string& s) { replace_once(s, "StackedDrg2KiBV1_1", "StackedDrg32GiBV1_1"); },
       "c1.json: vanilla_proofs: expected key StackedDrg32GiBV1 for StackedDrg32GiBV1_1, got StackedDrg2KiBV1"},
      {"two partitions", false,
       [](std::string& s) {
         const size_t begin = s.find("[[") + 1;
         const size_t end = s.find("]},\"comm_r\"");
         s.insert(end, "," + s.substr(begin, end - begin));
       },
       "c1.json: vanilla_proofs.StackedDrg2KiBV1: expected 1 partitions, got 2"},
      {"one challenge", false, [](std::string& s) { s.erase(challenge_at(s, 1) - 1, s.find("]]},\"comm_r\"") - challenge_at(s, 1) + 1); },
       "c1.json: vanilla_proofs.StackedDrg2KiBV1[0]: expected 2 challenges, got 1"},
      {"tree R element with 6 hashes", false,
       [](std::string& s) { erase_first_value(s, find_nth(s, "\"hashes\"", 1, s.find("comm_r_last_proof", challenge_at(s, 1)))); },
       "c1.json: " + p1 + "comm_r_last_proof.data.Single.path.path[1].hashes: expected 7 values, got 6"},
      {"tree C element with 6 hashes", false,
       [](std::string& s) {
         const size_t drg = s.find("\"drg_parents\"", challenge_at(s, 0));
         erase_first_value(s, s.find("\"hashes\"", find_nth(s, "\"inclusion_proof\"", 2, drg)));
       },
       "c1.json: " + p0 + "replica_column_proofs.drg_parents[2].inclusion_proof.data.Single.path.path[0].hashes: expected 7 values, got 6"},
      {"tree D path one level short", false,
       [](std::string& s) {
         const size_t at = s.find("{\"hashes\"", challenge_at(s, 0));
         s.erase(at, s.find("},", at) + 2 - at);
       },
       "c1.json: " + p0 + "comm_d_proofs.data.Single.path.path: expected 6 elements, got 5"},
      {"path index out of range", false, [](std::string& s) { replace_once(s, "\"index\":7}", "\"index\":8}", s.find("comm_r_last_proof")); },
       "c1.json: " + p0 + "comm_r_last_proof.data.Single.path.path[1].index: 8 is out of range for arity 8"},
      {"path index not the challenge", false, [](std::string& s) { replace_once(s, "\"index\":7}", "\"index\":6}", s.find("comm_r_last_proof")); },
       "c1.json: " + p0 + "comm_r_last_proof.data.Single.path: path indices spell leaf 49, expected 57"},
      {"Sub proof for a 2 KiB tree", false, [](std::string& s) { replace_once(s, "\"Single\"", "\"Sub\"", s.find("comm_r_last_proof")); },
       "c1.json: " + p0 + "comm_r_last_proof.data.Sub.base_proof: missing"},
      {"unknown proof kind", false, [](std::string& s) { replace_once(s, "\"Single\"", "\"Double\"", s.find("comm_r_last_proof")); },
       "c1.json: " + p0 + "comm_r_last_proof.data: expected Single, Sub or Top, got Double"},
      {"non-canonical replica_id", false, [](std::string& s) { replace_value(s, s.find("\"replica_id\""), modulus_le()); },
       "c1.json: replica_id: not a canonical field element (>= r)"},
      {"non-canonical path hash", false,
       [](std::string& s) { replace_value(s, s.find("\"hashes\":[[", s.find("comm_r_last_proof")) + 10, modulus_le()); },
       "c1.json: " + p0 + "comm_r_last_proof.data.Single.path.path[0].hashes[0]: not a canonical field element (>= r)"},
      {"non-canonical label", false,
       [](std::string& s) { replace_value(s, s.find("\"parents\":[[", challenge_at(s, 1)) + 11, modulus_le()); },
       "c1.json: " + p1 + "labeling_proofs[0].parents[0]: not a canonical field element (>= r)"},
      {"tree D leaf >= 2^254", false,
       [](std::string& s) {
         std::array<uint8_t, 32> b{};
         b[31] = 0x40;
         replace_value(s, s.find("\"leaf\"", challenge_at(s, 0)), b);
       },
       "c1.json: " + p0 + "comm_d_proofs.data.Single.leaf: not a SHA-256 tree domain (>= 2^254)"},
      {"tree D root not comm_d", false,
       [](std::string& s) { replace_value(s, s.find("\"root\"", challenge_at(s, 1)), std::array<uint8_t, 32>{}); },
       "c1.json: " + p1 + "comm_d_proofs.data.Single.root: differs from the other proofs' root"},
      {"tree C roots differ", false,
       [](std::string& s) {
         replace_value(s, s.find("\"root\"", s.find("\"exp_parents\"", challenge_at(s, 1))), std::array<uint8_t, 32>{});
       },
       "c1.json: " + p1 + "replica_column_proofs.exp_parents[0].inclusion_proof.data.Single.root: differs"},
      {"36 label parents", false, [](std::string& s) { erase_first_value(s, s.find("\"parents\"", challenge_at(s, 1))); },
       "c1.json: " + p1 + "labeling_proofs[0].parents: expected 37 values, got 36"},
      {"wrong layer_index", false, [](std::string& s) { replace_once(s, "\"layer_index\":1", "\"layer_index\":2"); },
       "c1.json: " + p0 + "labeling_proofs[0].layer_index: expected 1, got 2"},
      {"wrong node", false, [](std::string& s) { replace_once(s, "\"node\":57", "\"node\":58"); },
       "c1.json: " + p0 + "labeling_proofs[0].node: 58 is not the challenge 57"},
      {"column with one row", false,
       [](std::string& s) { erase_first_value(s, s.find("\"rows\"", s.find("\"exp_parents\"", challenge_at(s, 0)))); },
       "c1.json: " + p0 + "replica_column_proofs.exp_parents[0].column.rows: expected 2 rows, got 1"},
      {"column index out of range", false, [](std::string& s) { replace_once(s, "\"index\":56", "\"index\":64"); },
       "c1.json: " + p0 + "replica_column_proofs.drg_parents[0].column.index: 64 is out of range (>= 64 nodes)"},
      {"wrapper: SectorSize mismatch", true, [](std::string& s) { replace_once(s, "\"SectorSize\":2048", "\"SectorSize\":34359738368"); },
       "c1.json: SectorSize: 34359738368 does not match registered_proof StackedDrg2KiBV1_1 (2048 bytes)"},
      {"wrapper: SectorSize missing", true, [](std::string& s) { replace_once(s, "\"SectorSize\"", "\"Size\""); },
       "c1.json: SectorSize: missing"},
      {"wrapper: negative SectorNum", true, [](std::string& s) { replace_once(s, "\"SectorNum\":1", "\"SectorNum\":-1"); },
       "c1.json: SectorNum: not an unsigned integer"},
      {"wrapper: bad base64", true, [](std::string& s) { replace_once(s, "\"Phase1Out\":\"ey", "\"Phase1Out\":\"e-"); },
       "c1.json: Phase1Out: base64: bad character '-' at offset 1"},
      {"wrapper: base64 cut", true, [](std::string& s) { replace_once(s, "=\"", "\""); },
       "c1.json: Phase1Out: base64: length"},
      {"wrapper: damaged inner document", true,
       [](std::string& s) {
         // Re-encode the inner JSON with one path hash removed.
         std::string inner = slurp("c1_2KiB_v1_1.json");
         erase_first_value(inner, find_nth(inner, "\"hashes\"", 1, inner.find("comm_r_last_proof", challenge_at(inner, 1))));
         const size_t begin = s.find("\"Phase1Out\":\"") + 13;
         s.replace(begin, s.find('"', begin) - begin,
                   base64_encode(std::span(reinterpret_cast<const uint8_t*>(inner.data()), inner.size())));
       },
       "c1.json: Phase1Out: " + p1 + "comm_r_last_proof.data.Single.path.path[1].hashes: expected 7 values, got 6"},
  };
}

TEST(C1, RefusesEveryKindOfDamageNamingTheField) {
  const std::string raw = slurp("c1_2KiB_v1_1.json");
  const std::string wrapped = slurp("c1_2KiB_v1_1.curio.json");
  ASSERT_TRUE(parse_c1(raw, "c1.json"));
  ASSERT_TRUE(parse_c1(wrapped, "c1.json"));
  for (const Damage& d : damages()) {
    std::string text = d.wrapped ? wrapped : raw;
    d.edit(text);
    const auto r = parse_c1(text, "c1.json");
    ASSERT_FALSE(r) << d.name;
    EXPECT_EQ(r.error().code, d.code) << d.name;
    EXPECT_NE(r.error().message.find(d.expected), std::string::npos) << d.name << "\n  got: " << r.error().message
                                                                    << "\n  want: " << d.expected;
  }
}

// validate() on a C1 built or changed in memory, and against another shape.
TEST(C1, ValidateChecksInMemoryC1) {
  const SectorShape shape = shape_for_sector_size(2048).value();
  EXPECT_TRUE(validate(fixture(), shape));
  C1 c = fixture();
  c.partitions[0][1].exp_parents.pop_back();
  auto r = validate(c, shape, "mem");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "mem: " + std::string(kP1) + "replica_column_proofs.exp_parents: expected 8 column proofs, got 7");
  c = fixture();
  c.partitions[0][0].labeling_proofs.pop_back();
  EXPECT_NE(validate(c, shape).error().message.find("labeling_proofs: expected 2 layers, got 1"), std::string::npos);
  c = fixture();
  c.partitions[0][0].encoding_proof.layer_index = 1;
  EXPECT_NE(validate(c, shape).error().message.find("encoding_proof.layer_index: expected 2, got 1"), std::string::npos);
  r = validate(fixture(), shape_for_sector_size(32ull << 30).value(), "mem");
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("mem: registered_proof: StackedDrg2KiBV1_1 is a 2048-byte sector proof, expected 32GiB"),
            std::string::npos)
      << r.error().message;
}

// A 64 GiB-shaped C1 (Top proofs: 9 base + sub + top elements, 11 layers, 10 × 18 challenges)
// built in memory with consistent indices, through the writer and parser; then a damaged sub
// element is named by its JSON path.
C1 synthetic_c1(const SectorShape& shape, const char* proof_name) {
  C1 c;
  c.registered_proof = proof_name;
  const auto kind = shape.top_arity ? MerkleProof::Kind::kTop : shape.sub_arity ? MerkleProof::Kind::kSub : MerkleProof::Kind::kSingle;
  uint64_t counter = 1;
  const auto value = [&] { return ff::Fr::from_uint(counter++ * 0x9e3779b97f4a7c15ull); };
  const auto path = [&](uint64_t leaf, bool tree_d) {
    MerkleProof p;
    p.kind = tree_d ? MerkleProof::Kind::kSingle : kind;
    p.root = tree_d ? ff::Fr::from_uint(7) : ff::Fr::from_uint(tree_d ? 7 : 9);
    p.leaf = value();
    const uint32_t levels = tree_d ? shape.tree_d_depth : shape.tree_rc_path_len();
    for (uint32_t i = 0; i < levels; ++i) {
      const uint32_t arity = tree_d ? 2 : i < shape.base_path_len() ? shape.base_arity : i == shape.base_path_len() && shape.sub_arity ? shape.sub_arity : shape.top_arity;
      PathElement& e = p.path.emplace_back();
      e.index = static_cast<uint32_t>(leaf % arity);
      leaf /= arity;
      for (uint32_t h = 0; h + 1 < arity; ++h) e.hashes.push_back(value());
    }
    return p;
  };
  const auto column = [&](uint64_t index) {
    ColumnProof col;
    col.index = static_cast<uint32_t>(index);
    for (uint32_t l = 0; l < shape.layers; ++l) col.rows.push_back(value());
    col.inclusion = path(index, false);
    col.inclusion.root = ff::Fr::from_uint(11);
    return col;
  };
  std::array<uint8_t, 32> comm_d{};
  comm_d[0] = 7;
  c.comm_d = comm_d;
  for (uint32_t k = 0; k < shape.partitions; ++k) {
    auto& partition = c.partitions.emplace_back();
    for (uint32_t i = 0; i < shape.challenges_per_partition; ++i) {
      const uint64_t node = (uint64_t{k} * 1'000'003 + i * 7919 + 1) * 977 % shape.nodes;
      ChallengeProof& p = partition.emplace_back();
      p.comm_d_proof = path(node, true);
      p.comm_r_last_proof = path(node, false);
      p.c_x = column(node);
      for (uint32_t j = 0; j < shape.drg_degree; ++j) p.drg_parents.push_back(column((node + j * 13) % shape.nodes));
      for (uint32_t j = 0; j < shape.expansion_degree; ++j) p.exp_parents.push_back(column((node * 3 + j * 101) % shape.nodes));
      for (uint32_t l = 1; l <= shape.layers; ++l) {
        LabelingProof lp{{}, l, node};
        for (uint32_t j = 0; j < SectorShape::kLabelParents; ++j) lp.parents.push_back(value());
        p.labeling_proofs.push_back(lp);
      }
      p.encoding_proof = p.labeling_proofs.back();
    }
  }
  return c;
}

TEST(C1, SixtyFourGiBShapeRoundTripsThroughText) {
  const SectorShape shape = shape_for_sector_size(64ull << 30).value();
  const C1 c = synthetic_c1(shape, "StackedDrg64GiBV1_1");
  ASSERT_TRUE(validate(c, shape)) << validate(c, shape).error().message;
  std::string text = to_json(c);
  const C1 back = parse_c1(text, "big.json").value();
  EXPECT_TRUE(back == c);
  EXPECT_EQ(back.partitions[9][17].comm_r_last_proof.kind, MerkleProof::Kind::kTop);
  EXPECT_EQ(back.partitions[9][17].comm_r_last_proof.path.size(), 11u);
  // One sibling removed from the sub element of partition 3, challenge 7, DRG parent 2.
  size_t at = text.find("\"StackedDrg64GiBV1\":[");
  for (int k = 0; k < 3; ++k) at = text.find("],[{\"comm_d_proofs\"", at + 1);  // partition 3
  for (int i = 0; i < 7; ++i) at = text.find(",{\"comm_d_proofs\"", at + 1);   // challenge 7
  at = find_nth(text, "\"sub_proof\"", 0, find_nth(text, "\"inclusion_proof\"", 2, text.find("\"drg_parents\"", at)));
  erase_first_value(text, at);
  const auto r = parse_c1(text, "big.json");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            "big.json: vanilla_proofs.StackedDrg64GiBV1[3][7].replica_column_proofs.drg_parents[2].inclusion_proof.data.Top."
            "sub_proof.path[0].hashes: expected 7 values, got 6");
  // A 64 GiB document claiming to be a 32 GiB proof: the variant key is refused.
  text = to_json(c);
  replace_once(text, "StackedDrg64GiBV1_1", "StackedDrg32GiBV1_1");
  EXPECT_NE(parse_c1(text, "big.json").error().message.find("vanilla_proofs: expected key StackedDrg32GiBV1"), std::string::npos);
}

// ---- strict JSON (core/json_check.hpp): offsets, one document, duplicate and escaped keys ----

std::string refusal(const std::string& text) {
  const auto r = parse_c1(text, "c1.json");
  if (r) return "accepted";
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
  return r.error().message;
}

TEST(C1, SyntaxErrorsNameTheirByteOffset) {
  const std::string raw = slurp("c1_2KiB_v1_1.json");
  std::string s = raw;
  const size_t comma = s.find(",\"comm_r\":");
  s.insert(comma, ",");  // "},," : the second comma is where a key should be
  EXPECT_EQ(refusal(s), fmt::format("c1.json: not valid JSON at byte {}: expected a key string, got ','", comma + 1));
  s = raw;
  const size_t seed = s.find("\"seed\":[17,") + 11;
  s.insert(seed, ",");
  EXPECT_EQ(refusal(s), fmt::format("c1.json: not valid JSON at byte {}: expected a value, got ','", seed));
  s = raw;
  const size_t byte = s.find("\"ticket\":[0,") + 10;
  s[byte] = 'x';
  EXPECT_EQ(refusal(s), fmt::format("c1.json: not valid JSON at byte {}: expected a value, got 'x'", byte));
  s = raw.substr(0, raw.size() - 1);
  EXPECT_EQ(refusal(s), fmt::format("c1.json: not valid JSON at byte {}: expected ',' or '}}', the text ends", raw.size() - 1));
  // Inside Curio's wrapper: the offset in the decoded Phase1Out text.
  std::string wrapped = slurp("c1_2KiB_v1_1.curio.json");
  std::string inner = raw;
  inner.insert(comma, ",");
  const size_t begin = wrapped.find("\"Phase1Out\":\"") + 13;
  wrapped.replace(begin, wrapped.find('"', begin) - begin,
                  base64_encode(std::span(reinterpret_cast<const uint8_t*>(inner.data()), inner.size())));
  EXPECT_EQ(refusal(wrapped),
            fmt::format("c1.json: Phase1Out: not valid JSON at byte {}: expected a key string, got ','", comma + 1));
}

// simdjson On-Demand stops after the value it was asked for; serde_json refuses trailing content.
TEST(C1, RefusesContentAfterTheDocument) {
  const std::string raw = slurp("c1_2KiB_v1_1.json");
  EXPECT_EQ(refusal(raw + "x"), fmt::format("c1.json: not valid JSON at byte {}: content after the JSON document ('x')", raw.size()));
  EXPECT_EQ(refusal(raw + " \n{}"), fmt::format("c1.json: not valid JSON at byte {}: content after the JSON document ('{{')", raw.size() + 2));
  EXPECT_EQ(refusal(raw + "]"), fmt::format("c1.json: not valid JSON at byte {}: content after the JSON document (']')", raw.size()));
  EXPECT_TRUE(parse_c1(" \r\n\t" + raw + " \n", "c1.json"));  // whitespace around the document is JSON
  const std::string wrapped = slurp("c1_2KiB_v1_1.curio.json");
  EXPECT_NE(refusal(wrapped + "{\"SectorNum\":2}").find("content after the JSON document"), std::string::npos);
}

// serde_json refuses a repeated field ("duplicate field `seed`"); a lookup would take the first.
TEST(C1, RefusesDuplicateKeysNamingThePath) {
  const std::string raw = slurp("c1_2KiB_v1_1.json");
  std::string s = raw;
  const size_t first_seed = s.find("\"seed\"");
  s.insert(s.size() - 1, ",\"seed\":[0]");
  EXPECT_EQ(refusal(s), fmt::format("c1.json: seed: duplicate key (at byte {}; first at byte {})", raw.size(), first_seed));
  // Inside a Merkle proof of challenge 1: "leaf" renamed "root".
  s = raw;
  const size_t single = s.find("\"Single\"", s.find("\"comm_r_last_proof\"", challenge_at(s, 1)));
  const size_t root = s.find("\"root\"", single), leaf = s.find("\"leaf\"", single);
  replace_once(s, "\"leaf\"", "\"root\"", single);
  EXPECT_EQ(refusal(s), fmt::format("c1.json: {}comm_r_last_proof.data.Single.root: duplicate key (at byte {}; first at byte {})",
                                    kP1, leaf, root));
  // The same key spelt with an escape is the same key.
  s = raw;
  s.insert(s.size() - 1, ",\"\\u0074icket\":[0]");
  EXPECT_EQ(refusal(s), fmt::format("c1.json: ticket: duplicate key (at byte {}; first at byte {})", raw.size(), raw.find("\"ticket\"")));
  // An object with many keys (the hashed check) still finds a repeat.
  s = raw;
  std::string many;
  for (int i = 0; i < 40; ++i) many += fmt::format(",\"k{}\":{}", i, i);
  s.insert(s.size() - 1, many + ",\"k7\":0");
  EXPECT_NE(refusal(s).find("c1.json: k7: duplicate key"), std::string::npos);
}

// "\u0073eed" is the key "seed" (JSON compares keys after their escapes; serde_json does).
TEST(C1, ReadsEscapedKeysAsJsonSays) {
  const std::string raw = slurp("c1_2KiB_v1_1.json");
  std::string s = raw;
  replace_once(s, "\"seed\"", "\"\\u0073eed\"");
  replace_once(s, "\"registered_proof\"", "\"registered\\u005fproof\"");
  replace_once(s, "\"root\"", "\"r\\u006F\\u006ft\"", challenge_at(s, 1));
  replace_once(s, "\"Single\"", "\"Singl\\u0065\"", challenge_at(s, 1));
  const auto c1 = parse_c1(s, "c1.json");
  ASSERT_TRUE(c1) << c1.error().message;
  EXPECT_TRUE(*c1 == fixture());
  // A string that is a value keeps its escapes' meaning too.
  s = raw;
  replace_once(s, "\"StackedDrg2KiBV1_1\"", "\"StackedDrg2KiBV1\\u005f1\"");
  EXPECT_TRUE(parse_c1(s, "c1.json").value() == fixture());
  // In the wrapper and in its Phase1Out.
  std::string wrapped = slurp("c1_2KiB_v1_1.curio.json");
  replace_once(wrapped, "\"SectorSize\"", "\"Sector\\u0053ize\"");
  std::string inner = raw;
  replace_once(inner, "\"ticket\"", "\"\\u0074icket\"");
  const size_t begin = wrapped.find("\"Phase1Out\":\"") + 13;
  wrapped.replace(begin, wrapped.find('"', begin) - begin,
                  base64_encode(std::span(reinterpret_cast<const uint8_t*>(inner.data()), inner.size())));
  const auto w = parse_c1(wrapped, "c1.json");
  ASSERT_TRUE(w) << w.error().message;
  EXPECT_EQ(w->sector_size, 2048u);
  EXPECT_EQ(w->ticket, fixture().ticket);
  // A bad escape in a key is a syntax error at its offset.
  s = raw;
  const size_t at = s.find("\"seed\"");
  replace_once(s, "\"seed\"", "\"\\useed\"");
  EXPECT_EQ(refusal(s), fmt::format("c1.json: not valid JSON at byte {}: \\u escape needs 4 hex digits", at + 3));
}

// Every prefix of a document fails cleanly (no crash, no read past the end; run under ASan).
// All prefixes of the wrapper's first and last 2,000 bytes, and every 31st in between, plus the
// raw document's prefixes at the same stride.
TEST(C1, EveryTruncationFailsCleanly) {
  for (const char* file : {"c1_2KiB_v1_1.json", "c1_2KiB_v1_1.curio.json"}) {
    const std::string text = slurp(file);
    size_t tried = 0;
    for (size_t n = 0; n < text.size(); n += (n < 2000 || n + 2000 > text.size()) ? 1 : 31) {
      const auto r = parse_c1(std::string_view(text.data(), n), "c1.json");
      ASSERT_FALSE(r) << file << " prefix " << n;
      ++tried;
    }
    EXPECT_GT(tried, 4000u);
  }
}

}  // namespace
}  // namespace cuzk::porep
