#include "porep/graph.hpp"

#include <sodium.h>

#include <algorithm>
#include <bit>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "gadgets/sha256_native.hpp"

namespace cuzk::porep {
namespace {

// ---- ChaCha8 (rand_chacha 0.3 ChaCha8Rng; RFC 8439 §2.3 block function with 8 rounds) --------
// rand_chacha lays the state out as constants, 8 key words, a 64-bit block counter (words 12,
// 13) and a 64-bit stream id (words 14, 15; 0 for from_seed). Output words are read in order;
// next_u64 = w[i] | w[i+1] << 32. A DRG node reads 20 words from offset 0 of rand_core's
// 64-word buffer, so the buffer-boundary case of next_u64 never arises.

constexpr uint32_t rotl32(uint32_t v, int n) { return (v << n) | (v >> (32 - n)); }

constexpr void quarter_round(std::array<uint32_t, 16>& x, int a, int b, int c, int d) {
  x[a] += x[b]; x[d] = rotl32(x[d] ^ x[a], 16);
  x[c] += x[d]; x[b] = rotl32(x[b] ^ x[c], 12);
  x[a] += x[b]; x[d] = rotl32(x[d] ^ x[a], 8);
  x[c] += x[d]; x[b] = rotl32(x[b] ^ x[c], 7);
}

std::array<uint32_t, 16> chacha8_block(const std::array<uint32_t, 8>& key, uint64_t counter) {
  std::array<uint32_t, 16> state = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
  std::copy(key.begin(), key.end(), state.begin() + 4);
  state[12] = static_cast<uint32_t>(counter);
  state[13] = static_cast<uint32_t>(counter >> 32);
  std::array<uint32_t, 16> x = state;
  for (int round = 0; round < 8; round += 2) {
    quarter_round(x, 0, 4, 8, 12); quarter_round(x, 1, 5, 9, 13);
    quarter_round(x, 2, 6, 10, 14); quarter_round(x, 3, 7, 11, 15);
    quarter_round(x, 0, 5, 10, 15); quarter_round(x, 1, 6, 11, 12);
    quarter_round(x, 2, 7, 8, 13); quarter_round(x, 3, 4, 9, 14);
  }
  for (size_t i = 0; i < 16; ++i) x[i] += state[i];
  return x;
}

class ChaCha8Stream {
 public:
  explicit ChaCha8Stream(const std::array<uint32_t, 8>& key) : key_(key) {}

  uint64_t next_u64() {
    const uint64_t lo = next_u32();
    return lo | (uint64_t{next_u32()} << 32);
  }

 private:
  uint32_t next_u32() {
    if (used_ == block_.size()) {
      block_ = chacha8_block(key_, counter_++);
      used_ = 0;
    }
    return block_[used_++];
  }

