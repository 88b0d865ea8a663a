// regularisation_path (docs/solvers.md "Regularisation path"): closed forms, and the captured LCPs
// whose verdicts the exact Lemke established (tests/solvers/data).
#include "exactsim/solvers/regularisation_path.h"
#include "solvers/lcp_scratch.h"

#include <gtest/gtest.h>

#include <iterator>
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

// A captured LCP under tests/solvers/data/, and the options that certify it with the impulse
// scale stored in its file.
Lcp read_captured(const char* name, SolverOptions& options) {
  LcpFileInfo info;
  Lcp lcp = read_lcp(std::string(EXACTSIM_SOURCE_DIR "/tests/solvers/data/") + name, &info);
  options.impulse_scale = info.impulse_scale;
  return lcp;
}

// max z / Z along the path of a captured LCP, each regularised problem solved.
std::vector<Real> captured_path(const char* name, std::span<const Real> deltas) {
  SolverOptions options;
  const Lcp lcp = read_captured(name, options);
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

// The extended path (long double from the second point on) on the same closed forms: the
// solvable problem's violation on the original falls as δ (w = −δ/(1 + δ), tol = 1e-10) and
// certifies there below δ = 1e-10; the infeasible one's grows with z, as 1/δ.
TEST(ExtendedRegularisationPath, ClosedFormsBelowWhatDoubleCanFollow) {
  Lcp settles{MatX::Constant(1, 1, 2.0), VecX::Constant(1, -1.0)};
  const auto a = extended_regularisation_path(settles, {});
  ASSERT_EQ(a.size(), std::size(kExtendedPathDeltas));
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_TRUE(a[i].solved);
    EXPECT_EQ(a[i].long_double, i > 0);
    EXPECT_NEAR(a[i].max_z_over_scale, 1 / (2 + 2 * a[i].delta), 1e-12);
    EXPECT_NEAR(a[i].violation_over_tolerance, a[i].delta / (1 + a[i].delta) / 1e-10,
                1e-3 * a[i].delta / 1e-10);
  }
  EXPECT_LT(a.back().violation_over_tolerance, 1.0);

  Lcp infeasible{MatX::Zero(2, 2), VecX(2)};
  infeasible.M(0, 0) = 1;
  infeasible.q << 0, -1;
  for (const RegularisationPoint& p : extended_regularisation_path(infeasible, {})) {
    EXPECT_TRUE(p.solved);
    EXPECT_NEAR(p.max_z_over_scale * 2 * p.delta, 1.0, 1e-6);
    // |z₂ w₂| / Z = 1 / (2δ) outweighs min w = −1
    EXPECT_NEAR(p.violation_over_tolerance * 2 * p.delta * 1e-10, 1.0, 1e-6);
  }
}

// A standard-model frictional hull pour's failed LCP (2D, μ = 0.3, h = 5 ms; n = 246 on 51
// velocities) whose double path settles at 0.053 Z to δ = 1e-10 (docs/robustness.md "Why the
// standard model's frictional scenes fail"): continued in long double, the path settles to δ =
// 1e-11, its violation on the original falling tenfold per decade, then grows tenfold per decade
// with the violation held above the tolerance — no solution within the scale at the certificate's
// tolerance, as far as it shows.
TEST(ExtendedRegularisationPath, ACapturedPathThatSettlesThenGrows) {
  SolverOptions options;
  const Lcp lcp = read_captured("path/std2d-hull-pour-h05-settles-then-grows.lcp", options);
  const Real deltas[] = {1e-9, 1e-10, 1e-11, 1e-12, 1e-13};
  const auto p = extended_regularisation_path(lcp, options, deltas);
  for (std::size_t i = 0; i < p.size(); ++i) {
    EXPECT_TRUE(p[i].solved) << p[i].delta;
    EXPECT_EQ(p[i].long_double, i > 0) << p[i].delta;
    EXPECT_GT(p[i].violation_over_tolerance, 1.0) << p[i].delta;
  }
  EXPECT_LT(p[2].max_z_over_scale, 1.01 * p[0].max_z_over_scale);  // settled
  EXPECT_LT(p[2].max_z_over_scale, 0.1);
  EXPECT_LT(p[2].violation_over_tolerance, 0.2 * p[1].violation_over_tolerance);
  EXPECT_GT(p[4].max_z_over_scale, 5 * p[3].max_z_over_scale);  // then grows
  EXPECT_GT(p[4].max_z_over_scale, 10 * p[2].max_z_over_scale);
}

