#include "experiments/plus_examples.h"

#include <cmath>
#include <limits>

#include "exactsim/events/sphere_contacts.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

constexpr Real kTouch = 1e-9;  // m, contacts within this are proximal in the impact problems

// Places the brick so that its lowest sphere is `height` above z = 0.
void place_above_ground(EventSimulation& sim, Real height) {
  Real lowest = std::numeric_limits<Real>::infinity();
  const Quat q = body_orientation(sim.state, 0);
  for (const WeldedSphere& s : welded_spheres(sim.world))
    lowest = std::min(lowest, (q * s.center).z() - s.radius);
  sim.state.q_of(0).head<3>() = Vec3(0.0, 0.0, height - lowest);
}

ImpactProblem problem_at_touch(const EventSimulation& sim, const ImpactOptions& options) {
  return contact_impact_problem(sim.world, sim.state, find_contacts(sim.world, sim.state, kTouch),
                                options);
}

}  // namespace

Real example1_min_cor(Real mu) {
  if (mu == 0.125) return 0.392;
  if (mu == 0.225) return 0.387;
  if (mu == 0.325) return 0.373;
  throw InputError("example 1: mu must be 0.125, 0.225 or 0.325 (Table A1)");
}

ContactLaw plus_table_a1_law(Real mu, Real e_min) {
  ContactLaw law;
  law.friction = mu;
  law.restitution = {e_min, 0.01, 0.1};
  return law;
}

EventSimulation childproof_brick(const Quat& orientation, const ContactLaw& law) {
  EventSimulation sim;
  sim.world = event_world();
  const Vec3 half(0.2, 0.3, 0.4);
  std::vector<Sphere> spheres;
  for (int i = 0; i < 8; ++i)
    spheres.push_back({0.1, Vec3((i & 1) ? half.x() : -half.x(), (i & 2) ? half.y() : -half.y(),
                                 (i & 4) ? half.z() : -half.z())});
  const int brick =
      add_sphere_body(sim.world, sim.state, 2.0, Vec3(0.167, 0.133, 0.0867).asDiagonal(), spheres,
                      Vec3::Zero(), orientation);
  set_body_contact_law(sim.world, brick, law);
  add_half_space(sim.world, sim.state, HalfSpace{});
  return sim;
}

EventSimulation example1_simulation(Real mu, Real height) {
  const Quat q = Quat(Eigen::AngleAxisd(M_PI / 4, Vec3::UnitX())) *
                 Quat(Eigen::AngleAxisd(M_PI / 6, Vec3::UnitY()));  // body-fixed x then y
  EventSimulation sim = childproof_brick(q, plus_table_a1_law(mu, example1_min_cor(mu)));
  place_above_ground(sim, height);
  const Real vz_touch = -5.74;
  const Real g = -sim.world.gravity.z();
  sim.state.v_of(0).head<3>() = Vec3(-5.0, 0.0, -std::sqrt(vz_touch * vz_touch - 2.0 * g * height));
  return sim;
}

ImpactProblem example1_problem(Real mu, Real theta_max) {
  ImpactOptions options;
  options.theta_max = theta_max;
  return problem_at_touch(example1_simulation(mu, 0.0), options);
}

EventSimulation example2_simulation(Real height) {
  EventSimulation sim = childproof_brick(Quat::Identity(), plus_table_a1_law(0.2, 0.414));
  place_above_ground(sim, height);
  const Real g = -sim.world.gravity.z();
  sim.state.v_of(0).head<3>() = Vec3(-2.0, 0.0, -std::sqrt(8.84 * 8.84 - 2.0 * g * height));
  return sim;
}

ImpactProblem example2_problem() {
  return problem_at_touch(example2_simulation(0.0), ImpactOptions{});
}

EventSimulation example3_simulation(Real gap) {
  EventSimulation sim;
  sim.world = event_world();
  sim.world.gravity = Vec3::Zero();
  const Real r = 0.25;
  ContactLaw law;
  law.friction = 0.0;
  law.restitution = RestitutionLaw::constant(1.0);
  for (int i = 0; i < 5; ++i) {
    const Real mass = 1.0;
    const int b = add_sphere_body(
        sim.world, sim.state, mass, Mat3::Identity() * (0.4 * mass * r * r),
        {Sphere{r, Vec3::Zero()}}, Vec3((4 - i) * 2.0 * r + (i == 0 ? gap : 0.0), 0.0, 0.0),
        Quat::Identity(), Vec3(i == 0 ? -2.0 : 0.0, 0.0, 0.0));
    set_body_contact_law(sim.world, b, law);
  }
  return sim;
}

ImpactProblem example3_problem(InducedImpacts model) {
  ImpactOptions options;
  options.induced_impacts = model;
  return problem_at_touch(example3_simulation(0.0), options);
}

EventOptions example_event_options(const ImpactOptions& impact) {
  EventOptions o;
  o.impact = impact;
  return o;
}

}  // namespace exactsim
