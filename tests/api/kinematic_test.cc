// Kinematic bodies (docs/stepping.md "Kinematic bodies"): infinite mass moving with a prescribed
// velocity. They carry and push dynamic bodies, are never pushed back, feel neither gravity nor
// contacts, pass through static and other kinematic bodies, and the energy certificate counts
// their work.
//
// Closed forms.
//  Carried: a box at rest on a plate moving at V along x, under Coulomb friction μ, slides on it,
//    friction accelerating it at μ g: the semi-implicit step gives v_k = k h μ g until that would
//    pass V, then v_k = V (it sticks and moves with the plate); x_n − x_0 = h Σ_{k=1..n} v_k.
//  Pushed: a frictionless box ahead of a paddle moving at V is met and from then on moves at V,
//    touching the paddle.
//  Prescribed: a kinematic body's pose after n steps is x_0 + n h v and, in 2D, θ_0 + n h ω; in 3D
//    its orientation is exp(n h ω) q_0.
#include <gtest/gtest.h>

#include <cmath>

#include "exactsim/exactsim.h"
#include "input_error.h"

namespace exactsim::kinematic_test {
namespace {

constexpr Real kG = 9.81;

// The balance of a solve that needs the kinematic bodies' work: without it, energy from nowhere.
bool needs_kinematic_work(const EnergyBalance& e) {
  return e.checked && e.after - (e.free_flight + e.stabilisation) > e.tolerance;
}

Scene plate_and_box(int dimension, ContactModel model, Real mu, Real plate_speed) {
  Scene s = make_scene(dimension, 0.01);
  s.world.contact.model = model;
  s.world.contact.friction = mu;
  if (dimension == 2) {
    add_body(s, {.name = "plate",
                 .shape = make_box(Vec2(10, 0.1)),
                 .kinematic = true,
                 .position = {0, -0.05},
                 .velocity = {plate_speed, 0}});
    add_body(
        s,
        {.name = "box", .shape = make_box(Vec2(0.2, 0.2)), .density = 100, .position = {0, 0.1}});
  } else {
    s.world.contact.friction_directions = 8;
    add_body(s, {.name = "plate",
                 .shape = make_box(Vec3(10, 10, 0.1)),
                 .kinematic = true,
                 .position = {0, 0, -0.05},
                 .velocity = {plate_speed, 0, 0}});
    add_body(s, {.name = "box",
                 .shape = make_box(Vec3(0.2, 0.2, 0.2)),
                 .density = 500,
                 .position = {0, 0, 0.1}});
  }
  return s;
}

TEST(Kinematic, PlateCarriesBoxAtItsSpeedOnceItSticks) {
  for (int d : {2, 3})
    for (ContactModel model : {ContactModel::kStandard, ContactModel::kPeg}) {
      SCOPED_TRACE(std::to_string(d) + "D " + to_string(model));
      const Real mu = 0.5, V = 0.5;
      Simulation sim(plate_and_box(d, model, mu, V));
      const int plate = sim.body("plate"), box = sim.body("box");
      const Real h = sim.step_size();
      const Vec3 plate0 = sim.position(plate), box0 = sim.position(box);
      Real v = 0, x = 0;  // the closed form
      bool needed_work = false;
      const int n = 40;
      for (int k = 1; k <= n; ++k) {
        const StepReport& r = sim.step();
        ASSERT_EQ(r.status, StepStatus::kOk) << "step " << k;
        needed_work = needed_work || needs_kinematic_work(r.energy);
        v = std::min(v + h * mu * kG, V);
        x += h * v;
        EXPECT_NEAR(sim.velocity(box).x(), v, 1e-9) << "step " << k;
        // The plate keeps its velocity exactly, and is where it prescribes.
        ASSERT_EQ(sim.velocity(plate), Vec3(V, 0, 0));
        ASSERT_EQ(sim.angular_velocity(plate), Vec3::Zero());
        EXPECT_NEAR(sim.position(plate).x() - plate0.x(), k * h * V, 1e-12);
      }
      EXPECT_EQ(v, V);  // the box stuck within the run
      EXPECT_NEAR(sim.position(box).x() - box0.x(), x, 1e-9);
      EXPECT_NEAR(sim.position(box).y() - box0.y(), 0, 1e-9);
      EXPECT_NEAR(sim.position(box).z() - box0.z(), 0, 1e-9);
      EXPECT_NEAR((sim.position(plate) - plate0).tail(2).norm(), 0, 0);
      EXPECT_TRUE(needed_work);  // the plate's work was counted, not left as energy from nowhere
    }
}

// In 3D the friction cone turns toward the slip against the moving plate (docs/stepping.md
// "Friction directions"), so the closed form holds along any direction, not only along a cone's
// fixed directions.
TEST(Kinematic, PlateCarriesBoxAlongAnyDirectionIn3D) {
  for (ContactModel model : {ContactModel::kStandard, ContactModel::kPeg}) {
    SCOPED_TRACE(to_string(model));
    const Real mu = 0.5, V = 0.5;
    const Vec3 along(std::cos(0.5), std::sin(0.5), 0);  // between the cone's directions
    Scene s = plate_and_box(3, model, mu, V);
    s.initial.v_of(0).head<3>() = V * along;
    Simulation sim(std::move(s));
    const int plate = sim.body("plate"), box = sim.body("box");
    const Real h = sim.step_size();
    Real v = 0;
    for (int k = 1; k <= 40; ++k) {
      ASSERT_EQ(sim.step().status, StepStatus::kOk) << "step " << k;
      v = std::min(v + h * mu * kG, V);
      EXPECT_NEAR((sim.velocity(box) - v * along).norm(), 0, 1e-9) << "step " << k;
      ASSERT_EQ(sim.velocity(plate), V * along);
    }
    EXPECT_EQ(v, V);
  }
}

Scene paddle_and_box(int dimension, Real paddle_speed) {
  Scene s = make_scene(dimension, 0.01);
  s.world.contact.friction = 0;
  // The paddle reaches into the floor: a kinematic and a static body never collide.
  if (dimension == 2) {
    add_body(s, {.name = "floor",
                 .shape = make_box(Vec2(40, 1)),
                 .is_static = true,
                 .position = {0, -0.5}});
    add_body(
        s,
        {.name = "box", .shape = make_box(Vec2(0.2, 0.2)), .density = 100, .position = {0, 0.1}});
    add_body(s, {.name = "paddle",
                 .shape = make_box(Vec2(0.1, 0.4)),
                 .kinematic = true,
                 .position = {-0.175, 0.15},
                 .velocity = {paddle_speed, 0}});
  } else {
    add_body(s, {.name = "floor",
                 .shape = make_box(Vec3(40, 40, 1)),
                 .is_static = true,
                 .position = {0, 0, -0.5}});
    add_body(s, {.name = "box",
                 .shape = make_box(Vec3(0.2, 0.2, 0.2)),
                 .density = 500,
                 .position = {0, 0, 0.1}});
    add_body(s, {.name = "paddle",
                 .shape = make_box(Vec3(0.1, 0.4, 0.4)),
                 .kinematic = true,
                 .position = {-0.175, 0, 0.15},
                 .velocity = {paddle_speed, 0, 0}});
  }
  return s;
}

TEST(Kinematic, PaddlePushesBoxAndIsNotSlowed) {
  for (int d : {2, 3}) {
    SCOPED_TRACE(d);
    const Real V = 1;
    Simulation sim(paddle_and_box(d, V));
    const int box = sim.body("box"), paddle = sim.body("paddle");
    const Real h = sim.step_size();
    const Vec3 paddle0 = sim.position(paddle);
    bool needed_work = false;
    const int n = 30;
    for (int k = 1; k <= n; ++k) {
      const StepReport& r = sim.step();
      ASSERT_EQ(r.status, StepStatus::kOk) << "step " << k;
      needed_work = needed_work || needs_kinematic_work(r.energy);
      ASSERT_EQ(sim.velocity(paddle), Vec3(V, 0, 0)) << "step " << k;
      EXPECT_NEAR(sim.position(paddle).x() - paddle0.x(), k * h * V, 1e-12);
      EXPECT_NEAR((sim.position(paddle) - paddle0).tail(2).norm(), 0, 0);
    }
    // Met after about 2.5 steps (gap 0.025 m), the box then moves at the paddle's speed, touching.
    EXPECT_NEAR(sim.velocity(box).x(), V, 1e-9);
    EXPECT_NEAR(sim.velocity(box).tail(2).norm(), 0, 1e-9);
    const Real box_left = sim.position(box).x() - 0.1,
               paddle_right = sim.position(paddle).x() + 0.05;
    EXPECT_NEAR(box_left - paddle_right, 0, 1e-9);
    EXPECT_NEAR(sim.position(box).x(), n * h * V - 0.025, 1e-9);
    EXPECT_TRUE(needed_work);
    // The contact's impulse on the box: its momentum m V (the floor is frictionless).
    EXPECT_NEAR(sim.world().bodies[box].mass * sim.velocity(box).x(),
                sim.world().bodies[box].mass * V, 1e-9);
  }
}

TEST(Kinematic, PoseIsTheIntegratedVelocityWhateverItMeets) {
  // Two kinematic bodies cross each other and sink through the floor under gravity.
  {
    Scene s = make_scene(2, 0.01);
    add_body(s, {.name = "floor",
                 .shape = make_box(Vec2(40, 1)),
                 .is_static = true,
                 .position = {0, -0.5}});
    add_body(s, {.name = "a",
                 .shape = make_box(Vec2(0.3, 0.3)),
                 .kinematic = true,
                 .position = {-0.5, 0.3},
                 .velocity = {0.8, -0.4},
                 .omega = 0.9});
    add_body(s, {.name = "b",
                 .shape = make_box(Vec2(0.3, 0.3)),
                 .kinematic = true,
                 .position = {0.5, 0.3},
                 .velocity = {-0.8, -0.4},
                 .omega = -0.3});
    Simulation sim(std::move(s));
    const Vec3 a0 = sim.position(1), b0 = sim.position(2);
    const int n = 100;
    for (int k = 0; k < n; ++k) ASSERT_EQ(sim.step().status, StepStatus::kOk);
    EXPECT_NEAR((sim.position(1) - (a0 + n * 0.01 * Vec3(0.8, -0.4, 0))).norm(), 0, 1e-12);
    EXPECT_NEAR((sim.position(2) - (b0 + n * 0.01 * Vec3(-0.8, -0.4, 0))).norm(), 0, 1e-12);
    EXPECT_NEAR(sim.angle(1), n * 0.01 * 0.9, 1e-12);
    EXPECT_NEAR(sim.angle(2), n * 0.01 * -0.3, 1e-12);
    EXPECT_EQ(sim.velocity(1), Vec3(0.8, -0.4, 0));
    EXPECT_EQ(sim.angular_velocity(2), Vec3(0, 0, -0.3));
    EXPECT_EQ(sim.last_report().unilateral + sim.last_report().intercontact, 0);
  }
  {
    Scene s = make_scene(3, 0.01);
    add_body(s, {.name = "floor",
                 .shape = make_box(Vec3(40, 40, 1)),
                 .is_static = true,
                 .position = {0, 0, -0.5}});
    const Vec3 v(0.3, 0.2, -0.7), w(0.1, 0.2, 0.3);
    add_body(s, {.name = "k",
                 .shape = make_box(Vec3(0.3, 0.2, 0.1)),
                 .kinematic = true,
                 .position = {0, 0, 0.3},
                 .velocity = v,
                 .angular_velocity = w});
    Simulation sim(std::move(s));
    const Vec3 x0 = sim.position(1);
    const Quat q0 = sim.orientation(1);
    const int n = 100;
    for (int k = 0; k < n; ++k) ASSERT_EQ(sim.step().status, StepStatus::kOk);
    EXPECT_NEAR((sim.position(1) - (x0 + n * 0.01 * v)).norm(), 0, 1e-12);
    const Quat expected = Quat(Eigen::AngleAxisd(n * 0.01 * w.norm(), w.normalized())) * q0;
    EXPECT_NEAR(sim.orientation(1).angularDistance(expected), 0, 1e-9);
    EXPECT_EQ(sim.velocity(1), v);
    EXPECT_EQ(sim.angular_velocity(1), w);
  }
}

TEST(Kinematic, SetVelocityDrivesItAndForcesAreRefused) {
  Simulation sim(plate_and_box(2, ContactModel::kStandard, 0.5, 0));
  const int plate = sim.body("plate");
  const Vec3 x0 = sim.position(plate);
  for (int k = 0; k < 5; ++k) ASSERT_EQ(sim.step().status, StepStatus::kOk);
  EXPECT_EQ(sim.velocity(plate), Vec3::Zero());  // at rest under a box: gravity does not act
  EXPECT_EQ(sim.position(plate), x0);
  sim.set_velocity(plate, {0.2, 0.1}, 0.0);
  for (int k = 0; k < 5; ++k) ASSERT_EQ(sim.step().status, StepStatus::kOk);
  EXPECT_EQ(sim.velocity(plate), Vec3(0.2, 0.1, 0));
  EXPECT_NEAR((sim.position(plate) - x0 - Vec3(0.01, 0.005, 0)).norm(), 0, 1e-12);
  // The box rode up with the plate.
  EXPECT_NEAR(sim.velocity(1).y(), 0.1, 1e-9);
  EXPECT_EQ(ErrorOf([&] { sim.apply_force(plate, Vec3(1, 0, 0)); }),
            "bodies[0] (plate).force: a kinematic body moves with its set velocity: forces do not "
            "act on it");
  EXPECT_EQ(ErrorOf([&] { sim.apply_torque(plate, 1.0); }),
            "bodies[0] (plate).torque: a kinematic body moves with its set velocity: forces do not "
            "act on it");
}

// A lift going down slower than the box would fall: the box rides it, touching, at its speed
// (the split projection predicts the gap with the plate's motion and pushes nothing out).
TEST(Kinematic, BoxRidesADescendingPlate) {
  for (int d : {2, 3}) {
    SCOPED_TRACE(d);
    const Real V = -0.05;
    Scene s = plate_and_box(d, ContactModel::kPeg, 0.5, 0);
    s.initial.v_of(0)[d - 1] = V;  // along −y in 2D, −z in 3D
    Simulation sim(std::move(s));
    const int plate = sim.body("plate"), box = sim.body("box");
    const Real offset = sim.position(box)[d - 1] - sim.position(plate)[d - 1];
    for (int k = 1; k <= 50; ++k) {
      const StepReport& r = sim.step();
      ASSERT_EQ(r.status, StepStatus::kOk) << "step " << k;
      EXPECT_FALSE(r.projection_ran) << "step " << k;
      EXPECT_NEAR(sim.velocity(box)[d - 1], V, 1e-9) << "step " << k;
      EXPECT_NEAR(sim.position(box)[d - 1] - sim.position(plate)[d - 1], offset, 1e-9)
          << "step " << k;
    }
  }
}

// docs/stepping.md "Sleeping": a box asleep on a kinematic plate at rest wakes when the plate
// is set moving, and is carried.
TEST(Kinematic, ABoxAsleepOnAPlateWakesWhenThePlateMoves) {
  Scene s = plate_and_box(2, ContactModel::kStandard, 0.5, 0);
  s.world.stepping.sleep = true;
  Simulation sim(std::move(s));
  const int plate = sim.body("plate"), box = sim.body("box");
  for (int k = 0; k < 80; ++k) ASSERT_EQ(sim.step().status, StepStatus::kOk);
  ASSERT_EQ(sim.state().asleep[box], 1);
  sim.set_velocity(plate, {0.5, 0}, 0.0);
  for (int k = 0; k < 40; ++k) ASSERT_EQ(sim.step().status, StepStatus::kOk);
  EXPECT_EQ(sim.state().asleep[box], 0);
  EXPECT_NEAR(sim.velocity(box).x(), 0.5, 1e-9);
}

TEST(Kinematic, BuilderRules) {
  Scene s = make_scene(2, 0.01);
  EXPECT_EQ(
      ErrorOf([&] {
        add_body(
            s, {.name = "k", .shape = make_box(Vec2(1, 1)), .is_static = true, .kinematic = true});
      }),
      "bodies[0] (k).kinematic: a body is static or kinematic, not both");
  EXPECT_EQ(s.world.body_count(), 0);
  add_body(s, {.name = "k", .shape = make_box(Vec2(1, 1)), .kinematic = true, .velocity = {1, 0}});
  EXPECT_TRUE(s.world.bodies[0].kinematic);
  EXPECT_TRUE(s.world.bodies[0].is_static);
  EXPECT_EQ(s.initial.v_of(0)[0], 1);
  // A Body made by hand: kinematic needs is_static (infinite mass).
  s.world.bodies[0].is_static = false;
  EXPECT_EQ(ErrorOf([&] { Simulation sim(s); }),
            "bodies[0] (k).kinematic: a kinematic body has infinite mass: set is_static too");
}

}  // namespace
}  // namespace exactsim::kinematic_test
