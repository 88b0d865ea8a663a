#include "exactsim/events/sphere_contacts.h"

#include <cmath>
#include <limits>

namespace exactsim {
namespace {

// Adds the rows of point p on body b along the contact frame, times `sign`.
void add_point_rows(const EventWorld& world, int body, const Vec3& p, const SphereContact& c,
                    Real sign, int row, MatX& G) {
  const Vec3 r = p - body_position(world.state, body);
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

std::vector<SphereContact> find_contacts(const EventWorld& world, Real max_gap) {
  std::vector<SphereContact> out;
  const int ns = static_cast<int>(world.spheres.size());
  for (int h = 0; h < static_cast<int>(world.half_spaces.size()); ++h) {
    const HalfSpace& plane = world.half_spaces[h];
    for (int i = 0; i < ns; ++i) {
      const WeldedSphere& s = world.spheres[i];
      const Vec3 c = sphere_center(world, s);
      const Real gap = plane.normal.dot(c) - plane.offset - s.radius;
      if (!(gap <= max_gap)) continue;
      SphereContact k;
      k.half_space = h;
      k.sphere_b = i;
      k.normal = plane.normal;
      k.point = c - (s.radius + 0.5 * gap) * plane.normal;
      k.gap = gap;
      k.law = s.material;
      tangent_frame(k.normal, k.tangent1, k.tangent2);
      out.push_back(k);
    }
  }
  for (int i = 0; i < ns; ++i) {
    for (int j = i + 1; j < ns; ++j) {
      const WeldedSphere& a = world.spheres[i];
      const WeldedSphere& b = world.spheres[j];
      if (a.body == b.body) continue;  // welded to the same body: no contact
      const Vec3 ca = sphere_center(world, a), cb = sphere_center(world, b);
      const Vec3 d = cb - ca;
      const Real dist = d.norm();
      const Real gap = dist - a.radius - b.radius;
      if (!(gap <= max_gap) || dist == 0.0) continue;
      SphereContact k;
      k.sphere_a = i;
      k.sphere_b = j;
      k.normal = d / dist;
      k.point = ca + (a.radius + 0.5 * gap) * k.normal;
      k.gap = gap;
      k.law = combine_materials(a.material, b.material);
      tangent_frame(k.normal, k.tangent1, k.tangent2);
      out.push_back(k);
    }
  }
  return out;
}

Real min_gap(const EventWorld& world) {
  Real g = std::numeric_limits<Real>::infinity();
  for (const SphereContact& c : find_contacts(world, std::numeric_limits<Real>::infinity()))
    g = std::min(g, c.gap);
  return g;
}

MatX contact_jacobian(const EventWorld& world, const std::vector<SphereContact>& contacts) {
  MatX G = MatX::Zero(3 * static_cast<int>(contacts.size()), 6 * world.body_count());
  for (size_t k = 0; k < contacts.size(); ++k) {
    const SphereContact& c = contacts[k];
    add_point_rows(world, world.spheres[c.sphere_b].body, c.point, c, 1.0, 3 * k, G);
    if (c.sphere_a >= 0)
      add_point_rows(world, world.spheres[c.sphere_a].body, c.point, c, -1.0, 3 * k, G);
  }
  return G;
}

ImpactProblem contact_impact_problem(const EventWorld& world,
                                     const std::vector<SphereContact>& contacts,
                                     const ImpactOptions& options) {
  ImpactProblem p;
  p.options = options;
  for (const SphereContact& c : contacts) p.contacts.push_back(c.law);
  const MatX G = contact_jacobian(world, contacts);
  const MatX A = G * inverse_mass_matrix(world) * G.transpose();
  p.delassus = 0.5 * (A + A.transpose());  // exactly symmetric
  p.velocity = G * world.state.v;
  return p;
}

void apply_contact_impulse(EventWorld& world, const std::vector<SphereContact>& contacts,
                           const VecX& impulse) {
  const MatX G = contact_jacobian(world, contacts);
  world.state.v += inverse_mass_matrix(world) * (G.transpose() * impulse);
}

}  // namespace exactsim
