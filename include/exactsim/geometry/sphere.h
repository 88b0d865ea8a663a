// Spheres: mass properties of the uniform solid ball, closest points (signed gap, contact normal)
// against another sphere or a placed convex polyhedron, and the exact overlap volume of a ball
// with another ball (the lens) or with a convex polyhedron (the divergence theorem, sphere.cc).
#pragma once

#include "exactsim/geometry/polyhedron.h"
#include "exactsim/math/types.h"

namespace exactsim {

// A ball: its radius and its centre in its body's frame (the body origin for a body that is one
// sphere; elsewhere for a part of a compound body).
struct Sphere {
  Real radius = 0;             // m
  Vec3 centre = Vec3::Zero();  // m, body frame
};

// Solid sphere of uniform density: mass 4/3 π r³ ρ, inertia 2/5 m r² I (body axes, about the
// centre).
struct SphereMassProperties {
  Real volume = 0, mass = 0;
  Mat3 inertia = Mat3::Zero();
};

// InputError unless radius and density are positive and finite.
SphereMassProperties sphere_mass_properties(Real radius, Real density);

// Closest points of a sphere (centre c, radius r) and another shape, sphere first.
struct SphereProximity {
  Real gap = 0;                      // signed surface distance (m): > 0 apart, < 0 overlapping;
                                     // −gap is the penetration depth (the minimum translation
                                     // that separates them)
  Vec3 normal = Vec3::UnitX();       // unit, from the sphere towards the other shape
  Vec3 point_sphere = Vec3::Zero();  // c + r·normal, on the sphere
  Vec3 point_other = Vec3::Zero();   // point_sphere + gap·normal, on the other shape's surface
  int face = -1;  // polyhedron: the face whose plane or polygon carries point_other
};

// Sphere against a convex polyhedron (`placed` is `shape` placed by place()).
// Centre outside P: d = distance from c to P, attained at y on P (found over the faces whose plane
// c is in front of: its projection into the face polygon, or else the closest point on the face's
// boundary edges); normal = (y − c)/d, gap = d − r, point_other = y, face = the first face
// attaining d.
// Centre inside or on P (max_f η_f·c − d_f ≤ 0, or d = 0): the face f of deepest_face, s =
// η_f·c − d_f; normal = −η_f, gap = s − r (so −gap = r + |s|), point_other = c − s·η_f (the
// projection onto that face plane).
// A polyhedron without faces gives gap = +∞ and face −1.
SphereProximity sphere_polyhedron_proximity(const Vec3& centre, Real radius,
                                            const ConvexPolyhedron& shape,
                                            const WorldPolyhedron& placed);

// Two spheres: normal (c_b − c_a)/|c_b − c_a| (+x when the centres coincide), gap = |c_b − c_a| −
// r_a − r_b, point_sphere = c_a + r_a·normal, point_other = point_sphere + gap·normal (c_b −
// r_b·normal).
SphereProximity sphere_sphere_proximity(const Vec3& centre_a, Real radius_a, const Vec3& centre_b,
                                        Real radius_b);

// Exact volume of ball ∩ ball: the lens π (r_a + r_b − d)² (d² + 2d(r_a + r_b) − 3(r_a − r_b)²) /
// (12 d), 0 when apart or touching, the smaller ball when one contains the other. Symmetric in
// a ↔ b bit for bit; 0 for a non-positive radius.
Real sphere_sphere_overlap_volume(const Vec3& centre_a, Real radius_a, const Vec3& centre_b,
                                  Real radius_b);

// Exact volume of ball ∩ convex polyhedron, by the divergence theorem (closed-form face integrals,
// sphere.cc). Continuous in the centre, including across faces, edges and corners of P; exactly 0
// when the centre is at least r from P (as sphere_polyhedron_proximity measures it: gap ≥ 0),
// exactly 4/3 π r³ when every face plane is at least r behind the centre. Never NaN for finite
// input; 0 for a non-positive radius.
Real sphere_polyhedron_overlap_volume(const Vec3& centre, Real radius,
                                      const ConvexPolyhedron& shape, const WorldPolyhedron& placed);

}  // namespace exactsim
