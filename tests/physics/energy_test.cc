// Energy of frictionless impacts under the Stewart–Trinkle step (PEG paper eqs. 3–9). With
// ν_free = ν + W (h F), ν⁺ = ν_free + W G p and 0 ≤ p ⊥ Gᵀν⁺ + r ≥ 0, one step changes the total
// energy E = ½ νᵀMν − Σ m g·x by
//   ΔE = −pᵀr − ½ ‖G p + h F_g‖²_W,
// where F_g is gravity (the implicit-midpoint gyroscopic impulse conserves ½ωᵀJω exactly,
// docs/dynamics.md). Whenever every gap ψ is ≥ 0 at the start of the step, r = ψ/h ≥ 0 and E
// never increases beyond round-off. With ψ < 0 the default split stabilisation keeps r =
// max(ψ/h, 0) ≥ 0 in the velocity LCP (no push-out in the velocities), so E does not increase
// either, until its position projection moves bodies out of an overlap, which may raise the
// potential energy: in those steps the kinetic energy alone must not exceed its free-flight value.
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "exactsim/metrics/energy.h"
#include "physics/physics_scene.h"

namespace exactsim::physics_test {
namespace {

constexpr Real kRoundOff = 1e-12;  // relative to max(1, Σ|energy terms|)

void expect_energy_never_increases(Sim& sim, int steps) {
  const World& w = sim.scene.world;
  int checked_contact_steps = 0, penetrating_steps = 0;
  Real worst = -INFINITY;
  for (int n = 0; n < steps; ++n) {
    const Real ke0 = kinetic_energy(w.bodies, sim.state);
    const Real pe0 = potential_energy(w.bodies, sim.state, w.gravity);
    const StepReport r = sim.advance();
    ASSERT_EQ(r.status, StepStatus::kOk) << "step " << n;
    if (r.spawned > 0) continue;  // bodies join at step 0: E before it counts none of them
    ASSERT_TRUE(sim.state.q.allFinite() && sim.state.v.allFinite()) << "NaN at step " << n;
    // Split stabilisation: the velocity rows use max(ψ/h, 0), so the formula above holds for
    // every step (ΔE ≤ 0), but a step whose position projection ran moved positions out of an
    // overlap, which may raise the potential energy: there the kinetic energy alone must not
    // exceed its free-flight value, and the balance has no stabilisation budget to spend.
    if (r.projection_depth > split_slop(w, sim.scene.step)) {
      ++penetrating_steps;
      ASSERT_TRUE(r.energy.checked) << "step " << n;
      EXPECT_EQ(r.energy.stabilisation, 0) << "step " << n;
      EXPECT_LE(r.energy.after, r.energy.free_flight * (1 + kRoundOff) + kRoundOff) << "step " << n;
      continue;
    }
    checked_contact_steps += r.solver_called;
    const Real scale = std::max<Real>(1, std::abs(ke0) + std::abs(pe0));
    const Real increase = (r.kinetic_energy + r.potential_energy) - (ke0 + pe0);
    worst = std::max(worst, increase / scale);
    EXPECT_LE(increase, kRoundOff * scale)
        << "step " << n << (r.solver_called ? " (contact)" : " (free)") << ": E rose by "
        << increase << " J";
  }
  std::printf(
      "[ energy ] %d contact steps checked, %d projected (kinetic only), worst relative ΔE "
      "%.2e\n",
      checked_contact_steps, penetrating_steps, worst);
  EXPECT_GT(checked_contact_steps, 20)
      << "the body hardly touched the floor: the test checks nothing";
}

TEST(Energy, PlanarPolygonDroppedOnTheFloor) {
  Sim sim(scene_doc(2, 0.005,
                    json::array({{{"name", "floor"},
                                  {"static", true},
                                  {"shape", {{"box", {20.0, 1.0}}}},
                                  {"position", {0.0, -0.5}}},
                                 {{"name", "pentagon"},
                                  {"shape", {{"regular_polygon", {{"sides", 5}, {"radius", 0.3}}}}},
                                  {"density", 50},
                                  {"position", {0.1, 1.0}},
                                  {"angle", 0.2},
                                  {"velocity", {0.5, 0.0}},
                                  {"angular_velocity", 1.5}}})));
  expect_energy_never_increases(sim, 400);
}

TEST(Energy, SpatialBoxDroppedOnTheFloor) {
  Sim sim(scene_doc(3, 0.005,
                    json::array({{{"name", "floor"},
                                  {"static", true},
                                  {"shape", {{"box", {20.0, 20.0, 1.0}}}},
                                  {"position", {0.0, 0.0, -0.5}}},
                                 {{"name", "brick"},
                                  {"shape", {{"box", {0.4, 0.3, 0.2}}}},
                                  {"density", 500},
                                  {"position", {0.0, 0.0, 1.0}},
                                  {"orientation", {0.95, 0.2, -0.15, 0.1}},
                                  {"velocity", {0.3, -0.2, 0.0}},
                                  {"angular_velocity", {1.0, -0.5, 2.0}}}})));
  expect_energy_never_increases(sim, 400);
}

}  // namespace
}  // namespace exactsim::physics_test
