// The Stewart–Trinkle time step (spec peg.md §0), as the algorithm reads:
//   spawn → detect → constraints → assemble → solve + verify → velocities → positions → report.
#include "exactsim/stepping/step.h"

#include <chrono>

#include "detect.h"
#include "exactsim/contact/peg.h"
#include "exactsim/contact/standard_model.h"
#include "exactsim/dynamics/integrate.h"
#include "exactsim/math/error.h"
#include "exactsim/metrics/energy.h"
#include "exactsim/metrics/overlap.h"
#include "exactsim/stepping/peg_general_form.h"

namespace exactsim {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point& t) {
  const auto now = Clock::now();
  const double s = std::chrono::duration<double>(now - t).count();
  t = now;
  return s;
}

// A body joins at the first step whose start time is >= its spawn time (scene-format.md).
int spawn_bodies(const World& world, State& state, Real h) {
  int spawned = 0;
  for (int i = 0; i < world.body_count(); ++i)
    if (!state.present[i] && world.bodies[i].spawn_time <= state.time + 1e-9 * h) {
      state.present[i] = 1;
      ++spawned;
    }
  return spawned;
}

void build_constraints(const World& world, Workspace& ws) {
  switch (world.contact.model) {
    case ContactModel::kStandard:
      build_standard_constraints(ws.constraints);
      return;
    case ContactModel::kPeg:
      if (world.dimension == 3)
        build_peg_constraints_3d(ws.shapes3, ws.polyhedra, ws.is_static, world.contact.peg,
                                 ws.constraints, ws.peg3d);
      else
        build_peg_constraints_2d(ws.polygons, ws.is_static, world.contact.peg, ws.constraints,
                                 ws.peg2d);
      return;
    case ContactModel::kCorrective:  // its detection already made one U contact per pair
      build_standard_constraints(ws.constraints);
      return;
  }
}

// ν⁺ from the solution for active bodies, ν + h M⁻¹F for the other dynamic bodies (spec §0.7).
void update_velocities(const World& world, State& state, Real h, const Workspace& ws, bool solved) {
  const int nb = velocity_size(world.dimension);
  for (int i = 0; i < world.body_count(); ++i) {
    if (!state.present[i] || world.bodies[i].is_static) continue;
    const int k = solved ? ws.layout.block_of_body[i] : -1;
    if (k >= 0)
      state.v_of(i) = ws.solution.nu.segment(k * nb, nb);
    else
      integrate_free_velocity(world.bodies[i], state, i, h, world.gravity);
  }
}

// Last resort after a failed solve when the user asked to continue (spec §4): solve the reduced
// LCP with N + δI for growing δ (a P-matrix when N is PSD, so the frictionless standard model
// always recovers) and take ν = W(G z + c). It changes the model: the step stays reported as
// failed, with the δ used.
bool recover_by_regularisation(const World& world, Workspace& ws, StepReport& report) {
  MlcpScratch& s = ws.solver;
  const Real scale = std::max<Real>(1, s.reduced.M.diagonal().cwiseAbs().maxCoeff());
  Lcp regularised = s.reduced;
  // Lemke alone: on a P-matrix it cannot end on a ray, and when it still fails (round-off) a
  // larger δ is the better next try than a Fischer–Burmeister run on the same problem.
  SolverOptions lemke_only = world.solver;
  lemke_only.fallback = false;
  for (Real delta : {1e-10, 1e-8, 1e-6, 1e-4, 1e-2}) {
    regularised.M = s.reduced.M;
    regularised.M.diagonal().array() += delta * scale;
    const LcpSolution sol = solve_lcp(regularised, lemke_only);
    if (!sol.certificate.ok()) continue;
    ws.solution.z = sol.z;
    ws.solution.nu = s.Wc + s.WG * sol.z;
    report.regularisation = delta * scale;
    return true;
  }
  return false;
}

}  // namespace

Real measure_overlap(const World& world, const State& state, Workspace& ws) {
  if (world.dimension == 2) return total_overlap_area(ws.polygons, ws.is_static, state.present);
  for (int i = 0; i < world.body_count(); ++i)
    if (state.present[i]) ws.boxes3[i] = ws.polyhedra[i].aabb;
  return total_overlap_volume(ws.shapes3, ws.poses3, ws.boxes3, ws.is_static, state.present,
                              &ws.intersection);
}

StepReport step(const World& world, State& state, Workspace& ws, Real h, long step_index) {
  StepReport report;
  report.step = step_index;
  auto clock = Clock::now();

  report.spawned = spawn_bodies(world, state, h);
  place_bodies(world, state, h, ws);
  detect_contacts(world, state, h, ws);
  report.potential_contacts = static_cast<int>(ws.constraints.contacts.size());
  report.seconds.detect = seconds_since(clock);

  build_constraints(world, ws);
  report.unilateral = static_cast<int>(ws.constraints.unilateral.size());
  report.intercontact = static_cast<int>(ws.constraints.intercontacts.size());
  report.cross = ws.constraints.cross_count();
  report.unused_contacts = ws.constraints.unused_contacts(ws.contact_marks);
  report.peg_changed = world.contact.model == ContactModel::kPeg &&
                       (report.intercontact > 0 || report.unused_contacts > 0);
  report.seconds.constraints = seconds_since(clock);

  const bool any = report.unilateral + report.intercontact > 0;
  if (any) {
    assemble_stewart_trinkle(world, state, ws.constraints, h, ws.layout, ws.mlcp);
    report.active_bodies = static_cast<int>(ws.layout.active_bodies.size());
    report.lcp_size = ws.layout.size();
    report.seconds.assemble = seconds_since(clock);
    solve_mlcp(ws.mlcp, world.solver, ws.solver, ws.solution);
    report.solver_called = true;
    report.solver = ws.solution.certificate;
    if (world.contact.model == ContactModel::kPeg && world.contact.peg.general_form)
      select_general_form_primaries(world, state, h, ws, report);  // docs/peg.md "General form"
    if (!report.solver.ok()) report.status = StepStatus::kSolverFailed;
  }
  // After a failed solve the step goes on only if the user asked to continue and the
  // regularised problem solves; otherwise those bodies fly free this step.
  const bool usable =
      any && (report.status == StepStatus::kOk || (world.stepping.continue_on_solver_failure &&
                                                   recover_by_regularisation(world, ws, report)));
  if (any) report.seconds.solve = seconds_since(clock);
  update_velocities(world, state, h, ws, usable);
  for (int i = 0; i < world.body_count(); ++i)
    if (state.present[i] && !world.bodies[i].is_static)
      integrate_position(state, i, h, world.stepping.rotation);
  state.time = static_cast<Real>(step_index + 1) * h;
  report.time = state.time;
  report.seconds.integrate = seconds_since(clock);

  for (int i = 0; i < world.body_count(); ++i) report.bodies_present += state.present[i];
  report.kinetic_energy = kinetic_energy(world.bodies, state);
  report.potential_energy = potential_energy(world.bodies, state, world.gravity);
  if (world.stepping.measure_overlap) {
    place_bodies(world, state, h, ws);
    report.overlap = measure_overlap(world, state, ws);
  }
  report.seconds.metrics = seconds_since(clock);
  return report;
}

}  // namespace exactsim
