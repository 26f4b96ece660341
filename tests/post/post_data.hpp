#pragma once
// The PoSt oracle data of the tests: tests/data/post (written by shared/tools/post_circuit_model.py
// --write-request, README there) and the fixtures in shared/ beside the source tree.

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "core/hex.hpp"
#include "ff/decimal.hpp"
#include "post/challenges.hpp"
#include "post/registered.hpp"

namespace cuzk::post::test {

inline const std::filesystem::path kData = std::filesystem::path(CUZK_TEST_DATA_DIR) / "post";
inline const std::filesystem::path kShared = CUZK_SHARED_DIR;

inline std::vector<uint8_t> slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

inline Bytes32 bytes32(const std::string& hex) {
  const std::vector<uint8_t> v = from_hex(hex).value();
  Bytes32 out{};
  std::copy(v.begin(), v.end(), out.begin());
  return out;
}

// A *.public.txt of tests/data/post: the public data and the model's public inputs.
struct ModelRequest {
  PostPublicData data;
  std::vector<ff::Fr> inputs;
};

inline ModelRequest read_request(const std::string& name) {
  std::ifstream in(kData / (name + ".public.txt"));
  ModelRequest r;
  std::string key;
  while (in >> key) {
    if (key == "registered_proof") {
      uint64_t id = 0;
      in >> id;
      r.data.proof = registered_post_proof(id).value();
    } else if (key == "randomness") {
      std::string hex;
      in >> hex;
      r.data.randomness = bytes32(hex);
    } else if (key == "sector") {
      PublicSector s;
      std::string hex;
      in >> s.sector_id >> hex;
      s.comm_r = bytes32(hex);
      r.data.sectors.push_back(s);
    } else if (key == "input") {
      std::string dec;
      in >> dec;
      r.inputs.push_back(ff::Fr::from_int(*ff::from_decimal<ff::Fr::kLimbs>(dec)));
    }
  }
  return r;
}

}  // namespace cuzk::post::test
