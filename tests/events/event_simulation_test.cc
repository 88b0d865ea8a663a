// Event-driven simulation: a ball dropped on the ground with constant COR e bounces to e² of
// its previous apex (closed form: rebound speed e·v, apex v²/2g), impacts are located in time
// to the gap tolerance, mechanical energy never increases, and a resting ball stays put.
#include "exactsim/events/event_simulation.h"

#include <gtest/gtest.h>

#include <cmath>
#include <utility>

#include "exactsim/impact/plus.h"
#include "experiments/plus_examples.h"

namespace exactsim {
namespace {

// A ball of radius 0.1 m with μ and a constant COR e; returns its index.
int add_ball(EventSimulation& sim, Real mass, const Mat3& inertia, Real mu, Real e,
             const Vec3& position, const Vec3& velocity = Vec3::Zero(),
             const Vec3& angular_velocity = Vec3::Zero()) {
  const int b = add_sphere_body(sim.world, sim.state, mass, inertia, {Sphere{0.1, Vec3::Zero()}},
                                position, Quat::Identity(), velocity, angular_velocity);
  ContactLaw law;
  law.friction = mu;
  law.restitution = RestitutionLaw::constant(e);
  set_body_contact_law(sim.world, b, law);
  return b;
}

EventSimulation ball_drop(Real e, Real height) {
  EventSimulation sim;
  add_ball(sim, 0.5, Mat3::Identity() * 0.4 * 0.5 * 0.1 * 0.1, 0.3, e,
           Vec3(0.0, 0.0, height + 0.1));
  add_half_space(sim.world, sim.state, HalfSpace{});
  return sim;
}

TEST(EventSimulation, BouncingBallApexRatioIsESquared) {
  const Real e = 0.8, h0 = 1.0, g = 9.81;
  EventSimulation sim = ball_drop(e, h0);
  std::vector<Real> apex;  // highest sampled sphere-bottom height between impacts
  Real energy = mechanical_energy(sim.world, sim.state), highest = -1.0;
  size_t impacts = 0;
  advance(sim, 3.0, [&](const EventSimulation& s) {
    const Real E = mechanical_energy(s.world, s.state);
    EXPECT_LE(E, energy + 1e-9) << "t = " << s.time;
    energy = E;
    if (s.impacts.size() != impacts) {
      if (impacts > 0) apex.push_back(highest);
      impacts = s.impacts.size();
      highest = -1.0;
    }
    highest = std::max(highest, body_position(s.state, 0).z() - 0.1);
  });
  ASSERT_GE(sim.impacts.size(), 4u);
  ASSERT_GE(apex.size(), 3u);
  Real expected = h0;
  for (size_t i = 0; i < 3; ++i) {
    expected *= e * e;
    // Sampled every 1 ms: the sampled maximum is within ½ g (0.5 ms)² of the apex.
    EXPECT_NEAR(apex[i], expected, 0.5 * g * 0.5e-3 * 0.5e-3 + 1e-9) << "bounce " << i + 1;
  }
  // Impact instants: t₁ = √(2h/g), then flights of 2 e^k v₁ / g.
  const Real v1 = std::sqrt(2 * g * h0);
  Real t = v1 / g, v = v1;
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_NEAR(sim.impacts[i].time, t, 1e-8) << "impact " << i;
    EXPECT_NEAR(sim.impacts[i].result.velocity(2), e * v, 1e-7);
    v *= e;
    t += 2 * v / g;
  }
}

TEST(EventSimulation, TwoSpheresCombineTheirMuAndEAsTheTimeStepperDoes) {
  // Head-on, frictionless, equal masses, no gravity: ball A (e = 0.25) at 1 m/s hits ball B
  // (e = 1) at rest. The pair's e is √(0.25 · 1) = 0.5 (docs/impacts.md "Restitution per
  // body"), so v_A = (1 − e)/2 = 0.25 and v_B = (1 + e)/2 = 0.75 m/s.
  EventSimulation sim;
  sim.world.gravity = Vec3::Zero();
  for (int i = 0; i < 2; ++i)
    add_ball(sim, 0.5, Mat3::Identity() * 0.4 * 0.5 * 0.1 * 0.1, 0.0, i == 0 ? 0.25 : 1.0,
             Vec3(i == 0 ? -0.3 : 0.3, 0.0, 0.0), Vec3(i == 0 ? 1.0 : 0.0, 0.0, 0.0));
  advance(sim, 1.0);
  ASSERT_EQ(sim.impacts.size(), 1u);
  EXPECT_NEAR(body_velocity(sim.state, 0).x(), 0.25, 1e-9);
  EXPECT_NEAR(body_velocity(sim.state, 1).x(), 0.75, 1e-9);
  // μ and e_min by the time stepper's rule: √(0.1 · 0.4) = 0.2 and √(0.25 · 0.64) = 0.4; the
  // larger capture and plastic speeds.
  ContactLaw a, b;
  a.friction = 0.1;
  b.friction = 0.4;
  a.restitution = {0.25, 0.02, 0.1};
  b.restitution = {0.64, 0.01, 0.3};
  set_body_contact_law(sim.world, 0, a);
  set_body_contact_law(sim.world, 1, b);
  const ContactLaw pair = pair_contact_law(sim.world, 0, 1);
  EXPECT_NEAR(pair.friction, 0.2, 1e-15);
  EXPECT_NEAR(pair.restitution.e_min, 0.4, 1e-15);
  EXPECT_EQ(pair.restitution.v_capture, 0.02);
  EXPECT_EQ(pair.restitution.v_plastic, 0.3);
}

TEST(EventSimulation, PlasticBallComesToRestAndStays) {
  EventSimulation sim = ball_drop(0.0, 0.2);
  advance(sim, 1.0);
  EXPECT_EQ(sim.impacts.size(), 1u);
  EXPECT_GT(sim.persistent_steps, 500);
  EXPECT_NEAR(body_position(sim.state, 0).z(), 0.1, 1e-9);
  EXPECT_LT(body_velocity(sim.state, 0).norm(), 1e-12);
}

TEST(EventSimulation, Example1BrickHitsWithThePaperVelocityAndLosesEnergy) {
  EventSimulation sim = example1_simulation(0.225, 0.05);
  sim.options = example_event_options(ImpactOptions{});
  Real energy = mechanical_energy(sim.world, sim.state);
  advance(sim, 0.06, [&](const EventSimulation& s) {
    EXPECT_LE(mechanical_energy(s.world, s.state), energy + 1e-9);
    energy = mechanical_energy(s.world, s.state);
  });
  ASSERT_GE(sim.impacts.size(), 1u);
  const ImpactEvent& first = sim.impacts[0];
  ASSERT_EQ(first.contacts.size(), 1u);
  // The point arrives with [−5, 0, −5.74] m/s (to the event tolerance): same impulse as the
  // stand-alone problem at first touch.
  EXPECT_NEAR(first.result.impulse(2), solve_plus(example1_problem(0.225, 0.01)).impulse(2), 1e-6);
  EXPECT_EQ(first.result.contacts[0].transition, Transition::kExpansion);
  EXPECT_LT(first.energy_after, first.energy_before);
}

TEST(EventSimulation, CradleSimulationEndsWithTheLastBallMoving) {
  EventSimulation sim = example3_simulation(0.1);
  advance(sim, 0.2);
  ASSERT_EQ(sim.impacts.size(), 1u);
  EXPECT_EQ(sim.impacts[0].contacts.size(), 4u);  // all touching pairs are proximal
  EXPECT_EQ(sim.impacts[0].result.rounds, 5);
  EXPECT_NEAR(body_velocity(sim.state, 4).x(), -2.0, 1e-9);
  for (int i = 0; i < 4; ++i) EXPECT_NEAR(body_velocity(sim.state, i).norm(), 0.0, 1e-9);
}

// A frictionless ball of unequal principal moments, resting on the ground and spinning near its
// intermediate axis: the contact force passes through the centre, so the spin is torque-free and
// keeps its kinetic energy and |L| exactly (Euler's equations). Every step is a persistent-contact
// step, whose velocity update is the time stepper's (implicit midpoint, docs/dynamics.md
// "The external impulse of a step"); the explicit term −h ω × Jω would add ½ Δωᵀ J Δω ≈ 1e-7 J a
// step here, of order 1e-4 J (1e-4 relative) over the second.
TEST(EventSimulation, PersistentContactKeepsATorqueFreeSpin) {
  EventSimulation sim;
  const Mat3 J = Vec3(0.01, 0.02, 0.03).asDiagonal();
  add_ball(sim, 1.0, J, 0.0, 0.0, Vec3(0.0, 0.0, 0.1), Vec3::Zero(), Vec3(0.5, 8.0, 0.5));
  add_half_space(sim.world, sim.state, HalfSpace{});
  const auto spin = [&] {
    const Quat q = body_orientation(sim.state, 0);
    const Vec3 w = body_angular_velocity(sim.state, 0);
    const Vec3 L = q * (J * (q.conjugate() * w));
    return std::pair<Real, Real>(0.5 * w.dot(L), L.norm());
  };
  const auto [ke0, l0] = spin();
  advance(sim, 1.0);
  EXPECT_GT(sim.persistent_steps, 990);
  EXPECT_TRUE(sim.impacts.empty());
  const auto [ke, l] = spin();
  EXPECT_NEAR(ke, ke0, 1e-9 * ke0);
  EXPECT_NEAR(l, l0, 1e-9 * l0);
  EXPECT_GT((body_angular_velocity(sim.state, 0) - Vec3(0.5, 8.0, 0.5)).norm(), 1.0);
  EXPECT_NEAR(body_position(sim.state, 0).z(), 0.1, 1e-9);
}

}  // namespace
}  // namespace exactsim
