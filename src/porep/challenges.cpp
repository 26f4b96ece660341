#include "porep/challenges.hpp"

#include <algorithm>
#include <string>

#include <sodium.h>

#include "core/error.hpp"
#include "gadgets/sha256_native.hpp"

namespace cuzk::porep {
namespace {

using gadgets::native::sha256;

// fr32 bytes_into_fr_repr_safe: clear the top two bits of the LE value; always < r.
ff::Fr trimmed_digest_to_fr(gadgets::native::Sha256Digest digest) {
  digest[31] &= 0x3f;
  return *ff::Fr::from_bytes_le(digest);
}

void put_be(uint8_t* out, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i, v >>= 8) out[i] = static_cast<uint8_t>(v);
}

// challenges.rs bigint_to_challenge: a 256-bit LE integer mod (nodes − 1), + 1, so node 0 is
// never challenged. Horner from the most significant byte.
uint64_t challenge_from_le(std::span<const uint8_t, 32> bytes, uint64_t nodes) {
  const uint64_t modulus = nodes - 1;
  uint64_t r = 0;
  for (int b = 31; b >= 0; --b) {
    r = static_cast<uint64_t>(((static_cast<unsigned __int128>(r) << 8) | bytes[b]) % modulus);
  }
  return r + 1;
}

// challenges.rs module `synthetic`: the two ChaCha20 keys are BLAKE2b-256 (blake2b_simd with
// hash_length 32 and a key, which is RFC 7693's keyed BLAKE2b) of replica_id ‖ {comm_r, seed}.
using ChachaKey = std::array<uint8_t, crypto_stream_chacha20_ietf_KEYBYTES>;
constexpr std::string_view kSynthGenerationKey = "filecoin.io|PoRep|1|Synthetic|1|Generation";
constexpr std::string_view kSynthSelectionKey = "filecoin.io|PoRep|1|Synthetic|1|Selection";
constexpr std::array<uint8_t, crypto_stream_chacha20_ietf_NONCEBYTES> kSynthNonce = {
    's', 'y', 'n', 't', 'h', '-', 'p', 'o', 'r', 'e', 'p', 0};
constexpr size_t kSynthChallengeBytes = 32;  // one synthetic challenge's keystream bytes
constexpr size_t kSynthIndexBytes = 4;       // one selection index (u32 LE)

ChachaKey synth_key(std::string_view tag, const ff::Fr& replica_id, std::span<const uint8_t, 32> second) {
  if (sodium_init() < 0) throw Exception({ErrorCode::kInternal, "libsodium failed to initialise"});
  std::array<uint8_t, 64> message{};
  replica_id.to_bytes_le(std::span<uint8_t, 32>(message.data(), 32));
  std::copy(second.begin(), second.end(), message.begin() + 32);
  ChachaKey key{};
  crypto_generichash_blake2b(key.data(), key.size(), message.data(), message.size(),
                             reinterpret_cast<const uint8_t*>(tag.data()), tag.size());
  return key;
}

// `length` keystream bytes from byte `offset` (the chacha20 crate's try_seek + apply_keystream):
// 64-byte blocks counted from 0, so start at block offset / 64 and drop offset % 64 bytes.
std::vector<uint8_t> keystream(const ChachaKey& key, uint64_t offset, size_t length) {
  const size_t skip = offset % 64;
  if ((offset + length + 63) / 64 > (uint64_t{1} << 32)) {
    throw Exception(invalid_argument("synthetic challenges: keystream position beyond ChaCha20's 32-bit counter"));
  }
  std::vector<uint8_t> out(skip + length, 0);
  crypto_stream_chacha20_ietf_xor_ic(out.data(), out.data(), out.size(), kSynthNonce.data(),
                                     static_cast<uint32_t>(offset / 64), key.data());
  out.erase(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(skip));
  return out;
}

constexpr size_t kLabelHeader = 64;

void write_label_header(std::span<uint8_t> message, const ff::Fr& replica_id, uint32_t layer, uint64_t node) {
  std::fill(message.begin(), message.begin() + kLabelHeader, uint8_t{0});
  replica_id.to_bytes_le(message.first<32>());
  put_be(message.data() + 32, layer, 4);
  put_be(message.data() + 36, node, 8);
}

}  // namespace

Bytes32 prover_id_from_miner(uint64_t actor_id) {
  Bytes32 out{};
  size_t i = 0;
  do {
    const auto low = static_cast<uint8_t>(actor_id & 0x7f);
    actor_id >>= 7;
    out[i++] = actor_id != 0 ? (low | 0x80) : low;
  } while (actor_id != 0);  // at most 10 bytes
  return out;
}

