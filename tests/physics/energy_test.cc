// Energy of frictionless impacts under the Stewart–Trinkle step (spec peg.md §2.1). With
// ν_free = ν + h W F, ν⁺ = ν_free + W G p and 0 ≤ p ⊥ Gᵀν⁺ + ψ/h ≥ 0, one step changes the total
// energy E = ½ νᵀMν − Σ m g·x by
//   ΔE = −pᵀψ/h − ½ ‖G p + h F_g‖²_W + ½ h² ‖F_gyro‖²_W,
// where F_g is gravity and F_gyro = −ω × J_w ω the explicit gyroscopic term (3D). So, whenever
// every contact gap ψ of the step is ≥ 0 at its start, E never increases beyond the gyroscopic
// term (zero in 2D) plus round-off. In free flight (p = 0) the semi-implicit Euler term is a loss,
// ΔE = −½ m g² h² (minus the gyroscopic gain), so no allowance is needed for it.
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "exactsim/metrics/energy.h"
#include "physics/physics_scene.h"

namespace exactsim::physics_test {
namespace {

constexpr Real kRoundOff = 1e-12;  // relative to max(1, Σ|energy terms|)

// ½ h² ‖ω × J_w ω‖²_{J_w⁻¹} of every present dynamic 3D body.
Real gyroscopic_allowance(const Sim& sim, Real h) {
  if (sim.scene.world.dimension == 2) return 0;
  Real sum = 0;
  for (int i = 0; i < sim.scene.world.body_count(); ++i) {
    const Body& b = sim.scene.world.bodies[i];
    if (b.is_static || !sim.state.present[i]) continue;
    const Mat3 r = body_orientation(sim.state, i).toRotationMatrix();
    const Mat3 jw = r * b.inertia * r.transpose();
    const Vec3 w = sim.state.v_of(i).tail<3>();
    const Vec3 f = -w.cross(jw * w);
    sum += 0.5 * h * h * f.dot(jw.ldlt().solve(f));
  }
  return sum;
}

void expect_energy_never_increases(Sim& sim, int steps) {
  const World& w = sim.scene.world;
  const Real h = sim.scene.step;
  int checked_contact_steps = 0, penetrating_steps = 0;
  Real worst = -INFINITY;
  for (int n = 0; n < steps; ++n) {
    const Real ke0 = kinetic_energy(w.bodies, sim.state);
    const Real pe0 = potential_energy(w.bodies, sim.state, w.gravity);
    const Real allowance = gyroscopic_allowance(sim, h);
    const StepReport r = sim.advance();
    ASSERT_EQ(r.status, StepStatus::kOk) << "step " << n;
    if (r.spawned > 0) continue;  // bodies join at step 0: E before it counts none of them
    ASSERT_TRUE(sim.state.q.allFinite() && sim.state.v.allFinite()) << "NaN at step " << n;
    bool gaps_non_negative = true;
    for (int c : sim.ws.constraints.unilateral)
      gaps_non_negative = gaps_non_negative && sim.ws.constraints.contacts[c].gap >= 0;
    if (!r.solver_called) gaps_non_negative = true;
    if (!gaps_non_negative) {
      ++penetrating_steps;  // ψ/h stabilisation may push out, adding energy: not covered
      continue;
    }
    checked_contact_steps += r.solver_called;
    const Real scale = std::max<Real>(1, std::abs(ke0) + std::abs(pe0));
    const Real increase = (r.kinetic_energy + r.potential_energy) - (ke0 + pe0) - allowance;
    worst = std::max(worst, increase / scale);
    EXPECT_LE(increase, kRoundOff * scale)
        << "step " << n << (r.solver_called ? " (contact)" : " (free)") << ": E rose by "
        << increase << " J beyond the allowance " << allowance;
  }
  std::printf(
      "[ energy ] %d contact steps checked, %d with ψ < 0 skipped, worst relative ΔE %.2e\n",
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
