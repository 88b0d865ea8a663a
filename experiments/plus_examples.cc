#include "experiments/plus_examples.h"

#include <cmath>
#include <limits>

#include "exactsim/events/sphere_contacts.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

constexpr Real kTouch = 1e-9;  // m, contacts within this are proximal in the impact problems

// Places the brick so that its lowest sphere is `height` above z = 0.
void place_above_ground(EventWorld& world, Real height) {
  Real lowest = std::numeric_limits<Real>::infinity();
  const Quat q = body_orientation(world.state, 0);
  for (const WeldedSphere& s : world.spheres)
    lowest = std::min(lowest, (q * s.center).z() - s.radius);
  world.state.q_of(0).head<3>() = Vec3(0.0, 0.0, height - lowest);
}

ImpactProblem problem_at_touch(const EventWorld& world, const ImpactOptions& options) {
  return contact_impact_problem(world, find_contacts(world, kTouch), options);
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

EventWorld childproof_brick(const Quat& orientation, const ContactLaw& law) {
  EventWorld world;
  add_free_body(world, 2.0, Vec3(0.167, 0.133, 0.0867).asDiagonal(), Vec3::Zero(), orientation);
  const Vec3 half(0.2, 0.3, 0.4);
  for (int i = 0; i < 8; ++i) {
    WeldedSphere s;
    s.body = 0;
    s.center = Vec3((i & 1) ? half.x() : -half.x(), (i & 2) ? half.y() : -half.y(),
                    (i & 4) ? half.z() : -half.z());
    s.radius = 0.1;
    s.material = law;
    world.spheres.push_back(s);
  }
  world.half_spaces.push_back(HalfSpace{});
  return world;
}

EventWorld example1_world(Real mu, Real height) {
  const Quat q = Quat(Eigen::AngleAxisd(M_PI / 4, Vec3::UnitX())) *
                 Quat(Eigen::AngleAxisd(M_PI / 6, Vec3::UnitY()));  // body-fixed x then y
  EventWorld world = childproof_brick(q, plus_table_a1_law(mu, example1_min_cor(mu)));
  place_above_ground(world, height);
  const Real vz_touch = -5.74;
  const Real g = -world.gravity.z();
  world.state.v_of(0).head<3>() =
      Vec3(-5.0, 0.0, -std::sqrt(vz_touch * vz_touch - 2.0 * g * height));
  return world;
}

ImpactProblem example1_problem(Real mu, Real theta_max) {
  ImpactOptions options;
  options.theta_max = theta_max;
  return problem_at_touch(example1_world(mu, 0.0), options);
}

EventWorld example2_world(Real height) {
  EventWorld world = childproof_brick(Quat::Identity(), plus_table_a1_law(0.2, 0.414));
  place_above_ground(world, height);
  const Real g = -world.gravity.z();
  world.state.v_of(0).head<3>() = Vec3(-2.0, 0.0, -std::sqrt(8.84 * 8.84 - 2.0 * g * height));
  return world;
}

ImpactProblem example2_problem() { return problem_at_touch(example2_world(0.0), ImpactOptions{}); }

EventWorld example3_world(Real gap) {
  EventWorld world;
  world.gravity = Vec3::Zero();
  const Real r = 0.25;
  for (int i = 0; i < 5; ++i) {
    const Real mass = 1.0;
    add_free_body(world, mass, Mat3::Identity() * (0.4 * mass * r * r),
                  Vec3((4 - i) * 2.0 * r + (i == 0 ? gap : 0.0), 0.0, 0.0), Quat::Identity(),
                  Vec3(i == 0 ? -2.0 : 0.0, 0.0, 0.0));
    WeldedSphere s;
    s.body = i;
    s.radius = r;
    s.material.friction = 0.0;
    s.material.restitution = RestitutionLaw::constant(1.0);
    world.spheres.push_back(s);
  }
  return world;
}

ImpactProblem example3_problem(InducedImpacts model) {
  ImpactOptions options;
  options.induced_impacts = model;
  return problem_at_touch(example3_world(0.0), options);
}

EventOptions example_event_options(const ImpactOptions& impact) {
  EventOptions o;
  o.impact = impact;
  return o;
}

}  // namespace exactsim
