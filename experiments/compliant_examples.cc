#include "experiments/compliant_examples.h"

#include <cmath>
#include <limits>

#include "exactsim/events/sphere_contacts.h"
#include "exactsim/math/error.h"
#include "experiments/plus_examples.h"

namespace exactsim {
namespace {

CompliantMaterial brick_material(Real stiffness, Real dissipation, Real mu) {
  CompliantMaterial m;
  m.stiffness = stiffness;
  m.dissipation = dissipation;
  m.static_friction = m.dynamic_friction = mu;
  return m;
}

CompliantScene scene_from(const EventSimulation& sim, const CompliantMaterial& m) {
  CompliantScene s;
  s.world = sim.world;
  s.state = sim.state;
  s.world.gravity = Vec3::Zero();  // gravity off for Examples 1–3 (docs/compliant.md)
  s.sphere_materials.assign(welded_spheres(sim.world).size(), m);
  s.half_space_materials.assign(sim.world.half_spaces.size(), m);
  return s;
}

// Lowest sphere exactly on z = 0.
void place_on_ground(EventSimulation& sim) {
  Real lowest = std::numeric_limits<Real>::infinity();
  for (const WeldedSphere& s : welded_spheres(sim.world))
    lowest = std::min(lowest, (body_orientation(sim.state, 0) * s.center).z() - s.radius);
  sim.state.q_of(0).head<3>() = Vec3(0.0, 0.0, -lowest);
}

}  // namespace

CompliantScene example1_compliant(Real mu, Real stiffness) {
  EventSimulation w = example1_simulation(mu, 0.0);
  w.state.v_of(0).head<3>() = Vec3(-5.0, 0.0, -5.74);
  return scene_from(w, brick_material(stiffness, 0.26, mu));
}

Quat example2_orientation() { return Quat(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitY())); }

EventSimulation example2_plus_simulation(const Quat& orientation) {
  EventSimulation w = childproof_brick(orientation, plus_table_a1_law(0.2, 0.414));
  place_on_ground(w);
  w.world.gravity = Vec3::Zero();
  w.state.v_of(0).head<3>() = Vec3(-2.0, 0.0, -8.84);
  return w;
}

ImpactProblem example2_plus_problem(const Quat& orientation, const ImpactOptions& options) {
  const EventSimulation w = example2_plus_simulation(orientation);
  return contact_impact_problem(w.world, w.state, find_contacts(w.world, w.state, 1e-9), options);
}

CompliantScene example2_compliant(const Quat& orientation, Real stiffness) {
  return scene_from(example2_plus_simulation(orientation), brick_material(stiffness, 0.15, 0.2));
}

CompliantScene example3_compliant() {
  return scene_from(example3_simulation(0.0), brick_material(1e10, 0.0, 0.0));
}

PinChain example4_chain(Real stiffness) {
  PinChain c;
  c.base = Vec2(0.0, 2.0);
  c.lengths = {1.0, 1.0, 1.0};
  const Real I = 1.0 * (3 * 0.1 * 0.1 + 1.0) / 12.0;  // uniform cylinder, transverse: 0.0858333
  for (int k = 0; k < 3; ++k) c.bodies.push_back({k, 0.5, 0.0, 1.0, I});
  c.bodies.push_back({2, 1.0, 0.0, 1.0, 0.4 * 0.25 * 0.25});  // sphere m = 1 kg, I = 0.025
  ChainSphere s;
  s.link = 2;
  s.along = 1.0;
  s.radius = 0.25;
  s.material = brick_material(stiffness, 0.0, 0.1);
  s.plus_law.friction = 0.1;
  s.plus_law.restitution = RestitutionLaw::constant(1.0);
  c.spheres.push_back(s);
  c.ground = s.material;
  return c;
}

VecX example4_initial_angles() { return Eigen::Vector3d(M_PI / 4, 3 * M_PI / 4, 5 * M_PI / 6); }

