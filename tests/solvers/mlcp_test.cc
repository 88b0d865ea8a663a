// The time-step MLCP (docs/solvers.md "Problem forms") solved through its Schur complement:
// the worked example of docs/peg.md to its printed digits, agreement with a direct enumeration of
// the unreduced mixed system (with equality rows too), and a frictional standard-model problem.
#include <gtest/gtest.h>

#include <random>

#include "exactsim/math/error.h"
#include "exactsim/solvers/mlcp.h"

namespace exactsim {
namespace {

// Every solution (ν, z) of the unreduced MLCP by brute force: for each α solve the dense KKT
// system [M −G_α; H_αᵀ D_αα] (ν, z_α) = (c, −r_α) — no Schur complement, no W. The equality rows
// (Mlcp::bilateral, last) are in every α, their z free and their w zero.
struct MixedSolution {
  VecX nu, z;
};
std::vector<MixedSolution> enumerate_mlcp(const Mlcp& p, Real tol) {
  const MatX m = p.M.dense();
  const int nv = static_cast<int>(m.rows()), nz = static_cast<int>(p.G.cols());
  const int nc = nz - p.bilateral;  // complementarity rows
  std::vector<MixedSolution> out;
  for (unsigned mask = 0; mask < (1u << nc); ++mask) {
    std::vector<int> a;
    for (int i = 0; i < nc; ++i) {
      if (mask & (1u << i)) a.push_back(i);
    }
    for (int i = nc; i < nz; ++i) a.push_back(i);
    const int k = static_cast<int>(a.size());
    MatX kkt = MatX::Zero(nv + k, nv + k);
    VecX rhs(nv + k);
    kkt.topLeftCorner(nv, nv) = m;
    rhs.head(nv) = p.c;
    for (int j = 0; j < k; ++j) {
      kkt.block(0, nv + j, nv, 1) = -p.G.col(a[j]);
      kkt.block(nv + j, 0, 1, nv) = p.H.col(a[j]).transpose();
      for (int l = 0; l < k; ++l) kkt(nv + j, nv + l) = p.D.coeff(a[j], a[l]);
      rhs(nv + j) = -p.r(a[j]);
    }
    Eigen::FullPivLU<MatX> lu(kkt);
    if (!lu.isInvertible()) continue;
    const VecX x = lu.solve(rhs);
    MixedSolution s{x.head(nv), VecX::Zero(nz)};
    for (int j = 0; j < k; ++j) s.z(a[j]) = x(nv + j);
    const VecX w = p.H.transpose() * s.nu + p.D * s.z + p.r;
    const VecX zc = s.z.head(nc), wc = w.head(nc);
    if ((nc == 0 ||
         (zc.minCoeff() >= -tol && wc.minCoeff() >= -tol &&
          zc.cwiseProduct(wc).cwiseAbs().maxCoeff() <= tol * std::max(1.0, s.z.norm()))) &&
        (p.bilateral == 0 || w.tail(p.bilateral).lpNorm<Eigen::Infinity>() <= tol)) {
      out.push_back(s);
    }
  }
  return out;
}

// ---- docs/peg.md "The worked example": body A (dynamic) on the apex of the static triangle B.
// ----
struct Contact2 {
  Vec3 g;    // Jacobian column for A: [−n̂; (p − x_A) ×₂ (−n̂)] (docs/collision.md)
  Real psi;  // gap
};
Vec2 outward(const Vec2& from, const Vec2& to) {  // outward normal of a CCW polygon's edge
  const Vec2 d = (to - from).normalized();
  return Vec2(d.y(), -d.x());
}
Contact2 contact(const Vec2& n_hat, const Vec2& p, const Vec2& x_a, Real psi) {
  const Vec2 r = p - x_a;
  return {Vec3(-n_hat.x(), -n_hat.y(), cross2(r, -n_hat)), psi};
}

struct WorkedExample {
  Contact2 c[4];
  BlockDiagonal m;
  VecX c_rhs;  // M ν^ℓ + h λ_ext
  Real h = 0.01;
};
WorkedExample worked_example() {
  const Vec2 b_in(1, -1), v_b(0, 0), b_out(-1, -1);                     // B, CCW around v_b
  const Vec2 a_prev(-0.98, 0.53), v_a(0.02, 0.03), a_next(1.02, 0.53);  // A, CCW around v_a
  const Vec2 x_a = (a_prev + v_a + a_next) / 3.0;
  WorkedExample ex;
  const Vec2 nb_in = outward(b_in, v_b), nb_out = outward(v_b, b_out);
  const Vec2 na_in = outward(a_prev, v_a), na_out = outward(v_a, a_next);
  // C1, C2: A's vertex against B's edges, n̂ = −(B's outward normal) (points from A to B).
  ex.c[0] = contact(-nb_in, v_a, x_a, nb_in.dot(v_a - v_b));
  ex.c[1] = contact(-nb_out, v_a, x_a, nb_out.dot(v_a - v_b));
  // C3, C4: B's vertex against A's edges, n̂ = A's outward normal.
  ex.c[2] = contact(na_in, v_b, x_a, na_in.dot(v_b - v_a));
  ex.c[3] = contact(na_out, v_b, x_a, na_out.dot(v_b - v_a));
  ex.m.add_block(Vec3(1.0, 1.0, 0.1).asDiagonal().toDenseMatrix());
  const Vec3 nu_l(3, 0, 0), gravity(0, -9.81, 0);
  ex.c_rhs = ex.m.dense() * nu_l + ex.h * 1.0 * gravity;
  return ex;
}

TEST(Mlcp, WorkedExampleGeometryMatchesTheSpecTable) {
  const WorkedExample ex = worked_example();
  const Real psi[4] = {0.035355, 0.007071, 0.035777, 0.017889};
  const Vec3 g[4] = {{0.707107, 0.707107, 0.235702},
                     {-0.707107, 0.707107, -0.235702},
                     {0.447214, 0.894427, 0.144599},
                     {-0.447214, 0.894427, -0.180376}};
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(ex.c[i].psi, psi[i], 5e-7) << i;
    // The table's last digit of G_4's angular entry is rounded down (−0.1803765…).
    EXPECT_LT((ex.c[i].g - g[i]).lpNorm<Eigen::Infinity>(), 6e-7) << i;
  }
}

TEST(Mlcp, WorkedExamplePegToPrintedDigits) {
  const WorkedExample ex = worked_example();
  const Vec3 g1 = ex.c[0].g, g2 = ex.c[1].g, g3 = ex.c[2].g, g4 = ex.c[3].g;
  const Real p1 = ex.c[0].psi, p2 = ex.c[1].psi, p3 = ex.c[2].psi, p4 = ex.c[3].psi;
  // X-code realisation: I1 = (C1; C2), I2 = (C3; C4), I3 = X(C1; C4), I4 = X(C2; C3).
  Mlcp p;
  p.M = ex.m;
  p.G = MatX::Zero(3, 8);
  p.G << g1, g3, g1, g2, MatX::Zero(3, 4);
  p.H.resize(3, 8);
  p.H << g1, g3, g1, g2, g1 - g2, g3 - g4, g1 - g4, g2 - g3;
  MatX d = MatX::Zero(8, 8);
  d.topRightCorner(4, 4).setIdentity();     // E_I2
  d.bottomRightCorner(4, 4).setIdentity();  // E_I1
  p.D = d.sparseView();
  p.r.resize(8);
  p.r << p1, p3, p1, p2, p1 - p2, p3 - p4, p1 - p4, p2 - p3;
  p.r /= ex.h;
  p.c = ex.c_rhs;

  // The reduced LCP equals the printed N and r (6 decimals).
  MlcpScratch scratch;
  reduce_mlcp(p, scratch);
  MatX n_printed(8, 8);
  n_printed << 1.555556, 1.289507, 1.555556, -0.555556, 1, 0, 0, 0,  //
      1.289507, 1.209089, 1.289507, -0.024595, 0, 1, 0, 0,           //
      1.555556, 1.289507, 1.555556, -0.555556, 0, 0, 1, 0,           //
      -0.555556, -0.024595, -0.555556, 1.555556, 0, 0, 0, 1,         //
      2.111111, 1.314102, 2.111111, -2.111111, 1, 0, 0, 0,           //
      1.398429, 0.869911, 1.398429, -1.398429, 0, 1, 0, 0,           //
      1.664478, 0.950329, 1.664478, -1.929390, 0, 0, 1, 0,           //
      -1.845062, -1.233684, -1.845062, 1.580151, 0, 0, 0, 1;
  VecX r_printed(8);
  r_printed << 5.587487, 4.831606, 5.587487, -1.483581, 7.071068, 4.472136, 5.228017, -6.315187;
  EXPECT_LT((scratch.reduced.M - n_printed).lpNorm<Eigen::Infinity>(), 5.01e-7);
  EXPECT_LT((scratch.reduced.q - r_printed).lpNorm<Eigen::Infinity>(), 5.01e-7);

  const MlcpSolution s = solve_mlcp(p);
  ASSERT_TRUE(s.certificate.ok()) << to_string(s.certificate.status);
  // All impulses 0, c = (0, 0, 0, 6.315187), free flight ν = ν_free = (3, −0.0981, 0).
  EXPECT_LT(s.z.head(4).lpNorm<Eigen::Infinity>(), 1e-12);
  EXPECT_LT(s.z.segment(4, 3).lpNorm<Eigen::Infinity>(), 1e-12);
  EXPECT_NEAR(s.z(7), 6.315187, 5e-7);
  EXPECT_LT((s.nu - Vec3(3, -0.0981, 0)).lpNorm<Eigen::Infinity>(), 1e-14);
  // End-of-step linearised gaps ψ + h Gᵀν of C1..C4. The example prints the last as 0.00360: a
  // double rounding of 0.0035947 (0.017889 − 0.014294 by hand), so it is checked as 0.003595.
  const Real gaps[4] = {0.05587, -0.01484, 0.04832, 0.003595};
  const Real half_unit[4] = {5e-6, 5e-6, 5e-6, 5e-7};
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(ex.c[i].psi + ex.h * ex.c[i].g.dot(s.nu), gaps[i], half_unit[i]) << i;
  }
  EXPECT_LE(s.certificate.newton_euler_residual, 1e-14);
}

