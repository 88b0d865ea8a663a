#include "exactsim/compliant/hertz_hunt_crossley.h"

#include <cmath>

#include "exactsim/math/error.h"

namespace exactsim {

HertzGeometry sphere_plane_geometry(const Vec3& o, const Vec3& n, const Vec3& c, Real r) {
  HertzGeometry g;
  g.normal = n;
  g.depth = r - n.dot(c - o);
  g.radius = r;
  g.midpoint = c - (r - 0.5 * g.depth) * n;
  return g;
}

HertzGeometry sphere_sphere_geometry(const Vec3& c1, Real r1, const Vec3& c2, Real r2) {
  const Vec3 d = c2 - c1;
  const Real dist = d.norm();
  if (!(dist > 1e-12 * (r1 + r2)))
    throw InputError("sphere_sphere_geometry: coincident centres, the normal is undefined");
  HertzGeometry g;
  g.normal = d / dist;
  g.depth = r1 + r2 - dist;
  g.radius = r1 * r2 / (r1 + r2);
  g.midpoint = c1 + (r1 - 0.5 * g.depth) * g.normal;
  return g;
}

Vec3 contact_point(const HertzGeometry& g, const CombinedMaterial& m) {
  return g.midpoint + g.depth * (0.5 - m.share1) * g.normal;  // docs/compliant.md "Normal force"
}

CompliantContactForce hunt_crossley_force(const HertzGeometry& g, const CombinedMaterial& m,
                                          Real transition_speed, const Vec3& v_rel) {
  CompliantContactForce f;
  f.point = contact_point(g, m);
  if (!(g.depth > 0.0)) return f;
  const Real x = g.depth;
  const Real vn = g.normal.dot(v_rel);
  const Real xdot = -vn;
  const Real fh = (4.0 / 3.0) * m.effective_stiffness * std::sqrt(g.radius) * x * std::sqrt(x);
  const Real fn = fh * (1.0 + 1.5 * m.dissipation * xdot);  // Hunt–Crossley
  if (!(fn > 0.0)) {                                        // clamp: no force of any kind
    f.clamped = true;
    return f;
  }
  f.active = true;
  f.hertz_force = fh;
  f.normal_force = fn;
  f.potential_energy = 0.4 * fh * x;
  f.hunt_crossley_power = 1.5 * m.dissipation * fh * xdot * xdot;
  f.force = fn * g.normal;
  const Vec3 vt = v_rel - vn * g.normal;
  const Real s = vt.norm();
  f.slip_speed = s;
  if (s > kNoSlipSpeed) {
    const StribeckCurve curve{m.static_friction, m.dynamic_friction, m.viscous_friction,
                              transition_speed};
    const Real mu = stribeck_coefficient(s, curve);
    f.friction_force = mu * fn;
    f.friction_power = mu * fn * s;
    f.force -= (mu * fn / s) * vt;
  }
  return f;
}

}  // namespace exactsim
