// Spheres in the time stepper (docs/scene-format.md "Spheres", docs/collision.md "Spheres"),
// against closed forms: a ball rolling down an incline at (5/7) g sin α, in a turned frame too;
// sliding at g (sin α − μ cos α) with its spin growing at 5μg cos α / (2r); a ball at rest on a
// floor; bounces of e^(2n) h0; Newton's cradle of balls in two induced-impact models; fast balls
// against a thin plate and each other; a pour of balls and boxes into a bin; the scene file's
// sphere and its errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>

#include <numbers>

#include "exactsim/metrics/energy.h"
#include "exactsim/stepping/adaptive_step.h"
#include "input_error.h"
#include "physics/physics_scene.h"

namespace exactsim::physics_test::spheres {
namespace {

constexpr Real kG = 9.81;

json ball(const std::string& name, Real radius, const Vec3& at, Real density = 1000) {
  return {{"name", name},
          {"shape", {{"sphere", {{"radius", radius}}}}},
          {"density", density},
          {"position", {at.x(), at.y(), at.z()}}};
}

json quat_json(const Quat& q) { return {q.w(), q.x(), q.y(), q.z()}; }

Quat random_turn(std::mt19937& rng) {
  std::normal_distribution<Real> n;
  return Quat(n(rng), n(rng), n(rng), n(rng)).normalized();
}

// A static slab whose top face is the plane through the origin with normal R ẑ, a ball of radius
// 0.1 m on it at R (x0, 0, 0.1), gravity R_scene (0, 0, −g): the slope runs down along R x̂ when
// the slab is turned about y by α. R_scene turns the whole scene.
json incline_doc(Real alpha, Real mu, const Quat& scene_turn, const std::string& model) {
  const Quat tilt(Eigen::AngleAxisd(alpha, Vec3::UnitY()));
  const Quat r = scene_turn * tilt;
  json bodies = json::array(
      {{{"name", "slope"},
        {"static", true},
        {"shape", {{"box", {6, 2, 0.5}}}},
        {"position",
         {(r * Vec3(0, 0, -0.25)).x(), (r * Vec3(0, 0, -0.25)).y(), (r * Vec3(0, 0, -0.25)).z()}},
        {"orientation", quat_json(r)}},
       ball("ball", 0.1, r * Vec3(-2, 0, 0.1))});
  json doc = scene_doc(3, 1e-3, bodies, {{"friction", mu}});
  doc["contact"]["model"] = model;
  const Vec3 g = scene_turn * Vec3(0, 0, -kG);
  doc["gravity"] = {g.x(), g.y(), g.z()};
  return doc;
}

struct Rolled {
  Vec3 velocity, spin, down;  // the ball's, and the slope's downhill direction
};

Rolled roll(Real alpha, Real mu, const Quat& turn, const std::string& model, Real seconds) {
  Sim sim(incline_doc(alpha, mu, turn, model));
  const int steps = static_cast<int>(std::lround(seconds / sim.scene.step));
  for (int k = 0; k < steps; ++k) {
    const StepReport r = sim.advance();
    EXPECT_EQ(r.status, StepStatus::kOk) << "step " << k << " " << to_string(r.status);
    if (r.status != StepStatus::kOk) break;
  }
  const Quat tilt(Eigen::AngleAxisd(alpha, Vec3::UnitY()));
  return {body_velocity(sim.state, 1), body_angular_velocity(sim.state, 1),
          turn * tilt * Vec3::UnitX()};
}

TEST(Spheres, ABallRollsDownAnInclineAtFiveSeventhsGSinAlpha) {
  // Rolling without slip needs μ ≥ (2/7) tan α (0.089 at α = 0.3): the friction force
  // (2/7) m g sin α lies inside the cone, and v = (5/7) g sin α t, ω = v / r about the axis
  // n̂ × down. Symplectic Euler's velocity is exact under a constant force: round-off only.
  const Real alpha = 0.3, t = 0.5;
  for (const std::string model : {"standard", "peg"}) {
    const Rolled r = roll(alpha, 0.5, Quat::Identity(), model, t);
    const Real v = 5.0 / 7.0 * kG * std::sin(alpha) * t;
    EXPECT_NEAR(r.velocity.dot(r.down), v, 1e-9 * v) << model;
    EXPECT_NEAR((r.velocity - r.velocity.dot(r.down) * r.down).norm(), 0, 1e-9 * v) << model;
    const Vec3 normal = Quat(Eigen::AngleAxisd(alpha, Vec3::UnitY())) * Vec3::UnitZ();
    const Vec3 spin = normal.cross(r.down) * (v / 0.1);
    EXPECT_NEAR((r.spin - spin).norm(), 0, 1e-9 * spin.norm()) << model;
  }
}

TEST(Spheres, ABallSlidesWithItsSpinGrowingAtFiveMuGCosAlphaOverTwoR) {
  // μ = 0.05 < (2/7) tan α: the ball slides, a = g (sin α − μ cos α), and friction μ m g cos α
  // at the contact spins it up at 5 μ g cos α / (2 r) until it rolls (after 0.48 s here).
  const Real alpha = 0.3, mu = 0.05, t = 0.3;
  const Rolled r = roll(alpha, mu, Quat::Identity(), "peg", t);
  const Real v = kG * (std::sin(alpha) - mu * std::cos(alpha)) * t;
  const Real w = 5 * mu * kG * std::cos(alpha) / (2 * 0.1) * t;
  EXPECT_NEAR(r.velocity.dot(r.down), v, 1e-9 * v);
  EXPECT_NEAR(r.spin.norm(), w, 1e-9 * w);
}

TEST(Spheres, ATurnedSceneTurnsItsAnswer) {
  // The rolling and the sliding ball in three random frames: the velocities are the turned ones.
  std::mt19937 rng(7);
  for (int k = 0; k < 3; ++k) {
    const Quat turn = random_turn(rng);
    for (const Real mu : {0.5, 0.05}) {
      const Rolled flat = roll(0.3, mu, Quat::Identity(), "peg", 0.2);
      const Rolled turned = roll(0.3, mu, turn, "peg", 0.2);
      EXPECT_NEAR((turned.velocity - turn * flat.velocity).norm(), 0, 1e-9 * flat.velocity.norm())
          << "turn " << k << " mu " << mu;
      EXPECT_NEAR((turned.spin - turn * flat.spin).norm(), 0, 1e-9 * flat.spin.norm())
          << "turn " << k << " mu " << mu;
    }
  }
}

json floor_body() {
  return {{"name", "floor"},
          {"static", true},
          {"shape", {{"box", {4, 4, 1}}}},
          {"position", {0, 0, -0.5}}};
}

TEST(Spheres, ABallRestsOnAFloorWithoutOverlapOrEnergyGain) {
  // Resting from the first step: 2 s at h = 5 ms, both models. The ball's height stays at its
  // radius to round-off, its energy never rises, and the exact overlap stays at round-off.
  for (const std::string model : {"standard", "peg"}) {
    json doc = scene_doc(3, 5e-3, json::array({floor_body(), ball("ball", 0.1, Vec3(0, 0, 0.1))}),
                         {{"friction", 0.3}});
    doc["contact"]["model"] = model;
    doc["gravity"] = {0, 0, -kG};
    Sim sim(doc);
    for (int k = 0; k < 400; ++k) {
      const StepReport r = sim.advance();
      ASSERT_EQ(r.status, StepStatus::kOk) << model << " step " << k;
      EXPECT_LE(r.overlap, 1e-15) << model << " step " << k;
    }
    EXPECT_NEAR(sim.state.q_of(1)[2], 0.1, 1e-12) << model;
    EXPECT_LT(sim.state.v_of(1).norm(), 1e-12) << model;
  }
}

TEST(Spheres, BounceApexesAreE2nH0) {
  // A ball dropped from 1 m above a floor with e = 0.5: apex n is 0.25^n m. Its flight is exact
  // and located on the parabola (docs/impacts.md), as a cube's is.
  json doc = scene_doc(3, 1e-3, json::array({floor_body(), ball("ball", 0.1, Vec3(0, 0, 1.1))}),
                       {{"friction", 0.3}, {"impact", {{"model", "plus"}, {"restitution", 0.5}}}});
  doc["gravity"] = {0, 0, -kG};
  Sim sim(doc);
  std::vector<Real> apexes;
  Real z = 1.1, v = 0;
  while (apexes.size() < 3 && sim.state.time < 2.0) {
    const StepReport r = advance(sim.scene.world, sim.state, sim.ws, sim.scene.step, sim.steps++);
    ASSERT_EQ(r.status, StepStatus::kOk) << r.impacts.failure;
    const Real vz = sim.state.v_of(1)[2];
    if (v > 0 && vz <= 0) apexes.push_back(z + v * v / (2 * kG) - 0.1);
    z = sim.state.q_of(1)[2];
    v = vz;
  }
  ASSERT_EQ(apexes.size(), 3u);
  for (int n = 0; n < 3; ++n) EXPECT_NEAR(apexes[n] / std::pow(0.25, n + 1), 1, 1e-9) << n;
}

// Five touching balls of radius 0.5 m on the x axis, no gravity, frictionless; the first strikes
// the row at 2 m/s with e = 1.
std::vector<Real> cradle(const std::string& induced) {
  json bodies = json::array();
  for (int i = 0; i < 5; ++i) {
    json b = ball("b" + std::to_string(i), 0.5, Vec3(-i, 0, 0), 1);
    b["velocity"] = {i == 0 ? -2.0 : 0.0, 0, 0};
    bodies.push_back(b);
  }
  json doc = scene_doc(3, 1e-3, bodies,
                       {{"friction", 0}, {"impact", {{"model", "plus"}, {"restitution", 1.0}}}});
  doc["contact"]["impact"]["induced"] = induced;
  doc["gravity"] = {0, 0, 0};
  Sim sim(doc);
  const StepReport r = advance(sim.scene.world, sim.state, sim.ws, sim.scene.step, 0);
  EXPECT_EQ(r.status, StepStatus::kOk) << r.impacts.failure;
  std::vector<Real> v;
  for (int i = 0; i < 5; ++i) v.push_back(sim.state.v_of(i)[0]);
  return v;
}

TEST(Spheres, NewtonsCradleOfBalls) {
  // The one-contact cradle's closed forms (PLUS paper §4c): sequential (0, 0, 0, 0, −2) m/s,
  // simultaneous (1.2, −0.8, −0.8, −0.8, −0.8) m/s.
  const std::vector<Real> seq = cradle("sequential");
  const std::vector<Real> sim = cradle("simultaneous");
  const Real expect_seq[5] = {0, 0, 0, 0, -2};
  const Real expect_sim[5] = {1.2, -0.8, -0.8, -0.8, -0.8};
  for (int i = 0; i < 5; ++i) {
    EXPECT_NEAR(seq[i], expect_seq[i], 1e-9) << "sequential, ball " << i;
    EXPECT_NEAR(sim[i], expect_sim[i], 1e-9) << "simultaneous, ball " << i;
  }
}

TEST(Spheres, FastBallsDoNotPassAPlateOrEachOther) {
  // A ball at 100 m/s against a static 1 mm plate, and two balls meeting head-on at 100 m/s each,
  // h = 10 ms (a step moves them 1 m, ten diameters): the detection's reach covers the step's
  // motion, so each ends on its own side, and the head-on pair (inelastic) stops together;
  // both models, without gravity.
  for (const std::string model : {"standard", "peg"}) {
    json plate = {{"name", "plate"},
                  {"static", true},
                  {"shape", {{"box", {0.001, 2, 2}}}},
                  {"position", {0, 0, 0}}};
    json a = ball("a", 0.05, Vec3(-0.37, 0, 0)), b = ball("b", 0.05, Vec3(0.43, 0.01, 0));
    a["velocity"] = {100, 0, 0};
    b["velocity"] = {100, 0, 0};
    json c = ball("c", 0.05, Vec3(0.8, 0, 0.5)), d = ball("d", 0.05, Vec3(1.53, 0, 0.5));
    c["velocity"] = {100, 0, 0};
    d["velocity"] = {-100, 0, 0};
    json doc = scene_doc(3, 1e-2, json::array({plate, a, b, c, d}), {{"friction", 0.3}});
    doc["contact"]["model"] = model;
    doc["gravity"] = {0, 0, 0};
    Sim sim(doc);
    for (int k = 0; k < 10; ++k) {
      const StepReport r = advance(sim.scene.world, sim.state, sim.ws, sim.scene.step, sim.steps++);
      ASSERT_EQ(r.status, StepStatus::kOk) << model << " step " << k << " " << to_string(r.status);
    }
    EXPECT_LT(sim.state.q_of(1)[0], -0.05) << model << ": a passed the plate";
    EXPECT_GT(sim.state.q_of(2)[0], 0.05) << model << ": b went back through the plate";
    EXPECT_LT(sim.state.q_of(3)[0], sim.state.q_of(4)[0]) << model << ": c and d passed";
    // b flies past c and d 0.5 m below them (200 m/s relative to d): nothing touches it, and
    // it keeps its velocity (no contact held it by the plane through its closest points).
    EXPECT_NEAR((body_velocity(sim.state, 2) - Vec3(100, 0, 0)).norm(), 0, 1e-12) << model;
    EXPECT_NEAR(sim.state.v_of(3)[0], 0, 1e-9) << model;
    EXPECT_NEAR(sim.state.v_of(4)[0], 0, 1e-9) << model;
  }
}

// A bin (floor and four walls) and `n` balls of radii 0.04–0.08 m with a few cubes among them,
// dropped from a grid above it.
json pour_doc(int n, const std::string& model, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<Real> radius(0.04, 0.08), jitter(-0.01, 0.01);
  json bodies = json::array({floor_body()});
  for (int s = 0; s < 4; ++s) {
    const Real x = s == 0 ? -0.55 : s == 1 ? 0.55 : 0, y = s == 2 ? -0.55 : s == 3 ? 0.55 : 0;
    bodies.push_back({{"name", "wall" + std::to_string(s)},
                      {"static", true},
                      {"shape", {{"box", {s < 2 ? 0.1 : 1.2, s < 2 ? 1.2 : 0.1, 1.0}}}},
                      {"position", {x, y, 0.5}}});
  }
  for (int i = 0; i < n; ++i) {
    const Vec3 at(-0.3 + 0.2 * (i % 4) + jitter(rng), -0.3 + 0.2 * ((i / 4) % 4) + jitter(rng),
                  0.15 + 0.2 * (i / 16));
    if (i % 5 == 4) {
      bodies.push_back({{"name", "cube" + std::to_string(i)},
                        {"shape", {{"box", {0.1, 0.1, 0.1}}}},
                        {"density", 800},
                        {"position", {at.x(), at.y(), at.z()}},
                        {"orientation", {0.9, 0.1, 0.3, 0.2}}});
    } else {
      bodies.push_back(ball("ball" + std::to_string(i), radius(rng), at));
    }
  }
  json doc = scene_doc(3, 5e-3, bodies, {{"friction", 0.3}});
  doc["contact"]["model"] = model;
  doc["gravity"] = {0, 0, -kG};
  return doc;
}

TEST(Spheres, APourOfBallsAndCubesStaysInItsBinAndLosesEnergy) {
  // 30 bodies, 1.5 s: no failed solve, and every step's energy balance holds (a failed balance is a
  // failed step) and its watchdog finds no pair deeper than ε (a deep pair stops the step). Balls
  // keep rolling (rolling costs no energy), so the pile is not at rest; its energy has fallen
  // below the start's, its exact overlap is at round-off and nothing has left the bin.
  for (const std::string model : {"standard", "peg"}) {
    Sim sim(pour_doc(30, model, 3));
    Real deepest = 0, start = 0;  // start: T + V after the first step (the bodies join there)
    StepReport r;
    for (int k = 0; k < 300; ++k) {
      r = advance(sim.scene.world, sim.state, sim.ws, sim.scene.step, sim.steps++);
      ASSERT_EQ(r.status, StepStatus::kOk) << model << " step " << k << " " << to_string(r.status);
      deepest = std::max(deepest, r.max_penetration);
      if (k == 0) start = r.kinetic_energy + r.potential_energy;
    }
    std::printf(
        "[ spheres ] %s pour: deepest %.3g m, last step's overlap %.3g m^3, energy %.4g -> %.4g "
        "J\n",
        model.c_str(), deepest, r.overlap, start, r.kinetic_energy + r.potential_energy);
    EXPECT_LT(r.kinetic_energy + r.potential_energy, start) << model;
    EXPECT_LT(r.overlap, 1e-12) << model;  // exact; at rest it is round-off
    for (int i = 5; i < sim.state.body_count(); ++i) {
      const auto q = sim.state.q_of(i);
      EXPECT_TRUE(std::abs(q[0]) < 0.5 && std::abs(q[1]) < 0.5 && q[2] > 0)
          << model << " body " << i << " left the bin";
    }
  }
}

TEST(Spheres, TheSceneFileHoldsASphereAndNamesItsErrors) {
  // A written scene reads back to the same sphere and mass; bad spheres are named errors.
  json doc = pour_doc(5, "peg", 1);
  const Scene scene = parse_scene(doc, "pour.json");
  const Scene again = parse_scene(scene_to_json(scene), "again.json");
  ASSERT_EQ(again.world.spheres.size(), scene.world.spheres.size());
  for (std::size_t k = 0; k < scene.world.spheres.size(); ++k)
    EXPECT_EQ(again.world.spheres[k].radius, scene.world.spheres[k].radius);
  for (int i = 0; i < scene.world.body_count(); ++i) {
    EXPECT_EQ(again.world.bodies[i].kind, scene.world.bodies[i].kind);
    EXPECT_EQ(again.world.bodies[i].mass, scene.world.bodies[i].mass);
    EXPECT_EQ(again.initial.q_of(i), scene.initial.q_of(i));
  }
  const Real r = 0.05, m = 1000 * 4.0 / 3.0 * std::numbers::pi * r * r * r;
  json one = scene_doc(3, 1e-3, json::array({ball("b", r, Vec3::Zero())}));
  const Scene s = parse_scene(one, "one.json");
  EXPECT_NEAR(s.world.bodies[0].mass, m, 1e-15 * m);
  EXPECT_NEAR(s.world.bodies[0].inertia(0, 0), 0.4 * m * r * r, 1e-15 * m * r * r);
  EXPECT_EQ(s.world.bodies[0].inertia(0, 1), 0);

  auto error = [](const json& d) { return ErrorOf([&] { parse_scene(d, "bad.json"); }); };
  json flat = scene_doc(2, 1e-3, json::array({ball("b", 0.1, Vec3::Zero())}));
  flat["bodies"][0]["position"] = {0, 0};
  EXPECT_NE(
      error(flat).find("bodies[0].shape.sphere: shape kind 'sphere' is not available in a 2D"),
      std::string::npos)
      << error(flat);
  json zero = one;
  zero["bodies"][0]["shape"]["sphere"]["radius"] = 0;
  EXPECT_NE(error(zero).find("bodies[0].shape.sphere.radius"), std::string::npos) << error(zero);
  json compound = one;
  compound["bodies"][0]["shape"] = {
      {"compound", json::array({{{"sphere", {{"radius", 0.1}}}}, {{"box", {1, 1, 1}}}})}};
  EXPECT_NE(error(compound).find("bodies[0].shape: parts 0 and 1 overlap"), std::string::npos)
      << error(compound);
}

}  // namespace
}  // namespace exactsim::physics_test::spheres
