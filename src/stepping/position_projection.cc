#include "exactsim/stepping/position_projection.h"

#include <algorithm>

#include "exactsim/dynamics/integrate.h"
#include "exactsim/stepping/step.h"

namespace exactsim {

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
  solve_lcp(s.lcp, world.solver, s.solver, s.solution);
  report.projection_solved = s.solution.certificate.ok();
  if (!report.projection_solved) return;

  s.nu.setZero(wg.rows());
  for (int i = 0; i < n; ++i) s.nu += s.solution.z[i] * wg.col(s.rows[i]);
  // Positions move by h ν_p; the velocities stay ν⁺ (swapped in and out for the update).
  const int nb = velocity_size(world.dimension);
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
