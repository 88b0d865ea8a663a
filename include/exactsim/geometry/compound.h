// Compound bodies: several convex parts welded in one frame (docs/api.md "Compound bodies").
#pragma once

#include <span>
#include <variant>
#include <vector>

#include "exactsim/geometry/polygon.h"
#include "exactsim/geometry/polyhedron.h"
#include "exactsim/geometry/sphere.h"

namespace exactsim {

// The mass properties of the union of parts that meet only at their boundaries, at uniform
// density: the parts' masses summed, the centroid their mass-weighted mean, and the inertia about
// it by the parallel-axis theorem (Σ I_i + m_i |d_i|² in 2D, Σ I_i + m_i (|d_i|² 1 − d_i d_iᵀ) in
// 3D, d_i from the union's centroid to part i's). One part: that part's own properties, bitwise.
// InputError as polygon_mass_properties / polyhedron_mass_properties.
PolygonMassProperties compound_mass_properties(std::span<const ConvexPolygon> parts, Real density);
PolyhedronMassProperties compound_mass_properties(std::span<const ConvexPolyhedron> parts,
                                                  Real density);

// A part of a 3D body: a convex polyhedron or a sphere (a ball about Sphere::centre), in the body's
// frame. With polyhedra only, compound_mass_properties is the function above's, bitwise.
using SpatialPart = std::variant<ConvexPolyhedron, Sphere>;
PolyhedronMassProperties compound_mass_properties(std::span<const SpatialPart> parts, Real density);

// Each part moved by −offset (into the frame whose origin is at `offset`), rebuilt from its moved
// vertices (hull and normals recomputed, as a written scene is read back: bitwise the same).
void shift_parts(std::vector<ConvexPolygon>& parts, const Vec2& offset);
void shift_parts(std::vector<ConvexPolyhedron>& parts, const Vec3& offset);
void shift_parts(std::vector<SpatialPart>& parts, const Vec3& offset);  // a sphere's centre moves

}  // namespace exactsim
