// Joints as bilateral rows of the step's MLCP (docs/joints.md), checked against closed forms and
// invariants: the small-angle period of a physical pendulum, its energy and joint error over
// large swings, a welded pair against the compound body it forms, a 3D hinge that keeps its
// plane and rotates with the scene, and a pendulum striking a floor (joint and contact rows in
// one certified solve).
#include <cmath>
#include <cstdio>
#include <numbers>

#include <gtest/gtest.h>

#include "exactsim/api/joint_results.h"
#include "exactsim/metrics/energy.h"
#include "physics/physics_scene.h"

namespace exactsim::physics_test::joints {
namespace {

constexpr Real kG = 9.81;

// A square bob (side 0.1 m, 10 kg) hung from a pin at (0, 1) at distance L, released from rest at
// angle θ0 from the vertical.
json pendulum_doc(Real length, Real theta0, Real h) {
  const Real x = length * std::sin(theta0), y = 1 - length * std::cos(theta0);
  json bodies = json::array({{{"name", "bob"},
                              {"shape", {{"box", {0.1, 0.1}}}},
                              {"density", 1000},
                              {"position", {x, y}},
                              {"angle", theta0}}});
  json doc = scene_doc(2, h, bodies);
  doc["joints"] = json::array({{{"type", "revolute"}, {"bodies", {"bob"}}, {"anchor", {0, 1}}}});
  return doc;
}

// The pendulum's angle from the downward vertical through the pin at (0, 1).
Real swing_angle(const State& s) {
  const Vec3 x = body_position(s, 0);
  return std::atan2(x.x(), 1 - x.y());
}

TEST(Joints, PinnedPendulumSwingsWithTheClosedFormPeriod) {
  // T = 2π √(I_p / (m g L)) (1 + θ0²/16 + 11 θ0⁴/3072), I_p = I + m L² (a physical pendulum).
  const Real length = 1.0, theta0 = 0.05, h = 1e-3;
  Sim sim(pendulum_doc(length, theta0, h));
  const Body& bob = sim.scene.world.bodies[0];
  const Real ip = bob.planar_inertia + bob.mass * length * length;
  const Real period = 2 * std::numbers::pi * std::sqrt(ip / (bob.mass * kG * length)) *
                      (1 + theta0 * theta0 / 16 + 11 * std::pow(theta0, 4) / 3072);
  std::vector<Real> crossings;  // times the angle passes zero going up
  Real previous = swing_angle(sim.state);
  while (crossings.size() < 4) {
    const StepReport r = sim.advance();
    ASSERT_EQ(r.status, StepStatus::kOk) << "step " << sim.steps;
    const Real now = swing_angle(sim.state);
    if (previous < 0 && now >= 0) crossings.push_back(sim.state.time - h * now / (now - previous));
    previous = now;
    ASSERT_LT(sim.state.time, 10 * period) << "the pendulum does not swing";
  }
  const Real measured = (crossings.back() - crossings.front()) / 3;
  std::printf("[ joints ] period %.9f s, closed form %.9f s, relative error %.2e\n", measured,
              period, measured / period - 1);
  // The step updates ν, then q with the new ν (symplectic Euler): its frequency error is
  // O((hω)²), ω = 2π/T, not O(hω).
  const Real omega = 2 * std::numbers::pi / period;
  EXPECT_NEAR(measured / period, 1, (h * omega) * (h * omega));
}

TEST(Joints, LargeSwingKeepsEnergyAndJointWithinTheirBounds) {
  // Released at 1 rad, 30 s (about 14 periods) at h = 1 ms. Every step's certificate covers the
  // joint rows (|Jᵀν + φ/h| within the LCP tolerance) and its energy balance. The step is
  // symplectic Euler on the constrained motion: its energy oscillates within O(hω) of the swing's
  // energy m g L (1 − cos θ0) over the whole run (a drift would leave that band); and the anchor
  // drifts at most h² ω² L per step (the curvature the linear row misses), which the next step's
  // φ/h takes back.
  const Real length = 1.0, theta0 = 1.0, h = 1e-3;
  Sim sim(pendulum_doc(length, theta0, h));
  const World& w = sim.scene.world;
  State at_rest = sim.state;
  at_rest.present.assign(at_rest.present.size(), 1);  // (the bob joins at step 0)
  const Real e0 = potential_energy(w.bodies, at_rest, w.gravity);
  const Real swing = w.bodies[0].mass * kG * length * (1 - std::cos(theta0));
  const Real omega_max = std::sqrt(2 * kG * (1 - std::cos(theta0)) / length) * 1.1;
  Real worst_error = 0, worst_residual = 0, worst_energy = 0;
  for (int n = 0; n < 30000; ++n) {
    const StepReport r = sim.advance();
    ASSERT_EQ(r.status, StepStatus::kOk) << "step " << n;
    worst_residual = std::max(worst_residual, r.solver.bilateral_residual / r.solver.tolerance);
    worst_error = std::max(worst_error, joint_error(w.joints[0], sim.state).position);
    const Real de = r.kinetic_energy + r.potential_energy - e0;
    worst_energy = std::max(worst_energy, std::abs(de));
  }
  std::printf(
      "[ joints ] worst joint error %.2e m (bound %.2e), residual/tol %.2e, energy "
      "within %.2e of the swing's (bound hω %.2e)\n",
      worst_error, h * h * omega_max * omega_max * length, worst_residual, worst_energy / swing,
      h * omega_max);
  EXPECT_LE(worst_error, h * h * omega_max * omega_max * length);
  EXPECT_LE(worst_residual, 1);
  EXPECT_LE(worst_energy, h * omega_max * swing);
}

TEST(Joints, AHangingPinCarriesTheWeightAndNoMoment) {
  // The bob hanging at rest under its pin: each step the pin's impulse on it is m g h upward, and
  // its angular impulse about the anchor zero (a pin's rows hold points only).
  const Real h = 1e-3;
  Sim sim(pendulum_doc(1.0, 0.0, h));
  const Real weight = sim.scene.world.bodies[0].mass * kG * h;
  for (int n = 0; n < 10; ++n) {
    ASSERT_EQ(sim.advance().status, StepStatus::kOk);
    const std::vector<JointResult> r = joint_results(sim.scene.world, sim.state, sim.ws);
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].body_b, kWorldBody);
    EXPECT_NEAR((r[0].anchor - Vec3(0, 1, 0)).norm(), 0, 1e-12);
    EXPECT_NEAR((r[0].impulse - Vec3(0, weight, 0)).norm(), 0, 1e-12 * weight) << "step " << n;
    EXPECT_NEAR(r[0].angular_impulse.norm(), 0, 1e-12 * weight) << "step " << n;
  }
}

