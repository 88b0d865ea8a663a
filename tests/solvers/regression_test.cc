// The LCP regression suite: reduced LCPs captured from failing time steps (EXACTSIM_DUMP_LCP,
// lcp_io.h) under tests/solvers/data/. Every file must be solved with a verified certificate, or
// proven infeasible with a verified Farkas vector; the file name says which
// (`*-infeasible-*.lcp`: standard-model SM traps, genuinely infeasible; `*-nonphysical-*.lcp`:
// every solution needs impulses far beyond the problem's scale, so the physical certificate must
// refuse it — e.g. two-rocks-megalaunch, whose only solution (enumeration over all 2^17 bases)
// has ‖z‖∞ ≈ 5e4 N·s; everything else solvable). Standard-model failures classified by the exact
// Lemke (docs/solvers.md "Exact Lemke"): `*-beyond-scale-*` (a true solution exists, with impulses
// hundreds to millions of times the problem's scale: refused, status kBeyondScale),
// `*-exact-solved-*` (every floating-point method failed, the exact path's solution certifies),
// `*-exact-ray*` (Lemke's path ends on a ray in exact arithmetic without a Farkas vector).
// The certificate uses the impulse scale stored in the file (the physical scale of its MLCP).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "exactsim/solvers/lcp.h"
#include "exactsim/solvers/lcp_io.h"
#include "exactsim/solvers/mlcp.h"
#include "solvers/lcp_scratch.h"

