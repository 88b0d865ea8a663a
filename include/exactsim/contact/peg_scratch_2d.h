// Buffers that build_peg_constraints_2d reuses from step to step, so that a warmed-up step does
// not touch the heap (docs/stepping.md "Memory": reuse per-step scratch). Contents are meaningless
// between calls.
#pragma once

#include <array>
#include <cstdint>
#include <tuple>
#include <vector>

#include "exactsim/math/types.h"

namespace exactsim {

// (vertex owner, vertex, edge owner, edge) of a vertex–edge contact, then its index: sorting by
// it groups the contacts of one vertex against one body, edges ascending (docs/peg.md "Algorithm"
// step 2).
struct PegFeatureKey {
  int vertex_body, vertex, edge_body, edge, index;
  auto tie() const { return std::tie(vertex_body, vertex, edge_body, edge, index); }
  bool operator<(const PegFeatureKey& o) const { return tie() < o.tie(); }
  bool same_group(const PegFeatureKey& o) const {
    return vertex_body == o.vertex_body && vertex == o.vertex && edge_body == o.edge_body;
  }
};

struct PegScratch2d {
  std::vector<Real> applicability;                // APPL_ve per contact
  std::vector<PegFeatureKey> keys;                // sorted feature keys
  std::vector<int> group, run, unilateral;        // one vertex's contacts, one edge run, U's so far
  std::vector<std::array<int, 4>> vertex_vertex;  // C1..C4 of each vertex–vertex configuration
  std::vector<std::array<int, 4>> seen;           // vertex pairs already met
  std::vector<std::uint8_t> in_intercontact;      // per contact
};

}  // namespace exactsim
