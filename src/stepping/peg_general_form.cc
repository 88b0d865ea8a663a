// The general intercontact form (PEG paper eqs. 20–23) by primary switching over the
// |Cι| = 1 MLCP (Eqs. 20 + 24), docs/peg.md "General form".
#include "exactsim/stepping/peg_general_form.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "exactsim/collision/contact_jacobian.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

// ψ̇ = ψ/h + Gᵀν⁺ of one contact (kinematic bodies' velocities included), with the stabilisation cap
// of the assembly (docs/peg.md "Tricky cases" item 10).
Real gap_rate_after(const World& world, const State& state, const IslandWorkspace& ws,
                    const Contact& c, Real h) {
  Vec6 g_a, g_b;
  direction_jacobian(c.normal, c.point_a, c.point_b(), world.dimension,
                     body_position(state, c.body_a), body_position(state, c.body_b), g_a, g_b);
  const int nb = velocity_size(world.dimension);
  Real rate = std::max(c.gap / h, -velocity_stabilisation_cap(world.contact));
  if (const int k = ws.layout.block_of_body[c.body_a]; k >= 0)
    rate += g_a.head(nb).dot(ws.solution.nu.segment(k * nb, nb));
  if (const int k = ws.layout.block_of_body[c.body_b]; k >= 0)
    rate += g_b.head(nb).dot(ws.solution.nu.segment(k * nb, nb));
  // Kinematic bodies move with their prescribed velocities.
  if (world.bodies[c.body_a].kinematic) rate += g_a.head(nb).dot(state.v_of(c.body_a));
  if (world.bodies[c.body_b].kinematic) rate += g_b.head(nb).dot(state.v_of(c.body_b));
  return rate;
}

// The LCP certificate's bound: tolerance times the problem's impulse scale (docs/solvers.md),
// not the solution's.
Real complementarity_bound(const IslandWorkspace& ws) {
  const SolveCertificate& c = ws.solution.certificate;
  return c.tolerance * std::max<Real>(1, c.impulse_scale);
}

bool is_general(const IntercontactConstraint& ic) {
  return ic.carries_impulse && ic.iota_count >= 2;
}

void fail(StepReport& report) {
  report.general_form_failed = true;
  report.status = StepStatus::kSolverFailed;
}

}  // namespace

int inconsistent_primaries(const IslandWorkspace& ws) {
  const Real bound = complementarity_bound(ws);
  int count = 0;
  for (int j = 0, slack = ws.layout.slack_begin(); j < ws.layout.n_intercontact; ++j) {
    const IntercontactConstraint& ic = ws.island.intercontacts[j];
    const VecX& z = ws.solution.z;
    Real above_primary = 0;
    for (int s = 0; s < ic.secondary_count; ++s) above_primary += z[slack + s];
    if (is_general(ic) && z[ws.layout.pi_begin() + j] * above_primary > bound) ++count;
    slack += ic.secondary_count;
  }
  return count;
}

GeneralFormCertificate certify_general_form(const World& world, const State& state,
                                            const IslandWorkspace& ws, Real h, Real tolerance) {
  GeneralFormCertificate cert;
  cert.tolerance = tolerance;
  const ConstraintSet& set = ws.island;
  const VecX& z = ws.solution.z;
  cert.min_max_gap_rate = std::numeric_limits<Real>::infinity();
  for (int j = 0; j < static_cast<int>(set.intercontacts.size()); ++j) {
    const IntercontactConstraint& ic = set.intercontacts[j];
    ++cert.groups;
    const Real primary_rate = gap_rate_after(world, state, ws, set.contacts[ic.primary], h);
    Real max_rate = primary_rate;  // = ψ̇_1 + Σ c with the c of Eq. 20
    for (int s = 0; s < ic.secondary_count; ++s) {
      const Contact& c = set.contacts[set.secondaries[ic.first_secondary + s]];
      max_rate = std::max(max_rate, gap_rate_after(world, state, ws, c, h));
    }
    cert.min_max_gap_rate = std::min(cert.min_max_gap_rate, max_rate);  // Eq. 21
    if (!ic.carries_impulse) continue;                                  // X-paper: no λ
    const Real impulse = z[ws.layout.pi_begin() + j];
    cert.min_impulse = std::min(cert.min_impulse, impulse);
    // Eq. 23 with d_i of Eq. 22 on the loaded contact (the other Cι contacts carry λ = 0);
    // |Cι| = 1 groups use Eq. 24 (d = 0).
    Real row = max_rate;
    if (is_general(ic)) {
      ++cert.general_groups;
      row += std::max<Real>(-primary_rate, 0);
    }
    cert.complementarity = std::max(cert.complementarity, std::abs(impulse * row));
  }
  if (cert.groups == 0) cert.min_max_gap_rate = 0;
  cert.complementarity_bound = tolerance * std::max<Real>(1, ws.solution.certificate.impulse_scale);
  return cert;
}

