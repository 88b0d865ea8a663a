#include "exactsim/geometry/compound.h"

namespace exactsim {

PolygonMassProperties compound_mass_properties(std::span<const ConvexPolygon> parts, Real density) {
  if (parts.size() == 1) return polygon_mass_properties(parts[0], density);
  PolygonMassProperties total{0, 0, Vec2::Zero(), 0};
  std::vector<PolygonMassProperties> each;
  each.reserve(parts.size());
  for (const ConvexPolygon& p : parts) {
    each.push_back(polygon_mass_properties(p, density));
    total.area += each.back().area;
    total.mass += each.back().mass;
    total.centroid += each.back().mass * each.back().centroid;
  }
  total.centroid /= total.mass;
  for (const PolygonMassProperties& e : each)
    total.inertia += e.inertia + e.mass * (e.centroid - total.centroid).squaredNorm();
  return total;
}

namespace {

// The union of 3D parts whose own properties `of` gives: masses summed, the centroid their
// mass-weighted mean, the inertia about it by the parallel-axis theorem.
template <class Part, class Of>
PolyhedronMassProperties union_properties(std::span<const Part> parts, Of&& of) {
  if (parts.size() == 1) return of(parts[0]);
  PolyhedronMassProperties total{0, 0, Vec3::Zero(), Mat3::Zero()};
  std::vector<PolyhedronMassProperties> each;
  each.reserve(parts.size());
  for (const Part& p : parts) {
    each.push_back(of(p));
    total.volume += each.back().volume;
    total.mass += each.back().mass;
    total.centroid += each.back().mass * each.back().centroid;
  }
  total.centroid /= total.mass;
  for (const PolyhedronMassProperties& e : each) {
    const Vec3 d = e.centroid - total.centroid;
    total.inertia += e.inertia + e.mass * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
  }
  return total;
}

}  // namespace

PolyhedronMassProperties compound_mass_properties(std::span<const ConvexPolyhedron> parts,
                                                  Real density) {
  return union_properties(parts, [density](const ConvexPolyhedron& p) {
    return polyhedron_mass_properties(p, density);
  });
}

PolyhedronMassProperties compound_mass_properties(std::span<const SpatialPart> parts,
                                                  Real density) {
  return union_properties(parts, [density](const SpatialPart& part) {
    if (const ConvexPolyhedron* p = std::get_if<ConvexPolyhedron>(&part))
      return polyhedron_mass_properties(*p, density);
    const Sphere& s = std::get<Sphere>(part);
    const SphereMassProperties m = sphere_mass_properties(s.radius, density);
    return PolyhedronMassProperties{m.volume, m.mass, s.centre, m.inertia};
  });
}

void shift_parts(std::vector<ConvexPolygon>& parts, const Vec2& offset) {
  for (ConvexPolygon& p : parts) p = translated(p, -offset);
}

void shift_parts(std::vector<ConvexPolyhedron>& parts, const Vec3& offset) {
  for (ConvexPolyhedron& p : parts) p = translated(p, -offset);
}

void shift_parts(std::vector<SpatialPart>& parts, const Vec3& offset) {
  for (SpatialPart& part : parts) {
    if (ConvexPolyhedron* p = std::get_if<ConvexPolyhedron>(&part))
      *p = translated(*p, -offset);
    else
      std::get<Sphere>(part).centre -= offset;
  }
}

}  // namespace exactsim