TEST(Mlcp, WorkedExampleStandardModelIsTrapped) {
  // All four contacts as unilateral: p = (0, 0.95373, 0, 0), ν = (2.325611, 0.576289, −2.247964).
  const WorkedExample ex = worked_example();
  Mlcp p;
  p.M = ex.m;
  p.G.resize(3, 4);
  for (int i = 0; i < 4; ++i) p.G.col(i) = ex.c[i].g;
  p.H = p.G;
  p.D.resize(4, 4);
  p.r.resize(4);
  for (int i = 0; i < 4; ++i) p.r(i) = ex.c[i].psi / ex.h;
  p.c = ex.c_rhs;
  const MlcpSolution s = solve_mlcp(p);
  ASSERT_TRUE(s.certificate.ok());
  EXPECT_NEAR(s.z(0), 0.0, 1e-12);
  EXPECT_NEAR(s.z(1), 0.95373, 5e-6);
  EXPECT_NEAR(s.z(2), 0.0, 1e-12);
  EXPECT_NEAR(s.z(3), 0.0, 1e-12);
  EXPECT_NEAR(s.nu(0), 2.325611, 5e-7);
  EXPECT_NEAR(s.nu(1), 0.576289, 5e-7);
  EXPECT_NEAR(s.nu(2), -2.247964, 5e-7);
  // Unique (as the example says): the direct enumeration of the 7×7 mixed system finds only this
  // one.
  const auto all = enumerate_mlcp(p, 1e-9);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_LT((all[0].nu - s.nu).lpNorm<Eigen::Infinity>(), 1e-12);
}

