// Poseidon (neptune v11.0.0 as Filecoin uses it): constants, native hash and R1CS gadget against
// shared/SPEC-POSEIDON.md, shared/SPEC.md §3, and the Python models in shared/tools.

#include <algorithm>
#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "core/hex.hpp"
#include "gadgets/poseidon.hpp"
#include "gadgets/poseidon_constants.hpp"
#include "gadgets/poseidon_gadget.hpp"
#include "r1cs/keygen_cs.hpp"
#include "r1cs/row_digest.hpp"
#include "r1cs/test_cs.hpp"
#include "r1cs/witness_cs.hpp"
#include "support/poseidon.hpp"
#include "support/random.hpp"

namespace cuzk::gadgets {
namespace {

using ff::Fr;
using LC = r1cs::LinearCombination<Fr>;

Fr fr(const char* hex) { return Fr::from_hex(hex); }

const PoseidonConstants& constants(size_t arity) { return test::poseidon_constants(arity); }

// Expected values from the Python model (shared/tools/poseidon_model.py, poseidon_circuit_model.py),
// printed by this script (run from any directory):
//   python3 - <<'PY'
//   import sys, hashlib, struct; sys.path.insert(0, '/work/shared/tools')
//   from poseidon_model import *; from poseidon_circuit_model import circuit, fingerprint
//   h = lambda x: '"%064x"' % x
//   def bin_digest(cs):  # TestCS::digest's serialisation (r1cs/row_digest.hpp)
//       sha = hashlib.sha256()
//       for row in cs.cons:
//           b = b''
//           for lc in row:
//               items = sorted((0 if v[0]=='in' else 1, v[1], c) for v,c in lc.items())
//               b += struct.pack('<I', len(items))
//               for k,i,c in items: b += struct.pack('<BI', k, i) + c.to_bytes(32,'little')
//           sha.update(b)
//       return sha.hexdigest()
//   for a in [2,4,8,11]:
//       S = setup(a); t=S['t']; rp=S['rp']; cs, out = circuit(a, list(range(a)), S)
//       print(a, len(S['rc']), len(S['C']), h(S['rc'][0]), h(S['rc'][-1]), h(S['M'][1][t-1]), h(S['Mi'][0][t-1]),
//             h(S['C'][0]), h(S['C'][5*t]), h(S['C'][-1]), h(S['pre'][0][t-1]), h(S['pre'][t-1][0]),
//             h(S['sparse'][0][1][0]), h(S['sparse'][-1][0][t-1]), h(S['sparse'][rp//2][t-1][0]),
//             len(cs.cons), fingerprint(cs), bin_digest(cs))
//   PY
struct ModelValues {
  size_t arity, num_round_constants, num_compressed;
  const char *rc_first, *rc_last, *mds_1_last, *mds_inverse_0_last;
  const char *compressed_first, *compressed_partial0, *compressed_last, *pre_sparse_0_last, *pre_sparse_last_0;
  const char *sparse_first_w_hat1, *sparse_last_v_rest_last, *sparse_mid_w_hat_last;
  size_t constraints;
  const char *fingerprint, *digest;
};
const ModelValues kModel[] = {
  {2, 189, 79,
   "669f064bfa3ae17a23bd51861dbb4a24501eac92a2758b36a7320a009d6ed3d8",
   "60dfbfa5d5dd06351a917a05466e5884ed12e38ec24d5bb80be0abe065395e5c",
   "609b60c54d5893118005895c0806deaf1b1e08ad2aa94ca9d555555480000001",
   "0000000000000000000000000000000000000000000000000000000000000276",
   "669f064bfa3ae17a23bd51861dbb4a24501eac92a2758b36a7320a009d6ed3d8",
   "15ea0de59c6ae7c8b21fd309ef84aba77c2d8e8139c9c08f5cca2138d161fdfd",
   "1c84e3e9450113a4b5489decd8dcc8b25f057797f37899354931a0eea88d7d5d",
   "0d90801cabee4bb8d1fc3ae4f4fefac93b1105ad4e18f2907e485df9b0d18295",
   "458e97984c2b4b2b51ef819e6c2de803323e959b66656a65cccccccc33333334",
   "59d39397f9b91a3745685546ac8e905f0374bec2c68a96278d2f73d4d6a692a2",
   "458e97984c2b4b2b51ef819e6c2de803323e959b66656a65cccccccc33333334",
   "458e68aafbb5e776406231c54d735cf87c5292970dd3cfd2d4c53ca076666667",
   311,
   "88c82a6539ab0d015a7f9d099fd4de3df71cae87657c1f028c73be2f838cc07c",
   "71fa790fd33fd267e3002e8fed28d8f9b1e6aefe0b4994a2e46cab8c809197ca"},
  {4, 320, 96,
   "45c919736a0e5f2ef32c4c7d0a338eb1fed3d9e317b7580921072285c7e215ca",
   "34e974d8cb3be2818f7a6a121a5c6057ed5037226d29e56d20a5ff71a4bec6eb",
   "22c74bcc2615a595a8f7c0cf3616f401991f4acdb332b532e66666661999999a",
   "000000000000000000000000000000000000000000000000000000000006df92",
   "45c919736a0e5f2ef32c4c7d0a338eb1fed3d9e317b7580921072285c7e215ca",
   "3101352874fbf4ba21d2853ebc79d4ffddb3b84a28642ffcfcbd036d13a91c54",
   "107d3b9de9f95ada46df77005c3abfdbee812882bbb35c09d296572c2af30e2d",
   "5925b1536e05188717225c857b7c7a55b4fb8ce62b397c16494581213a4f4675",
   "19c308bd25b13848eef068e557794c72f62a247271c6bf1c38e38e38aaaaaaab",
   "18a18e9e2b73eb891838d0c518c14e4b715d8027951518cb29645d4b7b04b314",
   "19c308bd25b13848eef068e557794c72f62a247271c6bf1c38e38e38aaaaaaab",
   "3953fbf44f2295493fcae42ad58718a3d173ac44952ad2fa10e265290c373f76",
   377,
   "3b795097e7087f58e4cd315e629ebf15072dcf52d81ebb0c92331af1a594a1ce",
   "c5c6a28e715b41fc005b37fea7f3721845d9d175b222e2b5109a143222785ee1"},
  {8, 585, 129,
   "6ce90d12c4045fe08c3caddb776dd84ac52b4ae7e48cd49443984154f2f4c2f9",
   "3b3a75eb91b0f723bcc4ab7e449e4a011b8960063efe74670c05e545519d9a8c",
   "46d8580827a75ac891152076b08d923c24f3e43ab8e28d8d9c71c71bd5555556",
   "0000000000000000000000000000000000000000000000000000003718b62fca",
   "6ce90d12c4045fe08c3caddb776dd84ac52b4ae7e48cd49443984154f2f4c2f9",
   "065e302005459f2087aa4f6c30b42d11ab0cf5e2e41e74b344a3b287f0796e43",
   "1ef936f03c337433c2e5f3570555397ed790517b32bebaa823ab1c9d7f374cb3",
   "41fb1f210b312d0fefbf8c378fea543afe2d83c673d226662e93675cef30c8cd",
   "1b46fa31af7059b6a2a432d4b6f8e788c868db4bffff9d2cf0f0f0f0b4b4b4b5",
   "39d9d3927b2b34ec506369b9a21e54c10a98949af37d495ceaf45bc33bfec77d",
   "1b46fa31af7059b6a2a432d4b6f8e788c868db4bffff9d2cf0f0f0f0b4b4b4b5",
   "5242a5be8aeb8cc5234226ba72fa142945a255d85ae1735ecfba306774180d7c",
   505,
   "22efb6f708057ddfc2d0f64c3971e2e03d42aa069bdb15ab5c8a3b7a526e1d18",
   "abf8140effeb85d15db49791e6e124ea381c0ae803ba12916e698c3e346f7101"},
  {11, 780, 153,
   "1f6c9576e648b5047399bfc5f38902e0d506f18e0f3ab77de6de096bd089bce4",
   "4543ca937ff30a73db73c95cf11b2f641c744cc5d6a08d197c29ea4e2aab6a16",
   "6f1915afb28c42ba866cc45d093b19afc595bd2d8aa91829b555555460000001",
   "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffef823247ba5901",
   "1f6c9576e648b5047399bfc5f38902e0d506f18e0f3ab77de6de096bd089bce4",
   "107f1b7ef11c2b7a4df5c44d58bb500b86627ac271acb642c4e1b1b30fe72d01",
   "09bb1cbe3152cbfb7eaccdd4be6a977e2b4985915f147b902f7c73bf6b0e4ca1",
   "530b930157556848df267c32e45739be43394da7e9d1043b26ddc2cfa35c5ef0",
   "64cea7c2c00361cf7a7514e599124c8a328ea4e137a587a61642c8582c8590b3",
   "1fa69f776fa73b654f02951a71458cbdceadfa6add02fa453178e0f407bc1ce2",
   "64cea7c2c00361cf7a7514e599124c8a328ea4e137a587a61642c8582c8590b3",
   "324cfca580a1cd50f5a904e9f1160dd2e7a072a00fb03798cd060b95c7f6e81e",
   598,
   "ae6010602dea86f9ab8895e0d4c3a907665e312804095b996cb8effafb6f4dc7",
   "abfc656ea1ec5d17711882344003308a804aed7034d4c439dfb2c43c12f5fa81"},
};

TEST(PoseidonConstants, RoundNumbersAndCounts) {
  EXPECT_EQ(poseidon_partial_rounds(3), 55u);
  EXPECT_EQ(poseidon_partial_rounds(5), 56u);
  EXPECT_EQ(poseidon_partial_rounds(9), 57u);
  EXPECT_EQ(poseidon_partial_rounds(12), 57u);
  EXPECT_THROW(poseidon_partial_rounds(4), Exception);
  EXPECT_THROW(PoseidonConstants::merkle_tree(3), Exception);
  for (const ModelValues& e : kModel) {
    const PoseidonConstants& c = constants(e.arity);
    EXPECT_EQ(c.width, e.arity + 1);
    EXPECT_EQ(c.full_rounds, 8u);
    EXPECT_EQ(c.domain_tag, Fr::from_uint((uint64_t{1} << e.arity) - 1));
    EXPECT_EQ(c.round_constants.size(), e.num_round_constants);
    EXPECT_EQ(c.compressed_round_constants.size(), e.num_compressed);
    EXPECT_EQ(c.compressed_round_constants.size(), 8 * c.width + c.partial_rounds);
    EXPECT_EQ(c.sparse.size(), c.partial_rounds);
  }
}

// Values against the Python model; rc[0] for t = 3, 5, 12 and M[0][0] = 1/3 are also SPEC-POSEIDON.md §6.D.
TEST(PoseidonConstants, MatchModel) {
  for (const ModelValues& e : kModel) {
    SCOPED_TRACE("arity " + std::to_string(e.arity));
    const PoseidonConstants& c = constants(e.arity);
    const size_t t = c.width;
    EXPECT_EQ(c.round_constants.front(), fr(e.rc_first));
    EXPECT_EQ(c.round_constants.back(), fr(e.rc_last));
    EXPECT_EQ(c.mds[1][t - 1], fr(e.mds_1_last));
    EXPECT_EQ(c.mds_inverse[0][t - 1], fr(e.mds_inverse_0_last));
    EXPECT_EQ(c.compressed_round_constants.front(), fr(e.compressed_first));
    EXPECT_EQ(c.compressed_round_constants[5 * t], fr(e.compressed_partial0));
    EXPECT_EQ(c.compressed_round_constants.back(), fr(e.compressed_last));
    EXPECT_EQ(c.pre_sparse[0][t - 1], fr(e.pre_sparse_0_last));
    EXPECT_EQ(c.pre_sparse[t - 1][0], fr(e.pre_sparse_last_0));
    EXPECT_EQ(c.sparse.front().w_hat[1], fr(e.sparse_first_w_hat1));
    EXPECT_EQ(c.sparse.back().v_rest[t - 2], fr(e.sparse_last_v_rest_last));
    EXPECT_EQ(c.sparse[c.partial_rounds / 2].w_hat[t - 1], fr(e.sparse_mid_w_hat_last));
  }
  EXPECT_EQ(constants(2).mds[0][0], fr("4d491a377113a8daccd13ab0066be558e27e6d5755543d54aaaaaaaa00000001"));
}

// neptune's parameters file round_constants-1-1-255-9-8-57-…txt (SPEC-POSEIDON.md §6.B).
TEST(PoseidonConstants, GrainMatchesNeptuneFile) {
  const std::vector<Fr>& rc = constants(8).round_constants;
  ASSERT_EQ(rc.size(), 585u);
  EXPECT_EQ(rc[0], fr("6ce90d12c4045fe08c3caddb776dd84ac52b4ae7e48cd49443984154f2f4c2f9"));
  EXPECT_EQ(rc[1], fr("0ccd9b480c84022b25a75b52c8e89d80b4fa6378d32e58f3a175504940bcec39"));
  EXPECT_EQ(rc[584], fr("3b3a75eb91b0f723bcc4ab7e449e4a011b8960063efe74670c05e545519d9a8c"));
}

// Identities independent of the model: M symmetric (mds.rs asserts it) and M·M^-1 = I. The
// sparse factorization is checked through OptimizedEqualsReference below.
TEST(PoseidonConstants, MdsInverse) {
  for (size_t arity : {2, 4, 8, 11}) {
    const PoseidonConstants& c = constants(arity);
    for (size_t i = 0; i < c.width; ++i)
      for (size_t j = 0; j < c.width; ++j) {
        Fr acc = Fr::zero();
        for (size_t k = 0; k < c.width; ++k) acc += c.mds[i][k] * c.mds_inverse[k][j];
        EXPECT_EQ(acc, i == j ? Fr::one() : Fr::zero());
        EXPECT_EQ(c.mds[i][j], c.mds[j][i]);
      }
  }
}

// shared/SPEC.md §3 / SPEC-POSEIDON.md §6.A and §6.C: neptune's hash_values and Filecoin's
// test_poseidon_hasher.
TEST(PoseidonHash, Vectors) {
  const PoseidonConstants& c2 = constants(2);
  const Fr h10 = poseidon_hash(c2, std::array{Fr::one(), Fr::zero()});
  EXPECT_EQ(h10, fr("042f94ffbe786bc393c003cc74a24f26ec5907b3dc3094afb339ff6079800b5e"));
  const Fr h01 = poseidon_hash(c2, std::array{Fr::zero(), Fr::one()});
  EXPECT_EQ(poseidon_hash(c2, std::array{h10, h01}),
            fr("1effebb7b26ad9eb30eb6385ae6b74ae77cc72b8cb2b5ad2efbb8be3e291e671"));
  const std::pair<size_t, const char*> ramp[] = {
      {2, "396508d75e76a56b739e0fd902efe161a6fba9339d05a69d2e203c369a02e7ff"},
      {4, "58a54b10a9e5848a00db3c6579229399fb6b4605bf1327ec019814ff6662075d"},
      {8, "2394611da3a5de5512010042116770774b682e9d9cc4aed92a9934f56d38a5e6"},
      {11, "0c0fc1b2e5227f286ca537e232ebe87a09f3dcd8ccb08fc1cee3bbc32b693163"}};
  for (const auto& [arity, expected] : ramp) {
    std::vector<Fr> x;
    for (size_t i = 0; i < arity; ++i) x.push_back(Fr::from_uint(i));
    EXPECT_EQ(poseidon_hash(constants(arity), x), fr(expected)) << "arity " << arity;
    EXPECT_EQ(poseidon_hash_reference(constants(arity), x), fr(expected)) << "arity " << arity;
  }
}

// Custom tag Arbitrary(1) = 2^40 (SPEC-POSEIDON.md §6.D, model value).
TEST(PoseidonHash, CustomTag) {
  const PoseidonConstants c = PoseidonConstants::with_tag(2, Fr::from_uint(uint64_t{1} << 40));
  EXPECT_EQ(poseidon_hash(c, std::array{Fr::zero(), Fr::one()}),
            fr("314a35c4e7f0924ead1fc58134a0fe25e3580bea397367c7e5a74ec4bc077758"));
}

// OptimizedStatic (compressed constants, sparse matrices) equals the plain rounds on random input.
TEST(PoseidonHash, OptimizedEqualsReference) {
  auto g = test::rng(0x905e1d0);
  for (size_t arity : {2, 4, 8, 11}) {
    for (int trial = 0; trial < 8; ++trial) {
      std::vector<Fr> x(arity);
      for (Fr& v : x) v = test::random_element<Fr>(g);
      EXPECT_EQ(poseidon_hash(constants(arity), x), poseidon_hash_reference(constants(arity), x));
    }
  }
  EXPECT_THROW(poseidon_hash(constants(2), std::array{Fr::one()}), Exception);
}

// SPEC-POSEIDON.md §4's fingerprint: each row as "ser(A)|ser(B)|ser(C)\n", terms "I<k>:<hex>" /
// "X<k>:<hex>" in variable order, comma-joined.
std::string text_fingerprint(const r1cs::TestCS<Fr>& cs) {
  r1cs::Sha256 sha;
  auto ser = [](const LC& lc) {
    std::string out;
    for (const r1cs::Term<Fr>& term : lc.terms()) {
      if (!out.empty()) out += ',';
      std::array<uint8_t, Fr::kBytes> be;
      term.coeff.to_bytes_be(be);
      out += (term.var.is_input() ? "I" : "X") + std::to_string(term.var.index) + ":" + to_hex(be);
    }
    return out;
  };
  for (const auto& row : cs.constraints()) {
    const std::string line = ser(row.a) + "|" + ser(row.b) + "|" + ser(row.c) + "\n";
    sha.update(std::span(reinterpret_cast<const uint8_t*>(line.data()), line.size()));
  }
  return sha.hex_digest();
}

// A TestCS that also records the path of every aux variable, to corrupt each in turn.
class RecordingCS : public r1cs::TestCS<Fr> {
 public:
  template <class Name, class Value>
  r1cs::Variable alloc(Name&& name, Value&& value) {
    std::string text = r1cs::name_text(std::forward<Name>(name));
    std::string path;
    for (const std::string& ns : stack_) path += ns + "/";
    paths.push_back(path + text);
    return TestCS::alloc(std::move(text), std::forward<Value>(value));
  }
  template <class Name>
  void push_namespace(Name&& name) {
    std::string text = r1cs::name_text(std::forward<Name>(name));
    stack_.push_back(text);
    TestCS::push_namespace(std::move(text));
  }
  void pop_namespace() {
    stack_.pop_back();
    TestCS::pop_namespace();
  }
  std::vector<std::string> paths;

