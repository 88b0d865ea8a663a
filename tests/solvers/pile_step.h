// A random body-space MLCP shaped like a pile's time step, for the sparse solvers' tests.
#pragma once

#include <cstdlib>
#include <random>
#include <vector>

#include "exactsim/solvers/lcp.h"
#include "exactsim/solvers/mlcp.h"
#include "exactsim/solvers/sparse_mlcp.h"

namespace exactsim::solvers_test {

// The pile tests' generator. Eigen's Quaterniond::UnitRandom (pile_step's rotations) draws from
// the global std::rand; a PileRng resets it to its state at program start (std::srand(1)), so a
// test's problems are the same whether it runs alone (ctest: a process per test) or after others
// in one process.
struct PileRng : std::mt19937 {
  explicit PileRng(std::mt19937::result_type seed) : std::mt19937(seed) { std::srand(1); }
};

// Three draws of d as a Vec3, the last component drawn first: a fixed order, where
// Vec3(d(rng), d(rng), d(rng)) leaves it to the compiler (GCC evaluates the arguments right to
// left, Clang left to right, and the problems would differ between the two builds).
template <class Distribution>
Vec3 draw3(Distribution& d, std::mt19937& rng) {
  const Real z = d(rng), y = d(rng), x = d(rng);
  return Vec3(x, y, z);
}

// A 3D pile's time step in the standard model (Stewart & Trinkle 1996; docs/solvers.md "Problem
// forms"): `bodies` spatial bodies, `contacts` contacts between random pairs or with the static
// ground, each with a normal row and, when mu > 0, a friction pyramid of four directions and σ.
// Unknowns ordered (p_n, β, σ); D holds E (β rows, σ columns), −Eᵀ and U = μ. Gaps in
// [−5 mm, 20 mm] at h = 10 ms, random velocities and gravity.
inline Mlcp pile_step(int bodies, int contacts, Real mu, std::mt19937& rng) {
  std::uniform_real_distribution<Real> u(-1, 1), mass(0.5, 5), gap(-0.005, 0.02);
  const Real h = 0.01;
  Mlcp p;
  std::vector<Vec3> x(bodies);
  for (int b = 0; b < bodies; ++b) {
    const Real mb = mass(rng);
    const Mat3 r = Eigen::Quaterniond::UnitRandom().toRotationMatrix();
    const Vec3 s = draw3(u, rng);
    const Vec3 inertia =
        mb * Vec3(0.05 + 0.1 * (s.x() + 1), 0.05 + 0.1 * (s.y() + 1), 0.05 + 0.1 * (s.z() + 1));
    MatX block = MatX::Zero(6, 6);
    block.topLeftCorner(3, 3) = mb * Mat3::Identity();
    block.bottomRightCorner(3, 3) = r * inertia.asDiagonal() * r.transpose();
    block = 0.5 * (block + block.transpose()).eval();
    p.M.add_block(block);
    x[b] = draw3(u, rng);
  }
  const int nv = 6 * bodies, nc = contacts, k = mu > 0 ? 4 : 0;
  const int m = nc * (1 + k + (k > 0 ? 1 : 0));
  p.G = MatX::Zero(nv, m);
  p.r = VecX::Zero(m);
  std::vector<Eigen::Triplet<Real>> d;
  for (int j = 0; j < nc; ++j) {
    const int b = static_cast<int>(rng() % bodies);
    const int a = rng() % 3 == 0 ? -1 : static_cast<int>(rng() % bodies);  // −1: the ground
    const Real ny = u(rng), nx = u(rng);                                   // in draw3's order
    Vec3 n(0.3 * nx, 0.3 * ny, 1);
    n.normalize();
    const Vec3 t1 = n.unitOrthogonal(), t2 = n.cross(t1);
    const Vec3 pt = x[b] + 0.3 * draw3(u, rng);
    const auto column = [&](const Vec3& dir) {
      VecX col = VecX::Zero(nv);
      col.segment<3>(6 * b) = dir;
      col.segment<3>(6 * b + 3) = (pt - x[b]).cross(dir);
      if (a >= 0 && a != b) {
        col.segment<3>(6 * a) = -dir;
        col.segment<3>(6 * a + 3) = -(pt - x[a]).cross(dir);
      }
      return col;
    };
    p.G.col(j) = column(n);
    p.r(j) = gap(rng) / h;
    if (k == 0) continue;
    const Vec3 dirs[4] = {t1, -t1, t2, -t2};
    const int sigma = nc * (1 + k) + j;
    for (int r = 0; r < k; ++r) {
      const int beta = nc + k * j + r;
      p.G.col(beta) = column(dirs[r]);
      d.emplace_back(beta, sigma, 1.0);   // E
      d.emplace_back(sigma, beta, -1.0);  // −Eᵀ
    }
    d.emplace_back(sigma, j, mu);  // U
  }
  p.H = p.G;
  p.D.resize(m, m);
  p.D.setFromTriplets(d.begin(), d.end());
  VecX nu(nv), f = VecX::Zero(nv);
  for (int i = 0; i < nv; ++i) nu(i) = u(rng);
  for (int b = 0; b < bodies; ++b) f(6 * b + 2) = -9.81 * p.M.blocks[b](0, 0);
  p.M.apply(nu, p.c);
  p.c += h * f;
  return p;
}

// An LCP(N, q) as an MLCP with one trivial body unknown: M = (1), G = H = 0, D = N, c = 0, r = q.
inline SparseMlcp lcp_as_mlcp(const Lcp& lcp) {
  Mlcp p;
  p.M.add_block(MatX::Identity(1, 1));
  const Eigen::Index n = lcp.q.size();
  p.G = MatX::Zero(1, n);
  p.H = p.G;
  p.D = lcp.M.sparseView();
  p.c = VecX::Zero(1);
  p.r = lcp.q;
  return sparse_of(p);
}

}  // namespace exactsim::solvers_test
