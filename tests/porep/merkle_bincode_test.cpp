// The bincode MerkleProof codec (porep/merkle_bincode.hpp) on bytes written here by hand from
// the layout of storage-proofs-core's ProofData (u32 variant; Single {root, leaf, path}; Sub
// {base_proof, sub_proof, root, leaf}; Top {base_proof, sub_proof, top_proof, root, leaf}; an
// InclusionPath: u64 count of {u64 count + 32-byte hashes, u64 index}), not by the encoder under
// test: the variants' field order, the flattening (base, sub, top), the layout the PoSt checks
// read, and the refusals with their field path and offset.

#include "porep/merkle_bincode.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/byte_reader.hpp"

namespace cuzk::porep {
namespace {

using ff::Fr;

// Little-endian writers for the hand-made bytes.
struct Bytes {
  std::vector<uint8_t> b;
  Bytes& u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
    return *this;
  }
  Bytes& u64(uint64_t v) {
    for (int i = 0; i < 8; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
    return *this;
  }
  Bytes& domain(uint8_t tag) {  // the field element `tag` (a small value is canonical)
    b.push_back(tag);
    b.insert(b.end(), 31, 0);
    return *this;
  }
  // One path element: `siblings` hashes tagged first, first + 1, ... and the index.
  Bytes& element(uint64_t siblings, uint8_t first, uint64_t index) {
    u64(siblings);
    for (uint64_t i = 0; i < siblings; ++i) domain(static_cast<uint8_t>(first + i));
    return u64(index);
  }
};

Expected<bincode::DecodedMerkleProof> decode(const std::vector<uint8_t>& bytes, size_t skip = 0) {
  ByteReader r(bytes, "m.bin");
  if (skip != 0) {
    EXPECT_TRUE(r.take(skip, "prefix"));
  }
  auto d = bincode::read_merkle_proof(r, "proof");
  if (d) {
    EXPECT_EQ(r.remaining(), 0u);
  }
  return d;
}

TEST(MerkleBincode, TopProofFlattensBaseSubTopAndRoundTrips) {
  Bytes m;
  m.b.assign(5, 0xee);  // the proof starts at offset 5
  m.u32(2);                                             // Top
  m.u64(2).element(7, 10, 3).element(7, 20, 0);         // base_proof: two arity-8 levels
  m.u64(1).element(7, 30, 6);                           // sub_proof: one arity-8 level
  m.u64(1).element(1, 40, 1);                           // top_proof: one arity-2 level
  m.domain(50).domain(51);                              // root, leaf
  const auto d = decode(m.b, 5);
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_EQ(d->proof.kind, MerkleProof::Kind::kTop);
  EXPECT_EQ(d->layout, (bincode::MerkleProofLayout{5, 2, 1, 1}));
  EXPECT_EQ(d->proof.root, Fr::from_uint(50));
  EXPECT_EQ(d->proof.leaf, Fr::from_uint(51));
  ASSERT_EQ(d->proof.path.size(), 4u);
  EXPECT_EQ(d->proof.path[0].index, 3u);
  EXPECT_EQ(d->proof.path[0].hashes[6], Fr::from_uint(16));
  EXPECT_EQ(d->proof.path[1].hashes[0], Fr::from_uint(20));
  EXPECT_EQ(d->proof.path[2].index, 6u);
  EXPECT_EQ(d->proof.path[2].hashes[0], Fr::from_uint(30));
  ASSERT_EQ(d->proof.path[3].hashes.size(), 1u);
  EXPECT_EQ(d->proof.path[3].hashes[0], Fr::from_uint(40));
  EXPECT_EQ(d->proof.path[3].index, 1u);
  std::vector<uint8_t> again;
  bincode::put_merkle_proof(again, d->proof);
  EXPECT_EQ(again, std::vector<uint8_t>(m.b.begin() + 5, m.b.end()));
}

TEST(MerkleBincode, SingleAndSubFieldOrder) {
  Bytes single;  // Single: root and leaf before the path
  single.u32(0).domain(1).domain(2).u64(1).u64(1).domain(3).u64(0);
  auto d = decode(single.b);
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_EQ(d->proof.kind, MerkleProof::Kind::kSingle);
  EXPECT_EQ(d->proof.root, Fr::from_uint(1));
  EXPECT_EQ(d->proof.leaf, Fr::from_uint(2));
  EXPECT_EQ(d->layout, (bincode::MerkleProofLayout{0, 1, 0, 0}));
  std::vector<uint8_t> again;
  bincode::put_merkle_proof(again, d->proof);
  EXPECT_EQ(again, single.b);

  Bytes sub;  // Sub: the paths before root and leaf
  sub.u32(1).u64(1).element(3, 5, 2).u64(1).element(1, 9, 0).domain(7).domain(8);
  d = decode(sub.b);
  ASSERT_TRUE(d) << d.error().message;
  EXPECT_EQ(d->proof.kind, MerkleProof::Kind::kSub);
  EXPECT_EQ(d->proof.root, Fr::from_uint(7));
  EXPECT_EQ(d->proof.leaf, Fr::from_uint(8));
  EXPECT_EQ(d->layout, (bincode::MerkleProofLayout{0, 1, 1, 0}));
  again.clear();
  bincode::put_merkle_proof(again, d->proof);
  EXPECT_EQ(again, sub.b);
}

TEST(MerkleBincode, RefusalsNameFieldAndOffset) {
  const auto error_of = [](const Bytes& m) {
    const auto d = decode(m.b);
    return d ? std::string("decoded") : d.error().message;
  };
  EXPECT_EQ(error_of(Bytes{}.u32(3)), "m.bin: offset 0: proof.data: variant 3 is none of 0 Single, 1 Sub, 2 Top");
  // An index is a position among the siblings and the node: 0..siblings.
  EXPECT_EQ(error_of(Bytes{}.u32(0).domain(1).domain(2).u64(1).element(3, 5, 4)),
            "m.bin: offset 180: proof.data.Single.path.path[0].index: 4 is not a position among 4 nodes");
  EXPECT_EQ(error_of(Bytes{}.u32(0).domain(1).domain(2).u64(1).element(3, 5, 3)), "decoded");  // the last position
  // A count beyond what the bytes left can hold, before anything is allocated.
  EXPECT_EQ(error_of(Bytes{}.u32(1).u64(1).u64(uint64_t{1} << 60).u64(0)),
            "m.bin: offset 12: proof.data.Sub.base_proof.path[0].hashes: length 1152921504606846976 does not fit the 8 "
            "bytes left");
  Bytes big;
  big.u32(0);
  big.b.insert(big.b.end(), 32, 0xff);  // root ≥ r
  EXPECT_EQ(error_of(big), "m.bin: offset 4: proof.data.Single.root: not a canonical field element (≥ r)");
  EXPECT_EQ(error_of(Bytes{}.u32(2).u64(0).u64(1).element(0, 0, 0)),
            "m.bin: offset 36: proof.data.Top.top_proof.path (length): needs 8 bytes, the file ends after 0");
  // A sub or top path of other than one element: the flattened proof could not be written back
  // (base 2 + sub 0 would come back as base 1 + sub 1).
  EXPECT_EQ(error_of(Bytes{}.u32(1).u64(2).element(0, 0, 0).element(0, 0, 0).u64(0).domain(1).domain(2)),
            "m.bin: offset 44: proof.data.Sub.sub_proof.path: length 0, a sub or top tree's path has 1 element");
  Bytes top2;
  top2.u32(2).u64(0).u64(1).element(0, 0, 0).u64(2).element(0, 0, 0).element(0, 0, 0).domain(1).domain(2);
  EXPECT_EQ(error_of(top2),
            "m.bin: offset 36: proof.data.Top.top_proof.path: length 2, a sub or top tree's path has 1 element");
}

}  // namespace
}  // namespace cuzk::porep
