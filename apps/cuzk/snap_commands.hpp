#pragma once
// SnapDeals (EmptySectorUpdate) on the CPU: `cuzk gen-vanilla --kind snap`, `cuzk setup --circuit
// snap`, `cuzk prove snap`, `cuzk verify snap`. Wiring only (the work is in src/snap). Exit codes
// as the other commands: 0 done / valid, 1 invalid proof, 2 bad input or error.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace cuzk::app {

// The public data every snap command takes: the sector (--sector-size or --registered-proof, the
// abi.RegisteredUpdateProof 0-4) and the three commitments (32 bytes hex, as Curio sends them).
struct SnapPublicFlags {
  std::string sector_size;
  std::optional<uint64_t> registered_proof;
  std::string comm_r_old, comm_r_new, comm_d_new;
};

struct SnapCommands {
  // gen-vanilla --kind snap
  std::string gen_sector_size = "2KiB";
  uint64_t gen_seed = 1;
  std::string gen_out;  // directory
  // setup --circuit snap
  std::string setup_sector_size = "2KiB";
  std::string setup_out;  // directory; default: the parameter directory
  // prove snap / verify snap
  SnapPublicFlags pub;
  std::vector<std::string> vanilla;  // one PartitionProof .bin per partition, or Curio's snap-vproof.json
  std::string params_dir, vk, proof, out;
  std::optional<uint64_t> blinding_seed;
  std::string gpu, gpu_memory;  // prove snap: --gpu, --gpu-memory (else CUZK_GPU, CUZK_GPU_MEMORY)
  bool json = false;
  unsigned threads = 0;
  CLI::App* prove = nullptr;
  CLI::App* verify = nullptr;
};

// Adds `snap` under `prove` and `verify`.
void add_snap_commands(CLI::App& prove, CLI::App& verify, SnapCommands& c);
// Runs `prove snap` / `verify snap` when one was parsed.
std::optional<int> run_snap_command(const SnapCommands& c);
int run_gen_vanilla_snap(const SnapCommands& c);
int run_snap_setup(const SnapCommands& c, std::optional<uint64_t> seed, unsigned threads);

}  // namespace cuzk::app