TEST(Joints, ASwingingPinPullsWithTheCentripetalForce) {
  // Released at 1 rad: along the rod the pin pulls the bob's centre with T = m g cos θ + m L ω²
  // (θ, ω at the step's start). The step's impulse is h T to the order of the step, O(hω).
  const Real length = 1.0, theta0 = 1.0, h = 1e-3;
  Sim sim(pendulum_doc(length, theta0, h));
  const Body& bob = sim.scene.world.bodies[0];
  const Real omega_max = std::sqrt(2 * kG * (1 - std::cos(theta0)) / length) * 1.1;
  Real worst = 0;
  for (int n = 0; n < 2000; ++n) {
    const Real theta = swing_angle(sim.state), omega = sim.state.v_of(0)[2];
    const Vec3 x = body_position(sim.state, 0);
    ASSERT_EQ(sim.advance().status, StepStatus::kOk);
    if (n == 0) continue;  // (the bob joins at step 0)
    const JointResult r = joint_results(sim.scene.world, sim.state, sim.ws)[0];
    const Vec3 up = (Vec3(0, 1, 0) - x).normalized();  // from the bob's centre to the pin
    const Real tension = bob.mass * (kG * std::cos(theta) + length * omega * omega);
    worst = std::max(worst, std::abs(r.impulse.dot(up) / h - tension) / tension);
  }
  std::printf("[ joints ] pin tension over 2 s: largest relative error %.2e (bound hω %.2e)\n",
              worst, h * omega_max);
  EXPECT_LE(worst, h * omega_max);
}

