// The exact penetration depth's result and the watchdog's findings (metrics/penetration_depth.h,
// docs/penetration.md): plain data that step reports carry.
#pragma once

#include <cstdint>

#include "exactsim/math/types.h"

namespace exactsim {

// Which candidate direction gave the depth (or, when not overlapping, the separating axis).
enum class PenetrationFeature : std::uint8_t {
  kNone,      // not computed (empty input, or every candidate non-finite: NaN poses)
  kFaceA,     // direction = outward normal of face feature_a of A (2D: of edge feature_a)
  kFaceB,     // direction = −(outward normal of face feature_b of B) (2D: of edge feature_b)
  kEdgeEdge,  // 3D: direction = ±normalize(edge feature_a of A × edge feature_b of B)
  kSphere,    // 3D, a pair with a sphere: direction = the normal of the closest points; the other
              // shape's feature is the face carrying its closest point (−1 for a sphere)
};

struct PenetrationResult {
  Real depth = 0;  // ≥ 0 (m); 0 when the interiors are disjoint (separated or touching)
  // Unit, from A to B: translating B by depth·direction leaves the shapes touching, which is
  // the shortest such translation. When not overlapping: a separating axis (s(direction) ≤ 0),
  // also pointing from A to B. 2D: z = 0.
  Vec3 direction = Vec3::Zero();
  bool overlapping = false;  // every candidate had s(d) > 0
  std::uint8_t dimension = 3;
  PenetrationFeature feature = PenetrationFeature::kNone;
  int feature_a = -1, feature_b = -1;  // face / edge indices of the shapes (−1: unused)
};

struct PenetratingPair {
  int body_a = -1, body_b = -1;  // body_a < body_b; the result's A is body_a
  PenetrationResult result;
};

struct CentreInsideStatic {
  int body = -1;         // dynamic body whose centre of mass is strictly inside…
  int static_body = -1;  // …this static body
  Real depth = 0;        // distance from the centre to the static body's surface (> 0)
};

}  // namespace exactsim
