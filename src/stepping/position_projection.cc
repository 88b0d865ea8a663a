#include "exactsim/stepping/position_projection.h"
#include "solvers/lcp_scratch.h"

#include <algorithm>
#include <string>

#include "detect.h"
#include "exactsim/dynamics/integrate.h"
#include "exactsim/dynamics/mass_matrix.h"
#include "exactsim/metrics/collider_pair.h"
#include "exactsim/stepping/memory_budget.h"
#include "exactsim/stepping/step.h"

namespace exactsim {
namespace {

// A Farkas vector's or ray's entry (‖y‖∞ = 1) above this puts its row in the contradiction.
constexpr Real kSupport = 1e-9;
// Rounds of relaxation before the QP gives up. Each relaxes at least one penetrating row; the PEG
// hull pours need 1–2, the standard model's 3D pours up to 63.
constexpr int kMaxRelaxRounds = 64;
// Rounds of the projection's working set (rows the move would carry below −tol join it). The
// 3D pile of 100 hulls needs up to 9 (step 62 of bench_scaling's seed 1: 78, 30, 20, 14, 8, 2, 2,
// 1 and 0 rows added); a round costs one QP solve, group by group (solve_dual_active_set).
constexpr int kMaxSetRounds = 16;
// Rounds of the Lemke fallback for what the dual active set leaves unsolved (docs/robustness.md
// "Stabilisation" step 2).
constexpr int kMaxLemkeRounds = 4;
// A row whose normal is independent of the active rows' by less than this fraction (in the M⁻¹
// metric, the sine of ~0.6°) counts as dependent on them (solve_dual_active_set): within a wedge
// that narrow a push-out needs multipliers beyond the certificate's scale (docs/solvers.md "Dual
// active set": at 1e-4, 2.5–7.4 % of the standard model's projections ended unverified).
constexpr Real kIndependence = 1e-2;
// The largest move of a body's point the projection makes, per metre of the deepest overlap.
constexpr Real kMaxMovePerDepth = 2;
// The interior point's iterations on the projection's QP before the dual active set takes it.
constexpr int kInteriorIterations = 60;
// The interior point's working set (solve_qp_working_set), as fractions of the largest push-out
// rate max_i −b_i: its first rows are those whose gap rate b_i is below kFirstSetGap of it (a
// push-out of that rate can close them), and a left-out row joins when the move brings its row
// value w_i below kJoinSetMargin of it. On steps 80–99 of the 3D pour of 1,000 hulls (15,600–
// 17,000 rows, 700–900 pushing) the first set holds 5,800–9,500 rows and every QP certifies in
// one round; a first set of the pushing rows alone took 6–7 rounds to 3,000–3,300 rows and more
// time than the whole QP (docs/robustness.md "Stabilisation").
constexpr Real kFirstSetGap = 1;
constexpr Real kJoinSetMargin = 0.1;

PlacedCollider3 start_collider(const StartPlacement& start, int c) {
  return placed_collider(start.shapes3[c], start.polyhedra[c], start.radius3[c]);
}

// The exact penetration depth of colliders a and b in `start` (0 when apart), computed once per
// projection (s.pair_depths).
Real pair_depth(int a, int b, const World& world, const StartPlacement& start,
                PositionProjectionScratch& s) {
  const std::pair<int, int> key{std::min(a, b), std::max(a, b)};
  for (const auto& [pair, depth] : s.pair_depths)
    if (pair == key) return depth;
  const Real depth =
      world.dimension == 2
          ? penetration_depth(start.polygons[key.first], start.polygons[key.second]).depth
          : penetration_depth(start_collider(start, key.first), start_collider(start, key.second),
                              s.penetration)
                .depth;
  s.pair_depths.push_back({key, depth});
  return depth;
}

// The gap a contact is predicted to end the step with, ψ + h rate (rate = Gᵀν⁺), as an overlap to
// push out: no deeper than its bodies overlap, max(ψ, −d) + h rate with d their exact penetration
// depth at the start of the step. A feature behind the other's plane or line but beside its face
// or edge (FEAS_vf admits a vertex up to φ below the plane), or edges apart whose lines have
// passed, is no overlap by ψ, and no push-out may lift bodies out of an overlap they do not have.
Real predicted_gap(const Contact& c, Real rate, Real h, const World& world,
                   const StartPlacement& start, PositionProjectionScratch& s) {
  const Real gap =
      c.gap < 0 ? std::max(c.gap, -pair_depth(c.collider_a(), c.collider_b(), world, start, s))
                : c.gap;
  return gap + h * rate;
}

// The predicted gap of I row j (PEG paper eqs. 39–40): the largest of its primary's and its
// secondaries' ψ + h G_sᵀν⁺ (G_s = H_j − H_slack), the vertex being clear of the other body's
// non-convex free space as soon as one of them is; then no deeper than the pair overlaps
// (predicted_gap() of the primary).
Real intercontact_gap(const World& world, const StartPlacement& start, int j, Real h,
                      IslandWorkspace& ws) {
  const MlcpLayout& layout = ws.layout;
  const ConstraintSet& set = ws.island;
  const VecX& nu = ws.solution.nu;
  const IntercontactConstraint& ic = set.intercontacts[j - layout.pi_begin()];
  const Contact& primary = set.contacts[ic.primary];
  const SparseMlcp& mlcp = ws.problem;
  const VecX& kin = layout.kinematic_rate;
  const Real rate = mlcp.h.column_dot(mlcp.M, j, nu) + kin[j];
  int slack = layout.slack_begin();
  for (int k = 0; k < j - layout.pi_begin(); ++k) slack += set.intercontacts[k].secondary_count;
  Real gap = primary.gap + h * rate;
  for (int s = 0; s < ic.secondary_count; ++s, ++slack) {
    const Contact& c = set.contacts[set.secondaries[ic.first_secondary + s]];
    gap = std::max(gap, c.gap + h * (rate - mlcp.h.column_dot(mlcp.M, slack, nu) - kin[slack]));
  }
  return std::max(gap, predicted_gap(primary, rate, h, world, start, ws.projection));
}

// The position LCP's tolerance (m/s): the solver's relative tolerance times the largest push-out it
// asks for (at least slop/h), not times the separated rows' gap rates (verification_tolerance's
// scale): a push-out of a round-off-deep overlap is then still enforced (docs/robustness.md
// "Stabilisation").
Real projection_tolerance(const VecX& b, Real floor, const SolverOptions& options) {
  Real push = floor;
  for (Eigen::Index i = 0; i < b.size(); ++i) push = std::max(push, -b[i]);
  return options.tolerance * push;
}

// Relaxes the push-out of every penetrating row whose entry in y exceeds kSupport (b_i = 0: it may
// not deepen, but is not pushed out). Returns how many.
int relax_push_outs(const VecX& y, VecX& b) {
  int relaxed = 0;
  for (Eigen::Index i = 0; i < b.size(); ++i)
    if (y[i] > kSupport && b[i] < 0) {
      b[i] = 0;
      ++relaxed;
    }
  return relaxed;
}

// N = G_Rᵀ W G_R of the columns `rows` of g over the body blocks both columns touch: O(Σ_k g_k²)
// for g_k of the rows on block k, not O(n² n_v). slot is scratch (column → row of N).
void gram(const BlockColumns& g, const BlockDiagonal& w, const std::vector<int>& rows,
          std::vector<int>& slot, MatX& out) {
  const int n = static_cast<int>(rows.size());
  slot.assign(static_cast<std::size_t>(g.cols()), -1);
  for (int i = 0; i < n; ++i) slot[rows[i]] = i;
  out.setZero(n, n);
  for (std::size_t k = 0; k < w.blocks.size(); ++k) {
    const int nb = static_cast<int>(w.blocks[k].rows());
    for (int f = g.block_begin[k]; f < g.block_begin[k + 1]; ++f) {
      const int b = slot[g.column[g.by_block[f]]];
      if (b < 0) continue;
      const VecX wg = w.blocks[k] * g.values[g.by_block[f]].head(nb);
      for (int e = g.block_begin[k]; e < g.block_begin[k + 1]; ++e) {
        const int a = slot[g.column[g.by_block[e]]];
        if (a >= 0) out(a, b) += g.values[g.by_block[e]].head(nb).dot(wg);
      }
    }
  }
}

// g_jᵀ W g_j: the speed a unit impulse on row j gives it.
Real row_mobility(const BlockColumns& g, const BlockDiagonal& w, int j) {
  Real diagonal = 0;
  for (int e = g.begin[j]; e < g.begin[j + 1]; ++e) {
    const int k = g.block[e], nb = static_cast<int>(w.blocks[k].rows());
    const auto column = g.values[e].head(nb);
    diagonal += column.dot(w.blocks[k] * column);
  }
  return diagonal;
}

// The impulse scale of the QP's LCP (G_Sᵀ W G_S, q) without forming it (lcp_impulse_scale): its
// largest diagonal entry g_iᵀ W g_i.
Real qp_impulse_scale(const BlockColumns& g, const BlockDiagonal& w, const std::vector<int>& rows,
                      const VecX& q, const SolverOptions& options) {
  if (options.impulse_scale > 0) return options.impulse_scale;
  Real mobility = 0;
  for (const int row : rows) mobility = std::max(mobility, row_mobility(g, w, row));
  return lcp_impulse_scale(static_cast<Eigen::Index>(rows.size()), q.lpNorm<Eigen::Infinity>(),
                           mobility);
}

// The certificate of z on the QP's LCP (G_Sᵀ W G_S, q) without forming it: ν = W G_S z and
// w = G_Sᵀ ν + q by sparse products.
SolveCertificate judge_qp_point(const SparseColMatX& g, const BlockDiagonal& w_inv, const VecX& z,
                                const VecX& q, Real tol, Real scale, VecX& impulse, VecX& nu,
                                VecX& w) {
  impulse.noalias() = g * z;
  w_inv.apply(impulse, nu);
  w.noalias() = g.transpose() * nu;
  w += q;
  return judge_lcp_point(z, w, tol, scale);
}

// G_R: the columns `rows` of g as a sparse n_v × |rows| matrix.
void sparse_columns(const BlockColumns& g, const BlockDiagonal& layout,
                    const std::vector<int>& rows, PositionProjectionScratch& s,
                    SparseColMatX& out) {
  s.triplets.clear();
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (int e = g.begin[rows[i]]; e < g.begin[rows[i] + 1]; ++e) {
      const int k = g.block[e], nb = static_cast<int>(layout.blocks[k].rows());
      for (int a = 0; a < nb; ++a)
        if (g.values[e][a] != 0)
          s.triplets.emplace_back(layout.offsets[k] + a, static_cast<int>(i), g.values[e][a]);
    }
  out.resize(layout.size(), static_cast<Eigen::Index>(rows.size()));
  out.setFromTriplets(s.triplets.begin(), s.triplets.end());
}

// The QP's fallback: Lemke on (N_p, b_p), relaxing the support of the ray it ends on (a Farkas
// vector, or one that fails that test only to round-off: on the PSD N_p a secondary ray means
// infeasible in exact arithmetic, or feasible only with push-outs beyond the problem's scale), at
// most kMaxLemkeRounds rounds; then, on an LCP of at most exact_max_size rows, the exact Lemke.
// Without the stack's other fallbacks: a Fischer–Burmeister run costs ~100 n³. Returns the rows
// relaxed.
int solve_by_lemke(const World& world, PositionProjectionScratch& s) {
  SolverOptions lemke = world.solver;
  lemke.fallback = false;
  lemke.diagnostics.extended_precision_retry = false;
  int relaxed = 0;
  for (int round = 0; round < kMaxLemkeRounds; ++round) {
    solve_lemke(s.lcp, lemke, s.solver, s.lemke);
    const SolveStatus st = s.lemke.certificate.status;
    const bool ray = (st == SolveStatus::kInfeasible || st == SolveStatus::kRay) &&
                     s.lemke.ray.size() == s.lcp.q.size();
    if (s.lemke.certificate.ok() || !ray) break;
    const int r = relax_push_outs(s.lemke.ray, s.lcp.q);
    if (r == 0) break;
    relaxed += r;
  }
  // Gaps at round-off on rows dependent to round-off can leave Lemke in double short of the
  // certificate: where the LCP is small, the exact Lemke on it (relaxed as it is now).
  if (!s.lemke.certificate.ok() && s.lcp.q.size() <= world.solver.exact_max_size)
    solve_lemke_exact(s.lcp, lemke, s.lemke);
  if (s.lemke.certificate.ok()) {
    s.z = s.lemke.z;
    s.certificate = s.lemke.certificate;
  }
  return relaxed;
}

// The position LCP as the QP  min ½ pᵀ M p  s.t.  G_Sᵀ p + b_p >= 0  (pseudo-velocity p, G_S in
// s.sparse_g, b_p in q), by the dual active-set method, whose Farkas vector names the
// contradictory push-outs of a wedge (y >= 0, G_S y = 0, b_pᵀ y < 0). Each of them in y's support
// is relaxed to b_i = 0 in q (it may not deepen, but is not pushed out) and the QP solved again, at
// most kMaxRelaxRounds times. A solved QP's p (s.z) is certified by certify(tol); otherwise
// s.certificate has the QP's status.
template <class Certify>
void solve_relaxing(const World& world, const SparseMlcp& mlcp, Real floor, VecX& q,
                    PositionProjectionScratch& s, StepReport& report, Certify certify) {
  s.no_force.setZero(mlcp.M.size());
  s.certificate = SolveCertificate{};
  for (int round = 0;; ++round) {
    const Real tol = projection_tolerance(q, floor, world.solver);
    const DualActiveSetResult qp = solve_dual_active_set(
        mlcp.M, s.sparse_g, s.no_force, q, 0.1 * tol, kIndependence, 0, s.dual, s.nu, s.z);
    if (qp.status == SolveStatus::kSolved) {
      certify(tol);
      return;
    }
    s.certificate.status = qp.status;
    const int relaxed = qp.status == SolveStatus::kInfeasible ? relax_push_outs(qp.farkas, q) : 0;
    report.projection_relaxed_rows += relaxed;
    if (relaxed == 0 || round + 1 == kMaxRelaxRounds) return;
  }
}

// The position LCP on the rows in s.in_set (indices into s.all_rows): s.rows, s.lcp (N_p and b_p
// of the set, relaxations written back to s.all_q), s.sparse_g = G_S and the answer s.z with its
// certificate.
void solve_projection_set(const World& world, IslandWorkspace& ws, Real floor, StepReport& report) {
  PositionProjectionScratch& s = ws.projection;
  const MlcpLayout& layout = ws.layout;
  const SparseMlcp& mlcp = ws.problem;
  s.rows.clear();
  s.set_index.clear();
  for (std::size_t i = 0; i < s.all_rows.size(); ++i)
    if (s.in_set[i]) {
      s.rows.push_back(s.all_rows[i]);
      s.set_index.push_back(static_cast<int>(i));
    }
  const int n = static_cast<int>(s.rows.size());
  const double needed = projection_lcp_bytes(mlcp.M.size(), n, world.solver);
  if (needed > static_cast<double>(world.stepping.memory_budget_bytes))
    check_memory_budget(needed, world.stepping.memory_budget_bytes,
                        "the split projection's position LCP (" + std::to_string(n) + " rows, " +
                            std::to_string(layout.active_bodies.size()) + " bodies)");
  s.lcp.q.resize(n);
  for (int i = 0; i < n; ++i) s.lcp.q[i] = s.all_q[s.set_index[i]];
  gram(mlcp.g, inverse_mass(ws), s.rows, s.slot, s.lcp.M);
  sparse_columns(mlcp.g, mlcp.M, s.rows, s, s.sparse_g);
  solve_relaxing(world, mlcp, floor, s.lcp.q, s, report, [&](Real tol) {
    s.certificate =
        verify_lcp(s.lcp, s.z, tol, certificate_impulse_scale(s.lcp, world.solver), s.w);
    // The active rows hold with equality in the QP's ν; in N_p z + b_p, formed apart, they
    // carry its round-off times |z|. Solving the active block of (N_p, b_p) directly removes it.
    s.active.assign(n, false);
    for (const int i : s.dual.active) s.active[i] = true;
    polish_complementary_basis(s.lcp, tol, s.solver, s.z, s.w, s.certificate, &s.active);
  });
  // Left unsolved (nothing in the Farkas vector's support to relax — its dependence is only to
  // kIndependence —, the iteration cap, or an answer that fails the certificate, e.g. a row
  // carried past equality by a partial step): Lemke from the relaxed b_p.
  if (!s.certificate.ok()) report.projection_relaxed_rows += solve_by_lemke(world, s);
  for (int i = 0; i < n; ++i) s.all_q[s.set_index[i]] = s.lcp.q[i];  // (relaxed push-outs)
}

// The QP  min ½ pᵀ M p  s.t.  G_Sᵀ p + q >= 0  on all its rows by the interior point in body space
// (interior_point.cc: each iteration one sparse Cholesky factorisation of M + G_S Z⁻¹W G_Sᵀ, n_v
// unknowns, whatever the number of rows and their dependence). True when it converged; then z
// holds its multipliers, to be certified by the caller. An infeasible QP (a wedge) makes it
// stall: the dual active set, whose Farkas vector names what to relax, takes it then.
bool solve_qp_interior(const BlockDiagonal& mass, const BlockColumns& g,
                       const std::vector<int>& rows, const VecX& q, Real tol, Real scale,
                       PositionProjectionScratch& s, VecX& z) {
  SparseMlcp& p = s.qp;
  const int n = static_cast<int>(rows.size()), blocks = static_cast<int>(mass.blocks.size());
  p.M = mass;
  p.g.pending.clear();
  for (int i = 0; i < n; ++i)
    for (int e = g.begin[rows[i]]; e < g.begin[rows[i] + 1]; ++e)
      p.g.add(i, g.block[e], g.values[e]);
  p.g.compress(n, blocks);
  p.h = p.g;
  p.D.resize(n, n);
  p.D.makeCompressed();
  p.c.setZero(mass.size());
  p.r = q;
  p.bilateral = 0;
  prepare_sparse_mlcp(p, s.qp_scratch);
  s.qp_scratch.symmetric = true;
  int iterations = 0;
  return interior_point(p, tol, scale, kInteriorIterations, s.qp_scratch, s.qp_nu, z, s.qp_w,
                        iterations);
}

enum class WorkingSetEnd { kCertified, kStalled, kOpen };

// The QP  min ½ pᵀ M p  s.t.  G_Sᵀ p + b_p >= 0  on all the rows s.all_rows (G_S in s.sparse_g,
// b_p in s.all_q) by the interior point on a working set of them: first the rows a push-out can
// close, then, round by round, every left-out row the move brings near closing (kFirstSetGap,
// kJoinSetMargin). A left-out row has p_i = 0, so an answer that certify(tol) accepts on all the
// rows (w = G_Sᵀ W G_S p + b_p by sparse products) is the whole QP's; the interior point on a set
// factorises M + G_R Z⁻¹W G_Rᵀ of its rows R only. kCertified with s.z (0 off the set) and
// s.certificate; kStalled when the interior point stalls on a set (a set's QP infeasible: so is
// the whole one); kOpen when the rounds run out or the answer fails on the set's own rows.
template <class Certify>
WorkingSetEnd solve_qp_working_set(const SparseMlcp& mlcp, Real tol, Real scale,
                                   PositionProjectionScratch& s, Certify certify) {
  const int n = static_cast<int>(s.all_rows.size());
  Real push = 0;
  for (int i = 0; i < n; ++i) push = std::max(push, -s.all_q[i]);
  s.in_set.assign(n, 0);
  for (int i = 0; i < n; ++i) s.in_set[i] = s.all_q[i] < kFirstSetGap * push;
  for (int round = 0; round < kMaxSetRounds; ++round) {
    s.set_index.clear();
    s.set_rows.clear();
    for (int i = 0; i < n; ++i)
      if (s.in_set[i]) {
        s.set_index.push_back(i);
        s.set_rows.push_back(s.all_rows[i]);
      }
    const auto m = static_cast<Eigen::Index>(s.set_index.size());
    s.set_q.resize(m);
    for (Eigen::Index i = 0; i < m; ++i) s.set_q[i] = s.all_q[s.set_index[i]];
    if (!solve_qp_interior(mlcp.M, mlcp.g, s.set_rows, s.set_q, tol, scale, s, s.set_z))
      return WorkingSetEnd::kStalled;
    s.z.setZero(n);
    for (Eigen::Index i = 0; i < m; ++i) s.z[s.set_index[i]] = s.set_z[i];
    certify(tol);
    if (s.certificate.ok()) return WorkingSetEnd::kCertified;
    int joined = 0;
    for (int i = 0; i < n; ++i)
      if (!s.in_set[i] && s.w[i] < kJoinSetMargin * push) s.in_set[i] = 1, ++joined;
    if (joined == 0) return WorkingSetEnd::kOpen;
  }
  return WorkingSetEnd::kOpen;
}

// The position LCP on all its rows at once, as the QP with G_S sparse: the dual active-set method
// only ever adds a row the move would carry below −tol, so it is its own working set, and neither
// N_p nor a dense G_S is formed (docs/robustness.md "Stabilisation"). Contradictory push-outs are
// relaxed as in solve_projection_set. p is certified on the LCP (N_p, b_p) with w = G_Sᵀ W G_S p +
// b_p formed by sparse products. True with s.rows, s.z, s.nu (= W G_S p) and s.certificate set;
// false leaves the relaxed push-outs in s.all_q for solve_projection_set.
bool solve_projection_whole(const World& world, IslandWorkspace& ws, Real floor,
                            StepReport& report) {
  PositionProjectionScratch& s = ws.projection;
  const SparseMlcp& mlcp = ws.problem;
  const BlockDiagonal& w = inverse_mass(ws);
  s.rows = s.all_rows;
  const int n = static_cast<int>(s.rows.size()), nv = mlcp.M.size();
  const double needed = projection_qp_bytes(nv, n);
  if (needed > static_cast<double>(world.stepping.memory_budget_bytes))
    check_memory_budget(needed, world.stepping.memory_budget_bytes,
                        "the split projection's QP (" + std::to_string(n) + " rows, " +
                            std::to_string(ws.layout.active_bodies.size()) + " bodies)");
  sparse_columns(mlcp.g, mlcp.M, s.rows, s, s.sparse_g);
  const auto impulse_scale = [&] {
    return qp_impulse_scale(mlcp.g, w, s.rows, s.all_q, world.solver);
  };
  const auto certify = [&](Real tol) {
    s.certificate =
        judge_qp_point(s.sparse_g, w, s.z, s.all_q, tol, impulse_scale(), s.impulse, s.nu, s.w);
  };
  // Large QPs by the interior point first, on a working set, then on all the rows
  // (docs/robustness.md "Stabilisation": the dual active set's cost grows as the cube of its
  // active rows, the interior point's as its rows).
  s.interior = false;
  const int min_rows = world.solver.diagnostics.projection_interior_min_rows;
  if (min_rows > 0 && n >= min_rows) {
    const Real tol = projection_tolerance(s.all_q, floor, world.solver);
    const WorkingSetEnd end = solve_qp_working_set(mlcp, tol, impulse_scale(), s, certify);
    s.interior = end == WorkingSetEnd::kCertified;
    if (s.interior) {
      report.projection_set_rows += static_cast<int>(s.set_rows.size());
      return true;
    }
    if (end == WorkingSetEnd::kOpen &&
        solve_qp_interior(mlcp.M, mlcp.g, s.rows, s.all_q, tol, impulse_scale(), s, s.z)) {
      certify(tol);
      s.interior = s.certificate.ok();
      if (s.interior) {
        report.projection_set_rows += n;
        return true;
      }
    }
  }
  solve_relaxing(world, mlcp, floor, s.all_q, s, report, certify);
  if (s.certificate.ok()) report.projection_set_rows += n;
  return s.certificate.ok();
}

// The position LCP on a working set of its rows: first the rows that ask for a push-out (b_i <
// 0), then, round by round, every left-out row the move would carry below −tol. A left-out row
// has p_i = 0, so the solution of the set with every left-out row's N_p p + b_p >= −tol is the
// whole LCP's, and only the set's N_p and G_S are formed (O(set²), not O(n²)). Its N_p, polish
// and Lemke fallback take what solve_projection_whole leaves uncertified.
void solve_projection_rounds(const World& world, IslandWorkspace& ws, Real floor,
                             StepReport& report) {
  PositionProjectionScratch& s = ws.projection;
  const SparseMlcp& mlcp = ws.problem;
  const int n = static_cast<int>(s.all_rows.size());
  s.in_set.assign(n, 0);
  for (int i = 0; i < n; ++i) s.in_set[i] = s.all_q[i] < 0;
  for (int round = 0;; ++round) {
    solve_projection_set(world, ws, floor, report);
    if (!s.certificate.ok()) break;
    const Real tol = projection_tolerance(s.all_q, floor, world.solver);
    s.impulse.noalias() = s.sparse_g * s.z;  // the pseudo-velocity W G_S p of the set's p
    inverse_mass(ws).apply(s.impulse, s.nu);
    int added = 0;
    for (int i = 0; i < n; ++i)
      if (!s.in_set[i] && mlcp.g.column_dot(mlcp.M, s.all_rows[i], s.nu) + s.all_q[i] < -tol)
        s.in_set[i] = 1, ++added;
    if (added == 0) {
      report.projection_set_rows += static_cast<int>(s.rows.size());
      break;
    }
    if (round + 1 == kMaxSetRounds) {
      s.certificate.status = SolveStatus::kMaxIterations;
      break;
    }
  }
}

// W_c = W − W J (JᵀWJ)⁺ JᵀW of an island with joints (W = M⁻¹ at the step's end): an impulse
// G_A λ changes the velocities by W_c G_A λ with the joint rows' velocities Jᵀν unchanged
// (docs/joints.md "Limits").
void joint_held_inverse_mass(const SparseMlcp& mlcp, const IslandWorkspace& ws,
                             PositionProjectionScratch& s) {
  const int nv = mlcp.M.size();
  MatX& w = s.held_inverse_mass;
  w = s.end_inverse_mass.dense();
  const MlcpLayout& layout = ws.layout;
  const int first = layout.bilateral_begin(), joints = layout.n_bilateral;
  s.joint_columns.setZero(nv, joints);
  for (int i = 0; i < joints; ++i)
    for (int e = mlcp.g.begin[first + i]; e < mlcp.g.begin[first + i + 1]; ++e) {
      const int k = mlcp.g.block[e], nb = static_cast<int>(mlcp.M.blocks[k].rows());
      s.joint_columns.col(i).segment(mlcp.M.offsets[k], nb) = mlcp.g.values[e].head(nb);
    }
  s.w_joint_columns.noalias() = w * s.joint_columns;
  s.joint_block.compute(s.joint_columns.transpose() * s.w_joint_columns);
  w.noalias() -= s.w_joint_columns * s.joint_block.solve(s.w_joint_columns.transpose());
}

// After the projection: the velocities ν⁺ must not keep approaching the contacts it pushed the
// bodies out of (rows with p_i > 0; of the interior point's answer, where every p_i > 0, those
// whose own push p_i g_iᵀWg_i exceeds their slack w_i), or the next step overlaps them again and
// the projection pushes again, each step adding the potential energy of its lift. The smallest
// change in the M norm that stops them, min ½ δᵀMδ s.t. G_Aᵀ(ν⁺ + δ) >= 0, is a frictionless
// inelastic impulse λ on those rows (δ = W G_A λ): it only removes kinetic energy. Certified on its
// LCP (N_A λ + G_Aᵀν⁺ ⊥ λ) like the projection; the certified solve in ws.solution is left as it
// was. It acts on the bodies as they are at the step's end: ν⁺ as the projection left it (a 3D
// body's spin turned with it) and M there. With the step's start M, a 3D body whose world inertia
// turned in the step (a clump spinning at 46 rad/s turns 0.23 rad in 5 ms) can gain kinetic energy
// through the impulse (docs/robustness.md "Over the whole step").
void stop_approach(const World& world, State& state, Real floor, IslandWorkspace& ws,
                   StepReport& report) {
  PositionProjectionScratch& s = ws.projection;
  const SparseMlcp& mlcp = ws.problem;
  const MlcpLayout& layout = ws.layout;
  const int nb = velocity_size(world.dimension);
  const int n = static_cast<int>(s.rows.size());
  s.pushed.clear();
  s.lambda.resize(0);
  s.end_nu.resize(mlcp.M.size());
  for (std::size_t k = 0; k < layout.active_bodies.size(); ++k)
    s.end_nu.segment(static_cast<Eigen::Index>(k) * nb, nb) = state.v_of(layout.active_bodies[k]);
  const VecX& kin = layout.kinematic_rate;  // the kinematic bodies keep approaching
  for (int i = 0; i < n; ++i)
    if (s.z[i] > 0 &&
        (!s.interior || s.z[i] * row_mobility(mlcp.g, inverse_mass(ws), s.rows[i]) > s.w[i]) &&
        mlcp.g.column_dot(mlcp.M, s.rows[i], s.end_nu) + kin[s.rows[i]] < 0)
      s.pushed.push_back(i);
  const int m = static_cast<int>(s.pushed.size());
  if (m == 0) return;
  s.end_mass.offsets = mlcp.M.offsets;
  s.end_mass.blocks.resize(layout.active_bodies.size());
  s.end_inverse_mass.offsets = mlcp.M.offsets;
  s.end_inverse_mass.blocks.resize(layout.active_bodies.size());
  for (std::size_t k = 0; k < layout.active_bodies.size(); ++k) {
    const int b = layout.active_bodies[k];
    s.end_mass.blocks[k] = mass_block(world.bodies[b], state, b);
    s.end_inverse_mass.blocks[k] = inverse_mass_block(world.bodies[b], state, b);
  }
  s.approach.q.resize(m);
  s.pushed_rows.resize(m);
  for (int a = 0; a < m; ++a) {
    const int row = s.rows[s.pushed[a]];
    s.pushed_rows[a] = row;
    s.approach.q[a] = mlcp.g.column_dot(mlcp.M, row, s.end_nu) + kin[row];
  }
  sparse_columns(mlcp.g, mlcp.M, s.pushed_rows, s, s.ga);
  const Real tol = projection_tolerance(s.approach.q, floor, world.solver);
  // Many rows by the interior point in body space first (the dual active set's cost grows as the
  // cube of its active rows, the interior point's as its rows; docs/robustness.md
  // "Stabilisation"), certified on the LCP with w = G_Aᵀ W G_A λ + G_Aᵀν⁺ formed by sparse
  // products; the dual active set takes what it leaves uncertified.
  bool certified = false;
  const int min_rows = world.solver.diagnostics.approach_interior_min_rows;
  if (layout.n_bilateral == 0 && min_rows > 0 && m >= min_rows) {
    const Real scale =
        qp_impulse_scale(mlcp.g, s.end_inverse_mass, s.pushed_rows, s.approach.q, world.solver);
    if (solve_qp_interior(s.end_mass, mlcp.g, s.pushed_rows, s.approach.q, 0.1 * tol, scale, s,
                          s.lambda))
      certified = judge_qp_point(s.ga, s.end_inverse_mass, s.lambda, s.approach.q, tol, scale,
                                 s.impulse, s.delta, s.w)
                      .ok();
  }
  if (!certified) {
    bool solved = false;
    if (layout.n_bilateral > 0) {
      // With joints the impulse moves the bodies as the joints hold them: N_A = G_Aᵀ W_c G_A.
      joint_held_inverse_mass(mlcp, ws, s);
      s.approach.M.noalias() = s.ga.transpose() * s.held_inverse_mass * s.ga;
      s.held = solve_lcp(s.approach, world.solver);
      solved = s.held.certificate.ok();
      s.lambda = s.held.z;
      s.delta.noalias() = s.held_inverse_mass * (s.ga * s.lambda);
    } else {
      gram(mlcp.g, s.end_inverse_mass, s.pushed_rows, s.slot, s.approach.M);
      s.no_force.setZero(mlcp.M.size());
      solved = solve_dual_active_set(s.end_mass, s.ga, s.no_force, s.approach.q, 0.1 * tol,
                                     kIndependence, 0, s.dual, s.delta, s.lambda)
                   .status == SolveStatus::kSolved;
    }
    certified = solved && verify_lcp(s.approach, s.lambda, tol,
                                     certificate_impulse_scale(s.approach, world.solver), s.w)
                              .ok();
  }
  if (!certified) {
    s.lambda.resize(0);
    return;
  }
  for (std::size_t k = 0; k < layout.active_bodies.size(); ++k)
    state.v_of(layout.active_bodies[k]) += s.delta.segment(static_cast<Eigen::Index>(k) * nb, nb);
  report.approach_stopped_rows += m;
  if (layout.n_bilateral > 0) {
    // δ = W (G_A λ + J μ) with μ = −(JᵀWJ)⁺ JᵀW G_A λ: the kinetic energy changes by
    // −½ λᵀN_A λ + μᵀJᵀν⁺, the second term the joint impulses' work at the rows' velocity −φ/τ.
    const VecX mu = -s.joint_block.solve(s.w_joint_columns.transpose() * (s.ga * s.lambda));
    const Real work = mu.dot(s.joint_columns.transpose() * s.end_nu);
    report.approach_joint_work += std::max<Real>(0, work);
  }
}

}  // namespace

void project_positions(const World& world, State& state, Real h, Real slop,
                       const StartPlacement& start, IslandWorkspace& ws, StepReport& report) {
  const MlcpLayout& layout = ws.layout;
  const SparseMlcp& mlcp = ws.problem;
  const ConstraintSet& set = ws.island;
  PositionProjectionScratch& s = ws.projection;
  const Real cap = world.contact.max_stabilisation_speed;

  s.rows.clear();
  s.pair_depths.clear();
  for (int j = 0; j < layout.slack_begin(); ++j)
    if (j < layout.pi_begin() || set.intercontacts[j - layout.pi_begin()].carries_impulse)
      s.rows.push_back(j);
  const int n = static_cast<int>(s.rows.size());
  s.lcp.q.resize(n);
  Real deepest = 0;
  for (int i = 0; i < n; ++i) {
    const int j = s.rows[i];
    const int c = j < layout.pi_begin() ? set.unilateral[j]
                                        : set.intercontacts[j - layout.pi_begin()].primary;
    const Real predicted =
        j < layout.pi_begin()
            ? predicted_gap(set.contacts[c],
                            mlcp.g.column_dot(mlcp.M, j, ws.solution.nu) + layout.kinematic_rate[j],
                            h, world, start, s)
            : intercontact_gap(world, start, j, h, ws);
    deepest = std::min(deepest, predicted);
    s.lcp.q[i] = predicted < 0 ? std::max(predicted / h, -cap) : predicted / h;
  }
  report.projection_depth = -deepest;
  if (deepest >= -slop) return;

  report.projection_ran = true;
  report.projection_rows += n;
  // The position LCP on all its rows by the sparse QP; where that ends uncertified, on a working
  // set of its rows with N_p formed (docs/robustness.md "Stabilisation").
  s.all_rows.swap(s.rows);
  s.all_q.swap(s.lcp.q);
  if (!solve_projection_whole(world, ws, slop / h, report))
    solve_projection_rounds(world, ws, slop / h, report);
  report.projection_solved = s.certificate.ok();
  if (!report.projection_solved) return;
  // A nearly contradictory LCP verifies with a move far beyond the overlap it removes (a channel
  // that opens slowly needs a long lift to clear a small overlap; a body of the hull pours was
  // moved 3.8 m for a predicted overlap of 0.23 m): no point of a body may move more than
  // kMaxMovePerDepth × the deepest predicted overlap. Scaling p by α <= 1 keeps every row between
  // its predicted gap and its projected one, so none ends deeper.
  const int nb = velocity_size(world.dimension), nl = world.dimension;
  Real largest = 0;
  for (std::size_t k = 0; k < layout.active_bodies.size(); ++k) {
    const auto p = s.nu.segment(static_cast<Eigen::Index>(k) * nb, nb);
    const Real r = bounding_radius(world, layout.active_bodies[k]);
    largest = std::max(largest, h * (p.head(nl).norm() + p.tail(nb - nl).norm() * r));
  }
  const Real allowed = kMaxMovePerDepth * -deepest;
  if (largest > allowed) {
    report.projection_scale = allowed / largest;
    s.nu *= report.projection_scale;
  }
  // Positions move by h ν_p; the velocities stay ν⁺ (swapped in and out for the update). The move
  // can lift a body by at most its length: m |g| times it bounds the potential energy it adds.
  // A 3D body's turn ΔR carries its spin along (ω ← ΔR ω: the same ω in the body's frame), so its
  // rotational T = ½ ωᵀ R I Rᵀ ω is unchanged (docs/robustness.md "Over the whole step").
  const Real gravity = world.gravity.norm();
  const bool spatial = world.dimension == 3;
  for (std::size_t k = 0; k < layout.active_bodies.size(); ++k) {
    const int b = layout.active_bodies[k];
    auto v = state.v_of(b);
    auto p = s.nu.segment(static_cast<Eigen::Index>(k) * nb, nb);
    report.projection_lift += world.bodies[b].mass * gravity * h * p.head(nl).norm();
    const Quat before = spatial ? body_orientation(state, b) : Quat::Identity();
    v.swap(p);
    integrate_position(state, b, h, world.stepping.rotation);
    v.swap(p);
    if (spatial) {
      const Quat turn = body_orientation(state, b) * before.conjugate();
      v.tail<3>() = turn * Vec3(v.tail<3>());
    }
  }
  stop_approach(world, state, slop / h, ws, report);
}

}  // namespace exactsim
