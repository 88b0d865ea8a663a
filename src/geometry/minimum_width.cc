// The thinnest extent of a convex shape across one of its own faces (docs/collision.md "ε
// parameters and defaults": the default contact distance is at most half the thinnest body).
#include <algorithm>
#include <limits>

#include "exactsim/geometry/polygon.h"
#include "exactsim/geometry/polyhedron.h"

namespace exactsim {

Real minimum_width(const ConvexPolygon& polygon) {
  Real width = std::numeric_limits<Real>::infinity();
  for (int e = 0; e < polygon.size(); ++e) {
    const Vec2& n = polygon.edge_normals[e];
    const Real top = n.dot(polygon.vertices[e]);
    Real bottom = top;
    for (const Vec2& v : polygon.vertices) bottom = std::min(bottom, n.dot(v));
    width = std::min(width, top - bottom);
  }
  return width;
}

Real minimum_width(const ConvexPolyhedron& polyhedron) {
  Real width = std::numeric_limits<Real>::infinity();
  for (const PolyhedronFace& f : polyhedron.faces) {
    const Real top = f.normal.dot(polyhedron.vertices[f.vertices[0]]);
    Real bottom = top;
    for (const Vec3& v : polyhedron.vertices) bottom = std::min(bottom, f.normal.dot(v));
    width = std::min(width, top - bottom);
  }
  return width;
}

}  // namespace exactsim