 private:
  std::vector<std::string> stack_;
};

struct Synthesised {
  RecordingCS cs;
  PoseidonOutput out;
};

// The model's shape: the preimage allocated first as aux X0..X(n-1), then the gadget.
void synthesise(Synthesised& s, size_t arity, const std::vector<Fr>& x) {
  std::vector<r1cs::Variable> vars;
  for (size_t i = 0; i < arity; ++i) {
    vars.push_back(s.cs.alloc([&] { return "x" + std::to_string(i); }, [&] { return x[i]; }));
  }
  r1cs::Namespace ns(s.cs, "poseidon");
  s.out = poseidon_hash_gadget(s.cs, constants(arity), vars, x);
}

TEST(PoseidonGadget, CountsFingerprintAndOutput) {
  auto g = test::rng(0x905e1d1);
  for (const ModelValues& e : kModel) {
    SCOPED_TRACE("arity " + std::to_string(e.arity));
    std::vector<Fr> x(e.arity);
    for (Fr& v : x) v = test::random_element<Fr>(g);
    Synthesised s;
    synthesise(s, e.arity, x);
    EXPECT_EQ(s.cs.num_constraints(), e.constraints);
    EXPECT_EQ(s.cs.num_aux(), e.arity + e.constraints);  // one new aux per row
    EXPECT_EQ(s.cs.num_inputs(), 1u);
    EXPECT_EQ(s.cs.first_unsatisfied(), std::nullopt);
    const Fr native = poseidon_hash(constants(e.arity), x);
    EXPECT_EQ(s.out.value, native);
    EXPECT_EQ(s.cs.aux()[s.out.var.index], native);
    EXPECT_FALSE(s.out.var.is_input());
    // The rows do not depend on the preimage values.
    EXPECT_EQ(text_fingerprint(s.cs), e.fingerprint);
    EXPECT_EQ(s.cs.digest(), e.digest);
  }
}

// The model's fixed preimage (0, 1, …): the model's output equals the §6.A vectors.
TEST(PoseidonGadget, RampPreimage) {
  for (size_t arity : {2, 11}) {
    std::vector<Fr> x;
    for (size_t i = 0; i < arity; ++i) x.push_back(Fr::from_uint(i));
    Synthesised s;
    synthesise(s, arity, x);
    EXPECT_TRUE(s.cs.is_satisfied());
    EXPECT_EQ(s.out.value, poseidon_hash_reference(constants(arity), x));
  }
}

// Corrupting any one aux value (preimage, intermediate or output) breaks some row.
TEST(PoseidonGadget, EveryWitnessValueIsConstrained) {
  auto g = test::rng(0x905e1d2);
  for (size_t arity : {2, 4}) {
    std::vector<Fr> x(arity);
    for (Fr& v : x) v = test::random_element<Fr>(g);
    Synthesised s;
    synthesise(s, arity, x);
    ASSERT_EQ(s.cs.paths.size(), s.cs.num_aux());
    for (const std::string& path : s.cs.paths) {
      const Fr good = s.cs.get(path);
      s.cs.set(path, good + Fr::one());
      EXPECT_NE(s.cs.first_unsatisfied(), std::nullopt) << path;
      s.cs.set(path, good);
    }
    EXPECT_TRUE(s.cs.is_satisfied());
  }
}

// The same synthesis on the witness and keygen backends: same witness, same shape.
TEST(PoseidonGadget, OtherBackends) {
  auto g = test::rng(0x905e1d3);
  const size_t arity = 8;
  std::vector<Fr> x(arity);
  for (Fr& v : x) v = test::random_element<Fr>(g);
  Synthesised s;
  synthesise(s, arity, x);

  r1cs::WitnessCS<Fr> witness;
  std::vector<r1cs::Variable> vars;
  for (size_t i = 0; i < arity; ++i) vars.push_back(witness.alloc("x", [&] { return x[i]; }));
  const PoseidonOutput out = poseidon_hash_gadget(witness, constants(arity), vars, x);
  EXPECT_EQ(witness.aux(), s.cs.aux());
  EXPECT_EQ(out.value, s.out.value);

  r1cs::KeygenCS<Fr> keygen;
  vars.clear();
  for (size_t i = 0; i < arity; ++i) vars.push_back(keygen.alloc("x", [] { return Fr::zero(); }));
  poseidon_hash_gadget(keygen, constants(arity), vars, {});
  EXPECT_EQ(keygen.num_constraints(), s.cs.num_constraints());
  EXPECT_EQ(keygen.num_aux(), s.cs.num_aux());
}

// A quick single-thread throughput figure (printed, not asserted): 25 batches of 200 chained
// hashes; the minimum and median batch, as the 2-vCPU machine is shared and noisy.
}  // namespace
}  // namespace cuzk::gadgets
