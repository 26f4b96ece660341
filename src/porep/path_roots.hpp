#pragma once
// The roots that inclusion paths of Poseidon trees (R and C) reach from their leaves, many paths
// at once: what the vanilla-proof checks compare with the claimed roots (post/vanilla.cpp,
// porep/c1_check.cpp). Level by level, the groups of every path still climbing go through one
// PoseidonBatch call per arity (eight lanes of IFMA where the CPU has it), instead of one
// poseidon_hash each: the checks' cost is these hashes (docs/PERF.md 33).

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "ff/bls12_381.hpp"
#include "gadgets/poseidon_batch.hpp"
#include "porep/c1.hpp"

namespace cuzk::porep {

// A Poseidon tree's path element: arity 2, 4 or 8 (its siblings + 1) with its index inside.
inline bool poseidon_element_fits(const PathElement& e) {
  const size_t arity = e.hashes.size() + 1;
  return (arity == 2 || arity == 4 || arity == 8) && e.index < arity;
}

// The group the element's level hashes (por.hpp's insert): `node` at e.index among the
// siblings, appended to `out`. The element must fit (poseidon_element_fits).
inline void append_inserted(const PathElement& e, const ff::Fr& node, std::vector<ff::Fr>& out) {
  out.insert(out.end(), e.hashes.begin(), e.hashes.begin() + e.index);
  out.push_back(node);
  out.insert(out.end(), e.hashes.begin() + e.index, e.hashes.end());
}

// roots[n] = the node paths[n] leads to: per element (leaf level first) the node put at its
// index among the siblings and the group hashed with the MerkleTree constants of its arity (2, 4
// or 8), as por.hpp's insert + hash. A shorter path is done when its elements are (its lane idles).
// Throws Exception (kInvalidArgument) on an element of another arity or an index past its group:
// callers check the shapes first. Poseidon: PorepPoseidon or snap's UpdatePoseidon (batch(arity)).
template <class Poseidon>
std::vector<ff::Fr> poseidon_path_roots(const Poseidon& poseidon, std::span<const MerkleProof* const> paths) {
  std::vector<ff::Fr> nodes(paths.size());
  size_t levels = 0;
  for (size_t n = 0; n < paths.size(); ++n) {
    nodes[n] = paths[n]->leaf;
    levels = std::max(levels, paths[n]->path.size());
  }
  std::vector<size_t> climbing;
  std::vector<ff::Fr> groups, hashed;
  for (size_t l = 0; l < levels; ++l) {
    for (const MerkleProof* p : paths) {
      if (p->path.size() <= l) continue;
      const PathElement& e = p->path[l];
      if (!poseidon_element_fits(e)) {
        throw Exception(invalid_argument("poseidon_path_roots: " + std::to_string(e.hashes.size()) +
                                         " siblings at index " + std::to_string(e.index) + " (arity 2, 4 or 8)"));
      }
    }
    for (size_t arity : {size_t{2}, size_t{4}, size_t{8}}) {
      climbing.clear();
      groups.clear();
      for (size_t n = 0; n < paths.size(); ++n) {
        if (paths[n]->path.size() <= l) continue;
        const PathElement& e = paths[n]->path[l];
        if (e.hashes.size() + 1 != arity) continue;
        climbing.push_back(n);
        append_inserted(e, nodes[n], groups);
      }
      if (climbing.empty()) continue;
      hashed.resize(climbing.size());
      poseidon.batch(arity).hash(groups, hashed);
      for (size_t k = 0; k < climbing.size(); ++k) nodes[climbing[k]] = hashed[k];
    }
  }
  return nodes;
}

}  // namespace cuzk::porep