// The stack's rescue (solve_by_regularisation_path) on a standard-model frictional hull pour's
// failed LCP (3D, μ = 0.3, h = 5 ms; n = 194 on 12 velocities; in the regression suite), handed
// a failed answer: the point it returns is certified on the LCP itself, as an independent
// verification confirms. (Whether the stack before it fails here depends on the rounding of its
// factorisations: it did with Eigen's LU, and solves it with LAPACK's, docs/solvers.md "Dense
// factorisations"; the full stack must end certified either way.)
TEST(SolveByRegularisationPath, RescuesAFailedFrictionalSolveWithACertifiedSolution) {
  SolverOptions options;
  const Lcp lcp = read_captured("std3d-hull-pour-h05-s1-regularisation-path.lcp", options);
  LcpScratch s;
  LcpSolution rescued;
  rescued.z = VecX::Zero(lcp.q.size());
  rescued.certificate.status = SolveStatus::kMaxIterations;
  ASSERT_TRUE(solve_by_regularisation_path(lcp, options, s, rescued));
  ASSERT_TRUE(rescued.certificate.ok()) << to_string(rescued.certificate.status);
  EXPECT_EQ(rescued.certificate.method, SolveMethod::kRegularisationPath);
  VecX w;
  const SolveCertificate independent =
      verify_lcp(lcp, rescued.z, verification_tolerance(lcp, options), options.impulse_scale, w);
  EXPECT_TRUE(independent.ok());
  EXPECT_LE(rescued.z.lpNorm<Eigen::Infinity>(), options.impulse_scale);

  LcpSolution stack;
  solve_lcp(lcp, options, s, stack);
  EXPECT_TRUE(stack.certificate.ok()) << to_string(stack.certificate.status);
}

// A random frictional pile (tests/solvers/pile_step.h drawn in another order: 8 bodies, 31
// contacts, μ = 0.9; n = 186) on which Lemke ends on a secondary ray, in exact arithmetic too
// (`exactsim lcp --method exact --exact-max-work 0`: 245 pivots), though the LCP is feasible
// (an LP finds z ≥ 0 with w ≥ 0). Its regularised solutions grow as 1/δ, so it has no solution
// within its scale: the whole stack, its rescue included, reports the failure.
TEST(RegularisationPath, AFeasibleFrictionalPileWithoutASolutionGrowsAndFails) {
  const Real grow[] = {1e-4, 1e-5, 1e-6};  // (below 1e-6 the regularised problems fail too)
  const auto sizes = captured_path("path/random-pile-8-bodies-31-contacts-no-solution.lcp", grow);
  EXPECT_GT(sizes[0], 1.0);
  EXPECT_GT(sizes[1], 9 * sizes[0]);
  EXPECT_GT(sizes[2], 9 * sizes[1]);

  SolverOptions options;
  const Lcp lcp = read_captured("path/random-pile-8-bodies-31-contacts-no-solution.lcp", options);
  LcpScratch s;
  LcpSolution stack;
  solve_lcp(lcp, options, s, stack);
  EXPECT_FALSE(stack.certificate.ok()) << to_string(stack.certificate.status);
  VecX w;
  EXPECT_FALSE(
      verify_lcp(lcp, stack.z, verification_tolerance(lcp, options), options.impulse_scale, w)
          .ok());
}

// On the captured LCP whose path grows (above) the rescue finds nothing the certificate accepts
// and leaves the answer it was given as it was.
TEST(SolveByRegularisationPath, LeavesAProblemWithoutASolutionInItsScaleAsItWas) {
  SolverOptions options;
  const Lcp lcp = read_captured("path/std2d-hull-pour-h05-settles-then-grows.lcp", options);
  LcpScratch s;
  LcpSolution out;
  out.z = VecX::Constant(lcp.q.size(), 0.5);
  out.certificate.status = SolveStatus::kRay;
  EXPECT_FALSE(solve_by_regularisation_path(lcp, options, s, out));
  EXPECT_EQ(out.z, VecX::Constant(lcp.q.size(), 0.5));
  EXPECT_EQ(out.certificate.status, SolveStatus::kRay);
}

}  // namespace
}  // namespace exactsim
