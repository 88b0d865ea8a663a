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
Vec3 point_velocity(const EventWorld& w, int b, const Vec3& p) {
  return body_velocity(w.state, b) +
         body_angular_velocity(w.state, b).cross(p - body_position(w.state, b));
}

// Calls visit(contact) for every penetrating pair; materials combined on the fly.
template <class Visit>
void for_each_contact(const CompliantScene& scene, const EventWorld& w, Visit&& visit) {
  const int ns = static_cast<int>(w.spheres.size());
  CompliantContact c;
  for (int h = 0; h < static_cast<int>(w.half_spaces.size()); ++h) {
    const HalfSpace& plane = w.half_spaces[h];
    for (int i = 0; i < ns; ++i) {
      const WeldedSphere& s = w.spheres[i];
      c.geometry = sphere_plane_geometry(plane.offset * plane.normal, plane.normal,
                                         sphere_center(w, s), s.radius);
      if (!(c.geometry.depth > 0.0)) continue;
      const CombinedMaterial m =
          combine_compliant_materials(scene.half_space_materials[h], scene.sphere_materials[i]);
      const Vec3 p = contact_point(c.geometry, m);
      c.half_space = h;
      c.sphere_a = -1;
      c.sphere_b = i;
      c.relative_velocity = point_velocity(w, s.body, p);
      c.force = hunt_crossley_force(c.geometry, m, scene.transition_speed, c.relative_velocity);
      visit(c);
    }
  }
  for (int i = 0; i < ns; ++i) {
    for (int j = i + 1; j < ns; ++j) {
      const WeldedSphere& a = w.spheres[i];
      const WeldedSphere& b = w.spheres[j];
      if (a.body == b.body) continue;
      const Vec3 ca = sphere_center(w, a), cb = sphere_center(w, b);
      if ((cb - ca).squaredNorm() >= (a.radius + b.radius) * (a.radius + b.radius)) continue;
      c.geometry = sphere_sphere_geometry(ca, a.radius, cb, b.radius);
      const CombinedMaterial m =
          combine_compliant_materials(scene.sphere_materials[i], scene.sphere_materials[j]);
      const Vec3 p = contact_point(c.geometry, m);
      c.half_space = -1;
      c.sphere_a = i;
      c.sphere_b = j;
      c.relative_velocity = point_velocity(w, b.body, p) - point_velocity(w, a.body, p);
      c.force = hunt_crossley_force(c.geometry, m, scene.transition_speed, c.relative_velocity);
      visit(c);
    }
  }
}

}  // namespace

void check_compliant_scene(const CompliantScene& scene) {
  check_world(scene.world);
  if (scene.sphere_materials.size() != scene.world.spheres.size())
    throw InputError("sphere_materials: need one per sphere (" +
                     std::to_string(scene.world.spheres.size()) + "), got " +
                     std::to_string(scene.sphere_materials.size()));
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

VecX compliant_state(const EventWorld& w, const Vec3& z) {
  VecX y(w.state.q.size() + w.state.v.size() + 3);
  y << w.state.q, w.state.v, z;
  return y;
}

void set_compliant_state(EventWorld& w, const VecX& y) {
  const Eigen::Index nq = w.state.q.size(), nv = w.state.v.size();
  w.state.q = y.head(nq);
  w.state.v = y.segment(nq, nv);
  for (int b = 0; b < w.body_count(); ++b) w.state.q_of(b).tail<4>().normalize();
}

std::vector<CompliantContact> compliant_contacts(const CompliantScene& scene,
                                                 const EventWorld& world) {
  std::vector<CompliantContact> out;
  for_each_contact(scene, world, [&](const CompliantContact& c) { out.push_back(c); });
  return out;
}

Real max_penetration(const EventWorld& w) {
  Real best = -std::numeric_limits<Real>::infinity();
  const int ns = static_cast<int>(w.spheres.size());
  for (const HalfSpace& plane : w.half_spaces)
    for (const WeldedSphere& s : w.spheres)
      best = std::max(best, s.radius + plane.offset - plane.normal.dot(sphere_center(w, s)));
  for (int i = 0; i < ns; ++i)
    for (int j = i + 1; j < ns; ++j) {
      const WeldedSphere& a = w.spheres[i];
      const WeldedSphere& b = w.spheres[j];
      if (a.body == b.body) continue;
      best =
          std::max(best, a.radius + b.radius - (sphere_center(w, b) - sphere_center(w, a)).norm());
    }
  return best;
}

Real contact_potential_energy(const CompliantScene& scene, const EventWorld& world) {
  Real pe = 0.0;
  for_each_contact(scene, world,
                   [&](const CompliantContact& c) { pe += c.force.potential_energy; });
  return pe;
}

OdeSystem compliant_system(const CompliantScene& scene_in) {
  check_compliant_scene(scene_in);
  const int nb = static_cast<int>(scene_in.world.bodies.size());
  OdeSystem sys;
  sys.nq = 7 * nb;
  sys.nu = 6 * nb;
  sys.nz = 3;
  for (int b = 0; b < nb; ++b) sys.quaternions.push_back(7 * b + 3);
  struct Scratch {
    CompliantScene scene;
    std::vector<Vec3> force, torque;
  };
  auto s = std::make_shared<Scratch>();
  s->scene = scene_in;
  s->force.resize(nb);
  s->torque.resize(nb);
  const int sys_nq = sys.nq;
  sys.derivative = [s, nb, sys_nq](Real, const VecX& y, VecX& yd) {
    EventWorld& w = s->scene.world;
    set_compliant_state(w, y);
    for (int b = 0; b < nb; ++b) {
      s->force[b] = w.bodies[b].mass * w.gravity;
      s->torque[b].setZero();
    }
    Real p_hc = 0.0, p_fr = 0.0, work = 0.0;
    for_each_contact(s->scene, w, [&](const CompliantContact& c) {
      if (!c.force.active) return;
      const Vec3& F = c.force.force;
      const int b2 = w.spheres[c.sphere_b].body;
      s->force[b2] += F;
      s->torque[b2] += (c.force.point - body_position(w.state, b2)).cross(F);
      if (c.sphere_a >= 0) {
        const int b1 = w.spheres[c.sphere_a].body;
        s->force[b1] -= F;
        s->torque[b1] -= (c.force.point - body_position(w.state, b1)).cross(F);
      }
      p_hc += c.force.hunt_crossley_power;
      p_fr += c.force.friction_power;
      work += -F.dot(c.relative_velocity);
    });
    yd.head(sys_nq) = body_kinematics(y.head(sys_nq), w.state.v);
    for (int b = 0; b < nb; ++b) {
      const Body& body = w.bodies[b];
      const Vec3 om = body_angular_velocity(w.state, b);
      const Mat3 Iw = mass_block(body, w.state, b).bottomRightCorner<3, 3>();
      yd.segment<3>(sys_nq + 6 * b) = s->force[b] / body.mass;
      yd.segment<3>(sys_nq + 6 * b + 3) = Iw.ldlt().solve(s->torque[b] - om.cross(Iw * om));
    }
    yd(13 * nb) = p_hc;
    yd(13 * nb + 1) = p_fr;
    yd(13 * nb + 2) = work;
  };
  sys.kinematics = [](const VecX& q, const VecX& u, VecX& qd) { qd = body_kinematics(q, u); };
  return sys;
}

}  // namespace exactsim