// ---- Random planar scenes ----
MatX planar_mass(std::mt19937& rng) {
  std::uniform_real_distribution<Real> mass(0.5, 5), inertia(0.05, 1);
  return Vec3(0, 0, inertia(rng)).asDiagonal().toDenseMatrix() +
         Vec3(1, 1, 0).asDiagonal().toDenseMatrix() * mass(rng);
}

TEST(Mlcp, ReductionAgreesWithTheDirectMixedSolve) {
  // Frictionless standard model and PEG-style rows (H ≠ G, D ≠ 0) on 1–3 planar bodies; the
  // Schur-complement answer must be one of the directly enumerated (ν, z) and ν must agree.
  std::mt19937 rng(31);
  std::normal_distribution<Real> normal;
  for (int k = 0; k < 40; ++k) {
    Mlcp p;
    const int bodies = 1 + k % 3;
    for (int b = 0; b < bodies; ++b) p.M.add_block(planar_mass(rng));
    const int nv = 3 * bodies, m = 2 + k % 6;
    p.G.resize(nv, m);
    for (Eigen::Index i = 0; i < p.G.size(); ++i) p.G.data()[i] = normal(rng);
    p.H = p.G;
    p.D.resize(m, m);
    if (k % 2) {  // PEG-style: the last row is a slack row with its own Jacobian and E blocks
      p.G.col(m - 1).setZero();
      for (int i = 0; i < nv; ++i) p.H(i, m - 1) = normal(rng);
      p.D.insert(m - 1, m - 1) = 1.0;
      p.D.insert(0, m - 1) = 1.0;
    }
    p.c.resize(nv);
    p.r.resize(m);
    for (int i = 0; i < nv; ++i) p.c(i) = normal(rng);
    for (int i = 0; i < m; ++i) p.r(i) = normal(rng);
    const MlcpSolution s = solve_mlcp(p);
    const auto all = enumerate_mlcp(p, 1e-9);
    const std::string what = std::to_string(k);
    if (all.empty()) {
      EXPECT_FALSE(s.certificate.ok()) << what;
      continue;
    }
    ASSERT_TRUE(s.certificate.ok()) << what << " " << to_string(s.certificate.status);
    EXPECT_LE(s.certificate.newton_euler_residual, 1e-12 * (1 + s.z.norm())) << what;
    bool found = false;
    for (const auto& d : all) {
      found = found || ((d.nu - s.nu).lpNorm<Eigen::Infinity>() < 1e-9 &&
                        (d.z - s.z).lpNorm<Eigen::Infinity>() < 1e-9 * (1 + d.z.norm()));
    }
    EXPECT_TRUE(found) << what;
  }
}