nlohmann::json example4_scene(const PinChain& c, const VecX& theta, const VecX& rate,
                              const Quat& turn) {
  using nlohmann::json;
  auto point = [&](const Vec2& xy, Real z = 0) {
    const Vec3 p = turn * Vec3(xy.x(), xy.y(), z);
    return json{p.x(), p.y(), p.z()};
  };
  auto isotropic = [](Real i) { return json{{i, 0, 0}, {0, i, 0}, {0, 0, i}}; };
  json bodies = json::array({{{"name", "ground"},
                              {"static", true},
                              {"shape", {{"half_space", {{"normal", {0, 1, 0}}}}}},
                              {"orientation", {turn.w(), turn.x(), turn.y(), turn.z()}}}});
  json joints = json::array();
  const std::vector<Vec2> pins = pin_positions(c, theta);
  Real phi = 0;
  for (int k = 0; k < 3; ++k) {
    phi += theta[k];
    const Quat q = turn * Quat(std::cos(phi / 2), 0, 0, std::sin(phi / 2));
    const Vec2 com = chain_point(c, theta, k, 0.5, 0);
    const Real z = k == 0 ? 0.3 : k == 1 ? -0.3 : 0.0;
    json bar = json::array();
    for (const Real x : {-0.01, 0.01})
      for (const Real y : {-0.5, 0.5})
        for (const Real dz : {-0.01, 0.01}) bar.push_back({x, y, z + dz});
    bodies.push_back({{"name", "link" + std::to_string(k)},
                      {"shape", {{"hull", bar}}},
                      {"mass", c.bodies[k].mass},
                      {"inertia", isotropic(c.bodies[k].inertia)},
                      {"position", point(com)},
                      {"orientation", {q.w(), q.x(), q.y(), q.z()}},
                      {"velocity", point(chain_point_jacobian(c, theta, k, com) * rate)},
                      {"angular_velocity", point(Vec2::Zero(), rate.head(k + 1).sum())}});
    joints.push_back(
        {{"type", "revolute"},
         {"bodies", k == 0 ? json{"link0"}
                           : json{"link" + std::to_string(k - 1), "link" + std::to_string(k)}},
         {"anchor", point(pins[k])},
         {"axis", point(Vec2::Zero(), 1)}});
  }
  const ChainSphere& sphere = c.spheres[0];
  const ChainBody& ball = c.bodies[3];
  const Vec2 centre = chain_point(c, theta, 2, sphere.along, 0);
  bodies.push_back({{"name", "sphere"},
                    {"shape", {{"sphere", {{"radius", sphere.radius}}}}},
                    {"mass", ball.mass},
                    {"inertia", isotropic(ball.inertia)},
                    {"position", point(centre)},
                    {"velocity", point(chain_point_jacobian(c, theta, 2, centre) * rate)},
                    {"angular_velocity", point(Vec2::Zero(), rate.sum())}});
  joints.push_back({{"type", "fixed"}, {"bodies", {"link2", "sphere"}}, {"anchor", point(centre)}});
  return {{"format", "exactsim-scene"},
          {"version", 1},
          {"dimension", 3},
          {"name", "example4-chain"},
          {"time", {{"step", 1e-3}, {"duration", 1}}},
          {"gravity", point(Vec2(0, c.gravity))},
          {"contact",
           {{"friction", sphere.plus_law.friction},
            {"impact", {{"model", "plus"}, {"restitution", sphere.plus_law.restitution.e_min}}}}},
          {"bodies", bodies},
          {"joints", joints}};
}

CompliantImpactResult run_compliant_impact(const CompliantScene& scene,
                                           const CompliantImpactOptions& options,
                                           const CompliantObserver& observer) {
  const OdeSystem sys = compliant_system(scene);
  Integrator in =
      make_integrator(sys, options.integrator, 0.0, compliant_state(scene.world, scene.state));
  CompliantImpactResult r;
  r.state_after = scene.state;
  while (in.time < options.max_duration) {
    take_step(in, options.max_duration);
    set_compliant_state(scene.world, r.state_after, in.state);
    const Real depth = max_penetration(scene.world, r.state_after);
    r.max_depth = std::max(r.max_depth, depth);
    if (depth > 0.0) r.last_contact_time = in.time;
    if (observer) observer(in, r.state_after);
    if (options.stop_at_separation && depth <= 0.0) {
      r.separated = true;
      break;
    }
  }
  r.duration = in.time;
  r.quadratures = in.state.tail<3>();
  r.stats = in.stats;
  return r;
}