namespace {

// Rebuilds ws.island.intercontacts / secondaries from the generator's two-contact I's, with
// primary and secondary exchanged where `exchanged` is set (same order, same rows).
void rebuild(const std::vector<IntercontactConstraint>& base,
             const std::vector<int>& base_secondaries, const std::vector<std::uint8_t>& exchanged,
             ConstraintSet& set) {
  set.intercontacts.clear();
  set.secondaries.clear();
  for (std::size_t j = 0; j < base.size(); ++j) {
    IntercontactConstraint ic = base[j];
    const int other = base_secondaries[ic.first_secondary];
    ic.first_secondary = static_cast<int>(set.secondaries.size());
    set.secondaries.push_back(exchanged[j] ? ic.primary : other);
    if (exchanged[j]) ic.primary = other;
    set.intercontacts.push_back(ic);
  }
}

// Whether I row r of the last solve loads a primary that is not at the max (λ c > bound).
bool row_inconsistent(const IslandWorkspace& ws, int r, Real bound) {
  const IntercontactConstraint& ic = ws.island.intercontacts[r];
  if (!is_general(ic)) return false;
  const VecX& z = ws.solution.z;
  return z[ws.layout.pi_begin() + r] * z[ws.layout.slack_begin() + ic.first_secondary] > bound;
}

}  // namespace

void select_general_form_primaries(const World& world, const State& state, Real h,
                                   IslandWorkspace& ws, StepReport& report) {
  report.primary_switches = 0;
  if (world.dimension != 2 || !report.solver.ok()) return;  // a failed solve reports itself
  ConstraintSet& set = ws.island;
  if (inconsistent_primaries(ws) > 0) {
    for (const IntercontactConstraint& ic : set.intercontacts)
      if (ic.secondary_count != 1)
        throw InputError("PEG general form: 2D I constraints have one secondary each");
    const std::vector<IntercontactConstraint> base = set.intercontacts;
    const std::vector<int> base_secondaries = set.secondaries;
    const int n = static_cast<int>(base.size());
    std::vector<std::uint8_t> exchanged(n, 0);
    for (int round = 0;; ++round) {
      const Real bound = complementarity_bound(ws);
      int changed = 0;
      for (int j = 0; j < n; ++j) {
        if (!row_inconsistent(ws, j, bound)) continue;
        // Moving the force back to the generated primary would cycle: no consistent loading.
        if (exchanged[j]) return fail(report);
        exchanged[j] = 1;
        ++changed;
      }
      if (changed == 0) break;
      if (round == max_primary_switch_rounds) return fail(report);
      report.primary_switches += changed;
      rebuild(base, base_secondaries, exchanged, set);
      assemble_stewart_trinkle(world, state, set, h, ws.layout, ws.problem);
      dense_of(ws.problem, ws.mlcp);
      solve_mlcp(ws.mlcp, world.solver, ws.solver, ws.solution);
      report.solver = ws.solution.certificate;
      if (!report.solver.ok()) return;
    }
  }
  const GeneralFormCertificate cert =
      certify_general_form(world, state, ws, h, report.solver.tolerance);
  if (!cert.ok()) fail(report);
}

}  // namespace exactsim