namespace exactsim {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> data_files() {
  std::vector<fs::path> files;
  const fs::path dir = fs::path(EXACTSIM_SOURCE_DIR) / "tests/solvers/data";
  if (!fs::exists(dir)) return files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".lcp") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

bool expected_nonphysical(const fs::path& p) {
  return p.filename().string().find("-nonphysical-") != std::string::npos;
}

bool expected_infeasible(const fs::path& p) {
  return p.filename().string().find("-infeasible-") != std::string::npos;
}

bool name_has(const fs::path& p, const char* tag) {
  return p.filename().string().find(tag) != std::string::npos;
}

// z solves the LCP to round-off relative to its OWN size (not the problem's scale): the exact
// oracle's answer is a true solution even when the physical certificate must refuse it.
void expect_true_solution(const Lcp& p, const VecX& z, const std::string& what) {
  const VecX w = p.M * z + p.q;
  const Real own = 1e-12 * std::max<Real>(1, p.M.cwiseAbs().maxCoeff()) *
                   std::max<Real>(1, z.lpNorm<Eigen::Infinity>());
  EXPECT_GE(z.minCoeff(), 0.0) << what;
  EXPECT_GE(w.minCoeff(), -own) << what;
  EXPECT_LE(z.cwiseProduct(w).cwiseAbs().maxCoeff(), own * z.lpNorm<Eigen::Infinity>()) << what;
}

void expect_farkas(const Lcp& p, const LcpSolution& s, Real tol, const std::string& what) {
  ASSERT_EQ(s.ray.size(), p.q.size()) << what;
  EXPECT_GE(s.ray.minCoeff(), 0.0) << what;
  EXPECT_NEAR(s.ray.maxCoeff(), 1.0, 1e-12) << what;
  EXPECT_LE(
      (p.M.transpose() * s.ray).maxCoeff(),
      SolverOptions{}.diagnostics.farkas_tolerance * std::max<Real>(1.0, p.M.cwiseAbs().maxCoeff()))
      << what;
  EXPECT_LT(p.q.dot(s.ray), -tol) << what;
}

TEST(LcpRegression, FileRoundTripIsExact) {
  Lcp p{(MatX(3, 3) << 1.0 / 3, 0, -2e-300, 0, 5, 0.1, 7, 0, 1e300).finished(),
        (VecX(3) << -1.0 / 7, 0, 3).finished()};
  const fs::path path = fs::temp_directory_path() / "exactsim-roundtrip.lcp";
  LcpFileInfo info;
  info.impulse_scale = 12.5;
  info.note = "first\nsecond";
  write_lcp(path.string(), p, info);
  LcpFileInfo back;
  const Lcp r = read_lcp(path.string(), &back);
  EXPECT_EQ(r.M, p.M);
  EXPECT_EQ(r.q, p.q);
  EXPECT_EQ(back.impulse_scale, 12.5);
  EXPECT_EQ(back.note, "first\nsecond");
  fs::remove(path);
}

TEST(LcpRegression, EveryCapturedLcpIsSolvedOrProvenInfeasible) {
  const auto files = data_files();
  ASSERT_FALSE(files.empty()) << "no regression data under tests/solvers/data";
  int solved = 0, infeasible = 0, refused = 0, warm_solved = 0;
  LcpScratch scratch;
  LcpSolution s;
  for (const fs::path& f : files) {
    LcpFileInfo info;
    const Lcp p = read_lcp(f.string(), &info);
    SolverOptions o;
    o.impulse_scale = info.impulse_scale;
    o.exact_retry = true;  // the classes below are the exact oracle's verdicts
    solve_lcp(p, o, scratch, s);
    const std::string what = f.filename().string() + " (n = " + std::to_string(p.q.size()) +
                             "): " + to_string(s.certificate.status) + ", method " +
                             to_string(s.certificate.method) + ", pivots " +
                             std::to_string(s.certificate.pivots);
    const Real tol = verification_tolerance(p, o);
    if (name_has(f, "-beyond-scale-")) {
      ASSERT_EQ(s.certificate.status, SolveStatus::kBeyondScale) << what;
      EXPECT_TRUE(s.certificate.exact) << what;
      expect_true_solution(p, s.z, what);
      EXPECT_GT(s.z.lpNorm<Eigen::Infinity>(), 100 * certificate_impulse_scale(p, o)) << what;
      ++refused;
      continue;
    }
    if (name_has(f, "-exact-ray")) {
      EXPECT_EQ(s.certificate.status, SolveStatus::kRay) << what;
      EXPECT_TRUE(s.certificate.exact) << what;
      continue;
    }
    if (name_has(f, "-exact-solved-")) {
      EXPECT_EQ(s.certificate.method, SolveMethod::kExactLemke) << what;
    }
    if (expected_nonphysical(f)) {
      // Never "solved": the old z-relative certificate accepted a 7.8e5 N·s answer here.
      EXPECT_FALSE(s.certificate.ok()) << what;
      VecX w;
      EXPECT_FALSE(verify_lcp(p, s.z, tol, certificate_impulse_scale(p, o), w).ok()) << what;
      ++refused;
      continue;
    }
    if (expected_infeasible(f)) {
      ASSERT_EQ(s.certificate.status, SolveStatus::kInfeasible) << what;
      expect_farkas(p, s, tol, what);
      ++infeasible;
      continue;
    }
    ASSERT_TRUE(s.certificate.ok()) << what;
    // Independent recomputation of the certificate.
    VecX w;
    EXPECT_TRUE(verify_lcp(p, s.z, tol, certificate_impulse_scale(p, o), w).ok()) << what;
    EXPECT_LE(s.certificate.complementarity, tol * certificate_impulse_scale(p, o)) << what;
    ++solved;
    // Warm start from the solution's own active set: solved (directly, 0 pivots, unless the
    // active set's basis is singular or degenerate, then via Lemke from it).
    std::vector<bool> active = scratch.active;  // the final basis of the solve
    LcpSolution warm;
    solve_lcp(p, o, scratch, warm, &active);
    EXPECT_TRUE(warm.certificate.ok()) << what;
    warm_solved += warm.certificate.method == SolveMethod::kWarmStart;
    if (warm.certificate.method == SolveMethod::kWarmStart) {
      EXPECT_EQ(warm.certificate.pivots, 0) << what;
    }
    // A wrong guess (every 7th entry flipped): Lemke from that basis or cold; still solved.
    for (std::size_t i = 0; i < active.size(); i += 7) active[i] = !active[i];
    solve_lcp(p, o, scratch, warm, &active);
    EXPECT_TRUE(warm.certificate.ok())
        << what << " from a perturbed guess: " << to_string(warm.certificate.status);
    EXPECT_TRUE(warm.certificate.warm_started) << what;
  }
  std::cout << "[ regression ] " << files.size() << " LCPs: " << solved << " solved, " << infeasible
            << " proven infeasible, " << refused << " refused as non-physical; " << warm_solved
            << " re-solved from their own active set without pivots\n";
  EXPECT_GT(solved, 0);
}

}  // namespace
}  // namespace exactsim