ff::Fr replica_id(std::span<const uint8_t, 32> prover_id, uint64_t sector_id, std::span<const uint8_t, 32> ticket,
                  std::span<const uint8_t, 32> comm_d, std::span<const uint8_t, 32> porep_id) {
  std::array<uint8_t, 32 + 8 + 32 + 32 + 32> message{};
  auto at = std::copy(prover_id.begin(), prover_id.end(), message.begin());
  put_be(&*at, sector_id, 8);
  at += 8;
  at = std::copy(ticket.begin(), ticket.end(), at);
  at = std::copy(comm_d.begin(), comm_d.end(), at);
  std::copy(porep_id.begin(), porep_id.end(), at);
  return trimmed_digest_to_fr(sha256(message));
}

std::vector<uint64_t> interactive_challenges(const ff::Fr& replica_id, std::span<const uint8_t, 32> seed,
                                             uint64_t nodes, uint32_t partition,
                                             uint32_t challenges_per_partition) {
  if (nodes < 2) throw Exception(invalid_argument("interactive_challenges: need at least 2 nodes"));
  std::array<uint8_t, 32 + 32 + 4> message{};
  replica_id.to_bytes_le(std::span<uint8_t, 32>(message.data(), 32));
  std::copy(seed.begin(), seed.end(), message.begin() + 32);
  const uint32_t k = static_cast<uint8_t>(partition);  // challenges.rs: `k as u8`
  std::vector<uint64_t> out;
  out.reserve(challenges_per_partition);
  for (uint32_t i = 0; i < challenges_per_partition; ++i) {
    const uint32_t j = challenges_per_partition * k + i;
    for (int b = 0; b < 4; ++b) message[64 + b] = static_cast<uint8_t>(j >> (8 * b));
    out.push_back(challenge_from_le(sha256(message), nodes));
  }
  return out;
}

std::vector<uint64_t> synthetic_challenge_set(const ff::Fr& replica_id, const ff::Fr& comm_r, uint64_t nodes,
                                              uint64_t count, uint64_t first, uint64_t n) {
  if (nodes < 2) throw Exception(invalid_argument("synthetic_challenge_set: need at least 2 nodes"));
  if (count >= (uint64_t{1} << 32) || first > count || n > count - first) {
    throw Exception(invalid_argument("synthetic_challenge_set: challenges [" + std::to_string(first) + ", " +
                                     std::to_string(first + n) + ") of " + std::to_string(count)));
  }
  Bytes32 comm_r_bytes{};
  comm_r.to_bytes_le(comm_r_bytes);
  const ChachaKey key = synth_key(kSynthGenerationKey, replica_id, comm_r_bytes);
  const std::vector<uint8_t> stream = keystream(key, first * kSynthChallengeBytes, n * kSynthChallengeBytes);
  std::vector<uint64_t> out(n);
  for (uint64_t i = 0; i < n; ++i) {
    out[i] = challenge_from_le(std::span<const uint8_t, 32>(stream.data() + i * kSynthChallengeBytes, 32), nodes);
  }
  return out;
}

std::vector<uint64_t> synthetic_challenge_indexes(const ff::Fr& replica_id, std::span<const uint8_t, 32> seed,
                                                  uint64_t count, uint32_t partition,
                                                  uint32_t challenges_per_partition) {
  if (count == 0 || count >= (uint64_t{1} << 32)) {
    throw Exception(invalid_argument("synthetic_challenge_indexes: " + std::to_string(count) + " synthetic challenges"));
  }
  const uint64_t k = static_cast<uint8_t>(partition);  // challenges.rs: `k as u8`
  const ChachaKey key = synth_key(kSynthSelectionKey, replica_id, seed);
  const std::vector<uint8_t> stream =
      keystream(key, k * challenges_per_partition * kSynthIndexBytes, size_t(challenges_per_partition) * kSynthIndexBytes);
  std::vector<uint64_t> out(challenges_per_partition);
  for (uint32_t j = 0; j < challenges_per_partition; ++j) {
    uint32_t v = 0;
    for (int b = 3; b >= 0; --b) v = (v << 8) | stream[j * kSynthIndexBytes + b];
    out[j] = v % count;
  }
  return out;
}

std::vector<uint64_t> synthetic_challenges(const ff::Fr& replica_id, const ff::Fr& comm_r,
                                           std::span<const uint8_t, 32> seed, uint64_t nodes, uint32_t partition,
                                           uint32_t challenges_per_partition, uint64_t count) {
  if (count == 0) count = synthetic_challenge_count(nodes);
  std::vector<uint64_t> out = synthetic_challenge_indexes(replica_id, seed, count, partition, challenges_per_partition);
  for (uint64_t& c : out) c = synthetic_challenge_set(replica_id, comm_r, nodes, count, c, 1).front();
  return out;
}

