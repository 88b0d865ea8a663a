// The dual active-set method on the frictionless time-step QP (docs/solvers.md "Dual active
// set"): its answers against the unique primal optimum (the velocities) that dense Lemke finds on
// the reduced LCP, the certificate of the unreduced MLCP on problems of many dependent rows, and
// its Farkas vector on contradictory rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "exactsim/solvers/dual_active_set.h"
#include "exactsim/solvers/mlcp.h"

namespace exactsim {
namespace {

// A frictionless MLCP of `bodies` 3D bodies and m rows: each row a random unit normal at a random
// point on one body, or between two; c = M ν_free + impulse; r random around 0 (gaps and
// push-outs). With m well above 6 · bodies the reduced N has rank far below m.
Mlcp random_frictionless(int bodies, int m, std::mt19937& rng) {
  std::uniform_real_distribution<Real> u(-1, 1);
  std::uniform_real_distribution<Real> mass(0.2, 20);
  Mlcp p;
  for (int k = 0; k < bodies; ++k) {
    MatX block = MatX::Zero(6, 6);
    const Real mk = mass(rng);
    block.topLeftCorner(3, 3) = mk * Mat3::Identity();
    Mat3 a;
    for (int i = 0; i < 9; ++i) a(i / 3, i % 3) = u(rng);
    block.bottomRightCorner(3, 3) = 0.01 * mk * (a * a.transpose() + 0.1 * Mat3::Identity());
    p.M.add_block(block);
  }
  const int nv = 6 * bodies;
  p.G = MatX::Zero(nv, m);
  for (int j = 0; j < m; ++j) {
    const Vec3 n = Vec3(u(rng), u(rng), u(rng)).normalized();
    const Vec3 arm(0.1 * u(rng), 0.1 * u(rng), 0.1 * u(rng));
    const int a = std::uniform_int_distribution<int>(0, bodies - 1)(rng);
    p.G.block<3, 1>(6 * a, j) = n;
    p.G.block<3, 1>(6 * a + 3, j) = arm.cross(n);
    const int b = std::uniform_int_distribution<int>(-1, bodies - 1)(rng);  // −1: a static body
    if (b >= 0 && b != a) {
      p.G.block<3, 1>(6 * b, j) = -n;
      p.G.block<3, 1>(6 * b + 3, j) = -(arm.cross(n));
    }
  }
  p.H = p.G;
  p.D.resize(m, m);
  VecX v(nv);
  for (int i = 0; i < nv; ++i) v[i] = u(rng);
  p.M.apply(v, p.c);
  p.r.resize(m);
  for (int j = 0; j < m; ++j) p.r[j] = 0.5 * u(rng) + 0.4;  // mostly separating, some push-outs
  return p;
}

TEST(DualActiveSet, MatchesLemkesVelocitiesAndCertifiesOnTheMlcp) {
  std::mt19937 rng(7);
  int compared = 0, dropped = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const int bodies = 1 + trial % 4, m = 4 + 3 * trial;
    const Mlcp p = random_frictionless(bodies, m, rng);
    DualActiveSetScratch s;
    VecX nu, z;
    const DualActiveSetResult res =
        solve_dual_active_set(p.M, p.G, p.c, p.r, 1e-12, 1e-8, 0, s, nu, z);
    SolverOptions options;
    options.fallback = false;
    const MlcpSolution lemke = solve_mlcp(p, options);
    if (res.status == SolveStatus::kInfeasible) {
      // Contradictory rows: y >= 0, G y = 0, rᵀ y < 0, and Lemke finds no solution either.
      EXPECT_GE(res.farkas.minCoeff(), 0) << trial;
      EXPECT_LT((p.G * res.farkas).lpNorm<Eigen::Infinity>(), 1e-9) << trial;
      EXPECT_LT(p.r.dot(res.farkas), 0) << trial;
      EXPECT_FALSE(lemke.certificate.ok()) << trial;
      continue;
    }
    ASSERT_EQ(res.status, SolveStatus::kSolved) << trial;
    // Each iteration adds or drops a row: the drops (the Cholesky downdate) are exercised.
    dropped += (res.iterations - static_cast<int>(s.active.size())) / 2;
    VecX w;
    const SolveCertificate cert =
        verify_mlcp(p, nu, z, 1e-10 * std::max<Real>(1, p.r.lpNorm<Eigen::Infinity>()), {}, w);
    EXPECT_TRUE(cert.ok()) << trial << ": " << to_string(cert.status) << " min w " << cert.min_w
                           << " compl " << cert.complementarity;
    // The QP is strictly convex in ν: every solution of the LCP has the same velocities.
    if (lemke.certificate.ok()) {
      EXPECT_LT((nu - lemke.nu).lpNorm<Eigen::Infinity>(), 1e-8 * (1 + nu.norm())) << trial;
      ++compared;
    }
  }
  EXPECT_GE(compared, 20);
  EXPECT_GT(dropped, 10);
}

// A box resting on a floor through 64 coplanar contact points of one face (a triangulated face's
// many corners): N has rank 3 of 64, and every row is degenerate at rest.
TEST(DualActiveSet, SolvesABoxOnManyCoplanarContactsWithBoundedImpulses) {
  Mlcp p;
  MatX block = MatX::Zero(6, 6);
  block.topLeftCorner(3, 3) = 2.0 * Mat3::Identity();
  block.bottomRightCorner(3, 3) = Vec3(0.02, 0.03, 0.04).asDiagonal();
  p.M.add_block(block);
  const int m = 64;
  p.G = MatX::Zero(6, m);
  for (int j = 0; j < m; ++j) {
    const Vec3 arm(-0.1 + 0.2 * (j % 8) / 7.0, -0.1 + 0.2 * (j / 8) / 7.0, -0.05);
    p.G.block<3, 1>(0, j) = Vec3::UnitZ();
    p.G.block<3, 1>(3, j) = arm.cross(Vec3::UnitZ());
  }
  p.H = p.G;
  p.D.resize(m, m);
  const Real h = 0.01, g = 9.81;
  p.c = VecX::Zero(6);
  p.c[2] = -2.0 * g * h;  // at rest, gravity's impulse
  p.r = VecX::Zero(m);
  DualActiveSetScratch s;
  VecX nu, z;
  const DualActiveSetResult res =
      solve_dual_active_set(p.M, p.G, p.c, p.r, 1e-12, 1e-8, 0, s, nu, z);
  ASSERT_EQ(res.status, SolveStatus::kSolved);
  EXPECT_LT(nu.lpNorm<Eigen::Infinity>(), 1e-12);
  EXPECT_NEAR(z.sum(), 2.0 * g * h, 1e-12);
  EXPECT_LE(z.maxCoeff(), 2.0 * g * h * (1 + 1e-12));
  int support = 0;
  for (int j = 0; j < m; ++j) support += z[j] > 0;
  EXPECT_LE(support, 3);  // only independent rows carry impulse
}

// A frictionless MLCP written with hex floats (tests/solvers/data/qp/): "blocks K", then per
// block its size and entries row by row; "G rows cols nnz" and one "i j value" line per nonzero;
// "c" and "r" with their entries; "tol" and "scale": the certificate's tolerance and impulse
// scale where the stepper met it.
Mlcp read_qp(const std::string& name, Real& tol, Real& scale) {
  std::ifstream in(std::string(EXACTSIM_SOURCE_DIR "/tests/solvers/data/qp/") + name);
  EXPECT_TRUE(in.good()) << name;
  std::string word;
  auto number = [&in, &word] {
    in >> word;
    return std::strtod(word.c_str(), nullptr);  // (reads hex floats, as operator>> does not)
  };
  Mlcp p;
  std::size_t blocks = 0;
  in >> word >> blocks;
  for (std::size_t k = 0; k < blocks; ++k) {
    Eigen::Index b = 0;
    in >> b;
    MatX block(b, b);
    for (Eigen::Index i = 0; i < b * b; ++i) block(i / b, i % b) = number();
    p.M.add_block(block);
  }
  Eigen::Index rows = 0, cols = 0, nnz = 0;
  in >> word >> rows >> cols >> nnz;
  p.G = MatX::Zero(rows, cols);
  for (Eigen::Index e = 0; e < nnz; ++e) {
    Eigen::Index i = 0, j = 0;
    in >> i >> j;
    p.G(i, j) = number();
  }
  in >> word;
  p.c.resize(rows);
  for (Eigen::Index i = 0; i < rows; ++i) p.c[i] = number();
  in >> word;
  p.r.resize(cols);
  for (Eigen::Index i = 0; i < cols; ++i) p.r[i] = number();
  in >> word;
  tol = number();
  in >> word;
  scale = number();
  p.H = p.G;
  p.D.resize(cols, cols);
  return p;
}

// A step of the standard model's 2D pour (set b, h = 5 ms, ψ/h stabilisation) whose Lemke path
// failed: two overlapping polygons, one on the floor and a wall, with two rows between them whose
// normals are opposite to within 0.01° and two more 22° apart; five of the six rows end active on
// the six velocities. The Gram matrix of such rows has the square of their condition number: the
// Gram form's active rows hold to z∘w = 3.6e-7 (the bound is 1e-10 Z), the orthogonal form's to
// 2e-13, and the stack takes the latter.
TEST(DualActiveSet, TheOrthogonalFormCertifiesWhereTheGramFormsAnswerDoesNot) {
  Real tol = 0, scale = 0;
  const Mlcp p = read_qp("std2d-pour-b-h005-two-bodies.qp", tol, scale);
  ASSERT_EQ(p.G.cols(), 6);
  SolverOptions options;
  options.impulse_scale = scale;
  bool certified[2] = {false, false};
  for (const DualActiveSetForm form : {DualActiveSetForm::kGram, DualActiveSetForm::kOrthogonal}) {
    DualActiveSetScratch s;
    VecX nu, z, w;
    const DualActiveSetResult res =
        solve_dual_active_set(p.M, p.G, p.c, p.r, 0.1 * tol, 1e-8, 0, s, nu, z, form);
    certified[form == DualActiveSetForm::kOrthogonal] =
        res.status == SolveStatus::kSolved && verify_mlcp(p, nu, z, tol, options, w).ok();
  }
  EXPECT_FALSE(certified[0]) << "the Gram form certifies: the capture no longer tests the fallback";
  EXPECT_TRUE(certified[1]);
  const MlcpSolution stack = solve_mlcp(p, SolverOptions{});
  EXPECT_TRUE(stack.certificate.ok()) << to_string(stack.certificate.status);
  EXPECT_EQ(stack.certificate.method, SolveMethod::kDualActiveSet);
}

// Rows that ask for x >= 1 and x <= −1 of one body: the Farkas vector weighs both.
TEST(DualActiveSet, NamesContradictoryRowsWithAFarkasVector) {
  Mlcp p;
  p.M.add_block(MatX::Identity(3, 3));
  p.G = MatX::Zero(3, 3);
  p.G(0, 0) = 1;   // x − 1 >= 0
  p.G(0, 1) = -1;  // −x − 1 >= 0
  p.G(1, 2) = 1;   // y >= 0 (satisfiable, not in the contradiction)
  p.c = VecX::Zero(3);
  p.r = Vec3(-1, -1, 0);
  DualActiveSetScratch s;
  VecX nu, z;
  const DualActiveSetResult res =
      solve_dual_active_set(p.M, p.G, p.c, p.r, 1e-12, 1e-8, 0, s, nu, z);
  ASSERT_EQ(res.status, SolveStatus::kInfeasible);
  EXPECT_NEAR(res.farkas[0], 1, 1e-15);
  EXPECT_NEAR(res.farkas[1], 1, 1e-15);
  EXPECT_EQ(res.farkas[2], 0);
}

// Two programs on disjoint bodies, stacked into one (bodies interleaved, rows shuffled): the
// separable program's answer is each part's, its active rows are both parts', a body no row
// touches rests at M⁻¹ c, J is no larger than a part's, and a contradiction in one part is named by
// a Farkas vector on that part's rows alone.
TEST(DualActiveSet, SolvesASeparableProgramPartByPart) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 10; ++trial) {
    const Mlcp a = random_frictionless(2, 10 + trial, rng), b = random_frictionless(3, 14, rng);
    // Bodies: a0, b0, (free), a1, b1, b2; rows: a's and b's alternating where both remain.
    const int blocks_of[2][3] = {{0, 3, -1}, {1, 4, 5}};
    const Mlcp* part[2] = {&a, &b};
    Mlcp p;
    MatX free_block = 3.0 * MatX::Identity(6, 6);
    for (int k = 0; k < 6; ++k) {
      if (k == 2) {
        p.M.add_block(free_block);
        continue;
      }
      const int which = (k == 1 || k >= 4) ? 1 : 0;
      const int local = which == 0 ? (k == 0 ? 0 : 1) : (k == 1 ? 0 : k - 3);
      p.M.add_block(part[which]->M.blocks[local]);
    }
    const int ma = static_cast<int>(a.r.size()), mb = static_cast<int>(b.r.size()), m = ma + mb;
    p.G = MatX::Zero(36, m);
    p.c = VecX::Zero(36);
    p.c.segment(12, 6) = VecX::LinSpaced(6, -1, 1);
    p.r.resize(m);
    std::vector<std::pair<int, int>> origin;  // (part, row) of each row
    for (int i = 0, ia = 0, ib = 0; i < m; ++i) {
      const int which = (ib < mb && (i % 2 == 1 || ia == ma)) ? 1 : 0;
      origin.push_back({which, which == 0 ? ia++ : ib++});
    }
    for (int which = 0; which < 2; ++which)
      for (int local = 0; local < (which == 0 ? 2 : 3); ++local)
        p.c.segment(6 * blocks_of[which][local], 6) = part[which]->c.segment(6 * local, 6);
    for (int i = 0; i < m; ++i) {
      const auto [which, row] = origin[i];
      p.r[i] = part[which]->r[row];
      for (int local = 0; local < (which == 0 ? 2 : 3); ++local)
        p.G.block<6, 1>(6 * blocks_of[which][local], i) =
            part[which]->G.block<6, 1>(6 * local, row);
    }
    DualActiveSetScratch s, sa, sb;
    VecX nu, z, nu_a, z_a, nu_b, z_b;
    const auto whole = solve_dual_active_set(p.M, p.G, p.c, p.r, 1e-12, 1e-8, 0, s, nu, z);
    const auto ra = solve_dual_active_set(a.M, a.G, a.c, a.r, 1e-12, 1e-8, 0, sa, nu_a, z_a);
    const auto rb = solve_dual_active_set(b.M, b.G, b.c, b.r, 1e-12, 1e-8, 0, sb, nu_b, z_b);
    if (ra.status != SolveStatus::kSolved || rb.status != SolveStatus::kSolved) {
      ASSERT_NE(whole.status, SolveStatus::kSolved);
      if (whole.status == SolveStatus::kInfeasible) {
        const int bad = ra.status == SolveStatus::kSolved ? 1 : 0;
        for (int i = 0; i < m; ++i) {
          if (origin[i].first != bad) {
            EXPECT_EQ(whole.farkas[i], 0) << "row " << i;
          }
        }
      }
      continue;
    }
    ASSERT_EQ(whole.status, SolveStatus::kSolved);
    EXPECT_LE(s.L.rows(), 18);  // L is a part's, not the whole program's (36 × 36)
    EXPECT_LT((nu.segment(12, 6) - p.c.segment(12, 6) / 3.0).norm(), 1e-14);
    std::vector<int> active_expected;
    for (int i = 0; i < m; ++i) {
      const auto [which, row] = origin[i];
      EXPECT_EQ(z[i], (which == 0 ? z_a : z_b)[row]) << "row " << i;
      const auto& act = (which == 0 ? sa : sb).active;
      if (std::find(act.begin(), act.end(), row) != act.end()) active_expected.push_back(i);
    }
    std::vector<int> active = s.active;
    std::sort(active.begin(), active.end());
    EXPECT_EQ(active, active_expected);
    for (int which = 0; which < 2; ++which)
      for (int local = 0; local < (which == 0 ? 2 : 3); ++local)
        EXPECT_EQ(nu.segment(6 * blocks_of[which][local], 6),
                  (which == 0 ? nu_a : nu_b).segment(6 * local, 6));
  }
}

}  // namespace
}  // namespace exactsim
