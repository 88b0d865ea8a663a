// Buffers that build_peg_constraints_3d reuses from step to step, so that a warmed-up step does
// not touch the heap (docs/stepping.md "Memory": reuse per-step scratch). Contents are meaningless
// between calls.
#pragma once

#include <array>
#include <cstdint>
#include <tuple>
#include <utility>
#include <vector>

namespace exactsim {

// (type, body_a, feature_a, body_b, feature_b) of a contact: sorting by it groups one vertex's
// contacts against one body, faces ascending.
struct PegContactKey3d {
  int type, body_a, feature_a, body_b, feature_b;
  auto tie() const { return std::tie(type, body_a, feature_a, body_b, feature_b); }
  bool operator<(const PegContactKey3d& o) const { return tie() < o.tie(); }
  bool operator==(const PegContactKey3d& o) const { return tie() == o.tie(); }
};

// The configuration of one vertex of `body` near `other` (docs/peg3d.md "Algorithm" step 2): its
// nearest feature of the other body within the proximity.
enum class PegNearFeature { kFace, kEdge, kVertex };
struct PegVertexConfiguration {
  int body, vertex, other;
  PegNearFeature near = PegNearFeature::kFace;
  int feature = -1;  // edge (kEdge) or vertex (kVertex) of `other`
  auto key() const { return std::tie(body, vertex, other); }
  bool operator<(const PegVertexConfiguration& o) const { return key() < o.key(); }
};

struct PegScratch3d {
  std::vector<int> index;  // contacts sorted by (PegContactKey3d, index)
  std::vector<PegVertexConfiguration> configurations;  // sorted by (body, vertex, other)
  std::vector<std::array<int, 3>> todo, done;          // (body, vertex, other) to classify / seen
  std::vector<std::array<int, 3>> fresh, merged;       // a round's new ones; done with them
  std::vector<int> unilateral, faces, faces_copy;      // U's so far, one vertex's faces
  std::vector<std::pair<int, int>> crosses;            // X pairs already made, sorted
  std::vector<std::uint8_t> in_intercontact;           // per contact
};

}  // namespace exactsim
