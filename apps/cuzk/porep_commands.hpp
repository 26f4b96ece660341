#pragma once
// `cuzk setup --circuit porep`, `cuzk prove porep`, `cuzk verify porep`, `cuzk porep
// public-inputs`: PoRep C2 on the CPU from a C1 file. Wiring only (the work is in src/porep).
// Exit codes as the other commands: 0 done / valid, 1 invalid proof, 2 bad input or error.

#include <cstdint>
#include <optional>
#include <string>

namespace cuzk::app {

struct PorepSetupOptions {
  std::string sector_size = "2KiB";
  std::string out;                 // directory; default: the parameter directory
  std::optional<uint64_t> seed;    // reproducible toxic waste (tests only)
  unsigned threads = 0;
  bool device = false;             // the points on a GPU (--gpu picks which)
  std::string gpu;                 // with device: auto | N; empty: $CUZK_GPU, else auto
};

struct PorepProveOptions {
  std::string c1;
  std::string params_dir;  // empty: $FIL_PROOFS_PARAMETER_CACHE or the default
  std::string out;         // 192 bytes per partition
  std::optional<uint64_t> blinding_seed;  // reproducible proofs (tests only)
  // The sector's public identity: with it the C1's replica_id is checked before proving
  // (sector_id defaults to a wrapped C1's SectorNum).
  std::optional<uint64_t> miner_id, sector_id;
  unsigned threads = 0;
  std::string gpu;         // auto | off | N; empty: $CUZK_GPU, else auto
  std::string gpu_memory;  // "16GiB": the most device memory to use; empty: $CUZK_GPU_MEMORY, else all free
  bool json = false;       // stage times as one JSON object
};

struct PorepVerifyOptions {
  std::string c1;          // public data from a C1, or from the flags below
  std::string proof;
  std::string params_dir;  // the .vk found as for proving, unless --vk
  std::string vk;
  // Public data alone (no C1): all of these plus --registered-proof.
  std::string registered_proof, prover_id, ticket, seed, comm_r, comm_d;
  std::optional<uint64_t> sector_id, miner_id;
};

struct GenC1Options {
  std::string sector_size = "2KiB";
  std::string registered_proof;  // default: StackedDrg<size>V1_1
  bool synthetic = false;        // StackedDrg<size>V1_1_Feat_SyntheticPoRep (2KiB, 8MiB)
  uint64_t seed = 1;
  std::optional<uint64_t> miner_id, sector_id;
  std::string out;
  bool curio = false;  // Curio's wrapper {"SectorNum", "Phase1Out": base64, "SectorSize"}
};

struct PorepInputsOptions {
  std::string c1;
  bool json = false;
};

int run_porep_setup(const PorepSetupOptions& o);
int run_porep_prove(const PorepProveOptions& o);
int run_porep_verify(const PorepVerifyOptions& o);
int run_porep_public_inputs(const PorepInputsOptions& o);
int run_gen_c1(const GenC1Options& o);

}  // namespace cuzk::app
