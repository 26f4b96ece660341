#include "groth16_commands.hpp"

#include "command_support.hpp"

#include <fmt/format.h>

#include <fstream>
#include <iterator>
#include <vector>

#include "core/mapped_file.hpp"
#include "core/thread_pool.hpp"
#include "groth16/params_file.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/snarkjs_json.hpp"
#include "groth16/verifier.hpp"
#include "groth16/zkey.hpp"
#include "groth16/zkey_prover.hpp"
#include "r1cs/iden3.hpp"
#include "r1cs/iden3_convert.hpp"

namespace cuzk::app {
namespace {

using ff::Fr;
using namespace groth16;

bool ends_with(const std::string& s, const char* suffix) { return s.ends_with(suffix); }

void write_text(const std::string& path, const std::string& text) { write_file(path, text); }

std::vector<Fr> public_part(const std::vector<Fr>& z, size_t num_inputs) {
  return {z.begin() + 1, z.begin() + static_cast<std::ptrdiff_t>(num_inputs)};
}

}  // namespace

int run_setup(const SetupOptions& o) {
  return guarded("setup", [&] {
    if (o.r1cs.empty() || o.params.empty()) throw Exception(invalid_argument("give --r1cs and --params, or --circuit porep"));
    ThreadPool pool(o.threads);
    const auto r1cs = r1cs::compiled_from_iden3(must(r1cs::iden3::read_r1cs(o.r1cs)));
    const ToxicWaste tw = o.seed ? ToxicWaste::from_seed(*o.seed) : ToxicWaste::random();
    const Parameters params = must(setup(r1cs, tw, pool));
    must(write_params(o.params, params));
    if (!o.vk.empty()) must(write_vk(o.vk, params.vk));
    if (!o.vk_json.empty()) write_text(o.vk_json, vk_to_snarkjs_json(params.vk));
    fmt::print("setup: {} constraints, {} public inputs, {} aux -> {}\n", r1cs.num_constraints(), r1cs.num_inputs - 1,
               r1cs.num_aux, o.params);
    return 0;
  });
}

int run_prove(const ProveOptions& o) {
  return guarded("prove", [&] {
    if (o.wtns.empty() || o.proof.empty()) throw Exception(invalid_argument("give --wtns and --proof (or: prove porep)"));
    ThreadPool pool(o.threads);
    const std::vector<Fr> z = must(r1cs::iden3::read_wtns(o.wtns));
    Proof proof;
    VerifyingKey vk;
    std::vector<Fr> inputs;
    if (!o.zkey.empty()) {
      const Zkey zkey = must(read_zkey(o.zkey, pool));
      proof = must(prove_zkey(zkey, z, Blinding::random(), pool));
      vk = zkey.vk;
      inputs = public_part(z, zkey.n_public + 1);
    } else {
      if (o.params.empty() || o.r1cs.empty()) throw Exception(invalid_argument("give --zkey, or --params with --r1cs"));
      const auto r1cs = r1cs::compiled_from_iden3(must(r1cs::iden3::read_r1cs(o.r1cs)));
      if (z.size() != size_t(r1cs.num_inputs) + r1cs.num_aux) {
        throw Exception(invalid_argument(fmt::format("{}: {} values, the circuit has {} wires", o.wtns, z.size(),
                                                  r1cs.num_inputs + r1cs.num_aux)));
      }
      const Parameters params = must(read_params(o.params, pool));
      Assignment w;
      w.inputs.assign(z.begin(), z.begin() + r1cs.num_inputs);
      w.aux.assign(z.begin() + r1cs.num_inputs, z.end());
      auto rows = r1cs::spmv(r1cs, std::span<const Fr>(w.inputs), std::span<const Fr>(w.aux), pool);
      w.a = std::move(rows.a);
      w.b = std::move(rows.b);
      w.c = std::move(rows.c);
      w.density = density_of(r1cs);
      proof = must(prove(params, w, Blinding::random(), pool));
      vk = params.vk;
      inputs = public_part(z, r1cs.num_inputs);
    }
    // A proof leaves only verified (a wrong witness yields an invalid proof, never a silent one).
    if (!must(verify(PreparedVerifyingKey(vk), proof, inputs))) {
      throw Exception(invalid_argument(o.wtns + ": the witness does not satisfy the circuit (the proof does not verify)"));
    }
    if (ends_with(o.proof, ".json")) {
      write_text(o.proof, proof_to_snarkjs_json(proof));
    } else {
      const auto b = proof.to_bytes();
      write_text(o.proof, std::string(b.begin(), b.end()));
    }
    if (!o.public_json.empty()) write_text(o.public_json, public_to_snarkjs_json(inputs));
    fmt::print("prove: verified proof -> {}\n", o.proof);
    return 0;
  });
}

int run_verify(const VerifyOptions& o) {
  return guarded("verify", [&] {
    if (o.vk.empty() || o.proof.empty() || o.public_json.empty())
      throw Exception(invalid_argument("give --vk, --proof and --public (or: verify porep)"));
    ThreadPool pool(1);
    const VerifyingKey vk = ends_with(o.vk, ".json") ? must(vk_from_snarkjs_json(slurp(o.vk), o.vk)) : must(read_vk(o.vk, pool));
    const std::string proof_bytes = slurp(o.proof);
    const Proof proof = ends_with(o.proof, ".json")
                            ? must(proof_from_snarkjs_json(proof_bytes, o.proof))
                            : must(Proof::from_bytes(std::span(reinterpret_cast<const uint8_t*>(proof_bytes.data()), proof_bytes.size())));
    const std::vector<Fr> inputs = must(public_from_snarkjs_json(slurp(o.public_json), o.public_json));
    const bool ok = must(verify(PreparedVerifyingKey(vk), proof, inputs));
    fmt::print("{}\n", ok ? "OK: the proof is valid" : "INVALID: the proof does not verify");
    return ok ? 0 : 1;
  });
}

}  // namespace cuzk::app
