// The user-facing API (docs/api.md): builder, validation, time, contact results.
#include <gtest/gtest.h>

#include <cmath>

#include "exactsim/exactsim.h"
#include "input_error.h"

namespace exactsim {
namespace {

constexpr Real kG = 9.81;

// Sum over the last step's contacts of the force (N) the contacts put on `body`.
Vec3 contact_force_on(const Simulation& sim, int body) {
  Vec3 f = Vec3::Zero();
  for (const ContactResult& c : sim.contacts()) {
    const Vec3 impulse = c.normal_impulse * c.normal + c.friction_impulse;  // on B
    if (c.body_b == body) f += impulse / sim.step_size();
    if (c.body_a == body) f -= impulse / sim.step_size();
  }
  return f;
}

Scene box_on_floor_2d(ContactModel model, Real friction) {
  Scene s = make_scene(2, 0.01);
  s.world.contact.model = model;
  s.world.contact.friction = friction;
  add_body(
      s,
      {.name = "floor", .shape = make_box(Vec2(4, 1)), .is_static = true, .position = {0, -0.5}});
  add_body(
      s, {.name = "box", .shape = make_box(Vec2(0.2, 0.2)), .density = 100, .position = {0, 0.1}});
  return s;
}

TEST(Api, BoxOnFloor2dRestsWithNormalForceMg) {
  for (ContactModel model : {ContactModel::kStandard, ContactModel::kPeg}) {
    SCOPED_TRACE(to_string(model));
    Simulation sim(box_on_floor_2d(model, 0.4));
    const Real m = sim.world().bodies[1].mass;
    EXPECT_DOUBLE_EQ(m, 100 * 0.2 * 0.2);
    sim.run(1.0);
    EXPECT_EQ(sim.steps_taken(), 100);
    EXPECT_EQ(sim.last_report().status, StepStatus::kOk);
    EXPECT_LT(sim.state().v_of(1).norm(), 1e-9);  // at rest
    EXPECT_NEAR(sim.state().q_of(1)[1], 0.1, 1e-3);
    const auto contacts = sim.contacts();
    ASSERT_FALSE(contacts.empty());
    for (const ContactResult& c : contacts) {
      EXPECT_NEAR(std::abs(c.normal.y()), 1.0, 1e-12);  // floor normal ±ŷ
      EXPECT_GE(c.normal_impulse, 0);
      // n̂ points from A to B: up when the box is B
      EXPECT_EQ(c.normal.y() > 0, c.body_b == 1);
    }
    const Vec3 f = contact_force_on(sim, 1);
    EXPECT_NEAR(f.y(), m * kG, 1e-6 * m * kG);  // closed form: the floor carries the weight
    EXPECT_NEAR(f.x(), 0, 1e-9);
  }
}

TEST(Api, SlidingBoxFeelsCoulombFriction) {
  // A box sliding on the floor: friction μ m g against the motion while it slides.
  Scene s = box_on_floor_2d(ContactModel::kStandard, 0.4);
  s.initial.v_of(1)[0] = 2.0;
  Simulation sim(std::move(s));
  sim.run(0.05);
  const Real m = sim.world().bodies[1].mass;
  ASSERT_GT(sim.state().v_of(1)[0], 0.5);  // still sliding
  const Vec3 f = contact_force_on(sim, 1);
  EXPECT_NEAR(f.y(), m * kG, 1e-6 * m * kG);
  EXPECT_NEAR(f.x(), -0.4 * m * kG, 1e-6 * m * kG);
}

TEST(Api, BoxOnFloor3dRestsWithNormalForceMg) {
  Scene s = make_scene(3, 0.005);
  s.world.contact.model = ContactModel::kStandard;
  s.world.contact.friction = 0.3;
  add_body(s, {.name = "floor",
               .shape = make_box(Vec3(4, 4, 1)),
               .is_static = true,
               .position = {0, 0, -0.5}});
  add_body(s, {.name = "box",
               .shape = make_box(Vec3(0.2, 0.3, 0.1)),
               .mass = 2.0,
               .position = {0, 0, 0.05}});
  Simulation sim(std::move(s));
  EXPECT_DOUBLE_EQ(sim.world().bodies[1].mass, 2.0);
  // Inertia of a uniform box of mass 2: m (b² + c²)/12 about x.
  EXPECT_NEAR(sim.world().bodies[1].inertia(0, 0), 2.0 * (0.09 + 0.01) / 12, 1e-12);
  sim.run(0.5);
  EXPECT_EQ(sim.last_report().status, StepStatus::kOk);
  const auto contacts = sim.contacts();
  ASSERT_GE(contacts.size(), 3u);
  for (const ContactResult& c : contacts) EXPECT_NEAR(std::abs(c.normal.z()), 1.0, 1e-12);
  const Vec3 f = contact_force_on(sim, 1);
  EXPECT_NEAR(f.z(), 2.0 * kG, 1e-6 * 2.0 * kG);
  EXPECT_NEAR(f.head<2>().norm(), 0, 1e-8);
}

TEST(Api, TimeIsKeptBySimulation) {
  Simulation sim(box_on_floor_2d(ContactModel::kPeg, 0));
  EXPECT_EQ(sim.time(), 0);
  EXPECT_TRUE(sim.contacts().empty());
  for (int k = 0; k < 3; ++k) sim.step();
  EXPECT_EQ(sim.last_report().step, 2);
  EXPECT_DOUBLE_EQ(sim.time(), 0.03);
  // A free body falls: the state really advances with the kept time.
  Scene s = make_scene(2, 0.01);
  add_body(s, {.name = "ball", .shape = make_regular_polygon(8, 0.1), .density = 1});
  Simulation fall(std::move(s));
  fall.run(0.5);
  EXPECT_DOUBLE_EQ(fall.time(), 0.5);
  EXPECT_NEAR(fall.state().v_of(0)[1], -kG * 0.5, 1e-12);
}

TEST(Api, BuilderMatchesSceneFileBitForBit) {
  // scenes/box-on-floor-2d.json and cube-drop-3d.json, written with the builder.
  Scene s2 = make_scene(2, 0.01, 2.0);
  s2.world.contact.model = ContactModel::kStandard;
  s2.world.contact.friction = 0.4;
  add_body(
      s2,
      {.name = "floor", .shape = make_box(Vec2(4, 1)), .is_static = true, .position = {0, -0.5}});
  add_body(s2, {.name = "box",
                .shape = make_box(Vec2(0.2, 0.2)),
                .density = 100,
                .position = {0, 0.3},
                .angle = 0.3,
                .velocity = {1.0, 0}});
  Scene s3 = make_scene(3, 0.005, 2.0);
  s3.world.contact.model = ContactModel::kStandard;
  s3.world.contact.friction = 0.3;
  s3.world.contact.friction_directions = 8;
  add_body(s3, {.name = "floor",
                .shape = make_box(Vec3(4, 4, 1)),
                .is_static = true,
                .position = {0, 0, -0.5}});
  add_body(s3, {.name = "cube",
                .shape = make_box(Vec3(0.2, 0.2, 0.2)),
                .density = 500,
                .position = {0, 0, 0.4},
                .orientation = Quat(0.96, 0.2, 0.15, 0.1),
                .velocity = {0.5, 0, 0},
                .angular_velocity = {0, 0, 2}});
  for (auto [built, file] : {std::pair{&s2, "box-on-floor-2d"}, {&s3, "cube-drop-3d"}}) {
    SCOPED_TRACE(file);
    const Scene read =
        read_scene_file(std::string(EXACTSIM_SOURCE_DIR) + "/scenes/" + file + ".json");
    EXPECT_EQ(built->initial.q, read.initial.q);
    EXPECT_EQ(built->initial.v, read.initial.v);
    EXPECT_EQ(built->world.bodies[1].mass, read.world.bodies[1].mass);
    Simulation a(*built), b(read);
    for (int k = 0; k < 100; ++k) {
      a.step();
      b.step();
    }
    EXPECT_EQ(a.state().q, b.state().q);
    EXPECT_EQ(a.state().v, b.state().v);
  }
}

TEST(Api, BuilderErrorsNameBodyAndField) {
  Scene s = make_scene(2, 0.01);
  add_body(s, {.name = "floor", .shape = make_box(Vec2(4, 1)), .is_static = true});
  EXPECT_EQ(
      ErrorOf([&] { add_body(s, {.name = "box", .shape = make_box(Vec2(1, 1)), .density = -1}); }),
      "bodies[1] (box).density: must be > 0, got -1.0");
  EXPECT_EQ(ErrorOf([&] { add_body(s, {.name = "box", .shape = make_box(Vec2(1, 1))}); }),
            "bodies[1] (box).density: a dynamic body needs a density or a mass");
  EXPECT_EQ(
      ErrorOf([&] { add_body(s, {.name = "floor", .shape = make_box(Vec2(1, 1)), .density = 1}); }),
      "bodies[1] (floor).name: duplicate body name 'floor'");
  EXPECT_EQ(ErrorOf([&] {
              add_body(s, {.name = "cube", .shape = make_box(Vec3(1, 1, 1)), .density = 1});
            }),
            "bodies[1] (cube).shape: a 2D scene needs a polygon");
  EXPECT_EQ(
      ErrorOf([&] {
        add_body(
            s,
            {.name = "box", .shape = make_box(Vec2(1, 1)), .is_static = true, .velocity = {1, 0}});
      }),
      "bodies[1] (box).velocity: a static body cannot move");
  EXPECT_EQ(s.world.body_count(), 1);  // failed additions left nothing behind
  EXPECT_EQ(s.initial.q.size(), 3);
  Scene s3 = make_scene(3, 0.01);
  Mat3 bad = Mat3::Identity();
  bad(2, 2) = -1;
  EXPECT_EQ(ErrorOf([&] {
              add_body(s3,
                       {.name = "rock", .shape = make_icosahedron(0.5), .mass = 1, .inertia = bad});
            }),
            "bodies[0] (rock).inertia: the inertia matrix must be positive definite");
  EXPECT_EQ(s3.world.body_count(), 0);
  EXPECT_EQ(ErrorOf([] { make_scene(4, 0.01); }), "dimension: must be 2 or 3, got 4");
}

TEST(Api, ValidationNamesBodyAndField) {
  const Scene good = box_on_floor_2d(ContactModel::kPeg, 0.4);
  {
    Scene s = good;
    s.initial.present.clear();  // a State without present flags is refused, not read out of bounds
    EXPECT_EQ(ErrorOf([&] { Simulation sim(s); }),
              "state.present: 0 flags for 2 bodies (one per body: 0 until spawned, step() sets "
              "them)");
  }
  {
    Scene s = good;
    s.initial.dimension = 3;  // refused: a State of the wrong dimension gives a NaN bound
    EXPECT_EQ(ErrorOf([&] { Simulation sim(s); }),
              "state.dimension: 3, but the world is 2D (set State::dimension)");
  }
  {
    Scene s = good;
    s.world.bodies[1].mass = 0;
    EXPECT_EQ(ErrorOf([&] { Simulation sim(s); }), "bodies[1] (box).mass: must be > 0, got 0.0");
  }
  {
    Scene s = good;
    s.initial.v_of(1)[2] = std::nan("");
    EXPECT_EQ(ErrorOf([&] { Simulation sim(s); }),
              "bodies[1] (box).velocity: must be finite (state.v)");
  }
  {
    Scene s = good;
    s.world.bodies[0].shape = 7;
    EXPECT_EQ(ErrorOf([&] { Simulation sim(s); }),
              "bodies[0] (floor).shape: index 7 names no polygon of the world (2 given)");
  }
  {
    Scene s = good;
    s.initial.time = 1;
    EXPECT_EQ(ErrorOf([&] { Simulation sim(s); }).substr(0, 15), "state.time: mus");
  }
  {
    Scene s = read_scene_file(std::string(EXACTSIM_SOURCE_DIR) + "/scenes/cube-drop-3d.json");
    s.initial.q_of(1).tail<4>() *= 2;
    EXPECT_EQ(ErrorOf([&] { Simulation sim(s); }),
              "bodies[1] (cube).orientation: quaternion norm 2.000000, must be 1 (normalise it)");
  }
  EXPECT_EQ(ErrorOf([] { Simulation::from_file("no-such-scene.json"); }).substr(0, 38),
            "no-such-scene.json: cannot read the fi");
}

TEST(Api, PegPileReportsRolesAndImpulses) {
  // A small 2D pile: PEG's roles cover every contact; impulses are non-negative and only on
  // impulse-carrying roles.
  Scene s = make_scene(2, 0.005);
  s.world.contact.friction = 0.3;
  add_body(s, {.name = "floor",
               .shape = make_box(Vec2(3, 0.5)),
               .is_static = true,
               .position = {0, -0.25}});
  for (int i = 0; i < 6; ++i)
    add_body(s, {.shape = make_regular_polygon(3 + i % 4, 0.12),
                 .density = 200,
                 .position = {0.05 * (i % 3) - 0.05, 0.15 + 0.26 * i},
                 .angle = 0.3 * i});
  Simulation sim(std::move(s));
  int seen = 0, primaries = 0;
  sim.run(2.5, [&](const Simulation& x) {
    for (const ContactResult& c : x.contacts()) {
      ++seen;
      primaries += c.role == ContactRole::kPrimary;
      EXPECT_GE(c.normal_impulse, -1e-12);
      if (c.role == ContactRole::kSecondary || c.role == ContactRole::kUnused) {
        EXPECT_EQ(c.normal_impulse, 0);
        EXPECT_EQ(c.friction_impulse.norm(), 0);
      }
      // Coulomb: |friction| <= μ p (polyhedral cone in 2D is exact)
      EXPECT_LE(c.friction_impulse.norm(), 0.3 * c.normal_impulse + 1e-9);
    }
    return true;
  });
  EXPECT_GT(seen, 0);
  EXPECT_GT(primaries, 0);  // PEG formed I constraints
  EXPECT_EQ(sim.steps_taken(), 500);
  EXPECT_GE(sim.overlap(), 0);
  EXPECT_LT(sim.kinetic_energy(), 1e-6);  // settled
}

TEST(Api, VersionIsTheProjectVersion) {
  EXPECT_STRNE(version(), "");
  EXPECT_EQ(std::string(version()).find('.') != std::string::npos, true);
}

}  // namespace
}  // namespace exactsim
