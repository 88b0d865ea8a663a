#include "exactsim/contact/peg_feasibility_3d.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "exactsim/collision/closest_points.h"

namespace exactsim {

// FEAS_vf with a point–polygon Voronoi classification (docs/peg3d.md "Tests and their
// definitions"; docs/peg.md "Defects not replicated" item 7).
VertexFaceFeasibility vertex_face_feasibility(const Vec3& p, const ConvexPolyhedron& shape,
                                              const WorldPolyhedron& placed, int face,
                                              Real proximity, Real angle, Real depth,
                                              Real reach) {
  VertexFaceFeasibility out;
  const std::vector<int>& loop = shape.faces[face].vertices;
  const Vec3& eta = placed.face_normals[face];
  out.gap = eta.dot(p - placed.vertices[loop[0]]);
  const Vec3 q = p - out.gap * eta;  // projection into the face plane
  const int k = static_cast<int>(loop.size());
  out.inside = true;
  for (int i = 0; i < k && out.inside; ++i) {
    const Vec3& a = placed.vertices[loop[i]];
    const Vec3& b = placed.vertices[loop[i + 1 == k ? 0 : i + 1]];
    if ((b - a).cross(q - a).dot(eta) < 0) out.inside = false;  // right of a CCW edge
  }
  if (!out.inside) {
    // Nearest boundary point: an edge interior or a corner (the Voronoi region of q).
    out.outside = std::numeric_limits<Real>::infinity();
    for (int i = 0; i < k; ++i)
      out.outside = std::min(
          out.outside,
          point_segment_distance(q, placed.vertices[loop[i]], placed.vertices[loop[(i + 1) % k]]));
  }
  out.distance = std::hypot(out.gap, out.outside);
  if (std::abs(out.gap) > proximity || out.distance > proximity) {
    out.feasible = out.inside && out.gap > 0 && out.gap <= proximity + reach;
    return out;
  }
  if (out.inside) {
    out.feasible = out.gap >= -depth;
  } else {
    out.feasible = std::asin(std::clamp(out.gap / out.distance, Real{-1}, Real{1})) >= -angle;
  }
  return out;
}

}  // namespace exactsim
