// Exact mass properties of a uniform convex polyhedron: the divergence theorem applied to the
// fan-triangulated faces, i.e. a sum of signed tetrahedra (r, a, b, c) about a point r.
#include <cmath>

#include "exactsim/geometry/polyhedron.h"
#include "exactsim/math/error.h"

namespace exactsim {

PolyhedronMassProperties polyhedron_mass_properties(const ConvexPolyhedron& polyhedron,
                                                    Real density) {
  if (!(std::isfinite(density) && density > 0))
    throw InputError("polyhedron_mass_properties: density must be positive and finite");
  // About the vertex mean: the terms stay of the shape's size wherever the shape is.
  Vec3 r = Vec3::Zero();
  for (const Vec3& v : polyhedron.vertices) r += v;
  r /= static_cast<Real>(polyhedron.vertices.size());

  Real volume = 0;
  Vec3 first = Vec3::Zero();   // ∫ x dV (relative to r)
  Mat3 second = Mat3::Zero();  // ∫ x xᵀ dV (relative to r)
  for (const PolyhedronFace& face : polyhedron.faces) {
    const Vec3 a = polyhedron.vertices[face.vertices[0]] - r;
    for (size_t i = 1; i + 1 < face.vertices.size(); ++i) {
      const Vec3 b = polyhedron.vertices[face.vertices[i]] - r;
      const Vec3 c = polyhedron.vertices[face.vertices[i + 1]] - r;
      // Tetrahedron (0, a, b, c): V = det/6, ∫x = V·(a+b+c)/4,
      // ∫x xᵀ = V/20 · (a aᵀ + b bᵀ + c cᵀ + s sᵀ) with s = a + b + c.
      const Real v = a.dot(b.cross(c)) / 6;
      const Vec3 s = a + b + c;
      volume += v;
      first += v * s / 4;
      second += (v / 20) *
                (a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
    }
  }
  const Vec3 c = first / volume;
  const Mat3 central = second - volume * c * c.transpose();  // parallel-axis shift to the centroid
  PolyhedronMassProperties m;
  m.volume = volume;
  m.mass = density * volume;
  m.centroid = r + c;
  m.inertia = density * (central.trace() * Mat3::Identity() - central);
  return m;
}

}  // namespace exactsim
