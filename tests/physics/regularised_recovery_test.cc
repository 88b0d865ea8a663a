// A failed solve that the run goes on past is recovered by regularisation on either path
// (docs/stepping.md "When a solve fails"): the island's MLCP with N + δI, δ on the sparse path on
// D's diagonal since N is never formed there.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "exactsim/metrics/energy.h"
#include "physics/physics_scene.h"

namespace exactsim::physics_test::regularised_recovery {
namespace {

Real normal_impulse_sum(const std::vector<ContactResult>& contacts) {
  Real sum = 0;
  for (const ContactResult& c : contacts) sum += c.normal_impulse;
  return sum;
}

// The paper's 2D pour, set a, in the frictionless standard model (h = 5 ms, ψ/h stabilisation, no
// watchdog, continuing past failed solves), as `make run` steps it: its LCP is infeasible now and
// then (the standard model's trap, docs/peg.md "The worked example"), and each such step is
// recovered. Stepped once on the sparse path (every island above dense_max_unknowns = 0, and a
// pivot work cap under which the dense path never runs after the sparse attempts: n³/2 > 1,000 from
// n = 13 on) and, from each of its states, once on the dense path. Each path's answer certifies the
// same LCP, or the same N + δI; that LCP is monotone (N = Hᵀ W H is PSD without friction), so two
// answers (z₁, w₁), (z₂, w₂) satisfy
//   ‖Δν‖²_M = Δzᵀ N Δz <= Δzᵀ Δw <= z₁ᵀw₁ + z₂ᵀw₂ + tol (‖z₁‖₁ + ‖z₂‖₁) <= tol (2 m Z + ‖z₁‖₁ +
//   ‖z₂‖₁)
// (each |z_i w_i| <= tol Z, each w_i >= −tol), where ν = W (G z + c); a sparse answer's ν meets
// M ν = G z + c only to the Newton–Euler tolerance tol max(1, Z) in each of its n_v rows, which
// adds at most √(n_v / m_min) tol max(1, Z) to ‖Δν‖_M (m_min: the smallest mass or inertia).
TEST(RegularisedRecovery, ASparseIslandsFailedSolveIsRecoveredAsADenseIslandsIs) {
  Scene scene = read_scene_file(
      std::string(EXACTSIM_SOURCE_DIR "/tests/physics/data/pour2d-a-standard.json"));
  ASSERT_EQ(scene.world.contact.model, ContactModel::kStandard);
  ASSERT_EQ(scene.world.contact.friction, 0);
  ASSERT_TRUE(scene.world.stepping.continue_on_solver_failure);
  Sim dense(scene);
  scene.world.stepping.dense_max_unknowns = 0;
  scene.world.solver.max_pivot_work = 1000;
  Sim sparse(scene);
  Real min_inertia = INFINITY;
  for (const Body& b : scene.world.bodies)
    if (!b.is_static) min_inertia = std::min({min_inertia, b.mass, b.planar_inertia});
  int recovered = 0, compared_recoveries = 0;
  Real worst = 0;  // ‖Δν‖_M over its bound
  for (int n = 0; n < 1000; ++n) {
    dense.state = sparse.state;
    dense.steps = sparse.steps;
    const StepReport s = sparse.advance();
    const StepReport d = dense.advance();
    ASSERT_EQ(s.islands_flown_free, 0) << "step " << n << ": " << to_string(s.status);
    ASSERT_EQ(d.islands_flown_free, 0) << "step " << n << ": " << to_string(d.status);
    const bool failed = s.status != StepStatus::kOk;
    EXPECT_EQ(failed, s.regularisation > 0) << "step " << n << ": " << to_string(s.status);
    recovered += failed;
    // The same LCP or the same N + δI on both paths.
    if (!s.solver_called || failed != (d.status != StepStatus::kOk) ||
        s.regularisation != d.regularisation)
      continue;
    compared_recoveries += failed;
    State difference = sparse.state;
    difference.v = sparse.state.v - dense.state.v;
    const Real norm = std::sqrt(2 * kinetic_energy(scene.world.bodies, difference));
    const Real tol = std::max(s.solver.tolerance, d.solver.tolerance);
    const Real z = std::max(s.solver.impulse_scale, d.solver.impulse_scale);
    const Real bound = std::sqrt(tol * (2 * s.lcp_size * z + normal_impulse_sum(sparse.contacts()) +
                                        normal_impulse_sum(dense.contacts()))) +
                       std::sqrt(sparse.state.v.size() / min_inertia) * tol * std::max<Real>(1, z);
    EXPECT_LE(norm, bound) << "step " << n << ": " << to_string(s.status);
    worst = std::max(worst, norm / bound);
  }
  EXPECT_GT(recovered, 0) << "no solve failed: the test no longer reaches the recovery";
  EXPECT_GT(compared_recoveries, 0) << "no step recovered alike on both paths";
  std::printf(
      "%d of 1000 steps recovered on the sparse path, %d compared with the dense path's "
      "recovery; ‖Δν‖_M at most %.3g of its bound\n",
      recovered, compared_recoveries, worst);
}

// In a step that advance() takes again as halves on a failed solve (Workspace::
// retakes_failed_solve), a failed island is not regularised: the step is thrown away whatever its
// islands did (docs/stepping.md "When a solve fails"). The first step of the pour above whose
// solve fails is recovered when taken as the run takes it; taken again from the same state and
// workspace with the retake ahead, the same island is left unrecovered and flies free.
TEST(RegularisedRecovery, AFailedSolveOfAStepThatWillBeRetakenIsNotRegularised) {
  const Scene scene = read_scene_file(
      std::string(EXACTSIM_SOURCE_DIR "/tests/physics/data/pour2d-a-standard.json"));
  ASSERT_TRUE(scene.world.stepping.continue_on_solver_failure);
  long failing = -1;
  {
    Sim run(scene);
    for (int n = 0; n < 1000 && failing < 0; ++n) {
      const StepReport r = run.advance();
      if (r.status == StepStatus::kOk) continue;
      EXPECT_GT(r.regularisation, 0) << "step " << n << ": " << to_string(r.status);
      EXPECT_EQ(r.islands_flown_free, 0) << "step " << n;
      failing = n;
    }
  }
  ASSERT_GE(failing, 0) << "no solve failed: the test no longer reaches the recovery";
  Sim again(scene);
  for (long n = 0; n < failing; ++n) again.advance();
  again.ws.retakes_failed_solve = true;
  const StepReport r = again.advance();
  EXPECT_TRUE(is_failed_solve(r.status)) << to_string(r.status);
  EXPECT_EQ(r.regularisation, 0);
  EXPECT_GE(r.islands_flown_free, 1);
  std::printf("step %ld: recovered as the run takes it, left to fly free ahead of a retake\n",
              failing);
}

}  // namespace
}  // namespace exactsim::physics_test::regularised_recovery
