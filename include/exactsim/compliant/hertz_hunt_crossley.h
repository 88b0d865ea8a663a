// Hertz normal force with Hunt–Crossley dissipation and Stribeck friction for sphere–plane and
// sphere–sphere contacts (docs/compliant.md "The model"). SI units throughout: m, m/s, N, J, W.
#pragma once

#include "exactsim/compliant/material.h"
#include "exactsim/compliant/stribeck.h"
#include "exactsim/math/types.h"

namespace exactsim {

// Undeformed-geometry overlap of two surfaces. Surface 1 owns the normal, which points from
// surface 1 into surface 2.
struct HertzGeometry {
  Vec3 normal = Vec3::UnitZ();   // unit
  Real depth = 0.0;              // x [m], > 0 when penetrating
  Real radius = 0.0;             // effective radius R [m]
  Vec3 midpoint = Vec3::Zero();  // o_c [m]: midway between the undeformed surfaces
};

// Plane through `plane_point` with outward unit normal `plane_normal` (surface 1) and a sphere
// (centre, radius r > 0) as surface 2: x = r − n·(c − o), R = r, o_c = c − (r − x/2) n.
HertzGeometry sphere_plane_geometry(const Vec3& plane_point, const Vec3& plane_normal,
                                    const Vec3& center, Real radius);

// Sphere 1 and sphere 2: n = (c₂ − c₁)/d, x = r₁ + r₂ − d, R = r₁r₂/(r₁+r₂),
// o_c = c₁ + (r₁ − x/2) n. Throws InputError when the centres coincide (d ≤ 1e-12 (r₁ + r₂)).
HertzGeometry sphere_sphere_geometry(const Vec3& center1, Real radius1, const Vec3& center2,
                                     Real radius2);

// Point of application p = o_c + x(½ − s₁) n: the midpoint for equal materials, moving toward
// the stiffer surface (docs/compliant.md "Normal force").
Vec3 contact_point(const HertzGeometry& g, const CombinedMaterial& m);

struct CompliantContactForce {
  bool active = false;             // false: x ≤ 0 or clamped (f_N ≤ 0): no force, PE or power
  Vec3 force = Vec3::Zero();       // F [N] on body 2 at `point` (body 1 gets −F)
  Vec3 point = Vec3::Zero();       // p [m]
  Real hertz_force = 0.0;          // f_H = (4/3) E_eff √R x^{3/2} [N]
  Real normal_force = 0.0;         // f_N = f_H (1 + 1.5 c ẋ) [N]
  Real friction_force = 0.0;       // |f_t| [N]
  Real slip_speed = 0.0;           // |v_t| [m/s]
  Real potential_energy = 0.0;     // PE = (2/5) f_H x [J]
  Real hunt_crossley_power = 0.0;  // (3/2) c f_H ẋ² [W], ≥ 0
  Real friction_power = 0.0;       // μ f_N |v_t| [W], ≥ 0
  bool clamped = false;            // x > 0 but f_N ≤ 0
};

// The contact force for relative velocity v_rel [m/s] of body 2's material point at p minus body
// 1's (p from contact_point()). Stribeck coefficients come from `m`, transition speed from
// `transition_speed` [m/s].
CompliantContactForce hunt_crossley_force(const HertzGeometry& g, const CombinedMaterial& m,
                                          Real transition_speed, const Vec3& v_rel);

}  // namespace exactsim