Real chain_sphere_height(const PinChain& c, const VecX& theta) {
  if (c.spheres.empty()) throw InputError("chain_sphere_height: the chain has no sphere");
  const ChainSphere& s = c.spheres[0];
  return chain_point(c, theta, s.link, s.along, 0.0).y();
}

namespace {

VecX chain_y(const ChainState& s) {
  const int n = static_cast<int>(s.theta.size());
  VecX y = VecX::Zero(2 * n + 3);
  y.head(n) = s.theta;
  y.segment(n, n) = s.rate;
  return y;
}

ChainState chain_from(const Integrator& in, int n) {
  return {in.time, in.state.head(n), in.state.segment(n, n)};
}

Integrator free_integrator(const PinChain& c, const ChainState& s, Real accuracy) {
  IntegratorOptions o;
  o.accuracy = accuracy;
  return make_integrator(pin_chain_system(c, false), o, s.time, chain_y(s));
}

}  // namespace

ChainState chain_free_motion(const PinChain& c, const ChainState& start, Real duration,
                             Real accuracy) {
  Integrator in = free_integrator(c, start, accuracy);
  const Real t_end = start.time + duration;
  while (in.time < t_end) take_step(in, t_end);
  return chain_from(in, static_cast<int>(start.theta.size()));
}

ChainState example4_first_touch(const PinChain& c, const VecX& theta0, Real accuracy) {
  const int n = static_cast<int>(theta0.size());
  ChainState s{0.0, theta0, VecX::Zero(n)};
  if (chain_max_penetration(c, theta0) >= 0.0)
    throw InputError("example4_first_touch: the sphere starts on or in the ground");
  Integrator in = free_integrator(c, s, accuracy);
  ChainState before = s;
  for (int steps = 0;; ++steps) {
    if (steps > 1000000 || in.time > 100.0)
      throw InputError("example4_first_touch: the sphere never reaches the ground");
    before = chain_from(in, n);
    take_step(in, std::numeric_limits<Real>::infinity());
    if (chain_max_penetration(c, in.state.head(n)) >= 0.0) break;
  }
  // bisection on the touch time inside the last step, re-integrating from its start
  Real lo = before.time, hi = in.time;
  ChainState best = chain_from(in, n);
  while (hi - lo > 1e-13) {
    const Real mid = 0.5 * (lo + hi);
    const ChainState s_mid = chain_free_motion(c, before, mid - before.time, accuracy);
    if (chain_max_penetration(c, s_mid.theta) >= 0.0) {
      hi = mid;
      best = s_mid;
    } else {
      lo = mid;
    }
  }
  return best;
}

ChainCompliantRun chain_compliant_impact(const PinChain& c, const ChainState& touch,
                                         const IntegratorOptions& integrator, Real max_duration) {
  const int n = static_cast<int>(touch.theta.size());
  Integrator in =
      make_integrator(pin_chain_system(c, true), integrator, touch.time, chain_y(touch));
  ChainCompliantRun r;
  const Real t_end = touch.time + max_duration;
  bool touched = false;
  while (in.time < t_end) {
    take_step(in, t_end);
    const Real depth = chain_max_penetration(c, in.state.head(n));
    r.max_depth = std::max(r.max_depth, depth);
    if (depth > 0.0) touched = true;
    if (touched && depth <= 0.0) break;
  }
  r.after = chain_from(in, n);
  r.contact_duration = in.time - touch.time;
  r.stats = in.stats;
  return r;
}

}  // namespace exactsim
