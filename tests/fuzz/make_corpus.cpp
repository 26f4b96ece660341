// Writes the generated part of the fuzz seed corpora (tests/fuzz/make_corpus.sh copies the rest
// from tests/data and has snarkjs make the .zkey): `fuzz_make_corpus <tests/fuzz/corpus>`.
// Every file is a valid input, so the fuzzer starts from deep inside each decoder; a small circuit
// (random_r1cs, 8 rows, fixed seed) keeps them small. Run once; the output is committed.

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>

#include "cuzk/v1/proving.pb.h"
#include "ec/scalar_mul.hpp"
#include "ec/serialize.hpp"
#include "groth16/params_file.hpp"
#include "groth16/setup.hpp"
#include "groth16/snarkjs_json.hpp"
#include "r1cs/iden3.hpp"
#include "r1cs/iden3_convert.hpp"
#include "r1cs/keygen_cs.hpp"
#include "r1cs/witness_cs.hpp"
#include "snap/synthetic_vanilla.hpp"
#include "snap/vanilla.hpp"
#include "support/circuits.hpp"

namespace {

using namespace cuzk;
namespace fs = std::filesystem;

void write(const fs::path& path, std::span<const uint8_t> bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  std::printf("%s: %zu bytes\n", path.c_str(), bytes.size());
}
void write(const fs::path& path, const std::string& text) {
  write(path, std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_make_corpus <tests/fuzz/corpus>\n");
    return 2;
  }
  const fs::path out = argv[1];
  ThreadPool pool(1);

  // Points: the generators, a multiple of each, and the point at infinity, in all four encodings.
  const ff::Fr k = ff::Fr::from_uint(0x1234567890abcdefULL);
  const ec::G1Affine g1[] = {ec::G1Affine::generator(), ec::scalar_mul(ec::G1Jacobian::generator(), k).to_affine(),
                             ec::G1Affine::identity()};
  const ec::G2Affine g2[] = {ec::G2Affine::generator(), ec::scalar_mul(ec::G2Jacobian::generator(), k).to_affine(),
                             ec::G2Affine::identity()};
  for (int i = 0; i < 3; ++i) {
    const std::string n = std::to_string(i);
    write(out / "ec_point" / ("g1_compressed_" + n), ec::to_compressed(g1[i]));
    write(out / "ec_point" / ("g1_uncompressed_" + n), ec::to_uncompressed(g1[i]));
    write(out / "ec_point" / ("g2_compressed_" + n), ec::to_compressed(g2[i]));
    write(out / "ec_point" / ("g2_uncompressed_" + n), ec::to_uncompressed(g2[i]));
  }

  // A small circuit: its .r1cs, .wtns, bellperson .vk/.params and snarkjs JSON key.
  const auto circuit = [](auto& cs) { test::random_r1cs(cs, 8, 7); };
  r1cs::KeygenCS<ff::Fr> kcs;
  circuit(kcs);
  const auto compiled = std::move(kcs).finish();
  r1cs::WitnessCS<ff::Fr> wcs;
  circuit(wcs);
  std::vector<ff::Fr> witness = wcs.inputs();
  witness.insert(witness.end(), wcs.aux().begin(), wcs.aux().end());

  const fs::path tmp = fs::temp_directory_path() / "cuzk-fuzz-corpus";
  fs::create_directories(tmp);
  const auto copy_through = [&](const fs::path& file, const fs::path& to) {
    std::ifstream in(file, std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), {}};
    write(to, bytes);
  };
  r1cs::iden3::write_r1cs(tmp / "small.r1cs", r1cs::iden3_from_compiled(compiled)).value();
  r1cs::iden3::write_wtns(tmp / "small.wtns", witness).value();
  copy_through(tmp / "small.r1cs", out / "r1cs" / "small.r1cs");
  copy_through(tmp / "small.wtns", out / "wtns" / "small.wtns");

  const auto params = groth16::setup(compiled, groth16::ToxicWaste::from_seed(7), pool).value();
  groth16::write_params(tmp / "small.params", params).value();
  copy_through(tmp / "small.params", out / "params" / "small.params");
  write(out / "params" / "small.vk", groth16::vk_bytes(params.vk));
  write(out / "snarkjs_json" / "verification_key.json", groth16::vk_to_snarkjs_json(params.vk));
  write(out / "snarkjs_json" / "public.json",
        groth16::public_to_snarkjs_json(std::span(witness).subspan(1, compiled.num_inputs - 1)));
  groth16::Proof proof{g1[1], g2[1], g1[0]};
  write(out / "snarkjs_json" / "proof.json", groth16::proof_to_snarkjs_json(proof));
  fs::remove_all(tmp);

  // SnapDeals: the one partition proof of a synthetic 2 KiB update (`cuzk gen-vanilla --kind snap
  // --sector-size 2KiB --seed 3` writes the same bytes).
  const snap::UpdatePoseidon poseidon;
  const snap::UpdateShape shape = snap::update_shape_for_sector_size(2048).value();
  const snap::SyntheticUpdate update = snap::generate_synthetic_update(shape, poseidon, 3).value();
  write(out / "snap_vanilla" / "snap-2KiB.partition0", snap::encode_partition_proof(update.partitions[0]));

  // SubmitProofRequests as Curio sends them, one per kind (short payloads: the conversion does not
  // read them), and an empty message (every field absent).
  const auto request = [&](const std::string& name, const std::string& id, cuzk::v1::ProofKind kind,
                           cuzk::v1::Priority priority, uint64_t registered, const std::string& payload) {
    cuzk::v1::SubmitProofRequest r;
    r.set_request_id(id);
    r.set_proof_kind(kind);
    r.set_priority(priority);
    r.set_sector_size(2048);
    r.set_registered_proof(registered);
    r.set_vanilla_proof(payload);
    r.set_sector_number(11);
    r.set_miner_id(1000);
    r.set_randomness(std::string(32, '\x5a'));
    write(out / "submit_request" / name, r.SerializeAsString());
  };
  request("porep", "porep-1000-11", cuzk::v1::POREP_SEAL_COMMIT, cuzk::v1::NORMAL, 8, R"({"registered_proof":"StackedDrg2KiBV1_1"})");
  request("wdpost", "wdpost-1000-0-5a5a5a5a", cuzk::v1::WINDOW_POST_PARTITION, cuzk::v1::HIGH, 10, std::string(64, '\x01'));
  request("winning", "winning-1000-77", cuzk::v1::WINNING_POST, cuzk::v1::CRITICAL, 5, std::string(64, '\x02'));
  request("snap", "snap-1000-11", cuzk::v1::SNAP_DEALS_UPDATE, cuzk::v1::LOW, 0, std::string(64, '\x03'));
  write(out / "submit_request" / "empty", std::string());
  return 0;
}
