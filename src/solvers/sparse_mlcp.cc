// The body-space MLCP's products and certificate, with the Jacobians' columns as body blocks
// (docs/solvers.md "Large islands: the sparse path").
#include "exactsim/solvers/sparse_mlcp.h"

#include <algorithm>
#include <cmath>

namespace exactsim {

SparseMlcp sparse_of(const Mlcp& mlcp) {
  SparseMlcp p;
  p.M = mlcp.M;
  p.g.from_dense(mlcp.G, mlcp.M);
  p.h.from_dense(mlcp.H, mlcp.M);
  p.D = mlcp.D;
  p.c = mlcp.c;
  p.r = mlcp.r;
  p.bilateral = mlcp.bilateral;
  return p;
}

void dense_of(const SparseMlcp& p, Mlcp& out) {
  out.M = p.M;
  p.g.to_dense(p.M, out.G);
  p.h.to_dense(p.M, out.H);
  out.D = p.D;
  out.c = p.c;
  out.r = p.r;
  out.bilateral = p.bilateral;
}

void sparse_rows(const SparseMlcp& p, const VecX& nu, const VecX& z, VecX& w) {
  const int m = p.size();
  w.resize(m);
  for (int i = 0; i < m; ++i) w[i] = p.h.column_dot(p.M, i, nu) + p.r[i];
  w.noalias() += p.D * z;
}

void prepare_sparse_mlcp(const SparseMlcp& p, SparseMlcpScratch& s) {
  invert_spd(p.M, s.W);
  s.W.apply(p.c, s.Wc);
  const int m = p.size();
  s.b.resize(m);
  s.n_diag.resize(m);
  for (int i = 0; i < m; ++i) {
    s.b[i] = p.h.column_dot(p.M, i, s.Wc) + p.r[i];
    Real d = p.D.coeff(i, i);
    for (int e = p.h.begin[i]; e < p.h.begin[i + 1]; ++e)
      for (int f = p.g.begin[i]; f < p.g.begin[i + 1]; ++f) {
        if (p.h.block[e] != p.g.block[f]) continue;
        const int k = p.h.block[e], nb = static_cast<int>(p.M.blocks[k].rows());
        d += p.h.values[e].head(nb).dot(s.W.blocks[k] * p.g.values[f].head(nb));
      }
    s.n_diag[i] = d;
  }
}

bool planar_bodies(const SparseMlcp& p) { return !p.M.blocks.empty() && p.M.blocks[0].rows() == 3; }

Real sparse_mlcp_impulse_scale(const SparseMlcp& p, const SparseMlcpScratch& s) {
  Real scale = p.c.size() > 0 ? p.c.lpNorm<1>() : 0.0;
  Real mass = 0;
  for (const MatX& block : p.M.blocks) mass += block.diagonal().maxCoeff();
  const Real b_max = s.b.size() > 0 ? s.b.lpNorm<Eigen::Infinity>() : 0.0;
  scale = std::max(scale, mass * b_max);
  const Real mobility = s.n_diag.size() > 0 ? s.n_diag.cwiseAbs().maxCoeff() : 0.0;
  if (mobility > 0) scale = std::max(scale, static_cast<Real>(p.size()) * b_max / mobility);
  return std::isfinite(scale) ? std::max<Real>(1.0, scale) : 1.0;
}

SolveCertificate verify_sparse_mlcp(const SparseMlcp& p, const VecX& nu, const VecX& z, Real tol,
                                    Real impulse_scale, const SolverOptions& options,
                                    SparseMlcpScratch& s, VecX& w) {
  sparse_rows(p, nu, z, w);
  s.impulse.setZero(p.M.size());
  p.g.multiply_add(p.M, z, s.impulse);
  p.M.apply(nu, s.momentum);
  s.momentum -= s.impulse;
  s.momentum -= p.c;
  return judge_mlcp_point(nu, z, w, s.momentum, p.c, tol, impulse_scale, options, p.bilateral);
}

}  // namespace exactsim
