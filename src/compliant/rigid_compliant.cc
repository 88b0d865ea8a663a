#include "exactsim/compliant/rigid_compliant.h"

#include <limits>
#include <memory>
#include <string>

#include "exactsim/dynamics/mass_matrix.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

// q̇ = N(q) ν per body in the State's layout: ẋ = v, q̇ = ½ [0, ω] ⊗ q (world-frame ω), on the
// quaternion as given (not normalised).
VecX body_kinematics(const VecX& q, const VecX& v) {
  VecX qd(q.size());
  for (Eigen::Index b = 0; b < q.size() / 7; ++b) {
    const Eigen::Vector4d qq = q.segment<4>(7 * b + 3);  // (w, x, y, z)
    const Vec3 om = v.segment<3>(6 * b + 3);
    qd.segment<3>(7 * b) = v.segment<3>(6 * b);
    qd(7 * b + 3) = -0.5 * om.dot(qq.tail<3>());
    qd.segment<3>(7 * b + 4) = 0.5 * (qq(0) * om + om.cross(qq.tail<3>()));
  }
  return qd;
}

// Velocity of the material point of body b at p (world).
Vec3 point_velocity(const State& s, int b, const Vec3& p) {
  return body_velocity(s, b) + body_angular_velocity(s, b).cross(p - body_position(s, b));
}

// The bodies that move: the ODE's, in body order.
std::vector<int> dynamic_bodies(const World& w) {
  std::vector<int> out;
  for (int b = 0; b < w.body_count(); ++b)
    if (!w.bodies[b].is_static) out.push_back(b);
  return out;
}

// Calls visit(contact) for every penetrating pair; materials combined on the fly.
template <class Visit>
void for_each_contact(const CompliantScene& scene, const std::vector<WeldedSphere>& spheres,
                      const State& state, Visit&& visit) {
  const World& w = scene.world;
  const int ns = static_cast<int>(spheres.size());
  CompliantContact c;
  for (int h = 0; h < static_cast<int>(w.half_spaces.size()); ++h) {
    const HalfSpace& plane = w.half_spaces[h];
    for (int i = 0; i < ns; ++i) {
      const WeldedSphere& s = spheres[i];
      c.geometry = sphere_plane_geometry(plane.offset * plane.normal, plane.normal,
                                         sphere_center(state, s), s.radius);
      if (!(c.geometry.depth > 0.0)) continue;
      const CombinedMaterial m =
          combine_compliant_materials(scene.half_space_materials[h], scene.sphere_materials[i]);
      const Vec3 p = contact_point(c.geometry, m);
      c.half_space = h;
      c.sphere_a = -1;
      c.sphere_b = i;
      c.relative_velocity = point_velocity(state, s.body, p);
      c.force = hunt_crossley_force(c.geometry, m, scene.transition_speed, c.relative_velocity);
      visit(c);
    }
  }
  for (int i = 0; i < ns; ++i) {
    for (int j = i + 1; j < ns; ++j) {
      const WeldedSphere& a = spheres[i];
      const WeldedSphere& b = spheres[j];
      if (a.body == b.body) continue;
      const Vec3 ca = sphere_center(state, a), cb = sphere_center(state, b);
      if ((cb - ca).squaredNorm() >= (a.radius + b.radius) * (a.radius + b.radius)) continue;
      c.geometry = sphere_sphere_geometry(ca, a.radius, cb, b.radius);
      const CombinedMaterial m =
          combine_compliant_materials(scene.sphere_materials[i], scene.sphere_materials[j]);
      const Vec3 p = contact_point(c.geometry, m);
      c.half_space = -1;
      c.sphere_a = i;
      c.sphere_b = j;
      c.relative_velocity = point_velocity(state, b.body, p) - point_velocity(state, a.body, p);
      c.force = hunt_crossley_force(c.geometry, m, scene.transition_speed, c.relative_velocity);
      visit(c);
    }
  }
}

}  // namespace

void check_compliant_scene(const CompliantScene& scene) {
  check_world(scene.world, scene.state);
  const std::size_t spheres = welded_spheres(scene.world).size();
  if (scene.sphere_materials.size() != spheres)
    throw InputError("sphere_materials: need one per sphere (" + std::to_string(spheres) +
                     "), got " + std::to_string(scene.sphere_materials.size()));
  if (scene.half_space_materials.size() != scene.world.half_spaces.size())
    throw InputError("half_space_materials: need one per half-space (" +
                     std::to_string(scene.world.half_spaces.size()) + "), got " +
                     std::to_string(scene.half_space_materials.size()));
  for (size_t i = 0; i < scene.sphere_materials.size(); ++i)
    check_material(scene.sphere_materials[i], "sphere_materials[" + std::to_string(i) + "]");
  for (size_t i = 0; i < scene.half_space_materials.size(); ++i)
    check_material(scene.half_space_materials[i],
                   "half_space_materials[" + std::to_string(i) + "]");
  if (!(scene.transition_speed > 0.0) || !std::isfinite(scene.transition_speed))
    throw InputError("transition_speed: must be > 0 m/s");
}

