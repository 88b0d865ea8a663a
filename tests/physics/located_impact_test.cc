// PLUS impacts inside the time step (docs/impacts.md), against closed forms: exact bounces
// without gravity, apex heights e^(2n) h0, fifty elastic bounces, bounces to rest at the capture
// speed, the rocking block's ω⁺/ω⁻, the PLUS paper's brick against the stand-alone solver,
// Newton's cradle in the three induced-impact models, random die throws whose kinetic energy never
// rises through an impact, and kinematic bodies whose work is the only energy an impact gains.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "exactsim/api/validate.h"
#include "exactsim/impact/plus.h"
#include "exactsim/io/event_scene_json.h"
#include "exactsim/metrics/energy.h"
#include "exactsim/stepping/adaptive_step.h"
#include "experiments/plus_examples.h"
#include "experiments/scenarios.h"
#include "input_error.h"
#include "physics/physics_scene.h"

namespace exactsim::physics_test::located_impact {
namespace {

constexpr Real kG = 9.81;

json plus_contact(Real e, Real mu, Real capture = 0.01) {
  return {{"friction", mu},
          {"impact", {{"model", "plus"}, {"restitution", e}, {"capture_velocity", capture}}}};
}

// A 0.2 m cube over a static floor whose top is z = 0, its bottom `drop` above it, falling at
// `speed`; gravity g along −z (0: none).
json cube_drop_doc(Real h, Real drop, Real speed, Real e, Real g, Real mu = 0.3,
                   Real capture = 0.01) {
  json bodies = json::array({{{"name", "floor"},
                              {"static", true},
                              {"shape", {{"box", {4, 4, 1}}}},
                              {"position", {0, 0, -0.5}}},
                             {{"name", "cube"},
                              {"shape", {{"box", {0.2, 0.2, 0.2}}}},
                              {"density", 500},
                              {"position", {0, 0, 0.1 + drop}},
                              {"velocity", {0, 0, -speed}}}});
  json doc = scene_doc(3, h, bodies, plus_contact(e, mu, capture));
  doc["contact"]["model"] = "peg";
  doc["gravity"] = {0, 0, -g};
  return doc;
}

// Steps a scene with advance() (the located impacts live there) and keeps every step's report.
struct Stepped {
  Sim sim;
  std::vector<StepReport> reports;
  explicit Stepped(const json& doc) : sim(doc) {}
  explicit Stepped(Scene scene) : sim(std::move(scene)) {}
  const StepReport& next() {
    reports.push_back(
        exactsim::advance(sim.scene.world, sim.state, sim.ws, sim.scene.step, sim.steps++));
    return reports.back();
  }
  // Steps until time t (to round-off), every step certified.
  void until(Real t) {
    while (sim.state.time < t - 1e-9 * sim.scene.step) {
      const StepReport& r = next();
      ASSERT_EQ(r.status, StepStatus::kOk)
          << "step " << r.step << ": " << to_string(r.status) << " " << r.impacts.failure;
    }
  }
  int impacts() const {
    int n = 0;
    for (const StepReport& r : reports) n += r.impacts.count;
    return n;
  }
};

constexpr int kCube = 1;
Real z_of(const Stepped& r) { return r.sim.state.q_of(kCube)[2]; }
Real vz_of(const Stepped& r) { return r.sim.state.v_of(kCube)[2]; }
Real spin_of(const Stepped& r) { return r.sim.state.v_of(kCube).tail<3>().norm(); }

TEST(LocatedImpact, NoneIsTheDefault) {
  Sim sim(cube_drop_doc(1e-3, 1, 0, 0.5, kG));
  EXPECT_EQ(sim.scene.world.contact.impact.model, ImpactModel::kPlus);
  json doc = cube_drop_doc(1e-3, 1, 0, 0.5, kG);
  doc["contact"].erase("impact");
  EXPECT_EQ(Sim(doc).scene.world.contact.impact.model, ImpactModel::kNone);
}

TEST(LocatedImpact, WithoutGravityTheBounceIsExact) {
  // 0.4 m apart at 2 m/s: the impact is at t = 0.2 s; after it the cube leaves at e·2 m/s. Flight
  // at constant velocity is exact in the step, so the only error is the location's (1e-12 m).
  for (const Real h : {1e-3, 7e-3}) {
    Stepped run(cube_drop_doc(h, 0.4, 2.0, 0.5, 0));
    run.until(1.0);
    const Real t = run.sim.state.time;
    EXPECT_NEAR(z_of(run), 0.1 + 1.0 * (t - 0.2), 1e-11) << "h = " << h;
    EXPECT_NEAR(vz_of(run), 1.0, 1e-12) << "h = " << h;
    EXPECT_LT(spin_of(run), 1e-12) << "h = " << h;
    EXPECT_EQ(run.impacts(), 1) << "h = " << h;
  }
}

// The apex heights above the floor of the cube dropped from 1 m with e = 0.5, from the step
// before each apex along its exact parabola (z + v²/2g).
std::vector<Real> apexes(Real h, int count) {
  Stepped run(cube_drop_doc(h, 1.0, 0, 0.5, kG));
  std::vector<Real> out;
  Real z = z_of(run), v = vz_of(run);
  while (static_cast<int>(out.size()) < count && run.sim.state.time < 2.0) {
    run.next();
    EXPECT_EQ(run.reports.back().status, StepStatus::kOk);
    if (v > 0 && vz_of(run) <= 0) out.push_back(z + v * v / (2 * kG) - 0.1);
    z = z_of(run);
    v = vz_of(run);
    EXPECT_LT(spin_of(run), 1e-9);
  }
  return out;
}

TEST(LocatedImpact, FlatDropApexesAreE2nH0AtRoundOff) {
  // Apex n is e^(2n) h0 = 0.25^n m. The flying cube follows the exact parabola, is located on it
  // and arrives at the floor without impulse, so the apexes are exact to round-off at every h
  // (no order of convergence to measure: docs/impacts.md "Measured").
  for (const Real h : {1e-2, 1e-3, 1e-4}) {
    const std::vector<Real> a = apexes(h, 3);
    ASSERT_EQ(a.size(), 3u) << "h = " << h;
    for (int n = 0; n < 3; ++n)
      EXPECT_NEAR(a[n] / std::pow(0.25, n + 1), 1, 1e-9) << "h = " << h << " apex " << n;
  }
}

// The dropped cube's first apex above the floor after its strike (the top of the parabola through
// the last step before it turns down), within the first second; 0 when it never rises again. Every
// step certified.
Real first_apex(Stepped& run) {
  Real z = z_of(run), v = vz_of(run);
  while (run.sim.state.time < 1.0) {
    run.next();
    EXPECT_EQ(run.reports.back().status, StepStatus::kOk);
    if (v > 0 && vz_of(run) <= 0) return z + v * v / (2 * kG) - 0.1;
    z = z_of(run);
    v = vz_of(run);
  }
  return 0;
}

TEST(LocatedImpact, PerBodyRestitutionCombinesAsTheGeometricMean) {
  // The cube's e = 0.8 against the floor's (the scene's 0.5 when the floor has none, else its
  // own): the first apex is e_pair² h0 with e_pair = √(e_cube e_floor), at round-off as above.
  struct Case {
    Real floor;  // NaN: none given
    Real expected;
  };
  for (const Case c : {Case{std::numeric_limits<Real>::quiet_NaN(), 0.8 * 0.5},
                       Case{0.2, 0.8 * 0.2}, Case{1.0, 0.8}, Case{0.0, 0.0}}) {
    json doc = cube_drop_doc(1e-3, 1.0, 0, 0.5, kG);
    doc["bodies"][1]["restitution"] = 0.8;
    if (!std::isnan(c.floor)) doc["bodies"][0]["restitution"] = c.floor;
    Stepped run(doc);
    EXPECT_EQ(run.sim.scene.world.bodies[kCube].restitution, 0.8);
    EXPECT_NEAR(pair_restitution(run.sim.scene.world, 0, kCube), std::sqrt(c.expected), 1e-15);
    const Real apex = first_apex(run);
    // e_pair = 0: the cube stays on the floor (no apex); else apex = e_pair² · 1 m.
    EXPECT_NEAR(apex, c.expected, 1e-9) << "floor e = " << c.floor;
  }
  json doc = cube_drop_doc(1e-3, 1.0, 0, 0.5, kG);
  doc["bodies"][1]["restitution"] = 1.5;
  EXPECT_NE(ErrorOf([&] { Sim{doc}; }).find("bodies[1].restitution: must lie in [0, 1]"),
            std::string::npos)
      << ErrorOf([&] { Sim{doc}; });
}

TEST(LocatedImpact, APairCapturesAtTheLargerOfItsBodiesCaptureSpeeds) {
  // The cube strikes the floor at √(2 g · 1 m) = 4.43 m/s. With its own capture speed above that
  // (the floor keeps the scene's 0.01 m/s) the pair's capture speed is the cube's: no impact, the
  // inelastic step stops it. Below it the strike restitutes; at or above the plastic speed the
  // COR is e_min (PLUS paper Fig. 2), so the first apex is e² · 1 m = 0.25 m.
  struct Case {
    Real capture, plastic;
    int impacts;
  };
  for (const Case c : {Case{5.0, 5.0, 0}, Case{1.0, 4.0, 1}}) {
    json doc = cube_drop_doc(1e-3, 1.0, 0, 0.5, kG);
    Sim sim(doc);
    World& world = sim.scene.world;
    world.bodies[kCube].capture_speed = c.capture;
    world.bodies[kCube].plastic_speed = c.plastic;
    EXPECT_EQ(pair_restitution_law(world, 0, kCube).v_capture, c.capture);
    EXPECT_EQ(pair_restitution_law(world, kCube, 0).v_plastic, c.plastic);
    Stepped run(std::move(sim.scene));
    const Real apex = first_apex(run);
    EXPECT_EQ(run.impacts(), c.impacts) << "capture " << c.capture;
    EXPECT_NEAR(apex, c.impacts == 0 ? 0.0 : 0.25, 1e-9) << "capture " << c.capture;
  }
  Scene bad = parse_scene(cube_drop_doc(1e-3, 1.0, 0, 0.5, kG), "bad.json");
  bad.world.bodies[kCube].capture_speed = 2.0;
  bad.world.bodies[kCube].plastic_speed = 1.0;
  EXPECT_NE(ErrorOf([&] {
              validate_scene(bad);
            }).find("bodies[1] (cube).plastic_speed: must be >= the capture speed"),
            std::string::npos)
      << ErrorOf([&] { validate_scene(bad); });
}

TEST(LocatedImpact, FiftyElasticBouncesKeepTheirApex) {
  // e = 1 from 0.5 m at h = 1 ms: every apex is 0.5 m (drift ≤ 1e-6 relative; measured 1.5e-12).
  Stepped run(cube_drop_doc(1e-3, 0.5, 0, 1.0, kG));
  int bounces = 0;
  Real z = z_of(run), v = vz_of(run);
  while (bounces < 50) {
    run.next();
    ASSERT_EQ(run.reports.back().status, StepStatus::kOk);
    if (v > 0 && vz_of(run) <= 0) {
      ++bounces;
      EXPECT_NEAR((z + v * v / (2 * kG) - 0.1) / 0.5, 1, 1e-6) << "bounce " << bounces;
    }
    z = z_of(run);
    v = vz_of(run);
  }
  EXPECT_EQ(run.impacts(), 50);
}

TEST(LocatedImpact, BouncesToRestAtTheCaptureSpeed) {
  // Impact speeds V_n = e^n V_0 with V_0 = √(2 g h0): the impacts faster than the capture speed
  // rebound, and the first slower touch is captured as persistent contact, at
  // t = V_0/g + Σ_{n=1}^{N} 2 V_n/g.
  const Real e = 0.5, capture = 0.01, h = 1e-3;
  const Real v0 = std::sqrt(2 * kG * 1.0);
  int restituted = 0;
  Real t_capture = v0 / kG;
  for (Real v = v0; v > capture; v *= e) {
    ++restituted;
    t_capture += 2 * e * v / kG;
  }
  Stepped run(cube_drop_doc(h, 1.0, 0, e, kG, 0.3, capture));
  Real rest_from = -1;
  while (run.sim.state.time < t_capture + 0.2) {
    run.next();
    ASSERT_EQ(run.reports.back().status, StepStatus::kOk);
    if (rest_from < 0 && std::abs(vz_of(run)) < 1e-9 && std::abs(z_of(run) - 0.1) < 1e-9)
      rest_from = run.sim.state.time;
    if (std::abs(vz_of(run)) >= 1e-9) rest_from = -1;
  }
  EXPECT_EQ(run.impacts(), restituted);
  EXPECT_NEAR(rest_from, t_capture, 1.5 * h);
}

TEST(LocatedImpact, CorZeroComesToRestLikeTheInelasticStep) {
  json doc = cube_drop_doc(1e-3, 0.5, 0, 0.0, kG);
  Stepped plus(doc);
  doc["contact"].erase("impact");
  Stepped none(doc);
  plus.until(0.6);
  none.until(0.6);
  EXPECT_EQ(plus.impacts(), 1);
  EXPECT_NEAR(z_of(plus), z_of(none), 1e-9);
  EXPECT_NEAR(vz_of(plus), 0, 1e-9);
  EXPECT_NEAR(vz_of(none), 0, 1e-9);
}

TEST(LocatedImpact, RockingBlockKeepsHousnersRatio) {
  // A 1.0 × 1.5 m block rocking about its right corner strikes the floor with its left one: with
  // the new corner sticking and e = 0, ω⁺/ω⁻ = 1 − (3/2) sin²α, tan α = 1/1.5: 0.538461… (2D,
  // no gravity, so the step after the impact is free rotation about the new corner).
  const Real w = 1.0;
  json bodies = json::array({{{"name", "floor"},
                              {"static", true},
                              {"shape", {{"box", {10, 1}}}},
                              {"position", {0, -0.5}}},
                             {{"name", "block"},
                              {"shape", {{"box", {1.0, 1.5}}}},
                              {"density", 100},
                              {"position", {0, 0.75}},
                              {"velocity", {-0.75 * w, -0.5 * w}},
                              {"angular_velocity", w}}});
  json doc = scene_doc(2, 1e-4, bodies, plus_contact(0.0, 2.0));
  doc["gravity"] = {0, 0};
  Stepped run(doc);
  run.next();
  ASSERT_EQ(run.reports.back().status, StepStatus::kOk) << run.reports.back().impacts.failure;
  EXPECT_EQ(run.impacts(), 1);
  const auto v = run.sim.state.v_of(1);
  const Real ratio = 1 - 1.5 * (1.0 / 3.25);
  EXPECT_NEAR(v[2] / w, ratio, 1e-9);
  // About the left corner (−0.5, 0): the centre moves at ω⁺ ẑ × (0.5, 0.75).
  EXPECT_NEAR(v[0], -0.75 * ratio * w, 1e-9);
  EXPECT_NEAR(v[1], 0.5 * ratio * w, 1e-9);
}

// The first step of `scene`, one located impact, against the stand-alone solver's Example 1 at μ:
// the normal impulse and velocity and the tangential magnitudes to 1e-9, and its rounds.
void expect_example1_strike(Scene scene, Real mu) {
  Stepped run(std::move(scene));
  run.next();
  ASSERT_EQ(run.reports.back().status, StepStatus::kOk) << "mu = " << mu;
  ASSERT_EQ(run.impacts(), 1) << "mu = " << mu;
  const ImpactResult& mine = run.sim.ws.impact.result;
  const ImpactResult ref = solve_plus(example1_problem(mu, ImpactOptions{}.theta_max));
  ASSERT_EQ(mine.impulse.size(), 3) << "mu = " << mu;
  auto tangential = [](const VecX& x) { return std::hypot(x[0], x[1]); };
  const Real p = ref.impulse[2], v = ref.velocity.norm();
  EXPECT_NEAR(mine.impulse[2], p, 1e-9 * p) << "mu = " << mu;
  EXPECT_NEAR(tangential(mine.impulse), tangential(ref.impulse), 1e-9 * p) << "mu = " << mu;
  EXPECT_NEAR(mine.velocity[2], ref.velocity[2], 1e-9 * v) << "mu = " << mu;
  EXPECT_NEAR(tangential(mine.velocity), tangential(ref.velocity), 1e-9 * v) << "mu = " << mu;
  EXPECT_EQ(mine.rounds, ref.rounds) << "mu = " << mu;
}

TEST(LocatedImpact, TheBrickOnItsCornerGivesTheStandAloneImpulses) {
  // The PLUS paper's Example 1 (§4a) as a stepper scene: the brick's lowest vertex, where the
  // paper's vertex sphere touches, meets the ground at [−5, 0, −5.74] m/s. The located impact's
  // problem is the stand-alone one up to its tangent basis: the normal impulse and velocity and
  // the tangential magnitudes agree with experiments/plus_examples.h's to 1e-9.
  for (const Real mu : {0.125, 0.225, 0.325}) {
    Scene scene = read_scene_file(EXACTSIM_SOURCE_DIR "/scenes/plus/stepper_example1_brick.json");
    scene.world.contact.friction = mu;
    scene.world.contact.impact.restitution =
        plus_table_a1_law(mu, example1_min_cor(mu)).restitution;
    expect_example1_strike(std::move(scene), mu);
  }
}

// The event-driven PLUS world of the paper's examples (experiments/plus_examples.h: one body with
// welded spheres above the ground z = 0) as a stepper scene: the body a compound of its spheres
// with the world's mass and inertia, pose and velocity; the ground a static box whose top is
// z = 0; the spheres' friction and restitution law the scene's.
Scene welded_sphere_scene(const EventSimulation& sim, Real h) {
  const World& world = sim.world;
  json parts = json::array();
  for (const WeldedSphere& s : welded_spheres(world))
    parts.push_back(
        {{"sphere",
          {{"radius", s.radius}, {"center", {s.center.x(), s.center.y(), s.center.z()}}}}});
  const Body& b = world.bodies[0];
  const auto q = sim.state.q_of(0);
  const auto v = sim.state.v_of(0);
  json inertia = json::array();
  for (int r = 0; r < 3; ++r)
    inertia.push_back({b.inertia(r, 0), b.inertia(r, 1), b.inertia(r, 2)});
  json bodies = json::array({{{"name", "ground"},
                              {"static", true},
                              {"shape", {{"box", {6, 6, 1}}}},
                              {"position", {0, 0, -0.5}}},
                             {{"name", "brick"},
                              {"shape", {{"compound", parts}}},
                              {"mass", b.mass},
                              {"inertia", inertia},
                              {"position", {q[0], q[1], q[2]}},
                              {"orientation", {q[3], q[4], q[5], q[6]}},
                              {"velocity", {v[0], v[1], v[2]}},
                              {"angular_velocity", {v[3], v[4], v[5]}}}});
  const ContactLaw law = body_contact_law(world, 0);
  json doc = scene_doc(3, h, bodies, plus_contact(law.restitution.e_min, law.friction));
  doc["contact"]["model"] = "peg";
  doc["gravity"] = {world.gravity.x(), world.gravity.y(), world.gravity.z()};
  Scene scene = parse_scene(doc, "welded.json");
  scene.world.contact.impact.restitution = law.restitution;
  return scene;
}

TEST(LocatedImpact, TheChildproofBrickOfWeldedSpheresStrikesAsThePapersExamples) {
  // The paper's brick as it is, eight spheres of 0.1 m welded at the corners of its box
  // (scenes/plus/stepper_example1_spheres.json is Example 1's): the stepper's located impact
  // against the stand-alone solver on experiments/plus_examples.h's problem. Example 1 (one
  // corner sphere, μ = 0.125, 0.225, 0.325): the normal impulse and velocity and the tangential
  // magnitudes to 1e-9, and the rounds. Example 2 (four spheres at once): the total normal impulse
  // and the kinetic energy change to 1e-9.
  for (const Real mu : {0.125, 0.225, 0.325})
    expect_example1_strike(welded_sphere_scene(example1_simulation(mu, 0.0), 1e-3), mu);
  const Scene file =
      read_scene_file(EXACTSIM_SOURCE_DIR "/scenes/plus/stepper_example1_spheres.json");
  const Scene built = welded_sphere_scene(example1_simulation(0.125, 0.0), 1e-3);
  EXPECT_EQ(file.initial.q_of(1), built.initial.q_of(1));
  ASSERT_EQ(file.world.spheres.size(), 8u);
  for (int k = 0; k < 8; ++k)
    EXPECT_EQ(file.world.spheres[k].centre, built.world.spheres[k].centre);

  Stepped run(welded_sphere_scene(example2_simulation(0.0), 1e-3));
  run.next();
  ASSERT_EQ(run.reports.back().status, StepStatus::kOk);
  ASSERT_EQ(run.impacts(), 1);
  const ImpactResult& mine = run.sim.ws.impact.result;
  const ImpactResult ref = solve_plus(example2_problem());
  ASSERT_EQ(mine.impulse.size(), 12);
  ASSERT_EQ(ref.impulse.size(), 12);
  Real normal = 0, ref_normal = 0;
  for (int k = 0; k < 4; ++k)
    normal += mine.impulse[3 * k + 2], ref_normal += ref.impulse[3 * k + 2];
  std::printf(
      "[ located impact ] welded spheres, Example 2: normal %.12f N s (%.12f), dT %.12f J "
      "(%.12f)\n",
      normal, ref_normal, mine.kinetic_energy_change, ref.kinetic_energy_change);
  EXPECT_NEAR(normal, ref_normal, 1e-9 * ref_normal);
  EXPECT_NEAR(mine.kinetic_energy_change, ref.kinetic_energy_change,
              1e-9 * std::abs(ref.kinetic_energy_change));
}

// A polyhedron brick thrown tumbling onto a half-space, e = 0.5, μ = 0.3, h = 1 ms, against the
// event-driven simulator (events/, an implementation of its own: RK4 flight, bisection to the
// touch, sphere contacts) on the same brick as eight spheres of 1 nm at its corners over the
// half-space lowered by 1 nm, where every sphere's gap is its corner's. The stepper's flight
// between impacts is exact (docs/impacts.md "Exact flight": the parabola, the torque-free spin
// in RK4 sub-steps), so both take the same five corner strikes in 0.75 s and end 4.7e-9 m,
// 4.9e-8 rad, 6.4e-8 m/s and 1.4e-6 rad/s apart (the spheres' contact points lie 1 nm below the
// corners: friction's lever differs by that much). With the semi-implicit rotation update in
// flight they end 2.7e-3 m and 0.57 rad/s apart.
TEST(LocatedImpact, ATumblingBrickStrikesAsTheEventDrivenSimulation) {
  const Real r = 1e-5, point = 1e-9, a = 0.1, b = 0.2, c = 0.3, m = 1000 * a * b * c;
  json spheres = json::array();
  for (const Real x : {-a / 2, a / 2})
    for (const Real y : {-b / 2, b / 2})
      for (const Real z : {-c / 2, c / 2})
        spheres.push_back({{"center", {x, y, z}}, {"radius", r}});
  const json inertia = {{m * (b * b + c * c) / 12, 0, 0},
                        {0, m * (a * a + c * c) / 12, 0},
                        {0, 0, m * (a * a + b * b) / 12}};
  const Real duration = 0.75;
  json doc = {
      {"format", "exactsim-scene"},
      {"version", 1},
      {"dimension", 3},
      {"time", {{"step", 1e-3}, {"duration", duration}}},
      {"contact", {{"model", "plus"}, {"friction", 0.3}, {"restitution", {{"constant", 0.5}}}}},
      {"bodies", json::array()}};
  doc["bodies"].push_back({{"name", "ground"},
                           {"static", true},
                           {"shape", {{"half_space", {{"normal", {0, 0, 1}}, {"offset", -r}}}}}});
  doc["bodies"].push_back({{"name", "brick"},
                           {"shape", {{"spheres", spheres}}},
                           {"mass", m},
                           {"inertia", inertia},
                           {"position", {0, 0, 0.6}},
                           {"orientation", {0.9, 0.3, -0.2, 0.25}},
                           {"velocity", {0.5, 0, 1}},
                           {"angular_velocity", {4, 9, -3}}});
  // Spheres of 1 nm: the file format's least radius is 10 μm, whose longer lever would put the
  // brick 1.9e-3 rad/s off after its first strike.
  const EventScene parsed = parse_event_scene(doc, "tumbling brick");
  EventScene events_scene = parsed;
  for (Sphere& sphere : events_scene.world.spheres) sphere.radius = point;
  events_scene.world.half_spaces[0].offset = -point;
  EventSimulation events = event_simulation(events_scene);
  advance(events, duration);
  // The same scene time-stepped with located impacts, the brick a box on the half-space z ≤ 0.
  json stepped_doc = scene_to_json(stepper_scene(parsed));
  stepped_doc["bodies"][0]["shape"]["half_space"]["offset"] = 0.0;
  stepped_doc["bodies"][1]["shape"] = {{"box", {a, b, c}}};
  Stepped run(parse_scene(stepped_doc, "tumbling brick, stepped"));
  run.until(duration);
  ASSERT_EQ(events.impacts.size(), 5u);
  EXPECT_EQ(run.impacts(), static_cast<int>(events.impacts.size()));
  const State& e = events.state;
  const State& s = run.sim.state;
  std::printf(
      "[ located impact ] tumbling brick, %zu impacts: off the event-driven run by %.3g m, "
      "%.3g rad, %.3g m/s, %.3g rad/s\n",
      events.impacts.size(), (s.q_of(1).head<3>() - e.q_of(0).head<3>()).norm(),
      body_orientation(s, 1).angularDistance(body_orientation(e, 0)),
      (s.v_of(1).head<3>() - e.v_of(0).head<3>()).norm(),
      (s.v_of(1).tail<3>() - e.v_of(0).tail<3>()).norm());
  EXPECT_LT((s.q_of(1).head<3>() - e.q_of(0).head<3>()).norm(), 1e-7);
  EXPECT_LT(body_orientation(s, 1).angularDistance(body_orientation(e, 0)), 1e-6);
  EXPECT_LT((s.v_of(1) - e.v_of(0)).norm(), 1e-5);
}

// Five touching unit squares (2D) or cubes (3D), no gravity, frictionless; the first strikes the
// row at 2 m/s, e = 1.
std::vector<Real> cradle(int dimension, const std::string& induced, int mixed_rounds = 0) {
  json bodies = json::array();
  for (int i = 0; i < 5; ++i) {
    json b = {{"name", "b" + std::to_string(i)}, {"density", 1}};
    if (dimension == 3) {
      b["shape"] = {{"box", {1, 1, 1}}};
      b["position"] = {-static_cast<Real>(i), 0, 0};
      b["velocity"] = {i == 0 ? -2.0 : 0.0, 0, 0};
    } else {
      b["shape"] = {{"box", {1, 1}}};
      b["position"] = {-static_cast<Real>(i), 0};
      b["velocity"] = {i == 0 ? -2.0 : 0.0, 0};
    }
    bodies.push_back(b);
  }
  json doc = scene_doc(dimension, 1e-3, bodies, plus_contact(1.0, 0.0));
  doc["contact"]["impact"]["induced"] = induced;
  if (mixed_rounds > 0) doc["contact"]["impact"]["mixed_rounds"] = mixed_rounds;
  doc["gravity"] = dimension == 3 ? json::array({0, 0, 0}) : json::array({0, 0});
  Stepped run(doc);
  run.next();
  EXPECT_EQ(run.reports.back().status, StepStatus::kOk) << run.reports.back().impacts.failure;
  std::vector<Real> v;
  for (int i = 0; i < 5; ++i) v.push_back(run.sim.state.v_of(i)[0]);
  return v;
}

TEST(LocatedImpact, NewtonsCradleSequentialSimultaneousAndMixed) {
  // The face pairs have 2 (2D) or 4 and more (3D) contact rows each: the result is the
  // one-contact cradle's (PLUS paper §4c).
  for (const int d : {2, 3}) {
    const std::vector<Real> seq = cradle(d, "sequential");
    const std::vector<Real> sim = cradle(d, "simultaneous");
    const Real expect_seq[5] = {0, 0, 0, 0, -2};
    const Real expect_sim[5] = {1.2, -0.8, -0.8, -0.8, -0.8};
    // Mixed: two rounds as sequential, then one inelastic round (the closed form in
    // tests/events/plus_examples_test.cc); with its default five rounds, the sequential answer.
    const std::vector<Real> mixed = cradle(d, "mixed", 2);
    const std::vector<Real> mixed5 = cradle(d, "mixed");
    const Real expect_mixed[5] = {0, 0, -2.0 / 3, -2.0 / 3, -2.0 / 3};
    for (int i = 0; i < 5; ++i) {
      EXPECT_NEAR(seq[i], expect_seq[i], 1e-9) << d << "D sequential, body " << i;
      EXPECT_NEAR(sim[i], expect_sim[i], 1e-9) << d << "D simultaneous, body " << i;
      EXPECT_NEAR(mixed[i], expect_mixed[i], 1e-9) << d << "D mixed after 2 rounds, body " << i;
      EXPECT_NEAR(mixed5[i], expect_seq[i], 1e-9) << d << "D mixed after 5 rounds, body " << i;
    }
  }
}

TEST(LocatedImpact, RandomPoursWithImpactsEndEachStepOnTimeAndPassEveryBalance) {
  // The 3D random pour with impacts (20 bodies, e = 0.5): every step, split at its impacts, ends
  // at (k + 1) h. Spinning hulls bounce on the floor, their short parts ending at impacts: each
  // part's split projection turns a body out of overlap, and its spin turns with it, so its
  // rotational energy is not changed by the turn (docs/robustness.md "Over the whole step").
  // With ω left as it was in the world frame, ½ ωᵀ R I Rᵀ ω rose by up to 4e-3 J in a part, over
  // the lift budget: seeds 1 and 5 failed 2 and 13 whole-step balances.
  for (const std::uint64_t seed : {1u, 5u}) {
    Pour3dOptions o;
    o.bodies = 20;
    o.duration = 3.0;
    o.model = ContactModel::kPeg;
    Scene scene = pour3d_random(seed, o);
    scene.world.contact.impact.model = ImpactModel::kPlus;
    scene.world.stepping.continue_on_solver_failure = true;
    Stepped run(std::move(scene));
    int failed = 0;
    for (long k = 0; k < run.sim.scene.step_count(); ++k) {
      failed += run.next().status != StepStatus::kOk;
      ASSERT_NEAR(run.sim.state.time, static_cast<Real>(k + 1) * o.step, 1e-12) << "step " << k;
    }
    EXPECT_EQ(failed, 0) << "seed " << seed;
    EXPECT_GT(run.impacts(), 100) << "seed " << seed;
  }
}

// A 0.1 m die (1000 kg/m³) thrown onto `ground` (its top face at z = 0) from a random pose
// (centre within `spread` of the z axis, 0.1–0.5 m up), with a random horizontal velocity up to
// `speed` and spin up to `spin`; e = 0.5, μ = 0.3, h = 2 ms, PEG.
json die_throw_doc(const json& ground, std::mt19937_64& rng, Real spread, Real speed, Real spin) {
  std::uniform_real_distribution<Real> u(-1, 1);
  const Vec3 axis = Vec3(u(rng), u(rng), u(rng)).normalized();
  const Quat q(Eigen::AngleAxis<Real>(3.0 * u(rng), axis));
  const Real x = spread > 0 ? spread * u(rng) : 0, y = spread > 0 ? spread * u(rng) : 0;
  const Real z = 0.3 + 0.2 * u(rng);
  const Real vx = speed * u(rng), vy = speed * u(rng);
  const Real wx = spin * u(rng), wy = spin * u(rng), wz = spin * u(rng);
  json bodies = json::array({ground,
                             {{"name", "die"},
                              {"shape", {{"box", {0.1, 0.1, 0.1}}}},
                              {"density", 1000},
                              {"position", {x, y, z}},
                              {"orientation", {q.w(), q.x(), q.y(), q.z()}},
                              {"velocity", {vx, vy, 0}},
                              {"angular_velocity", {wx, wy, wz}}}});
  json doc = scene_doc(3, 2e-3, bodies, plus_contact(0.5, 0.3));
  doc["contact"]["model"] = "peg";
  return doc;
}

// Every impact of the run certified: the kinetic energy rose by no more than the kinematic
// bodies' work (0 without them) and its round-off allowance, every friction impulse in its cone;
// and more than one impact.
void expect_impacts_certified(const Stepped& run, int throw_) {
  for (const StepReport& r : run.reports) {
    EXPECT_LE(r.impacts.energy_change, r.impacts.kinematic_work + r.impacts.energy_tolerance)
        << "throw " << throw_;
    EXPECT_LE(r.impacts.cone_excess, 0) << "throw " << throw_;
  }
  EXPECT_GT(run.impacts(), 1) << "throw " << throw_;
}

// The die (body 1) on a face: one body axis along z, the centre 5 cm up.
void expect_on_a_face(const Stepped& run, int throw_) {
  const Mat3 R = body_orientation(run.sim.state, 1).toRotationMatrix();
  EXPECT_NEAR(R.row(2).cwiseAbs().maxCoeff(), 1, 1e-6) << "throw " << throw_;
  EXPECT_NEAR(run.sim.state.q_of(1)[2], 0.05, 1e-6) << "throw " << throw_;
}

TEST(LocatedImpact, RandomDieThrowsNeverGainEnergyAndRestOnAFace) {
  const json floor = {{"name", "floor"},
                      {"static", true},
                      {"shape", {{"box", {20, 20, 1}}}},
                      {"position", {0, 0, -0.5}}};
  std::mt19937_64 rng(7);
  for (int throw_ = 0; throw_ < 10; ++throw_) {
    Stepped run(die_throw_doc(floor, rng, 0, 1.5, 10));
    run.until(3.0);
    expect_impacts_certified(run, throw_);
    for (const StepReport& r : run.reports) EXPECT_EQ(r.impacts.kinematic_work, 0);
    expect_on_a_face(run, throw_);
    EXPECT_LT(run.sim.state.v_of(1).norm(), 1e-6) << "throw " << throw_;
  }
}

// A kinematic paddle (infinite mass, moving at U along x) meets a cube at rest, without gravity
// or friction: the cube leaves at (1 + e) U, as from a wall in the paddle's frame. Its kinetic
// energy rises by ½ m ((1 + e) U)²: the paddle's work −πᵀu = m (1 + e) U², less the impact's
// dissipation in the paddle's frame, ½ m (1 − e²) U².
TEST(LocatedImpact, AKinematicPaddleHitsACubeAsAWallInItsFrame) {
  constexpr Real U = 1.0, gap = 0.35;
  for (const int d : {2, 3})
    for (const Real e : {0.5, 1.0})
      for (const Real h : {1e-3, 7e-3}) {
        json paddle = {{"name", "paddle"}, {"kinematic", true}};
        json cube = {{"name", "cube"}, {"density", 500}};
        if (d == 3) {
          paddle["shape"] = {{"box", {0.1, 1, 1}}};
          paddle["position"] = {-0.5, 0, 0};
          paddle["velocity"] = {U, 0, 0};
          cube["shape"] = {{"box", {0.2, 0.2, 0.2}}};
          cube["position"] = {0, 0, 0};
        } else {
          paddle["shape"] = {{"box", {0.1, 1}}};
          paddle["position"] = {-0.5, 0};
          paddle["velocity"] = {U, 0};
          cube["shape"] = {{"box", {0.2, 0.2}}};
          cube["position"] = {0, 0};
        }
        json doc = scene_doc(d, h, json::array({paddle, cube}), plus_contact(e, 0.0));
        doc["contact"]["model"] = "peg";
        doc["gravity"] = d == 3 ? json::array({0, 0, 0}) : json::array({0, 0});
        Stepped run(doc);
        run.until(1.0);
        const std::string where =
            std::to_string(d) + "D, e = " + std::to_string(e) + ", h = " + std::to_string(h);
        const Real m = d == 3 ? 500 * 0.008 : 500 * 0.04;
        ASSERT_EQ(run.impacts(), 1) << where;
        EXPECT_NEAR(run.sim.state.v_of(kCube)[0], (1 + e) * U, 1e-9) << where;
        EXPECT_NEAR(run.sim.state.q_of(kCube)[0], (1 + e) * U * (run.sim.state.time - gap / U),
                    1e-9)
            << where;
        EXPECT_LT(run.sim.state.v_of(kCube).tail(d == 3 ? 5 : 2).norm(), 1e-9) << where;
        for (const StepReport& r : run.reports) {
          if (r.impacts.count == 0) continue;
          EXPECT_NEAR(r.impacts.kinematic_work, m * (1 + e) * U * U, 1e-9 * m) << where;
          EXPECT_NEAR(r.impacts.energy_change, 0.5 * m * (1 + e) * (1 + e) * U * U, 1e-9 * m)
              << where;
        }
      }
}

// Dice thrown onto a conveyor (a kinematic plate moving at 0.5 m/s along x), e = 0.5, μ = 0.3:
// no impact gains more than the conveyor's work, every friction impulse stays in its cone, and
// each die comes to rest on a face, carried at the conveyor's speed.
TEST(LocatedImpact, DiceOnAConveyorGainNoMoreThanItsWorkAndRideIt) {
  constexpr Real U = 0.5;
  const json conveyor = {{"name", "conveyor"},
                         {"kinematic", true},
                         {"shape", {{"box", {20, 4, 0.2}}}},
                         {"position", {0, 0, -0.1}},
                         {"velocity", {U, 0, 0}}};
  std::mt19937_64 rng(11);
  for (int throw_ = 0; throw_ < 3; ++throw_) {
    Stepped run(die_throw_doc(conveyor, rng, 0, 1.5, 10));
    run.until(3.0);
    expect_impacts_certified(run, throw_);
    Real work = 0;
    for (const StepReport& r : run.reports) work += std::abs(r.impacts.kinematic_work);
    EXPECT_GT(work, 0) << "throw " << throw_;
    expect_on_a_face(run, throw_);
    EXPECT_LT((run.sim.state.v_of(1) - (Vec6() << U, 0, 0, 0, 0, 0).finished()).norm(), 1e-6)
        << "throw " << throw_;
  }
}

// A die thrown onto a turntable (a kinematic plate spinning at ω = 1 rad/s about the vertical
// through its centre): the rows' kinematic velocities u are ω × r, different at every contact, and
// still no impact gains more than −πᵀu. The die ends riding the table: its spin is ω, and its
// centre moves as the table's point under it at the last step's start (where the step's contacts
// were taken), ω × x.
TEST(LocatedImpact, ADieOnATurntableGainsNoMoreThanItsWorkAndRidesIt) {
  constexpr Real omega = 1.0, h = 2e-3;
  const json turntable = {{"name", "turntable"},
                          {"kinematic", true},
                          {"shape", {{"box", {4, 4, 0.2}}}},
                          {"position", {0, 0, -0.1}},
                          {"angular_velocity", {0, 0, omega}}};
  std::mt19937_64 rng(5);
  for (int throw_ = 0; throw_ < 2; ++throw_) {
    Stepped run(die_throw_doc(turntable, rng, 0.2, 0.5, 5));
    run.until(3.0 - h);
    const Vec3 x = body_position(run.sim.state, 1);
    run.until(3.0);
    expect_impacts_certified(run, throw_);
    expect_on_a_face(run, throw_);
    const VecX v = run.sim.state.v_of(1);
    EXPECT_LT((v.tail(3) - Vec3(0, 0, omega)).norm(), 1e-6) << "throw " << throw_;
    EXPECT_LT((v.head(3) - Vec3(0, 0, omega).cross(Vec3(x.x(), x.y(), 0))).norm(), 1e-6)
        << "throw " << throw_;
  }
}

}  // namespace
}  // namespace exactsim::physics_test::located_impact