TEST(Joints, AWeldedCantileverHoldsTheWeightAndItsMoment) {
  // A 1 m bar welded at its left end to the world, at rest: the weld's impulse on it is m g h up
  // and its angular impulse about the anchor m g h (0.5 m) about +z, gravity's moment taken back;
  // in 2D and in 3D.
  const Real h = 1e-3;
  for (const int dim : {2, 3}) {
    json bar = {{"name", "bar"}, {"density", 500}};
    bar["shape"] = dim == 2 ? json{{"box", {1.0, 0.1}}} : json{{"box", {1.0, 0.1, 0.1}}};
    bar["position"] = dim == 2 ? json{0.5, 1} : json{0.5, 0, 1};
    json doc = scene_doc(dim, h, json::array({bar}));
    doc["gravity"] = dim == 2 ? json{0, -kG} : json{0, 0, -kG};
    doc["joints"] = json::array({{{"type", "fixed"},
                                  {"bodies", {"bar"}},
                                  {"anchor", dim == 2 ? json{0, 1} : json{0, 0, 1}}}});
    Sim sim(doc);
    ASSERT_EQ(sim.advance().status, StepStatus::kOk);
    ASSERT_EQ(sim.advance().status, StepStatus::kOk);
    const Real weight = sim.scene.world.bodies[0].mass * kG * h;
    const JointResult r = joint_results(sim.scene.world, sim.state, sim.ws)[0];
    const Vec3 up = dim == 2 ? Vec3::UnitY() : Vec3::UnitZ();
    const Vec3 moment = dim == 2 ? Vec3(0, 0, 0.5 * weight) : Vec3(0, -0.5 * weight, 0);
    std::printf(
        "[ joints ] %dD weld: impulse (%.12f, %.12f, %.12f), angular (%.12f, %.12f, %.12f)\n", dim,
        r.impulse.x(), r.impulse.y(), r.impulse.z(), r.angular_impulse.x(), r.angular_impulse.y(),
        r.angular_impulse.z());
    EXPECT_NEAR((r.impulse - weight * up).norm(), 0, 1e-9 * weight) << dim << "D";
    EXPECT_NEAR((r.angular_impulse - moment).norm(), 0, 1e-9 * weight) << dim << "D";
  }
}

// The largest residual of the joint rows of a step, |g_aᵀν_a + g_bᵀν_b + φ/h| with the rows and
// errors of the state the step started from and the velocities it ended with (m/s or rad/s).
Real largest_joint_residual(const World& w, const State& start, const State& end, Real h) {
  std::vector<JointRow> rows;
  const int nv = w.dimension == 2 ? 3 : 6;
  Real largest = 0;
  for (const Joint& j : w.joints) {
    rows.clear();
    joint_rows(j, start, rows);
    for (const JointRow& r : rows) {
      Real rate = r.g_a.head(nv).dot(end.v_of(j.body_a)) + r.error / h;
      if (j.body_b != kWorldBody) rate += r.g_b.head(nv).dot(end.v_of(j.body_b));
      largest = std::max(largest, std::abs(rate));
    }
  }
  return largest;
}

TEST(Joints, StoppingTheApproachAfterTheProjectionKeepsTheJoints) {
  // scenes/chain-2d.json: links pushed out of the ledge by the split projection, whose velocity
  // correction (a frictionless impulse that stops the pushed rows' approach) moves the bodies as
  // their joints hold them (docs/joints.md "Limits"): the joint rows Jᵀν + φ/h = 0 of the step's
  // solve still hold after it, to the solve's tolerance. (Without the joints in it: 3.2e-4 m/s.
  // In 3D the projection also turns a body's spin with the turn it makes, which the joints do not
  // see: docs/joints.md "Limits".)
  for (const char* name : {"chain-2d"}) {
    Sim sim(read_scene_file(std::string(EXACTSIM_SOURCE_DIR "/scenes/") + name + ".json"));
    Real worst = 0;
    int corrected = 0;
    for (int n = 0; n < 500; ++n) {
      const State start = sim.state;
      const StepReport r = sim.advance();
      ASSERT_EQ(r.status, StepStatus::kOk) << name << " step " << n;
      if (n == 0) continue;  // (the links join at step 0)
      corrected += r.approach_stopped_rows;
      worst = std::max(worst,
                       largest_joint_residual(sim.scene.world, start, sim.state, sim.scene.step));
    }
    std::printf(
        "[ joints ] %s: %d rows stopped after the projection; joint rows' residual at "
        "most %.2e m/s\n",
        name, corrected, worst);
    EXPECT_GT(corrected, 0) << name;
    EXPECT_LT(worst, 1e-8) << name;
  }
}

