#include "exactsim/events/sphere_contacts.h"

#include <cmath>
#include <limits>

namespace exactsim {
namespace {

// Adds the rows of point p on body b along the contact frame, times `sign` (none for a static
// body: it has no velocity unknowns that move).
void add_point_rows(const World& world, const State& state, int body, const Vec3& p,
                    const SphereContact& c, Real sign, int row, MatX& G) {
  if (world.bodies[body].is_static) return;
  const Vec3 r = p - body_position(state, body);
  const Vec3 dirs[3] = {c.tangent1, c.tangent2, c.normal};
  for (int j = 0; j < 3; ++j) {
    // d·(v + ω × r) = d·v + (r × d)·ω
    G.block<1, 3>(row + j, 6 * body) += sign * dirs[j].transpose();
    G.block<1, 3>(row + j, 6 * body + 3) += sign * r.cross(dirs[j]).transpose();
  }
}

}  // namespace

void tangent_frame(const Vec3& n, Vec3& t1, Vec3& t2) {
  const Vec3 seed = std::abs(n.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  t1 = (seed - seed.dot(n) * n).normalized();
  t2 = n.cross(t1);
}

std::vector<SphereContact> find_contacts(const World& world, const State& state, Real max_gap) {
  std::vector<SphereContact> out;
  const std::vector<WeldedSphere> spheres = welded_spheres(world);
  const int ns = static_cast<int>(spheres.size());
  int h = 0;
  for (int body = 0; body < world.body_count(); ++body) {
    if (world.bodies[body].kind != ShapeKind::kHalfSpace) continue;
    const HalfSpace& plane = world.half_spaces[h];
    for (int i = 0; i < ns; ++i) {
      const WeldedSphere& s = spheres[i];
      const Vec3 c = sphere_center(state, s);
      const Real gap = plane.normal.dot(c) - plane.offset - s.radius;
      if (!(gap <= max_gap)) continue;
      SphereContact k;
      k.half_space = h;
      k.sphere_b = i;
      k.body_a = body;
      k.body_b = s.body;
      k.normal = plane.normal;
      k.point = c - (s.radius + 0.5 * gap) * plane.normal;
      k.gap = gap;
      k.law = body_contact_law(world, s.body);
      tangent_frame(k.normal, k.tangent1, k.tangent2);
      out.push_back(k);
    }
    ++h;
  }
  for (int i = 0; i < ns; ++i) {
    for (int j = i + 1; j < ns; ++j) {
      const WeldedSphere& a = spheres[i];
      const WeldedSphere& b = spheres[j];
      if (a.body == b.body) continue;  // welded to the same body: no contact
      const Vec3 ca = sphere_center(state, a), cb = sphere_center(state, b);
      const Vec3 d = cb - ca;
      const Real dist = d.norm();
      const Real gap = dist - a.radius - b.radius;
      if (!(gap <= max_gap) || dist == 0.0) continue;
      SphereContact k;
      k.sphere_a = i;
      k.sphere_b = j;
      k.body_a = a.body;
      k.body_b = b.body;
      k.normal = d / dist;
      k.point = ca + (a.radius + 0.5 * gap) * k.normal;
      k.gap = gap;
      k.law = pair_contact_law(world, a.body, b.body);
      tangent_frame(k.normal, k.tangent1, k.tangent2);
      out.push_back(k);
    }
  }
  return out;
}

Real min_gap(const World& world, const State& state) {
  Real g = std::numeric_limits<Real>::infinity();
  for (const SphereContact& c : find_contacts(world, state, std::numeric_limits<Real>::infinity()))
    g = std::min(g, c.gap);
  return g;
}

MatX contact_jacobian(const World& world, const State& state,
                      const std::vector<SphereContact>& contacts) {
  MatX G = MatX::Zero(3 * static_cast<int>(contacts.size()), 6 * world.body_count());
  for (size_t k = 0; k < contacts.size(); ++k) {
    const SphereContact& c = contacts[k];
    add_point_rows(world, state, c.body_b, c.point, c, 1.0, 3 * k, G);
    add_point_rows(world, state, c.body_a, c.point, c, -1.0, 3 * k, G);
  }
  return G;
}

ImpactProblem contact_impact_problem(const World& world, const State& state,
                                     const std::vector<SphereContact>& contacts,
                                     const ImpactOptions& options) {
  ImpactProblem p;
  p.options = options;
  for (const SphereContact& c : contacts) p.contacts.push_back(c.law);
  const MatX G = contact_jacobian(world, state, contacts);
  const MatX A = G * inverse_mass_matrix(world, state) * G.transpose();
  p.delassus = 0.5 * (A + A.transpose());  // exactly symmetric
  p.velocity = G * state.v;
  return p;
}

void apply_contact_impulse(const World& world, State& state,
                           const std::vector<SphereContact>& contacts, const VecX& impulse) {
  const MatX G = contact_jacobian(world, state, contacts);
  state.v += inverse_mass_matrix(world, state) * (G.transpose() * impulse);
}

}  // namespace exactsim