  std::array<uint32_t, 8> key_;
  std::array<uint32_t, 16> block_{};
  size_t used_ = 16;
  uint64_t counter_ = 0;
};

// The first 8 digest bytes of BLAKE2b-512(right BE ‖ key BE), read big-endian
// (crypto/feistel.rs `feistel`; libsodium's BLAKE2b).
uint64_t blake2b_feistel_prefix(uint64_t right, uint64_t key) {
  std::array<uint8_t, 16> message;
  for (int i = 0; i < 8; ++i) {
    message[i] = uint8_t(right >> (56 - 8 * i));
    message[8 + i] = uint8_t(key >> (56 - 8 * i));
  }
  std::array<uint8_t, 64> digest;
  crypto_generichash_blake2b(digest.data(), digest.size(), message.data(), message.size(), nullptr, 0);
  uint64_t out = 0;
  for (int i = 0; i < 8; ++i) out = (out << 8) | digest[i];
  return out;
}

std::array<uint8_t, 32> domain_seed(std::string_view dst, const PorepId& porep_id) {
  std::array<uint8_t, 64> message{};
  std::copy(dst.begin(), dst.end(), message.begin());
  std::copy(porep_id.begin(), porep_id.end(), message.begin() + dst.size());
  return gadgets::native::sha256(std::span<const uint8_t>(message.data(), dst.size() + porep_id.size()));
}

uint64_t load_le(const uint8_t* p, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

}  // namespace

void StackedGraph::check_node(uint64_t node, const char* what) const {
  if (node >= nodes_) {
    throw Exception(invalid_argument(std::string(what) + ": node " + std::to_string(node) + " outside a graph of " +
                                     std::to_string(nodes_) + " nodes"));
  }
}

StackedGraph::StackedGraph(uint64_t nodes, const PorepId& porep_id, GraphVersion version)
    : nodes_(nodes), version_(version) {
  if (nodes < 2 || nodes > (uint64_t{1} << 32)) {
    throw Exception(invalid_argument("StackedGraph: node count " + std::to_string(nodes) + " outside [2, 2^32]"));
  }
  if (sodium_init() < 0) throw Exception({ErrorCode::kInternal, "libsodium failed to initialise"});
  // crypto/mod.rs derive_porep_domain_seed: SHA256(DST ‖ porep_id).
  const auto drg_seed = domain_seed("Filecoin_DRSample", porep_id);
  for (size_t i = 0; i < 7; ++i) {
    drg_key_[i] = static_cast<uint32_t>(load_le(drg_seed.data() + 4 * i, 4));
  }
  // drg_key_[7] (seed bytes 28..32) is the node index, set per node.
  const auto feistel_seed = domain_seed("Filecoin_Feistel", porep_id);
  for (size_t i = 0; i < feistel_keys_.size(); ++i) feistel_keys_[i] = load_le(feistel_seed.data() + 8 * i, 8);
  // feistel.rs precompute: the smallest log4 >= 1 with 4^log4 >= num_elements.
  const uint64_t elements = nodes * kExpanderDegree;
  uint64_t log4 = 1;
  for (uint64_t pow4 = 4; pow4 < elements; pow4 *= 4) ++log4;
  feistel_half_bits_ = log4;
  feistel_right_mask_ = (uint64_t{1} << log4) - 1;
}

void StackedGraph::drg_parents(uint64_t node, std::span<uint32_t, kDrgDegree> out) const {
  check_node(node, "drg_parents");
  if (node < 2) {
    std::fill(out.begin(), out.end(), 0u);
    return;
  }
  std::array<uint32_t, 8> key = drg_key_;
  key[7] = static_cast<uint32_t>(node);  // seed[28..32] = node as u32 LE
  ChaCha8Stream rng(key);

  constexpr uint64_t m_prime = kDrgDegree - 1;
  const uint64_t metagraph_node = node * m_prime;
  // ceil(log2(metagraph_node)) (Rust computes it in f64, exact for these magnitudes).
  const uint64_t buckets = std::bit_width(metagraph_node - 1);
  const size_t predecessor_slot = version_ == GraphVersion::kV1_0 ? m_prime : 0;
  const uint32_t n = static_cast<uint32_t>(node);
  for (size_t k = 0, slot = 0; k < m_prime; ++k, ++slot) {
    if (slot == predecessor_slot) ++slot;
    const uint64_t bucket = rng.next_u64() % buckets + 1;
    const uint64_t largest = std::min(metagraph_node, uint64_t{1} << bucket);
    const uint64_t smallest = std::max<uint64_t>(2, largest >> 1);
    const uint64_t distance = smallest + rng.next_u64() % (largest - smallest + 1);
    const auto mapped = static_cast<uint32_t>((metagraph_node - distance) / m_prime);
    out[slot] = mapped == n ? n - 1 : mapped;
  }
  out[predecessor_slot] = n - 1;
}

uint64_t StackedGraph::feistel_encode(uint64_t index) const {
  uint64_t left = (index >> feistel_half_bits_) & feistel_right_mask_;
  uint64_t right = index & feistel_right_mask_;
  for (const uint64_t key : feistel_keys_) {
    const uint64_t next_right = left ^ (blake2b_feistel_prefix(right, key) & feistel_right_mask_);
    left = right;
    right = next_right;
  }
  return (left << feistel_half_bits_) | right;
}

void StackedGraph::expander_parents(uint64_t node, std::span<uint32_t, kExpanderDegree> out) const {
  check_node(node, "expander_parents");
  const uint64_t elements = nodes_ * kExpanderDegree;
  for (size_t i = 0; i < kExpanderDegree; ++i) {
    // feistel.rs permute: cycle-walk until the output lies in [0, elements).
    uint64_t u = feistel_encode(node * kExpanderDegree + i);
    while (u >= elements) u = feistel_encode(u);
    out[i] = version_ == GraphVersion::kV1_0 ? static_cast<uint32_t>(u & 0xffffffff) / kExpanderDegree
                                           : static_cast<uint32_t>(u / kExpanderDegree);
  }
}

void StackedGraph::parents(uint64_t node, std::span<uint32_t, kParentCount> out) const {
  drg_parents(node, out.first<kDrgDegree>());
  expander_parents(node, out.last<kExpanderDegree>());
}

}  // namespace cuzk::porep