TEST(Joints, RedundantRowsAreSolvedAndChangeNothing) {
  // The pendulum's pin given twice: N_ff is singular (four rows of rank two), its minimum-norm
  // solve shares the force, and the motion is the single pin's.
  json doc = pendulum_doc(1.0, 0.5, 1e-3);
  Sim single(doc);
  doc["joints"].push_back(doc["joints"][0]);
  Sim twice(doc);
  for (int n = 0; n < 500; ++n) {
    ASSERT_EQ(single.advance().status, StepStatus::kOk) << "step " << n;
    ASSERT_EQ(twice.advance().status, StepStatus::kOk) << "step " << n;
  }
  const Real gap = (twice.state.q - single.state.q).lpNorm<Eigen::Infinity>();
  std::printf("[ joints ] the pin twice against once after 0.5 s: %.2e\n", gap);
  EXPECT_LT(gap, 1e-12);
}

// Two 2D boxes side by side, thrown spinning without gravity.
json welded_pair_doc(bool as_compound) {
  const json left = {{"box", {0.4, 0.2}}};
  json bodies;
  if (as_compound) {
    const json parts =
        json::array({{{"polygon", {{-0.4, -0.1}, {0.0, -0.1}, {0.0, 0.1}, {-0.4, 0.1}}}},
                     {{"polygon", {{0.0, -0.1}, {0.4, -0.1}, {0.4, 0.1}, {0.0, 0.1}}}}});
    bodies = json::array({{{"name", "pair"},
                           {"shape", {{"compound", parts}}},
                           {"density", 500},
                           {"position", {0, 0}},
                           {"velocity", {0.3, -0.2}},
                           {"angular_velocity", 2.0}}});
  } else {
    // Each box's centre moves with the pair's rigid motion: v + ω × r.
    bodies = json::array({{{"name", "left"},
                           {"shape", left},
                           {"density", 500},
                           {"position", {-0.2, 0}},
                           {"velocity", {0.3, -0.2 - 2.0 * 0.2}},
                           {"angular_velocity", 2.0}},
                          {{"name", "right"},
                           {"shape", left},
                           {"density", 500},
                           {"position", {0.2, 0}},
                           {"velocity", {0.3, -0.2 + 2.0 * 0.2}},
                           {"angular_velocity", 2.0}}});
  }
  json doc = scene_doc(2, 1e-3, bodies);
  doc["gravity"] = {0, 0};
  if (!as_compound)
    doc["joints"] =
        json::array({{{"type", "fixed"}, {"bodies", {"left", "right"}}, {"anchor", {0, 0}}}});
  return doc;
}

TEST(Joints, WeldedPairMovesAsTheCompoundBody) {
  Sim welded(welded_pair_doc(false)), compound(welded_pair_doc(true));
  for (int n = 0; n < 1000; ++n) {
    ASSERT_EQ(welded.advance().status, StepStatus::kOk) << "step " << n;
    compound.advance();
  }
  // The pair's centre of mass (equal masses: the midpoint) and angle follow the compound body's.
  const Vec3 mid = 0.5 * (body_position(welded.state, 0) + body_position(welded.state, 1));
  const Real gap = (mid - body_position(compound.state, 0)).norm();
  const Real turn = std::abs(welded.state.q[2] - compound.state.q[2]);
  std::printf(
      "[ joints ] welded vs compound after 1 s: centre %.2e m, angle %.2e rad, joint %.2e m\n", gap,
      turn, joint_error(welded.scene.world.joints[0], welded.state).position);
  // Internal impulses cancel: the centre of mass moves as the compound's, to round-off.
  EXPECT_LT(gap, 1e-12);
  // Each step the boxes move along straight lines, which parts their centres (distance d = 0.4 m)
  // by about (hω)² d before the next step's φ/h closes it again; that changes the pair's inertia by
  // 2(hω)² relative, so its angle lags the compound's by at most 2(hω)² ω t.
  const Real h = 1e-3, omega = 2.0, d = 0.4, t = 1.0;
  EXPECT_LT(turn, 2 * (h * omega) * (h * omega) * omega * t);
  EXPECT_LT(joint_error(welded.scene.world.joints[0], welded.state).position,
            (h * omega) * (h * omega) * d);
  // The weld's angle holds to round-off: both boxes turn at one ω.
  EXPECT_LT(joint_error(welded.scene.world.joints[0], welded.state).angle, 1e-12);
}

