#pragma once
// WindowPoSt and WinningPoSt: `cuzk setup --circuit window-post|winning-post`,
// `cuzk prove post`, `cuzk verify post`, `cuzk gen-vanilla`. Wiring only (the work is in
// src/post). Exit codes as the other commands: 0 done / valid, 1 invalid proof, 2 bad input or error.

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cuzk::app {

struct PorepSetupOptions;

struct PostProveOptions {
  std::vector<std::string> vanilla;  // files, or directories of *.vanilla.bin
  std::string registered_proof;      // Go id or name; default: from --kind and the proofs' size
  std::string randomness;            // 32 bytes, hex
  uint32_t partition = 0;
  std::string params_dir;
  std::string out;
  std::optional<uint64_t> blinding_seed;
  std::string gpu, gpu_memory;  // --gpu, --gpu-memory (else CUZK_GPU, CUZK_GPU_MEMORY)
  unsigned threads = 0;
  bool json = false;
};

struct PostVerifyOptions {
  std::string proof;
  std::string registered_proof, randomness;
  std::vector<std::string> vanilla;  // the sectors (id, comm_r) from vanilla proofs, or
  std::vector<std::string> sectors;  // ID:COMM_R_HEX, or
  std::string sectors_file;          // lines "ID COMM_R_HEX"
  std::optional<uint32_t> partition;  // only this partition's 192-byte proof
  std::string params_dir, vk;
  bool vk_compressed = false;  // the key's points compressed (polka-storage's fixture layout)
};

// The PoSt kinds gen-vanilla makes; --kind snap comes in with the SnapDeals vanilla generator.
struct GenVanillaOptions {
  std::string kind = "window-post";
  std::string sector_size = "2KiB";
  std::string registered_proof;  // default: the kind's current proof of the size
  uint32_t sectors = 0;          // 0: one full partition (WindowPoSt), 1 (WinningPoSt)
  uint64_t seed = 1;
  uint64_t first_sector_id = 1;
  std::string randomness;  // hex; default drawn from the seed
  std::string out;         // directory
};

struct PostCommands {
  PostProveOptions prove;
  PostVerifyOptions verify;
  GenVanillaOptions gen;
  CLI::App* prove_cmd = nullptr;
  CLI::App* verify_cmd = nullptr;
  CLI::App* gen_cmd = nullptr;
};

// Adds `prove post` and `verify post` under the given `prove` and `verify` commands and
// `gen-vanilla` to the app.
void add_post_commands(CLI::App& app, CLI::App& prove, CLI::App& verify, PostCommands& c);
// The exit code when one of them was given.
std::optional<int> run_post_command(const PostCommands& c);

// `cuzk setup --circuit window-post|winning-post` (the PoRep setup's flags: --sector-size, --out,
// --seed, --threads).
int run_post_setup(const std::string& circuit, const PorepSetupOptions& o);

}  // namespace cuzk::app
