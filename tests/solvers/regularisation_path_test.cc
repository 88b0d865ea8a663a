// regularisation_path (docs/solvers.md "Regularisation path"): closed forms, and the captured LCPs
// whose verdicts the exact Lemke established (tests/solvers/data).
#include "exactsim/solvers/regularisation_path.h"

#include <gtest/gtest.h>

#include <span>
#include <string>
#include <vector>

#include "exactsim/solvers/lcp_io.h"

namespace exactsim {
namespace {

const Real kDeltas[] = {1e-2, 1e-4, 1e-6};

TEST(RegularisationPath, ASolvableProblemSettles) {
  Lcp lcp{MatX::Constant(1, 1, 2.0), VecX::Constant(1, -1.0)};  // z = 1/2, Z = 1
  const auto path = regularisation_path(lcp, {}, kDeltas);
  ASSERT_EQ(path.size(), 3u);
  for (const RegularisationPoint& p : path) {
    EXPECT_TRUE(p.solved);
    EXPECT_NEAR(p.max_z_over_scale, 1 / (2 + 2 * p.delta), 1e-12);
  }
}

TEST(RegularisationPath, AnInfeasibleProblemGrowsAsOneOverDelta) {
  Lcp lcp{MatX::Zero(2, 2), VecX(2)};
  lcp.M(0, 0) = 1;
  lcp.q << 0, -1;  // w₂ = −1 whatever z: infeasible; regularised, z₂ = 1/δ; Z = 2‖q‖∞/1 = 2
  const auto path = regularisation_path(lcp, {}, kDeltas);
  for (const RegularisationPoint& p : path) {
    EXPECT_TRUE(p.solved);
    EXPECT_NEAR(p.max_z_over_scale * 2 * p.delta, 1.0, 1e-9);
  }
}

// max z / Z along the path of a captured LCP (with the impulse scale stored in its file), each
// regularised problem solved.
std::vector<Real> captured_path(const char* name, std::span<const Real> deltas) {
  LcpFileInfo info;
  const Lcp lcp = read_lcp(std::string(EXACTSIM_SOURCE_DIR "/tests/solvers/data/") + name, &info);
  SolverOptions options;
  options.impulse_scale = info.impulse_scale;
  std::vector<Real> sizes;
  for (const RegularisationPoint& p : regularisation_path(lcp, options, deltas)) {
    EXPECT_TRUE(p.solved) << name << " at " << p.delta;
    sizes.push_back(p.max_z_over_scale);
  }
  return sizes;
}

// Captured LCPs: a solvable frictional PEG problem settles; a standard-model problem whose only
// solutions the exact Lemke found beyond the scale (max z / Z = 7.9e4) grows tenfold per decade.
TEST(RegularisationPath, CapturedProblemsSettleOrGrowAsTheirExactVerdictsSay) {
  const Real settle[] = {1e-6, 1e-8, 1e-10};
  const auto a = captured_path("peg2d-friction-mu03-seed1-step922-oldray.lcp", settle);
  EXPECT_LT(a[2], 1.01 * a[0]);

  const Real grow[] = {1e-8, 1e-9, 1e-10};
  const auto b = captured_path("std2d-pour-seed1-h005-beyond-scale-a.lcp", grow);
  EXPECT_GT(b[1], 5 * b[0]);
  EXPECT_GT(b[2], 5 * b[1]);
}

}  // namespace
}  // namespace exactsim
