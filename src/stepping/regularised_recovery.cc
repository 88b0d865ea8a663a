// The regularised recovery of a failed solve (docs/stepping.md "When a solve fails").
#include "regularised_recovery.h"
#include "solvers/lcp_scratch.h"

#include <algorithm>
#include <initializer_list>

namespace exactsim {
namespace {

// The δ tried, in order, each times N's largest diagonal entry.
constexpr std::initializer_list<Real> kDeltas = {1e-10, 1e-8, 1e-6, 1e-4, 1e-2};

// Dense path: the reduced LCP, Lemke alone (on a P-matrix it cannot end on a ray, and when it
// still fails, round-off, a larger δ is the better next try than a Fischer–Burmeister run on the
// same problem), with no long-double retry (keeping a failure cheap), on the step's own solver
// buffers (the memory budget counts only the copy of N), keeping the failed solve's basis for the
// next step's warm start.
bool recover_dense(const World& world, IslandWorkspace& ws, Real& used) {
  MlcpScratch& s = ws.solver;
  // After friction on demand s holds a sub-problem's reduction: recover on the whole MLCP.
  if (s.reduced.q.size() != ws.layout.size()) reduce_mlcp(ws.mlcp, s);
  const Real scale = std::max<Real>(1, s.reduced.M.diagonal().cwiseAbs().maxCoeff());
  Lcp regularised = s.reduced;
  SolverOptions lemke_only = world.solver;
  lemke_only.fallback = false;
  lemke_only.diagnostics.extended_precision_retry = false;
  lemke_only.max_pivot_work = 1e9;
  const std::vector<bool> basis = s.lcp.active;
  LcpSolution sol;
  bool recovered = false;
  for (const Real delta : kDeltas) {
    regularised.M = s.reduced.M;
    regularised.M.diagonal().array() += delta * scale;
    solve_lcp(regularised, lemke_only, s.lcp, sol);
    if (!sol.certificate.ok()) continue;
    ws.solution.z = sol.z;
    ws.solution.nu = s.Wc + s.WG * sol.z;
    used = delta * scale;
    recovered = true;
    break;
  }
  s.lcp.active = basis;
  return recovered;
}

// Sparse path: N = Hᵀ W G + D is never formed, so δ goes on D's diagonal; the sparse solve from
// last step's basis (the warm start's guess), on the sparse solve's buffers.
bool recover_sparse(const World& world, IslandWorkspace& ws, Real& used) {
  const SparseMlcp& p = ws.problem;
  SparseMlcpScratch& s = ws.sparse;
  prepare_sparse_mlcp(p, s);
  const Real scale = std::max<Real>(1, s.n_diag.cwiseAbs().maxCoeff());
  SparseRowMatX identity(p.size(), p.size());
  identity.setIdentity();
  SparseMlcp regularised = p;
  MlcpSolution sol;
  for (const Real delta : kDeltas) {
    regularised.D = p.D + (delta * scale) * identity;
    solve_sparse_mlcp(regularised, world.solver, s, sol, &ws.warm.guess);
    if (!sol.certificate.ok()) continue;
    ws.solution.z = sol.z;
    ws.solution.nu = sol.nu;
    used = delta * scale;
    return true;
  }
  return false;
}

}  // namespace

bool recover_by_regularisation(const World& world, IslandWorkspace& ws, StepReport& report) {
  if (ws.layout.n_bilateral > 0) return false;
  Real used = 0;
  if (!(ws.dense ? recover_dense(world, ws, used) : recover_sparse(world, ws, used))) return false;
  sparse_rows(ws.problem, ws.solution.nu, ws.solution.z, ws.solution.w);  // the energy's zᵀw
  report.regularisation = used;
  return true;
}

}  // namespace exactsim