// A random MLCP on `bodies` spatial bodies with m unknowns: columns on one or two bodies, PEG
// slack columns (G zero, H on up to four bodies), one D entry per row.
Mlcp random_body_block_mlcp(int bodies, int m, std::mt19937& rng) {
  std::normal_distribution<Real> normal;
  Mlcp p;
  const int nv = 6 * bodies;
  for (int b = 0; b < bodies; ++b) {
    const MatX a = MatX::Random(6, 6);
    p.M.add_block(a * a.transpose() + MatX::Identity(6, 6));
  }
  auto sparse_column = [&](int touching) {
    VecX col = VecX::Zero(nv);
    for (int t = 0; t < touching; ++t) {
      const int b = static_cast<int>(rng() % bodies);
      for (int i = 0; i < 6; ++i) col(6 * b + i) += normal(rng);
    }
    return col;
  };
  p.G.resize(nv, m);
  p.H.resize(nv, m);
  for (int j = 0; j < m; ++j) {
    p.G.col(j) = j % 5 == 4 ? VecX::Zero(nv) : sparse_column(1 + j % 2);
    p.H.col(j) = j % 5 == 4 ? sparse_column(4) : VecX(p.G.col(j));
  }
  p.D.resize(m, m);
  for (int j = 0; j < m; ++j) p.D.insert(j, (j * 7) % m) = normal(rng);
  p.c = sparse_column(bodies);
  p.r.resize(m);
  for (int j = 0; j < m; ++j) p.r(j) = normal(rng);
  return p;
}

