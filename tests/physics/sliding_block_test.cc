// A block sliding on a static floor with Coulomb friction (docs/solvers.md "Problem forms"): the
// friction impulse is μ m g h per step while sliding, so from v₀ it stops after
//   t* = v₀ / (μ g),   d* = v₀² / (2 μ g),
// and then stays (static friction holds it). Semi-implicit Euler moves by h v_{n+1}, so the
// discrete distance is d* − v₀ h / 2 + O(μ g h²): we require |d − d*| ≤ v₀ h (one step of travel).
// μ is the pair value √(μ_floor μ_box) = √(0.8 · 0.2) = 0.4.
//
// In 3D the cone is a polyhedron with k directions (docs/stepping.md stage 4): sliding along one of
// them feels the full μ; between two of them the largest friction opposing the motion can be as
// small as μ cos(π/k), so d ≤ d* / cos(π/k) + v₀ h (the inscribed-polygon bound) for any direction.
#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>

#include "physics/physics_scene.h"

namespace exactsim::physics_test::sliding_block {
namespace {

constexpr Real kH = 0.01, kG = 9.81, kV0 = 2.0;
const Real kMu = std::sqrt(0.8 * 0.2);
const Real kStop = kV0 * kV0 / (2 * kMu * kG);

struct Slide {
  Vec3 displacement = Vec3::Zero();  // from the start to the moment the block stops
  long stop_step = -1;
  Real drift_after_stop = 0;  // |q − q_stop| at the end of the run
  Real max_spin = 0;
};

// Runs `steps` steps and records where the block (body 1) stopped.
Slide run_slide(Sim& sim, int steps) {
  const int dim = sim.scene.world.dimension;
  const VecX q0 = sim.state.q_of(1);
  Slide s;
  VecX q_stop;
  for (int n = 0; n < steps; ++n) {
    const StepReport r = sim.advance();
    EXPECT_EQ(r.status, StepStatus::kOk) << "step " << n;
    EXPECT_TRUE(r.solver_called) << "step " << n << ": the block left the floor";
    const auto v = sim.state.v_of(1);
    s.max_spin = std::max(s.max_spin, dim == 2 ? std::abs(v[2]) : v.tail<3>().norm());
    if (s.stop_step < 0 && v.head(dim).norm() <= 1e-9) {
      s.stop_step = n;
      q_stop = sim.state.q_of(1);
      for (int a = 0; a < dim; ++a) s.displacement[a] = q_stop[a] - q0[a];
    }
  }
  if (s.stop_step >= 0) s.drift_after_stop = (sim.state.q_of(1) - q_stop).norm();
  return s;
}

json floor_and_block(int dim, const json& velocity) {
  const json floor = dim == 2 ? json{{"name", "floor"},
                                     {"static", true},
                                     {"friction", 0.8},
                                     {"shape", {{"box", {40.0, 1.0}}}},
                                     {"position", {0.0, -0.5}}}
                              : json{{"name", "floor"},
                                     {"static", true},
                                     {"friction", 0.8},
                                     {"shape", {{"box", {40.0, 40.0, 1.0}}}},
                                     {"position", {0.0, 0.0, -0.5}}};
  const json block =
      dim == 2 ? json{{"name", "block"}, {"friction", 0.2},        {"shape", {{"box", {0.6, 0.2}}}},
                      {"density", 100},  {"position", {0.0, 0.1}}, {"velocity", velocity}}
               : json{{"name", "block"},
                      {"friction", 0.2},
                      {"shape", {{"box", {0.6, 0.6, 0.2}}}},
                      {"density", 100},
                      {"position", {0.0, 0.0, 0.1}},
                      {"velocity", velocity}};
  return json::array({floor, block});
}

TEST(SlidingBlock, PlanarStopsAtClosedFormDistance) {
  Sim sim(scene_doc(2, kH, floor_and_block(2, {kV0, 0.0}), json{{"friction", 0.0}}));
  ASSERT_NEAR(pair_friction(sim.scene.world, 0, 1), kMu, 1e-15);
  const Slide s = run_slide(sim, 100);  // 1 s; t* ≈ 0.51 s
  ASSERT_GE(s.stop_step, 0) << "the block never stopped";
  EXPECT_NEAR(s.stop_step * kH, kV0 / (kMu * kG), 2 * kH);
  EXPECT_NEAR(s.displacement.x(), kStop, kV0 * kH);
  EXPECT_NEAR(s.displacement.y(), 0.0, 1e-9);
  EXPECT_LE(s.drift_after_stop, 1e-9);
  EXPECT_LE(s.max_spin, 1e-9);
}

TEST(SlidingBlock, SpatialAlongAConeDirection) {
  // k = 4 on a horizontal floor: the cone directions are ±x, ±y, so sliding along x feels full μ.
  Sim sim(scene_doc(3, kH, floor_and_block(3, {kV0, 0.0, 0.0}), json{{"friction_directions", 4}}));
  const Slide s = run_slide(sim, 100);
  ASSERT_GE(s.stop_step, 0) << "the block never stopped";
  EXPECT_NEAR(s.displacement.x(), kStop, kV0 * kH);
  EXPECT_NEAR(s.displacement.y(), 0.0, 1e-9);
  EXPECT_NEAR(s.displacement.z(), 0.0, 1e-9);
  EXPECT_LE(s.drift_after_stop, 1e-9);
  EXPECT_LE(s.max_spin, 1e-9);
}

TEST(SlidingBlock, SpatialDiagonalAnisotropyOfThePolyhedralCone) {
  const Vec3 dir = Vec3(1, 1, 0).normalized();
  for (int k : {4, 8, 16}) {
    SCOPED_TRACE("k = " + std::to_string(k));
    const Vec3 v0 = kV0 * dir;
    Sim sim(scene_doc(3, kH, floor_and_block(3, {v0.x(), v0.y(), 0.0}),
                      json{{"friction_directions", k}}));
    const Slide s = run_slide(sim, 160);  // long enough for the weakest cone (k = 4: d*·√2)
    ASSERT_GE(s.stop_step, 0) << "the block never stopped";
    const Real along = s.displacement.dot(dir);
    const Real across = (s.displacement - along * dir).norm();
    std::printf(
        "[ sliding ] diagonal, k = %2d: d = %.6f m, d* = %.6f m, error %+.3e m (%.2f%%), "
        "lateral %.2e m, stop at %.2f s\n",
        k, along, kStop, along - kStop, 100 * (along - kStop) / kStop, across,
        (s.stop_step + 1) * kH);
    EXPECT_GE(along, kStop - kV0 * kH);
    EXPECT_LE(along, kStop / std::cos(M_PI / k) + kV0 * kH);
    EXPECT_LE(s.drift_after_stop, 1e-9);
    // (1,1,0)/√2 is one of the k = 8 and k = 16 cone directions (spaced 2π/k from ±ŷ), so those
    // cones give the full μ there.
    if (k >= 8) {
      EXPECT_NEAR(along, kStop, kV0 * kH);
    }
  }
}

}  // namespace
}  // namespace exactsim::physics_test::sliding_block
