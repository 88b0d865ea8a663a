#include "exactsim/stepping/position_projection.h"

#include <algorithm>

#include "detect.h"
#include "exactsim/dynamics/integrate.h"
#include "exactsim/stepping/step.h"

namespace exactsim {
namespace {

// A ray's entry (‖y‖∞ = 1) above this puts its row in the contradiction.
constexpr Real kRaySupport = 1e-9;
// Rounds of relaxation before a projection is given up (unsolved). The PEG hull pours need 1–2; the
// standard model's 3D pours up to 37, and unbounded they spent up to 6 s on one step's rounds.
constexpr int kMaxRelaxRounds = 4;
// The largest move of a body's point the projection makes, per metre of the deepest overlap.
constexpr Real kMaxMovePerDepth = 2;

// The z-part y of the ray on which Lemke ended the failed solve in s: a Farkas vector (y >= 0,
// N_p y <= 0, b_pᵀ y < 0) or one that failed that test only to round-off — on the PSD N_p a
// secondary ray means infeasible in exact arithmetic, or feasible only with push-outs beyond the
// problem's scale (exact Lemke on the hull pours' captures). When the stack's fallbacks replaced
// it, one Lemke path (`lemke`: Lemke alone, the stack's first path) finds it again. nullptr:
// Lemke did not end on a ray (pivot budget, verification).
const VecX* contradiction(const Lcp& lcp, const SolverOptions& lemke,
                          PositionProjectionScratch& s) {
  auto ends_on_ray = [&](const LcpSolution& r) {
    const SolveStatus st = r.certificate.status;
    return (st == SolveStatus::kInfeasible || st == SolveStatus::kRay) &&
           r.ray.size() == lcp.q.size();
  };
  if (ends_on_ray(s.solution)) return &s.solution.ray;
  if (s.solution.certificate.primary_status != SolveStatus::kRay &&
      s.solution.certificate.primary_status != SolveStatus::kInfeasible)
    return nullptr;  // Lemke's own path did not end on a ray either
  solve_lemke(lcp, lemke, s.solver, s.ray_probe);
  return ends_on_ray(s.ray_probe) ? &s.ray_probe.ray : nullptr;
}

}  // namespace

void project_positions(const World& world, State& state, Real h, Workspace& ws,
                       StepReport& report) {
  const MlcpLayout& layout = ws.layout;
  const Mlcp& mlcp = ws.mlcp;
  const ConstraintSet& set = ws.island;
  PositionProjectionScratch& s = ws.projection;
  const Real slop = split_slop(world.contact, h);
  const Real cap = world.contact.max_stabilisation_speed;

  s.rows.clear();
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
    const Real predicted = set.contacts[c].gap + h * mlcp.G.col(j).dot(ws.solution.nu);
    deepest = std::min(deepest, predicted);
    s.lcp.q[i] = predicted < 0 ? std::max(predicted / h, -cap) : predicted / h;
  }
  report.projection_depth = -deepest;
  if (deepest >= -slop) return;

  const MatX& wg = ws.solver.WG;  // W G from the velocity solve's reduction
  s.lcp.M.resize(n, n);
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) s.lcp.M(a, b) = mlcp.G.col(s.rows[a]).dot(wg.col(s.rows[b]));
  report.projection_ran = true;
  solve_lcp(s.lcp, world.solver, s.solver, s.solution);
  // Relax the contradictory push-outs (the header's comment), each round with Lemke alone: what
  // relaxes is its ray, and the stack's fallbacks (a Fischer–Burmeister run costs ~100 n³) would
  // make a wedge of hundreds of rows cost seconds per round.
  SolverOptions lemke = world.solver;
  lemke.fallback = false;
  lemke.extended_precision_retry = false;
  for (int round = 0; round < kMaxRelaxRounds && !s.solution.certificate.ok(); ++round) {
    const VecX* y = contradiction(s.lcp, lemke, s);
    int relaxed = 0;
    for (int i = 0; y != nullptr && i < n; ++i)
      if ((*y)[i] > kRaySupport && s.lcp.q[i] < 0) {
        s.lcp.q[i] = 0;
        ++relaxed;
      }
    if (relaxed == 0) break;
    report.projection_relaxed_rows += relaxed;
    solve_lemke(s.lcp, lemke, s.solver, s.solution);
  }
  report.projection_solved = s.solution.certificate.ok();
  if (!report.projection_solved) return;

  s.nu.setZero(wg.rows());
  for (int i = 0; i < n; ++i) s.nu += s.solution.z[i] * wg.col(s.rows[i]);
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
  // Positions move by h ν_p; the velocities stay ν⁺ (swapped in and out for the update).
  for (std::size_t k = 0; k < layout.active_bodies.size(); ++k) {
    const int b = layout.active_bodies[k];
    auto v = state.v_of(b);
    auto p = s.nu.segment(static_cast<Eigen::Index>(k) * nb, nb);
    v.swap(p);
    integrate_position(state, b, h, world.stepping.rotation);
    v.swap(p);
  }
}

}  // namespace exactsim