TEST(Mlcp, SparseReductionEqualsTheDenseSchurComplement) {
  // reduce_mlcp sums Hᵀ W G over the body blocks both columns touch (docs/solvers.md
  // "Reduction"); the dense formula with W = M⁻¹ is the oracle. Spatial 6×6 blocks, columns on
  // one or two of 2–6 bodies, PEG slack columns on up to four. One scratch for all 30 problems of
  // 3–19 unknowns, as a lane reduces its islands: N's two buffers must keep no stale entry.
  std::mt19937 rng(83);
  MlcpScratch s;
  for (int k = 0; k < 30; ++k) {
    const Mlcp p = random_body_block_mlcp(2 + k % 5, 3 + (k * 7) % 17, rng);
    reduce_mlcp(p, s);
    const MatX w = p.M.dense().inverse();
    const MatX n = p.H.transpose() * w * p.G + MatX(p.D);
    const VecX b = p.H.transpose() * w * p.c + p.r;
    const std::string what = std::to_string(k);
    ASSERT_EQ(s.reduced.M.rows(), n.rows()) << what;
    ASSERT_EQ(s.reduced.M.cols(), n.cols()) << what;
    EXPECT_LE((s.reduced.M - n).lpNorm<Eigen::Infinity>(),
              1e-12 * (1 + n.lpNorm<Eigen::Infinity>()))
        << what;
    EXPECT_LE((s.reduced.q - b).lpNorm<Eigen::Infinity>(),
              1e-12 * (1 + b.lpNorm<Eigen::Infinity>()))
        << what;
  }
}

TEST(Mlcp, ReductionKeepsALargeIslandsBufferAcrossSmallIslands) {
  // A lane reduces its large island, then the small ones, every step (docs/solvers.md
  // "Allocation"): an N of 4 MB or more (800² doubles: 5 MB) stays in its own buffer, so the next
  // step's N of the same size is written over the same storage, whose pages are already mapped.
  std::mt19937 rng(7);
  const Mlcp large = random_body_block_mlcp(60, 800, rng);
  const Mlcp small = random_body_block_mlcp(3, 12, rng);
  MlcpScratch s;
  reduce_mlcp(large, s);
  const Real* storage = s.reduced.M.data();
  const MatX first = s.reduced.M;
  reduce_mlcp(small, s);
  EXPECT_NE(s.reduced.M.data(), storage);
  EXPECT_EQ(s.reduced.M.rows(), 12);
  reduce_mlcp(small, s);
  reduce_mlcp(large, s);
  EXPECT_EQ(s.reduced.M.data(), storage);
  EXPECT_EQ(s.reduced.M, first);
}

// Standard model with the polyhedral friction cone, planar: k = 2 directions ±t̂ per contact.
// Unknowns (p_n, β, σ); D has E (β rows, σ cols), U (σ rows, p_n cols), −Eᵀ (σ rows, β cols).
Mlcp frictional_scene(int contacts, std::mt19937& rng, VecX* mu_out) {
  std::uniform_real_distribution<Real> u(-1, 1), mu(0.1, 1.0), gap(-0.005, 0.02);
  Mlcp p;
  const int bodies = 2, nv = 3 * bodies, nc = contacts, m = 4 * nc;
  std::vector<Vec2> x;
  for (int b = 0; b < bodies; ++b) {
    p.M.add_block(planar_mass(rng));
    x.emplace_back(u(rng), u(rng));
  }
  p.G = MatX::Zero(nv, m);
  MatX d = MatX::Zero(m, m);
  p.r = VecX::Zero(m);
  VecX mus(nc);
  const Real h = 0.01;
  for (int j = 0; j < nc; ++j) {
    // Contact between dynamic body b (side B) and the static ground (side A, no unknowns).
    const int b = j % bodies;
    const Real angle = M_PI / 2 + 0.6 * u(rng);
    const Vec2 n(std::cos(angle), std::sin(angle)), t = perp(n), pt(u(rng), u(rng));
    const auto column = [&](const Vec2& d) {
      VecX col = VecX::Zero(nv);
      col.segment<2>(3 * b) = d;
      col(3 * b + 2) = cross2(pt - x[b], d);
      return col;
    };
    p.G.col(j) = column(n);
    p.G.col(nc + 2 * j) = column(t);
    p.G.col(nc + 2 * j + 1) = column(-t);
    p.r(j) = gap(rng) / h;
    mus(j) = mu(rng);
    for (int r = 0; r < 2; ++r) {
      d(nc + 2 * j + r, 3 * nc + j) = 1.0;   // E
      d(3 * nc + j, nc + 2 * j + r) = -1.0;  // −Eᵀ
    }
    d(3 * nc + j, j) = mus(j);  // U
  }
  p.D = d.sparseView();
  p.H = p.G;
  // c = M ν^ℓ + h λ_ext: random motion plus gravity.
  VecX nu_l(nv), f(nv);
  for (int i = 0; i < nv; ++i) nu_l(i) = u(rng);
  f.setZero();
  for (int b = 0; b < bodies; ++b) f(3 * b + 1) = -9.81 * p.M.blocks[b](0, 0);
  p.M.apply(nu_l, p.c);
  p.c += h * f;
  if (mu_out) *mu_out = mus;
  return p;
}

