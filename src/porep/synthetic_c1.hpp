#pragma once
// A synthetic, satisfiable C1 for any sector size: the test and benchmark input of every size
// (issue 5). The sector is committed capacity (all data zero), so tree D is the all-default
// binary SHA-256 tree and comm_d is known without sealing; replica_id and the challenges then
// follow from public data exactly as for a real sector, and the 14 parents of each challenge come
// from the real graph. Only the labels no challenge computes are random: each challenged node's
// labels are create_label of its parents' labels, layer by layer; trees C and R are sparse
// (untouched subtrees take the default hash of their level), so every path agrees on one root.
// A verifier working from public data alone (replica_id, comm_d, comm_r, seed, porep_id) accepts
// the proofs made from it.
// Synthetic PoRep (the ..._Feat_SyntheticPoRep proofs) draws its challenges from comm_r, which
// the labels determine: no set of labels can be chosen before the challenges are known, so every
// node's labels are computed (a whole committed-capacity sector sealed, as the Rust stack would seal
// it) and the challenges derived after comm_r. That is practical for the test sizes only
// (2 KiB, 8 MiB: kMaxSyntheticPorepNodes); larger synthetic proofs are refused (kUnsupported).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/expected.hpp"
#include "core/thread_pool.hpp"
#include "ff/bls12_381.hpp"
#include "porep/c1.hpp"
#include "porep/challenges.hpp"
#include "porep/circuit.hpp"

namespace cuzk::porep {

inline constexpr uint64_t kMaxSyntheticPorepNodes = uint64_t{1} << 18;  // 8 MiB

struct SyntheticC1Options {
  std::string registered_proof = "StackedDrg2KiBV1_1";  // V1, V1_1, or ..._Feat_SyntheticPoRep up to 8 MiB
  uint64_t seed = 1;                                     // seeds std::mt19937_64 (fully reproducible)
  std::optional<uint64_t> miner_id;                      // replaces the drawn miner id
  std::optional<uint64_t> sector_id;                     // replaces the drawn sector id
  std::optional<Bytes32> ticket;                         // replaces the drawn ticket
  std::optional<Bytes32> porep_seed;                     // replaces the drawn interactive seed
};

// The values drawn from the seed, in this order from std::mt19937_64(seed), one 64-bit output
// each (the overrides replace a draw without shifting the stream): miner id = 1000 + x mod 10^6;
// sector id = x >> 32; ticket and seed = four outputs each, little-endian, byte 31 &= 0x3f (below
// 2^254, so a reader that takes them as fr32 accepts them). prover_id = prover_id_from_miner.
// The random labels come after these draws (4 outputs per label, same trim).
struct SyntheticC1Inputs {
  uint64_t miner_id = 0, sector_id = 0;
  Bytes32 prover_id{}, ticket{}, seed{};
};
SyntheticC1Inputs synthetic_c1_inputs(const SyntheticC1Options& options);

// Root of the binary SHA-256 tree D over `depth` levels of zero leaves: d_0 = 0,
// d_{i+1} = Sha256TreeHash::native(d_i, d_i). hashes[i] is the default of level i (the sibling
// every path of a zero sector has at level i); hashes[depth] is comm_d.
std::vector<ff::Fr> zero_tree_d_hashes(uint32_t depth);

// The whole C1 (unwrapped, canonical when written with to_json). Unknown or feature proofs:
// the errors of registered_seal_proof. The result passes validate() (checked before returning).
Expected<C1> generate_synthetic_c1(const SyntheticC1Options& options);
// Same, with the caller's Poseidon constants (building arity 11's costs a moment) and threads
// (the tree C and R hashes, ~80% of the time, run on the pool). The one above makes its own,
// with every hardware thread. The result does not depend on the thread count.
Expected<C1> generate_synthetic_c1(const SyntheticC1Options& options, const PorepPoseidon& poseidon, ThreadPool& pool);

}  // namespace cuzk::porep
