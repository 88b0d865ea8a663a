// Joints in located PLUS impacts (docs/joints.md "Located impacts"). A planar triple pendulum with
// the PLUS paper's Example 4 masses strikes the ground with the tip of its last link: the
// stepper's impact problem (maximal coordinates, the pins as PLUS's bilateral rows; 2D, 3D and a
// turned 3D scene) against the stand-alone chain solver in joint coordinates
// (compliant/pin_chain.h), and the touch located along the joint-constrained motion against the
// chain's first touch integrated to 1e-10 in joint coordinates. A welded pair strikes as the
// compound body it forms, and a chain draped over a post with impacts gains no energy.
#include <cmath>
#include <cstdio>
#include <numbers>

#include <gtest/gtest.h>

#include "exactsim/api/joint_results.h"
#include "exactsim/compliant/pin_chain.h"
#include "exactsim/stepping/adaptive_step.h"
#include "experiments/compliant_examples.h"
#include "physics/physics_scene.h"

namespace exactsim::physics_test::joint_impacts {
namespace {

constexpr Real kTip = 1.25;  // m from link 2's pin: where Example 4's sphere meets the link axis

// Example 4's chain (experiments/compliant_examples.cc: links of 1 kg, I = 0.0858 kg m² at mid
// length, a 1 kg sphere with I = 0.025 kg m² at the end of link 2) with the sphere's contact
// replaced by a point at the link-2 tip (a sphere of radius 1e-12 there), pin 0 at `base`.
PinChain tip_chain(const Vec2& base, Real mu, Real e) {
  PinChain c = example4_chain(1e9);
  c.base = base;
  c.spheres[0].along = kTip;
  c.spheres[0].radius = 1e-12;
  c.spheres[0].plus_law.friction = mu;
  c.spheres[0].plus_law.restitution = RestitutionLaw::constant(e);
  return c;
}

// The chain as a 2D scene in (x, y) = the chain's (x, z): each link a body with the explicit mass
// and inertia of its welded masses, pinned to the last (link 0 to the world at the base); links
// 0 and 1 are 2 cm wide bars from pin to pin, link 2 a triangle whose apex is the tip
// (apex angle 2 atan(0.05/0.2) = 28°, so it is the lowest point while link 2 points within 76° of
// down). A static floor's top is y = 0. Velocities from the joint rates.
json chain_doc(const PinChain& c, const VecX& theta, const VecX& rate, Real h, Real mu, Real e) {
  json bodies = json::array({{{"name", "floor"},
                              {"static", true},
                              {"shape", {{"box", {20, 1}}}},
                              {"position", {0, -0.5}}}});
  json joints = json::array();
  const std::vector<Vec2> pins = pin_positions(c, theta);
  Real phi = 0;
  for (int k = 0; k < 3; ++k) {
    phi += theta[k];
    Real mass = 0, along = 0;
    for (const ChainBody& b : c.bodies)
      if (b.link == k) {
        mass += b.mass;
        along += b.mass * b.along;
      }
    along /= mass;
    Real inertia = 0;
    for (const ChainBody& b : c.bodies)
      if (b.link == k) inertia += b.inertia + b.mass * (b.along - along) * (b.along - along);
    // Body frame: the link points along −y, the centre of mass at the origin.
    const json shape =
        k < 2 ? json{{"box", {0.02, 1.0}}}
              : json{{"polygon",
                      {{-0.05, -(1.05 - along)}, {0.05, -(1.05 - along)}, {0, -(kTip - along)}}}};
    const Vec2 com = chain_point(c, theta, k, along, 0);
    const Vec2 v = chain_point_jacobian(c, theta, k, com) * rate;
    bodies.push_back({{"name", "link" + std::to_string(k)},
                      {"shape", shape},
                      {"mass", mass},
                      {"inertia", inertia},
                      {"position", {com.x(), com.y()}},
                      {"angle", phi},
                      {"velocity", {v.x(), v.y()}},
                      {"angular_velocity", rate.head(k + 1).sum()}});
    json bodies_of =
        k == 0 ? json{"link0"} : json{"link" + std::to_string(k - 1), "link" + std::to_string(k)};
    joints.push_back(
        {{"type", "revolute"}, {"bodies", bodies_of}, {"anchor", {pins[k].x(), pins[k].y()}}});
  }
  json doc = scene_doc(2, h, bodies,
                       {{"friction", mu}, {"impact", {{"model", "plus"}, {"restitution", e}}}});
  doc["joints"] = joints;
  doc["gravity"] = {0, c.gravity};
  return doc;
}

// The same chain in 3D, turned by `turn` as a whole: the links are prisms (bars 2 cm square, a
// square pyramid with its apex at the tip), the pins hinges along the turned z axis, the floor's
// top the turned plane y = 0, gravity turned with it.
json chain_doc_3d(const PinChain& c, const VecX& theta, const VecX& rate, Real h, Real mu, Real e,
                  const Quat& turn) {
  const json planar = chain_doc(c, theta, rate, h, mu, e);
  auto point = [&](const json& xy, Real z = 0) {
    const Vec3 p = turn * Vec3(xy[0].get<Real>(), xy[1].get<Real>(), z);
    return json{p.x(), p.y(), p.z()};
  };
  json bodies = json::array();
  for (const json& b : planar["bodies"]) {
    json out = b;
    out["position"] = point(b["position"]);
    if (b.contains("static")) {
      out["shape"] = {{"box", {20, 1, 20}}};
      out["orientation"] = {turn.w(), turn.x(), turn.y(), turn.z()};
      bodies.push_back(out);
      continue;
    }
    const Real half = b["angle"].get<Real>() / 2;
    const Quat q = turn * Quat(std::cos(half), 0, 0, std::sin(half));
    out.erase("angle");
    out["orientation"] = {q.w(), q.x(), q.y(), q.z()};
    out["velocity"] = point(b["velocity"]);
    out["angular_velocity"] = point(json{0, 0}, b["angular_velocity"].get<Real>());
    const Real inertia = b["inertia"].get<Real>();
    out["inertia"] = {{inertia, 0, 0}, {0, inertia, 0}, {0, 0, inertia}};
    if (b["shape"].contains("box")) {
      out["shape"] = {{"box", {0.02, 1.0, 0.02}}};
    } else {
      const json& v = b["shape"]["polygon"];
      const Real base = v[0][1].get<Real>(), apex = v[2][1].get<Real>();
      out["shape"] = {{"hull",
                       {{-0.05, base, -0.05},
                        {0.05, base, -0.05},
                        {0.05, base, 0.05},
                        {-0.05, base, 0.05},
                        {0, apex, 0}}}};
    }
    bodies.push_back(out);
  }
  json doc = planar;
  doc["dimension"] = 3;
  doc["bodies"] = bodies;
  for (json& j : doc["joints"]) {
    j["anchor"] = point(j["anchor"]);
    j["axis"] = point(json{0, 0}, 1);
  }
  doc["gravity"] = point(json{0, c.gravity});
  return doc;
}

StepReport advance_sim(Sim& sim) {
  return exactsim::advance(sim.scene.world, sim.state, sim.ws, sim.scene.step, sim.steps++);
}

TEST(JointImpacts, AStrikeGivesTheStandAloneChainSolversImpulses) {
  // The tip touches the floor at t = 0 with the chain moving: the first step resolves the impact
  // at the given state, so both solvers see the same pose and velocities. The stepper's problem
  // has 3 bodies × 3 velocities, one contact and 6 pin rows; the stand-alone one 3 joint rates
  // (ChainImpactForm::kJointCoordinates) or the same maximal form built from the chain
  // (kBilateralRows). Coordinates differ, so the checks are what does not depend on them: the
  // normal impulse, the tangential impulse's size, the contact's velocity after the impact and
  // the kinetic energy change; and the pin rows' velocity after it is zero.
  const VecX theta = example4_initial_angles();
  VecX rate(3);
  rate << 1.0, -1.5, 2.0;
  for (const Real mu : {0.1, 0.5, 2.0}) {
    for (const Real e : {1.0, 0.5}) {
      PinChain c = tip_chain(Vec2(0, 2), mu, e);
      c.base.y() -= chain_point(c, theta, 2, kTip, 0).y();  // the tip on the floor
      VecX r = rate;
      if ((chain_point_jacobian(c, theta, 2, chain_point(c, theta, 2, kTip, 0)) * r).y() > 0)
        r = -r;  // approaching
      Sim sim(chain_doc(c, theta, r, 1e-3, mu, e));
      const StepReport step = advance_sim(sim);
      ASSERT_EQ(step.status, StepStatus::kOk) << step.impacts.failure;
      ASSERT_EQ(step.impacts.count, 1);
      EXPECT_EQ(step.impacts.first_time, 0.0);
      const ImpactResult& got = sim.ws.impact.result;
      ASSERT_EQ(sim.ws.impact.problem.bilateral_rows, 6);
      ImpactOptions options = sim.scene.world.contact.impact.plus;
      options.record_log = false;
      for (const ChainImpactForm form :
           {ChainImpactForm::kJointCoordinates, ChainImpactForm::kBilateralRows}) {
        const ImpactResult want = resolve_chain_impact(c, theta, r, options, form).result;
        const Real scale = std::abs(want.impulse[2]);
        std::printf(
            "[ joint impacts ] mu %.1f e %.1f form %d: normal %.12f N s (stand-alone %.12f), "
            "tangential %.12f (%.12f)\n",
            mu, e, static_cast<int>(form), got.impulse[2], want.impulse[2],
            std::hypot(got.impulse[0], got.impulse[1]),
            std::hypot(want.impulse[0], want.impulse[1]));
        EXPECT_NEAR(got.impulse[2], want.impulse[2], 1e-9 * scale);
        EXPECT_NEAR(std::hypot(got.impulse[0], got.impulse[1]),
                    std::hypot(want.impulse[0], want.impulse[1]), 1e-9 * scale);
        EXPECT_NEAR(got.velocity[2], want.velocity[2], 1e-9 * std::abs(want.velocity[2]) + 1e-12);
        EXPECT_NEAR(std::abs(got.velocity[0]), std::abs(want.velocity[0]), 1e-9 * scale);
        EXPECT_NEAR(got.kinetic_energy_change, want.kinetic_energy_change,
                    1e-9 * std::abs(want.kinetic_energy_change) + 1e-12);
      }
      EXPECT_LT(got.velocity.tail(6).lpNorm<Eigen::Infinity>(), 1e-12);
      EXPECT_LE(got.kinetic_energy_change, 0);
    }
  }
}

// The first step of `doc` resolves one impact with `bilateral` joint rows: against the stand-alone
// chain solver's `want`, the normal impulse, the tangential impulse's size and the kinetic energy
// change to 1e-9, and the joint rows' velocity after it below 1e-12 m/s.
void expect_chain_strike(const json& doc, const ImpactResult& want, int bilateral,
                         const std::string& what) {
  Sim sim(doc);
  const StepReport step = advance_sim(sim);
  ASSERT_EQ(step.status, StepStatus::kOk) << what << ": " << step.impacts.failure;
  ASSERT_EQ(step.impacts.count, 1) << what;
  const ImpactResult& got = sim.ws.impact.result;
  ASSERT_EQ(sim.ws.impact.problem.bilateral_rows, bilateral) << what;
  std::printf("[ joint impacts ] %s: normal %.12f N s (stand-alone %.12f)\n", what.c_str(),
              got.impulse[2], want.impulse[2]);
  const Real scale = std::abs(want.impulse[2]);
  EXPECT_NEAR(got.impulse[2], want.impulse[2], 1e-9 * scale) << what;
  EXPECT_NEAR(std::hypot(got.impulse[0], got.impulse[1]),
              std::hypot(want.impulse[0], want.impulse[1]), 1e-9 * scale)
      << what;
  EXPECT_NEAR(got.kinetic_energy_change, want.kinetic_energy_change,
              1e-9 * std::abs(want.kinetic_energy_change))
      << what;
  EXPECT_LT(got.velocity.tail(bilateral).lpNorm<Eigen::Infinity>(), 1e-12) << what;
}

// The stand-alone chain solver's impact (joint coordinates) of chain c at angles theta with the
// point `along` link 2 on the floor, `rate` turned to approach it.
ImpactResult joint_coordinate_strike(const PinChain& c, const VecX& theta, VecX& rate, Real along) {
  if ((chain_point_jacobian(c, theta, 2, chain_point(c, theta, 2, along, 0)) * rate).y() > 0)
    rate = -rate;
  ImpactOptions options;
  options.record_log = false;
  return resolve_chain_impact(c, theta, rate, options, ChainImpactForm::kJointCoordinates).result;
}

TEST(JointImpacts, TheStrikeIn3DAndTurnedGivesTheSameImpulses) {
  // The planar strike above as a 3D scene with hinges (5 rows each: 15 bilateral rows), as
  // placed and turned by a random rotation: the motion stays in the chain's plane, so the impact
  // is the planar one, and what does not depend on coordinates must agree with the stand-alone
  // solver as in 2D.
  const VecX theta = example4_initial_angles();
  VecX rate(3);
  rate << 1.0, -1.5, 2.0;
  const Real mu = 0.5, e = 0.5;
  PinChain c = tip_chain(Vec2(0, 2), mu, e);
  c.base.y() -= chain_point(c, theta, 2, kTip, 0).y();
  const ImpactResult want = joint_coordinate_strike(c, theta, rate, kTip);
  for (const Quat& turn : {Quat::Identity(), Quat(0.3, -0.5, 0.7, 0.4).normalized()})
    expect_chain_strike(chain_doc_3d(c, theta, rate, 1e-3, mu, e, turn), want, 15,
                        "3D, turn w " + std::to_string(turn.w()));
}

// Two 0.4 × 0.2 (× 0.2) m boxes side by side, welded by a fixed joint or one compound body, turned
// by `turn` (2D: its angle about z) about their centre 0.5 m over the floor (top z = 0 in 3D,
// y = 0 in 2D), thrown at it without gravity.
json welded_doc(int dim, bool compound, const Quat& turn, const Vec3& velocity) {
  auto box = [dim](Real x0, Real x1) {
    json points = json::array();
    for (const Real x : {x0, x1})
      for (const Real y : {-0.1, 0.1}) {
        if (dim == 2) {
          points.push_back({x, y});
          continue;
        }
        for (const Real z : {-0.1, 0.1}) points.push_back({x, y, z});
      }
    return dim == 2 ? json{{"polygon", points}} : json{{"hull", points}};
  };
  const Vec3 centre = dim == 2 ? Vec3(0, 0.5, 0) : Vec3(0, 0, 0.5);
  auto placed = [&](const std::string& name, const json& shape, Real offset) {
    const Vec3 p = centre + turn * Vec3(offset, 0, 0);
    json b = {{"name", name}, {"shape", shape}, {"density", 500}};
    if (dim == 2) {
      b["position"] = {p.x(), p.y()};
      b["angle"] = 2 * std::atan2(turn.z(), turn.w());
      b["velocity"] = {velocity.x(), velocity.y()};
    } else {
      b["position"] = {p.x(), p.y(), p.z()};
      b["orientation"] = {turn.w(), turn.x(), turn.y(), turn.z()};
      b["velocity"] = {velocity.x(), velocity.y(), velocity.z()};
    }
    return b;
  };
  json floor = {{"name", "floor"}, {"static", true}};
  floor["shape"] = dim == 2 ? json{{"box", {20, 1}}} : json{{"box", {20, 20, 1}}};
  floor["position"] = dim == 2 ? json{0, -0.5} : json{0, 0, -0.5};
  json bodies = json::array({floor});
  if (compound) {
    bodies.push_back(placed("pair", {{"compound", {box(-0.4, 0), box(0, 0.4)}}}, 0));
  } else {
    bodies.push_back(placed("left", box(-0.2, 0.2), -0.2));
    bodies.push_back(placed("right", box(-0.2, 0.2), 0.2));
  }
  json doc = scene_doc(dim, 1e-3, bodies,
                       {{"friction", 0.3}, {"impact", {{"model", "plus"}, {"restitution", 0.5}}}});
  doc["gravity"] = dim == 2 ? json{0, 0} : json{0, 0, 0};
  if (!compound) {
    json anchor =
        dim == 2 ? json{centre.x(), centre.y()} : json{centre.x(), centre.y(), centre.z()};
    doc["joints"] =
        json::array({{{"type", "fixed"}, {"bodies", {"left", "right"}}, {"anchor", anchor}}});
  }
  return doc;
}

TEST(JointImpacts, AWeldedPairStrikesAsTheCompoundBody) {
  // Thrown without gravity and without spin, the welded pair moves as one body with zero joint
  // impulse, along the same straight path as the compound body, and strikes the floor with one
  // corner at the same instant. Its impact problem has two bodies held by the weld's rows (2D 3,
  // 3D 6) where the compound's has one body: the normal impulses, the kinetic energy change and
  // the velocities right after the impact must be the compound's. (After it the pair spins, and
  // its halves follow the rotation to O((hω)²) per step, docs/joints.md "Measured".)
  for (const int dim : {2, 3}) {
    const Quat turn = dim == 2 ? Quat(Eigen::AngleAxisd(0.3, Vec3::UnitZ()))
                               : Quat(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized()));
    const Vec3 velocity = dim == 2 ? Vec3(0.4, -2, 0) : Vec3(0.4, 0.2, -2);
    Sim welded(welded_doc(dim, false, turn, velocity));
    Sim compound(welded_doc(dim, true, turn, velocity));
    for (int n = 0;; ++n) {
      ASSERT_LT(n, 300) << "no impact";
      const StepReport a = advance_sim(welded);
      const StepReport b = advance_sim(compound);
      ASSERT_EQ(a.status, StepStatus::kOk) << "step " << n << ": " << a.impacts.failure;
      ASSERT_EQ(b.status, StepStatus::kOk) << "step " << n;
      ASSERT_EQ(a.impacts.count, b.impacts.count) << "step " << n;
      if (a.impacts.count == 0) continue;
      ASSERT_EQ(a.impacts.count, 1);
      // (the location's tolerance, 1e-12 m, at 2 m/s)
      EXPECT_NEAR(a.impacts.first_time, b.impacts.first_time, 1e-11);
      break;
    }
    const ImpactResult& got = welded.ws.impact.result;
    const ImpactResult& want = compound.ws.impact.result;
    const int contacts = static_cast<int>(want.contacts.size());
    ASSERT_EQ(static_cast<int>(got.contacts.size()), contacts);
    ASSERT_EQ(welded.ws.impact.problem.bilateral_rows, dim == 2 ? 3 : 6);
    Real normal_got = 0, normal_want = 0;
    for (int k = 0; k < contacts; ++k) {
      normal_got += got.impulse[3 * k + 2];
      normal_want += want.impulse[3 * k + 2];
    }
    std::printf(
        "[ joint impacts ] %dD welded pair: normal impulse %.12f N s (compound %.12f), kinetic "
        "energy change %.12f J (%.12f)\n",
        dim, normal_got, normal_want, got.kinetic_energy_change, want.kinetic_energy_change);
    EXPECT_NEAR(normal_got, normal_want, 1e-9 * normal_want);
    EXPECT_NEAR(got.kinetic_energy_change, want.kinetic_energy_change,
                1e-9 * std::abs(want.kinetic_energy_change));
    EXPECT_LT(got.velocity.tail(dim == 2 ? 3 : 6).lpNorm<Eigen::Infinity>(), 1e-12);
  }
}

TEST(JointImpacts, AChainDrapedWithImpactsGainsNoEnergy) {
  // scenes/chain-3d.json (8 ball-jointed links falling over a post) with located impacts, e = 0.5:
  // the steps around an impact are parts as short as 1e-9 h, and each part corrects its joints'
  // errors over the user's step (docs/joints.md "Rows"). Every step's T + V stays at or below the
  // first step's. (Correcting them over the part's own length instead, φ/t, this run reached
  // 8,304 J from 68.7 J by step 1,316, within the certificate's stabilisation budget.)
  Scene scene = read_scene_file(EXACTSIM_SOURCE_DIR "/scenes/chain-3d.json");
  scene.world.contact.impact.model = ImpactModel::kPlus;
  scene.world.contact.impact.restitution.e_min = 0.5;
  Sim sim(std::move(scene));
  Real first = 0, highest = 0;
  int impacts = 0;
  for (int n = 0; n < 400; ++n) {
    const StepReport r = advance_sim(sim);
    ASSERT_EQ(r.status, StepStatus::kOk) << "step " << n << ": " << r.impacts.failure;
    impacts += r.impacts.count;
    const Real e = r.kinetic_energy + r.potential_energy;
    if (n == 0) first = e;
    highest = std::max(highest, e);
  }
  std::printf(
      "[ joint impacts ] chain-3d with impacts, 400 steps: %d impacts, highest T + V %.9f J "
      "(first step %.9f J)\n",
      impacts, highest, first);
  EXPECT_GT(impacts, 0);
  EXPECT_LE(highest, first * (1 + 1e-12));
}

TEST(JointImpacts, APendulumCradlePassesTheSwingDownTheRow) {
  // scenes/pendulum-cradle-2d.json: five pinned octagons touching in a row, the first striking
  // it at 1.62 rad/s (e = 1, frictionless). The resting bobs' contacts close at the pins' φ/τ
  // (1.8e-7 m/s): they observe PLUS's rounds (docs/impacts.md "The step"). With PLUS's own
  // threshold they compressed with the striker, plastically, and the impact gained 6.8 J of
  // 13 J. The bobs are equal pendulums, so their kinetic energies go as ω²: the impact keeps
  // Σ ω² to 1e-3 (it only loses), and the last bob leaves with at least 90 % of it (the striker
  // touches with an edge just before its face is upright, so not all of it).
  for (const std::string induced : {"sequential", "mixed"}) {
    Scene scene = read_scene_file(EXACTSIM_SOURCE_DIR "/scenes/pendulum-cradle-2d.json");
    if (induced == "sequential")
      scene.world.contact.impact.plus.induced_impacts = InducedImpacts::kRounds;
    Sim sim(std::move(scene));
    Real before = 0;
    for (int n = 0;; ++n) {
      ASSERT_LT(n, 1000) << "no impact";
      before = sim.state.v_of(1)[2];
      const StepReport r = advance_sim(sim);
      ASSERT_EQ(r.status, StepStatus::kOk) << induced << ": " << r.impacts.failure;
      if (r.impacts.count > 0) break;
    }
    Real after = 0;
    for (int b = 1; b <= 5; ++b) after += sim.state.v_of(b)[2] * sim.state.v_of(b)[2];
    const Real last = sim.state.v_of(5)[2] * sim.state.v_of(5)[2];
    std::printf(
        "[ joint impacts ] cradle, %s: striker %.4f rad/s; after the impact step sum w^2 / "
        "w0^2 = %.6f, the last bob's share %.4f\n",
        induced.c_str(), before, after / (before * before), last / (before * before));
    EXPECT_LE(after, before * before * (1 + 1e-9)) << induced;
    EXPECT_GE(after, before * before * (1 - 1e-3)) << induced;
    EXPECT_GE(last, 0.9 * before * before) << induced;
  }
}

TEST(JointImpacts, APendulumCradleRunsItsThreeSecondsInEveryInducedModel) {
  // The same row for the scene's whole 3 s. With "sequential" rounds an impact at t = 1.514 s
  // has two contacts of three bobs closing at 7e-3 m/s (below capture_velocity: e = 0) and
  // 2.1e-2 m/s (e = 1); restituting the second while the first observes returned 2.8e-3 J for
  // the 2.2e-3 J the first round absorbed, which the certificate refused. The bounded expansion
  // (docs/plus.md "Energy through the rounds") keeps every impact at ΔT ≤ 0.
  for (const InducedImpacts induced :
       {InducedImpacts::kRounds, InducedImpacts::kMixed, InducedImpacts::kSimultaneous}) {
    Scene scene = read_scene_file(EXACTSIM_SOURCE_DIR "/scenes/pendulum-cradle-2d.json");
    scene.world.contact.impact.plus.induced_impacts = induced;
    const long steps = scene.step_count();
    Sim sim(std::move(scene));
    int impacts = 0;
    for (long n = 0; n < steps; ++n) {
      const StepReport r = advance_sim(sim);
      ASSERT_EQ(r.status, StepStatus::kOk)
          << static_cast<int>(induced) << " step " << n << ": " << r.impacts.failure;
      EXPECT_LE(r.impacts.energy_change, r.impacts.energy_tolerance) << "step " << n;
      impacts += r.impacts.count;
    }
    EXPECT_GT(impacts, 10) << static_cast<int>(induced);
  }
}

TEST(JointImpacts, ThePinsReactionsCoverTheWholeImpactStep) {
  // Linear momentum of the pendulum cradle's five bobs over a step: its change is gravity's
  // impulse plus the pins' (the contacts between bobs cancel). In the striker's impact step the
  // pins carry the parts before and after the impact and the impact's own bilateral impulses
  // (api/joint_results.h); the last part's alone would miss the impact's.
  Scene scene = read_scene_file(EXACTSIM_SOURCE_DIR "/scenes/pendulum-cradle-2d.json");
  Sim sim(std::move(scene));
  const World& w = sim.scene.world;
  const Real h = sim.scene.step;
  int impact_steps = 0;
  Real worst = 0, largest = 0, gravity = 0;
  for (int n = 0; n < 3000 && impact_steps < 3; ++n) {
    Vec3 before = Vec3::Zero(), weight = Vec3::Zero();
    for (int b = 0; b < w.body_count(); ++b) {
      if (w.bodies[b].is_static || !sim.state.present[b]) continue;
      before += w.bodies[b].mass * body_velocity(sim.state, b);
      weight += w.bodies[b].mass * w.gravity * h;
    }
    const StepReport r = advance_sim(sim);
    ASSERT_EQ(r.status, StepStatus::kOk) << r.impacts.failure;
    if (n == 0) continue;  // (the bobs join at step 0)
    Vec3 after = Vec3::Zero(), pins = Vec3::Zero();
    for (int b = 0; b < w.body_count(); ++b)
      if (!w.bodies[b].is_static) after += w.bodies[b].mass * body_velocity(sim.state, b);
    for (const JointResult& j : joint_results(w, sim.state, sim.ws)) {
      ASSERT_EQ(j.body_b, kWorldBody);  // each bob hangs from the world
      pins += j.impulse;
    }
    const Real error = (after - before - weight - pins).norm();
    if (r.impacts.count > 0) {
      ++impact_steps;
      worst = std::max(worst, error);
      largest = std::max(largest, pins.norm());
      gravity = weight.norm();
    }
  }
  std::printf(
      "[ joint impacts ] cradle impact steps: momentum balance residual %.2e N s, pins' impulse "
      "up to %.4f N s\n",
      worst, largest);
  ASSERT_EQ(impact_steps, 3);
  EXPECT_GT(largest, 5 * gravity);  // the impacts' share: far beyond holding the bobs up
  EXPECT_LE(worst, 1e-9 * largest);
}

// Steps the chain released at rest from `theta` until its first impact; the step's report.
StepReport first_impact(Sim& sim) {
  for (;;) {
    const StepReport r = advance_sim(sim);
    if (r.status != StepStatus::kOk || r.impacts.count > 0 || sim.state.time > 2) return r;
  }
}

TEST(JointImpacts, TheTouchIsLocatedAlongTheJointConstrainedMotion) {
  // Released from rest at Example 4's angles, the chain falls for about half a second. Each step
  // predicts the joined links' motion as the step moves them (ν = ν₀ + M⁻¹(hF + Jᵀλ) with the pin
  // rows): the impact is resolved at the located instant (within the impact proximity, 1e-6 m,
  // or resolve_impact finds no contact and none is counted). The located time differs from the
  // chain's exact first touch (joint coordinates, integrated to 1e-10) by the step's error,
  // O(h); its order over h = 4, 2, 1 ms is measured. The impulse at the located touch differs from
  // the stand-alone solver's at the exact touch by the same order.
  const VecX theta = example4_initial_angles();
  const Real mu = 0.1, e = 1.0;
  const PinChain c = tip_chain(Vec2(0, 2), mu, e);
  const ChainState touch = example4_first_touch(c, theta, 1e-10);
  ImpactOptions options;
  options.record_log = false;
  const ImpactResult want =
      resolve_chain_impact(c, touch.theta, touch.rate, options, ChainImpactForm::kJointCoordinates)
          .result;
  std::vector<Real> time_error, impulse_error;
  for (const Real h : {4e-3, 2e-3, 1e-3}) {
    Sim sim(chain_doc(c, theta, VecX::Zero(3), h, mu, e));
    const StepReport r = first_impact(sim);
    ASSERT_EQ(r.status, StepStatus::kOk) << "h = " << h << ": " << r.impacts.failure;
    ASSERT_EQ(r.impacts.count, 1) << "h = " << h;
    const ImpactResult& got = sim.ws.impact.result;
    time_error.push_back(std::abs(r.impacts.first_time - touch.time));
    impulse_error.push_back(std::abs(got.impulse[2] / want.impulse[2] - 1));
    std::printf(
        "[ joint impacts ] h %.0e: touch at %.9f s (exact %.9f), normal impulse %.9f N s "
        "(%.9f at the exact touch)\n",
        h, r.impacts.first_time, touch.time, got.impulse[2], want.impulse[2]);
    EXPECT_LT(got.velocity.tail(6).lpNorm<Eigen::Infinity>(), 1e-12);
  }
  const Real time_order = std::log2(time_error[0] / time_error[2]) / 2;
  const Real impulse_order = std::log2(impulse_error[0] / impulse_error[2]) / 2;
  // First order (symplectic Euler's position error); at h = 1 ms within h of the exact touch.
  std::printf(
      "[ joint impacts ] touch time error %.2e, %.2e, %.2e (order %.2f); impulse %.2e, "
      "%.2e, %.2e (order %.2f)\n",
      time_error[0], time_error[1], time_error[2], time_order, impulse_error[0], impulse_error[1],
      impulse_error[2], impulse_order);
  EXPECT_GT(time_order, 0.9);
  EXPECT_GT(impulse_order, 0.9);
  EXPECT_LT(time_error[2], 1e-3);
}

// Example 4's chain as it is, with its sphere (experiments/compliant_examples.h's
// example4_scene: bars on hinges along the turned z axis, the sphere a body welded to link 2, the
// ground the turned half-space y ≤ 0), under the standard contact model, at step h; μ and e are
// the chain sphere's (sphere_chain below).
json sphere_chain_doc(const PinChain& c, const VecX& theta, const VecX& rate, Real h,
                      const Quat& turn) {
  json doc = example4_scene(c, theta, rate, turn);
  doc["time"]["step"] = h;
  doc["contact"]["model"] = "standard";
  return doc;
}

PinChain sphere_chain(Real mu, Real e) {
  PinChain c = example4_chain(1e9);
  c.spheres[0].plus_law.friction = mu;
  c.spheres[0].plus_law.restitution = RestitutionLaw::constant(e);
  return c;
}

TEST(JointImpacts, Example4WithItsSphereStrikesAsTheStandAloneChain) {
  // The strike of the first test with Example 4's sphere instead of a point: the sphere's lowest
  // point on the floor at t = 0, as placed and turned. The stepper's impact problem has 5 bodies,
  // one sphere–half-space contact and 21 bilateral rows (3 hinges, the weld); the stand-alone chain
  // solver lumps the sphere into link 2 and works in joint coordinates.
  const VecX theta = example4_initial_angles();
  for (const Real mu : {0.1, 0.5}) {
    PinChain c = sphere_chain(mu, 0.5);
    c.base.y() -= chain_point(c, theta, 2, 1.0, 0).y() - c.spheres[0].radius;
    VecX rate(3);
    rate << 1.0, -1.5, 2.0;
    const ImpactResult want = joint_coordinate_strike(c, theta, rate, 1.0);
    for (const Quat& turn : {Quat::Identity(), Quat(0.3, -0.5, 0.7, 0.4).normalized()})
      expect_chain_strike(
          sphere_chain_doc(c, theta, rate, 1e-3, turn), want, 21,
          "sphere, mu " + std::to_string(mu) + ", turn w " + std::to_string(turn.w()));
  }
}

TEST(JointImpacts, Example4WithItsSphereTouchesWhereTheChainDoes) {
  // Released from rest at Example 4's angles: the located touch of the sphere against the chain's
  // first touch (joint coordinates, 1e-10), first order in h as with the point tip.
  const VecX theta = example4_initial_angles();
  const PinChain c = sphere_chain(0.1, 1.0);
  const ChainState touch = example4_first_touch(c, theta, 1e-10);
  std::vector<Real> time_error;
  for (const Real h : {4e-3, 2e-3, 1e-3}) {
    Sim sim(sphere_chain_doc(c, theta, VecX::Zero(3), h, Quat::Identity()));
    const StepReport r = first_impact(sim);
    ASSERT_EQ(r.status, StepStatus::kOk) << "h = " << h << ": " << r.impacts.failure;
    ASSERT_EQ(r.impacts.count, 1) << "h = " << h;
    time_error.push_back(std::abs(r.impacts.first_time - touch.time));
    std::printf("[ joint impacts ] sphere, h %.0e: touch at %.9f s (exact %.9f)\n", h,
                r.impacts.first_time, touch.time);
  }
  const Real order = std::log2(time_error[0] / time_error[2]) / 2;
  std::printf("[ joint impacts ] sphere touch error %.2e, %.2e, %.2e (order %.2f)\n", time_error[0],
              time_error[1], time_error[2], order);
  EXPECT_GT(order, 0.9);
  EXPECT_LT(time_error[2], 1e-3);
}

}  // namespace
}  // namespace exactsim::physics_test::joint_impacts