TEST(Mlcp, FrictionalStandardModelIsSolvedAndPhysical) {
  std::mt19937 rng(57);
  MlcpScratch scratch;
  MlcpSolution s;
  int in_oracle = 0;
  const int count = 30;
  for (int k = 0; k < count; ++k) {
    const int nc = 1 + k % 3;
    VecX mu;
    const Mlcp p = frictional_scene(nc, rng, &mu);
    solve_mlcp(p, {}, scratch, s);  // one scratch for all: sizes change, results must not
    const std::string what = std::to_string(k);
    ASSERT_TRUE(s.certificate.ok()) << what << " " << to_string(s.certificate.status);
    EXPECT_LE(s.certificate.newton_euler_residual, s.certificate.newton_euler_tolerance);
    const VecX pn = s.z.head(nc), beta = s.z.segment(nc, 2 * nc), sigma = s.z.tail(nc);
    const Real tol = 1e-8 * (1 + s.z.norm());
    for (int j = 0; j < nc; ++j) {
      // Inside the linearised cone: β₊ + β₋ <= μ p_n.
      EXPECT_LE(beta(2 * j) + beta(2 * j + 1), mu(j) * pn(j) + tol) << what;
      // Normal velocity after the step closes no gap: ψ/h + G_nᵀν >= 0.
      EXPECT_GE(s.w(j), -tol) << what;
    }
    // Friction never does positive work: νᵀ G_f β = −Σ σ_j Σ_r β_jr <= 0.
    const Real power = s.nu.dot(p.G.middleCols(nc, 2 * nc) * beta);
    EXPECT_LE(power, tol) << what;
    EXPECT_NEAR(power, -sigma.dot(beta.reshaped(2, nc).colwise().sum().transpose()), tol) << what;
    // Independent oracle on the unreduced system (m = 4..12 pairs).
    for (const auto& d : enumerate_mlcp(p, 1e-9)) {
      if ((d.nu - s.nu).lpNorm<Eigen::Infinity>() < 1e-8) {
        ++in_oracle;
        break;
      }
    }
  }
  EXPECT_GE(in_oracle, count * 9 / 10);
}

TEST(Mlcp, NoContactsMeansFreeMotion) {
  Mlcp p;
  p.M.add_block(planar_mass(*std::make_unique<std::mt19937>(1)));
  p.G = MatX::Zero(3, 0);
  p.H = p.G;
  p.D.resize(0, 0);
  p.c = Vec3(1, 2, 3);
  p.r = VecX(0);
  const MlcpSolution s = solve_mlcp(p);
  EXPECT_TRUE(s.certificate.ok());
  EXPECT_EQ(s.certificate.method, SolveMethod::kNone);
  EXPECT_LT((p.M.dense() * s.nu - p.c).norm(), 1e-14);
}

