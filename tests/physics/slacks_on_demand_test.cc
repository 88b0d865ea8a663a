// An I's slacks on demand in the working set (solver.diagnostics.slacks_on_demand; docs/solvers.md
// "The working set", "An I's slacks on demand"): an I (PEG paper eq. 24) enters the set with its
// impulse row alone, its slacks (eq. 20) at their closed form, so the set's problem is the
// standard model's on the I's primary; where the whole problem's check finds that row's product
// z w beyond the certificate's bound, the slacks join. What is accepted is certified on the whole
// PEG problem either way: here again, independently, on its dense form.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "exactsim/solvers/mlcp.h"
#include "exactsim/solvers/sparse_mlcp.h"
#include "physics/physics_scene.h"

namespace exactsim::physics_test::slacks_on_demand {
namespace {

struct Totals {
  int steps_with_intercontacts = 0;  // steps whose constraints hold an I
  int steps_slacks_joined = 0;       // steps where an I's slacks joined the set after its start
  int steps_working_set_failed = 0;  // steps whose first attempt, the working set, did not certify
};

// The 2D pour of 10 hulls (PEG, μ = 0.3, h = 10 ms), every island on the sparse path, 100 steps
// of step() (no retaken steps): each certifies, and (the last island's) answer certifies on the
// island's dense MLCP too.
Totals pour(int on) {
  Scene scene =
      read_scene_file(std::string(EXACTSIM_SOURCE_DIR "/tests/physics/data/pour2d-10-hulls.json"));
  EXPECT_EQ(scene.world.contact.model, ContactModel::kPeg);
  EXPECT_GT(scene.world.contact.friction, 0);
  scene.world.stepping.dense_max_unknowns = 0;
  scene.world.solver.diagnostics.slacks_on_demand = on;
  Sim sim(scene);
  Totals t;
  Mlcp dense;
  VecX w;
  for (int n = 0; n < 100; ++n) {
    const StepReport r = sim.advance();
    EXPECT_EQ(r.status, StepStatus::kOk) << "step " << n;
    if (r.islands == 0) continue;  // no contact yet: no solve
    EXPECT_TRUE(r.solver.ok()) << "step " << n << ": " << to_string(r.solver.status);
    t.steps_with_intercontacts += r.intercontact > 0;
    if (sim.ws.dense || sim.ws.problem.size() == 0) continue;
    t.steps_slacks_joined += sim.ws.working.slacks_joined > 0;
    t.steps_working_set_failed += r.solver.primary_status != SolveStatus::kSolved;
    dense_of(sim.ws.problem, dense);
    SolverOptions o = scene.world.solver;
    o.impulse_scale = r.solver.impulse_scale;
    const SolveCertificate c =
        verify_mlcp(dense, sim.ws.solution.nu, sim.ws.solution.z, r.solver.tolerance, o, w);
    EXPECT_TRUE(c.ok()) << "step " << n << ": min z " << c.min_z << ", min w " << c.min_w
                        << ", complementarity " << c.complementarity;
  }
  return t;
}

TEST(SlacksOnDemand, AnIsSlacksJoinWhereTheWholeProblemNeedsThemAndEveryStepCertifies) {
  const Totals on = pour(1), off = pour(0), planar_default = pour(-1);
  std::printf(
      "steps with an I: %d (on), %d (off); steps where slacks joined: %d (on), %d (off); steps "
      "the working set did not answer: %d (on), %d (off)\n",
      on.steps_with_intercontacts, off.steps_with_intercontacts, on.steps_slacks_joined,
      off.steps_slacks_joined, on.steps_working_set_failed, off.steps_working_set_failed);
  EXPECT_GT(on.steps_with_intercontacts, 0);
  // The slacks join only where the whole problem's check rejects the I's row, and with them the
  // working set answers every step (without them, in one step here it ends uncertified and the
  // sparse Lemke on the whole island answers).
  EXPECT_GT(on.steps_slacks_joined, 0);
  EXPECT_EQ(on.steps_working_set_failed, 0);
  EXPECT_EQ(off.steps_slacks_joined, 0);
  EXPECT_EQ(off.steps_working_set_failed, 0);
  // By default planar islands take them on demand.
  EXPECT_EQ(planar_default.steps_with_intercontacts, on.steps_with_intercontacts);
  EXPECT_EQ(planar_default.steps_slacks_joined, on.steps_slacks_joined);
}

// By default spatial islands take every I with its slacks (docs/solvers.md "An I's slacks on
// demand": on the 3D pour of 100 hulls the rounds it adds cost more than they save).
TEST(SlacksOnDemand, ByDefaultSpatialIslandsTakeTheirIsWithTheirSlacks) {
  Scene scene =
      read_scene_file(std::string(EXACTSIM_SOURCE_DIR "/tests/physics/data/pour3d-10-hulls.json"));
  ASSERT_EQ(scene.world.contact.model, ContactModel::kPeg);
  scene.world.stepping.dense_max_unknowns = 0;
  Sim sim(scene);
  int steps_with_intercontacts_in_the_set = 0;
  for (int n = 0; n < 100; ++n) {
    const StepReport r = sim.advance();
    if (r.islands == 0) continue;
    EXPECT_TRUE(r.solver.ok()) << "step " << n;
    if (sim.ws.dense || sim.ws.problem.size() == 0 || r.intercontact == 0) continue;
    const WorkingSet& s = sim.ws.working;
    ASSERT_EQ(s.slacks_in.size(), static_cast<std::size_t>(sim.ws.layout.n_intercontact));
    const int n_u = sim.ws.layout.n_unilateral;
    bool any = false;
    for (int j = 0; j < sim.ws.layout.n_intercontact; ++j) {
      EXPECT_EQ(s.slacks_in[j], 1) << "step " << n << ", I " << j;
      any = any || s.unit_in[n_u + j];
    }
    steps_with_intercontacts_in_the_set += any;
  }
  EXPECT_GT(steps_with_intercontacts_in_the_set, 0);
}

}  // namespace
}  // namespace exactsim::physics_test::slacks_on_demand