// A 3D rod (0.05 × 0.05 × 0.6 m) on a hinge at the origin about `axis`, released horizontal with a
// spin off the hinge axis; the scene rotated by R.
json hinge_doc(const Quat& r) {
  const Vec3 x = r * Vec3(0.3, 0, 0), axis = r * Vec3(0, 1, 0), g = r * Vec3(0, 0, -kG);
  const Vec3 omega = r * Vec3(0.5, 0, 0.7);  // the hinge removes the part off its axis
  const Quat q = r * Quat(Eigen::AngleAxisd(std::numbers::pi / 2, Vec3::UnitY()));
  json bodies = json::array({{{"name", "rod"},
                              {"shape", {{"box", {0.05, 0.05, 0.6}}}},
                              {"density", 700},
                              {"position", {x.x(), x.y(), x.z()}},
                              {"orientation", {q.w(), q.x(), q.y(), q.z()}},
                              {"angular_velocity", {omega.x(), omega.y(), omega.z()}}}});
  json doc = scene_doc(3, 1e-3, bodies);
  doc["gravity"] = {g.x(), g.y(), g.z()};
  doc["joints"] = json::array({{{"type", "revolute"},
                                {"bodies", {"rod"}},
                                {"anchor", {0, 0, 0}},
                                {"axis", {axis.x(), axis.y(), axis.z()}}}});
  return doc;
}

TEST(Joints, HingeKeepsItsPlaneAndRotatesWithTheScene) {
  const Quat r = Quat(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
  Sim plain(hinge_doc(Quat::Identity())), rotated(hinge_doc(r));
  Real off_plane = 0;
  for (int n = 0; n < 1000; ++n) {
    ASSERT_EQ(plain.advance().status, StepStatus::kOk) << "step " << n;
    ASSERT_EQ(rotated.advance().status, StepStatus::kOk) << "step " << n;
    if (n > 0) off_plane = std::max(off_plane, std::abs(body_position(plain.state, 0).y()));
  }
  const Vec3 x = body_position(plain.state, 0), xr = body_position(rotated.state, 0);
  const Vec3 omega = plain.state.v_of(0).tail<3>();
  std::printf(
      "[ joints ] hinge: off its plane %.2e m, rotated scene differs by %.2e m, ω off the "
      "axis %.2e rad/s\n",
      off_plane, (r * x - xr).norm(), std::hypot(omega.x(), omega.z()));
  EXPECT_LT(off_plane, 1e-9);
  EXPECT_LT((r * x - xr).norm(), 1e-9);
  EXPECT_LT(std::hypot(omega.x(), omega.z()), 1e-9);  // ω along the hinge only
  EXPECT_GT(std::abs(x.z()), 0.1);                    // and it swung down
}

TEST(Joints, PendulumStrikesTheFloorWithJointAndContactInOneSolve) {
  // The bob swings from 1.2 rad into a static block just below its path (2D, μ = 0.3): the
  // steps with contact certify the joint rows and the contact rows together.
  json doc = pendulum_doc(0.9, 1.2, 1e-3);
  doc["bodies"].push_back({{"name", "block"},
                           {"static", true},
                           {"shape", {{"box", {0.4, 0.2}}}},
                           {"position", {0.0, -0.0}}});
  doc["contact"]["friction"] = 0.3;
  Sim sim(doc);
  int contact_steps = 0;
  Real overlap = 0;
  for (int n = 0; n < 1500; ++n) {
    const StepReport r = sim.advance();
    ASSERT_EQ(r.status, StepStatus::kOk) << "step " << n;
    contact_steps += r.unilateral > 0;
    overlap = std::max(overlap, r.overlap);
  }
  const Real error = joint_error(sim.scene.world.joints[0], sim.state).position;
  std::printf("[ joints ] pendulum on a block: %d contact steps, overlap %.2e m², joint %.2e m\n",
              contact_steps, overlap, error);
  EXPECT_GT(contact_steps, 20);
  EXPECT_LT(overlap, 1e-8);
  EXPECT_LT(error, 1e-4);
}

}  // namespace
}  // namespace exactsim::physics_test::joints