TEST(Mlcp, RejectsInconsistentShapesAndBadMass) {
  std::mt19937 rng(2);
  Mlcp p = frictional_scene(2, rng, nullptr);
  Mlcp bad = p;
  bad.H = MatX::Zero(6, 3);
  EXPECT_THROW(solve_mlcp(bad), InputError);
  bad = p;
  bad.r = VecX::Zero(3);
  EXPECT_THROW(solve_mlcp(bad), InputError);
  bad = p;
  bad.M.blocks[1](2, 2) = -1.0;  // not positive definite
  EXPECT_THROW(solve_mlcp(bad), InputError);
  bad = p;
  bad.c(0) = std::numeric_limits<Real>::infinity();
  EXPECT_THROW(solve_mlcp(bad), InputError);
}

// ---- Equality rows (Mlcp::bilateral; docs/joints.md "Solve"): the condensed solve against the
// enumeration above, and the certificate's verdict on the free rows.

// Two planar bodies, `unilateral` random contact columns and `bilateral` random equality columns
// (G = H, D = 0), gravity in c, rates r in [−0.5, 0.5].
Mlcp random_mlcp(std::mt19937& rng, int unilateral, int bilateral) {
  std::uniform_real_distribution<Real> u(-1, 1);
  Mlcp p;
  for (int b = 0; b < 2; ++b)
    p.M.add_block(Vec3(1.0 + b, 1.0 + b, 0.1 + 0.05 * b).asDiagonal().toDenseMatrix());
  const int m = unilateral + bilateral;
  p.G = MatX::NullaryExpr(6, m, [&] { return u(rng); });
  p.H = p.G;
  p.D.resize(m, m);
  p.c = VecX::NullaryExpr(6, [&] { return u(rng); });
  p.r = 0.5 * VecX::NullaryExpr(m, [&] { return u(rng); });
  p.bilateral = bilateral;
  return p;
}

TEST(MlcpBilateral, CondensedSolveMatchesEnumeratedActiveSets) {
  std::mt19937 rng(7);
  int compared = 0, negative = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Mlcp p = random_mlcp(rng, 1 + trial % 5, 1 + trial % 3);
    const std::vector<MixedSolution> oracle = enumerate_mlcp(p, 1e-10);
    if (oracle.empty()) continue;  // infeasible draws (the equality rows cut off the set)
    const MlcpSolution s = solve_mlcp(p);
    ASSERT_TRUE(s.certificate.ok()) << "trial " << trial;
    // ν is unique (M is SPD: the rows are the constraints of a strictly convex QP).
    EXPECT_LT((s.nu - oracle.front().nu).lpNorm<Eigen::Infinity>(), 1e-9) << "trial " << trial;
    // The equality rows hold and their multipliers are free (some come out negative).
    EXPECT_LE(s.certificate.bilateral_residual, s.certificate.tolerance);
    negative += s.z.tail(p.bilateral).minCoeff() < 0;
    ++compared;
  }
  EXPECT_GT(compared, 150);
  EXPECT_GT(negative, 20);  // free multipliers of either sign were certified
}

TEST(MlcpBilateral, CertificateRejectsAnEqualityRowThatDoesNotHold) {
  std::mt19937 rng(3);
  const Mlcp p = random_mlcp(rng, 2, 1);
  MlcpSolution s = solve_mlcp(p);
  ASSERT_TRUE(s.certificate.ok());
  // Move ν along the kernel of the complementarity rows only: the equality row breaks.
  SolverOptions o;
  o.impulse_scale = s.certificate.impulse_scale;
  VecX w;
  const VecX shifted = s.nu + 1e-3 * p.G.col(2) / p.G.col(2).squaredNorm();
  const SolveCertificate bad = verify_mlcp(p, shifted, s.z, s.certificate.tolerance, o, w);
  EXPECT_FALSE(bad.ok());
  EXPECT_GT(bad.bilateral_residual, s.certificate.tolerance);
  // A negative free multiplier alone is no violation.
  const SolveCertificate good = verify_mlcp(p, s.nu, s.z, s.certificate.tolerance, o, w);
  EXPECT_TRUE(good.ok());
}

}  // namespace
}  // namespace exactsim
