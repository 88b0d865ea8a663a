// An event-driven scene time-stepped (docs/plus.md "Time-stepping an event-driven scene"): each
// shipped scene of scenes/plus, run by the event-driven simulator and by the time stepper with
// located PLUS impacts, ends in the same state; materials the stepper would pair differently are
// errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "exactsim/io/event_scene_json.h"
#include "exactsim/math/error.h"
#include "exactsim/stepping/adaptive_step.h"

namespace exactsim::event_scene_stepped {
namespace {

using ::testing::HasSubstr;

struct Agreement {
  const char* file;
  Real position, velocity, spin;  // m, m/s, rad/s: the largest difference of any body at the end
};

TEST(EventScenesTimeStepped, EndAsTheEventDrivenSimulation) {
  // The ball's six bounces (e = 0.8) over 3 s; the brick's corner strike (Example 1) and its flat
  // landing on four spheres (Example 2); the cradle's five rounds (Example 3). Free flight is
  // exact in both (a parabola; the torque-free spin by RK4, in sub-steps in the stepper's exact
  // flight), the impacts located to their tolerances (measured: 2.6e-11 m, 9.8e-11 m and 0 for
  // the ball, Example 1 and the cradle; Example 1's brick leaves tumbling at 8.1 rad/s and ends
  // 6.7e-10 rad/s and 8.5e-11 rad apart). Example 2's brick rests on its four spheres after the
  // strike, and the stepper holds it there by its contact step, 9.8e-6 m off the event-driven
  // constraint step.
  for (const Agreement& a : {Agreement{"events_bouncing_ball.json", 1e-9, 1e-8, 1e-12},
                             Agreement{"events_example1_mu0.125.json", 1e-9, 1e-9, 1e-8},
                             Agreement{"events_example2.json", 2e-5, 1e-9, 1e-9},
                             Agreement{"events_example3_cradle.json", 1e-12, 1e-12, 1e-12}}) {
    SCOPED_TRACE(a.file);
    const EventScene scene =
        read_event_scene_file(std::string(EXACTSIM_SOURCE_DIR) + "/scenes/plus/" + a.file);
    EventSimulation events = event_simulation(scene);
    advance(events, scene.duration);
    Scene stepped = stepper_scene(scene);
    EXPECT_EQ(stepped.world.contact.impact.model, ImpactModel::kPlus);
    State state = stepped.initial;
    Workspace ws;
    for (long k = 0; k < stepped.step_count(); ++k)
      ASSERT_EQ(advance(stepped.world, state, ws, stepped.step, k).status, StepStatus::kOk)
          << "step " << k;
    const int planes = static_cast<int>(stepped.world.half_spaces.size());
    for (int b = 0; b < events.world.body_count(); ++b) {
      if (events.world.bodies[b].is_static) continue;  // the event world's half-spaces come last
      const int s = planes + b;                        // the stepper's first
      ASSERT_EQ(stepped.world.bodies[s].name, events.world.bodies[b].name);
      EXPECT_LT((state.q_of(s) - events.state.q_of(b)).head<3>().norm(), a.position)
          << events.world.bodies[b].name;
      EXPECT_LT((state.v_of(s) - events.state.v_of(b)).head<3>().norm(), a.velocity)
          << events.world.bodies[b].name;
      EXPECT_LT((state.v_of(s) - events.state.v_of(b)).tail<3>().norm(), a.spin)
          << events.world.bodies[b].name;
      EXPECT_LT(body_orientation(state, s).angularDistance(body_orientation(events.state, b)),
                a.spin * scene.duration)
          << events.world.bodies[b].name;
    }
  }
}

TEST(EventScenesTimeStepped, MaterialsTheStepperWouldPairOtherwiseAreErrors) {
  // Two balls over a half-space with different friction: the event-driven simulator gives each
  // ball's contact with the ground the ball's own μ, the time stepper √(μ_A μ_B).
  nlohmann::json doc = R"({
    "format": "exactsim-scene", "version": 1, "dimension": 3,
    "time": {"step": 0.001, "duration": 0.1},
    "contact": {"model": "plus", "friction": 0.3, "restitution": {"constant": 0.5}},
    "bodies": [
      {"name": "ground", "static": true, "shape": {"half_space": {"normal": [0, 0, 1]}}},
      {"name": "a", "shape": {"sphere": {"radius": 0.1}}, "density": 1000, "position": [0, 0, 1]},
      {"name": "b", "shape": {"sphere": {"radius": 0.1}}, "density": 1000, "position": [1, 0, 1],
       "friction": 0.6}]})"_json;
  const EventScene scene = parse_event_scene(doc, "two.json");
  try {
    stepper_scene(scene);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("bodies a and b differ in friction or restitution"));
  }
  doc["bodies"][2].erase("friction");
  const Scene stepped = stepper_scene(parse_event_scene(doc, "two.json"));
  EXPECT_EQ(stepped.world.contact.friction, 0.3);
  EXPECT_EQ(stepped.world.contact.impact.restitution.e_min, 0.5);
  EXPECT_EQ(stepped.world.contact.impact.restitution.v_capture, 1e-3);  // v_persist
}

}  // namespace
}  // namespace exactsim::event_scene_stepped