std::vector<uint64_t> porep_challenges(PorepFeature feature, const ff::Fr& replica_id, const ff::Fr& comm_r,
                                       std::span<const uint8_t, 32> seed, uint64_t nodes, uint32_t partition,
                                       uint32_t challenges_per_partition) {
  switch (feature) {
    case PorepFeature::kNone:
      return interactive_challenges(replica_id, seed, nodes, partition, challenges_per_partition);
    case PorepFeature::kSyntheticPoRep:
      return synthetic_challenges(replica_id, comm_r, seed, nodes, partition, challenges_per_partition);
    case PorepFeature::kNonInteractivePoRep: break;
  }
  throw Exception({ErrorCode::kUnsupported, "porep_challenges: non-interactive PoRep is not supported"});
}

void expand_label_parents(uint32_t layer, std::span<const ff::Fr> parent_labels,
                          std::span<ff::Fr, kLabelParents> out) {
  const size_t expected = layer == 1 ? kDrgDegree : kParentCount;
  if (layer == 0 || parent_labels.size() != expected) {
    throw Exception(invalid_argument("expand_label_parents: layer " + std::to_string(layer) + " needs " +
                                     std::to_string(expected) + " parent labels, got " +
                                     std::to_string(parent_labels.size())));
  }
  for (size_t i = 0; i < kLabelParents; ++i) out[i] = parent_labels[i % expected];
}

ff::Fr create_label(const ff::Fr& replica_id, uint32_t layer, uint64_t node,
                    std::span<const ff::Fr, kLabelParents> parents) {
  std::array<uint8_t, kLabelHeader + 32 * kLabelParents> message;
  write_label_header(message, replica_id, layer, node);
  for (size_t i = 0; i < kLabelParents; ++i) {
    parents[i].to_bytes_le(std::span<uint8_t, 32>(message.data() + kLabelHeader + 32 * i, 32));
  }
  return trimmed_digest_to_fr(sha256(message));
}

ff::Fr create_label_without_parents(const ff::Fr& replica_id, uint32_t layer, uint64_t node) {
  std::array<uint8_t, kLabelHeader> message;
  write_label_header(message, replica_id, layer, node);
  return trimmed_digest_to_fr(sha256(message));
}

std::vector<std::vector<ff::Fr>> label_layers(const StackedGraph& graph, const ff::Fr& replica_id,
                                              uint32_t layers) {
  std::vector<std::vector<ff::Fr>> labels(layers, std::vector<ff::Fr>(graph.nodes()));
  std::array<uint32_t, kParentCount> parents{};
  std::array<ff::Fr, kParentCount> parent_labels;
  std::array<ff::Fr, kLabelParents> expanded;
  for (uint32_t layer = 1; layer <= layers; ++layer) {
    auto& current = labels[layer - 1];
    current[0] = create_label_without_parents(replica_id, layer, 0);
    for (uint64_t node = 1; node < graph.nodes(); ++node) {
      graph.parents(node, parents);
      size_t count = kDrgDegree;
      for (size_t i = 0; i < kDrgDegree; ++i) parent_labels[i] = current[parents[i]];
      if (layer > 1) {
        const auto& previous = labels[layer - 2];
        for (size_t i = kDrgDegree; i < kParentCount; ++i) parent_labels[i] = previous[parents[i]];
        count = kParentCount;
      }
      expand_label_parents(layer, std::span<const ff::Fr>(parent_labels.data(), count), expanded);
      current[node] = create_label(replica_id, layer, node, expanded);
    }
  }
  return labels;
}

std::vector<ff::Fr> porep_public_inputs(const ff::Fr& replica_id, const ff::Fr& comm_d, const ff::Fr& comm_r,
                                        const StackedGraph& graph, std::span<const uint64_t> challenges) {
  std::vector<ff::Fr> inputs = {replica_id, comm_d, comm_r};
  inputs.reserve(3 + challenges.size() * (kParentCount + 4));
  std::array<uint32_t, kParentCount> parents{};
  for (const uint64_t c : challenges) {
    graph.parents(c, parents);
    const auto challenge = ff::Fr::from_uint(c);
    inputs.push_back(challenge);  // tree D leaf index
    for (const uint32_t p : parents) inputs.push_back(ff::Fr::from_uint(p));
    inputs.insert(inputs.end(), {challenge, challenge, challenge});  // UInt64, tree R, tree C
  }
  return inputs;
}

}  // namespace cuzk::porep