VecX compliant_state(const World& w, const State& s, const Vec3& z) {
  const std::vector<int> bodies = dynamic_bodies(w);
  const int nb = static_cast<int>(bodies.size());
  VecX y(13 * nb + 3);
  for (int k = 0; k < nb; ++k) {
    y.segment<7>(7 * k) = s.q_of(bodies[k]);
    y.segment<6>(7 * nb + 6 * k) = s.v_of(bodies[k]);
  }
  y.tail<3>() = z;
  return y;
}

void set_compliant_state(const World& w, State& s, const VecX& y) {
  const std::vector<int> bodies = dynamic_bodies(w);
  const int nb = static_cast<int>(bodies.size());
  for (int k = 0; k < nb; ++k) {
    s.q_of(bodies[k]) = y.segment<7>(7 * k);
    s.q_of(bodies[k]).tail<4>().normalize();
    s.v_of(bodies[k]) = y.segment<6>(7 * nb + 6 * k);
  }
}

std::vector<CompliantContact> compliant_contacts(const CompliantScene& scene, const State& state) {
  std::vector<CompliantContact> out;
  for_each_contact(scene, welded_spheres(scene.world), state,
                   [&](const CompliantContact& c) { out.push_back(c); });
  return out;
}

Real max_penetration(const World& w, const State& state) {
  Real best = -std::numeric_limits<Real>::infinity();
  const std::vector<WeldedSphere> spheres = welded_spheres(w);
  const int ns = static_cast<int>(spheres.size());
  for (const HalfSpace& plane : w.half_spaces)
    for (const WeldedSphere& s : spheres)
      best = std::max(best, s.radius + plane.offset - plane.normal.dot(sphere_center(state, s)));
  for (int i = 0; i < ns; ++i)
    for (int j = i + 1; j < ns; ++j) {
      const WeldedSphere& a = spheres[i];
      const WeldedSphere& b = spheres[j];
      if (a.body == b.body) continue;
      best = std::max(
          best, a.radius + b.radius - (sphere_center(state, b) - sphere_center(state, a)).norm());
    }
  return best;
}

Real contact_potential_energy(const CompliantScene& scene, const State& state) {
  Real pe = 0.0;
  for_each_contact(scene, welded_spheres(scene.world), state,
                   [&](const CompliantContact& c) { pe += c.force.potential_energy; });
  return pe;
}

OdeSystem compliant_system(const CompliantScene& scene_in) {
  check_compliant_scene(scene_in);
  const std::vector<int> bodies = dynamic_bodies(scene_in.world);
  const int nb = static_cast<int>(bodies.size());
  OdeSystem sys;
  sys.nq = 7 * nb;
  sys.nu = 6 * nb;
  sys.nz = 3;
  for (int b = 0; b < nb; ++b) sys.quaternions.push_back(7 * b + 3);
  struct Scratch {
    CompliantScene scene;
    std::vector<WeldedSphere> spheres;
    std::vector<Vec3> force, torque;  // by body
  };
  auto s = std::make_shared<Scratch>();
  s->scene = scene_in;
  s->spheres = welded_spheres(scene_in.world);
  s->force.resize(scene_in.world.body_count());
  s->torque.resize(scene_in.world.body_count());
  const int sys_nq = sys.nq;
  sys.derivative = [s, bodies, nb, sys_nq](Real, const VecX& y, VecX& yd) {
    const World& w = s->scene.world;
    State& state = s->scene.state;
    set_compliant_state(w, state, y);
    for (const int b : bodies) {
      s->force[b] = w.bodies[b].mass * w.gravity;
      s->torque[b].setZero();
    }
    Real p_hc = 0.0, p_fr = 0.0, work = 0.0;
    for_each_contact(s->scene, s->spheres, state, [&](const CompliantContact& c) {
      if (!c.force.active) return;
      const Vec3& F = c.force.force;
      const int b2 = s->spheres[c.sphere_b].body;
      s->force[b2] += F;
      s->torque[b2] += (c.force.point - body_position(state, b2)).cross(F);
      if (c.sphere_a >= 0) {
        const int b1 = s->spheres[c.sphere_a].body;
        s->force[b1] -= F;
        s->torque[b1] -= (c.force.point - body_position(state, b1)).cross(F);
      }
      p_hc += c.force.hunt_crossley_power;
      p_fr += c.force.friction_power;
      work += -F.dot(c.relative_velocity);
    });
    yd.head(sys_nq) = body_kinematics(y.head(sys_nq), y.segment(sys_nq, 6 * nb));
    for (int k = 0; k < nb; ++k) {
      const int b = bodies[k];
      const Body& body = w.bodies[b];
      const Vec3 om = body_angular_velocity(state, b);
      const Mat3 Iw = mass_block(body, state, b).bottomRightCorner<3, 3>();
      yd.segment<3>(sys_nq + 6 * k) = s->force[b] / body.mass;
      yd.segment<3>(sys_nq + 6 * k + 3) = Iw.ldlt().solve(s->torque[b] - om.cross(Iw * om));
    }
    yd(13 * nb) = p_hc;
    yd(13 * nb + 1) = p_fr;
    yd(13 * nb + 2) = work;
  };
  sys.kinematics = [](const VecX& q, const VecX& u, VecX& qd) { qd = body_kinematics(q, u); };
  return sys;
}

}  // namespace exactsim
