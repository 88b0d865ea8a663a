// A captured state on the sparse path (docs/solvers.md "Large islands: the sparse path"): the
// stress campaign's hull pour (tests/api/data/hull-pour3d-standard-step470: 3D, standard model,
// μ = 0.5, h = 0.01, seed 1) after 470 steps, as `exactsim run` checkpointed it. Its next step
// (474) solves an island of about 2,000 unknowns on a working set, where the sparse Lemke certifies
// a round's answer from an iterate whose run stopped before z₀ left the basis. The basis that comes
// with a certified answer is the iterate's own (z_i > w_i), which the working set's next round
// and the next step's warm start read; the step must go on, whatever it certifies. The capture
// took every pair within ε as a contact (min_applicability −1, docs/collision.md "Applicable
// pairs"), and is stepped so.
#include <gtest/gtest.h>

#include "checkpoint_capture.h"
#include "exactsim/exactsim.h"

namespace exactsim::sparse_path_regression_test {
namespace {

TEST(SparsePath, AnAnswerCertifiedFromAStoppedRunKeepsItsBasis) {
  long steps_done = 0;
  Simulation sim = simulation_at_checkpoint(
      std::string(EXACTSIM_SOURCE_DIR) + "/tests/api/data/hull-pour3d-standard-step470/",
      steps_done, [](Scene& scene) { scene.world.contact.min_applicability = -1; });
  ASSERT_EQ(steps_done, 470);
  bool sparse = false;  // step 474 has an island beyond dense_max_unknowns
  int lemke_answers = 0;
  for (int k = 0; k < 5; ++k) {
    const StepReport& r = sim.step();
    EXPECT_NE(r.status, StepStatus::kDiverged) << "step " << 471 + k;
    const bool beyond = r.largest_island_lcp > dense_max_unknowns(sim.world());
    sparse = sparse || beyond;
    // The working set's sparse Lemke runs report their effort as pivots (solvers.md "The solve
    // policy"), as the dense Lemke's do.
    if (beyond && r.solver.method == SolveMethod::kLemke) {
      EXPECT_GT(r.solver.pivots, 0) << "step " << 471 + k;
      ++lemke_answers;
    }
  }
  EXPECT_TRUE(sparse) << "no step reached the sparse path: the capture no longer tests it";
  EXPECT_GT(lemke_answers, 0) << "no sparse step's answer is the sparse Lemke's";
}

}  // namespace
}  // namespace exactsim::sparse_path_regression_test
