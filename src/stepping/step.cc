// The Stewart–Trinkle time step (docs/stepping.md), as the algorithm reads:
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
#include "exactsim/stepping/position_projection.h"

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

// ν⁺ from the solution for active bodies, ν + h M⁻¹F for the other dynamic bodies
// (docs/stepping.md stage 6).
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

// Last resort after a failed solve when the user asked to continue (docs/stepping.md
// "When a solve fails"): solve the reduced
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
  lemke_only.extended_precision_retry = false;  // N + δI needs no retries: keep a failure cheap
  lemke_only.max_pivot_work = 1e9;
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

// ½ νᵀMν over the MLCP's blocks (no temporaries: the step allocates nothing).
Real block_kinetic_energy(const BlockDiagonal& m, const VecX& nu) {
  Real t = 0;
  for (std::size_t k = 0; k < m.blocks.size(); ++k) {
    const MatX& b = m.blocks[k];
    const auto v = nu.segment(m.offsets[k], b.rows());
    for (Eigen::Index r = 0; r < b.rows(); ++r) t += v[r] * b.row(r).dot(v);
  }
  return 0.5 * t;
}

// The energy certificate of the solve in ws (docs/robustness.md "Energy balance"); `state`
// still holds the velocities at the start of the step.
EnergyBalance energy_balance(const State& state, const Workspace& ws, Real lcp_tolerance) {
  const MlcpLayout& layout = ws.layout;
  const Mlcp& mlcp = ws.mlcp;
  const VecX& z = ws.solution.z;
  EnergyBalance e;
  e.checked = true;
  const int nb = velocity_size(state.dimension);
  for (std::size_t k = 0; k < layout.active_bodies.size(); ++k) {
    const auto v = state.v_of(layout.active_bodies[k]);
    const MatX& b = mlcp.M.blocks[k];
    for (int r = 0; r < nb; ++r) e.before += 0.5 * v[r] * b.row(r).dot(v);
  }
  e.free_flight = 0.5 * mlcp.c.dot(ws.solver.Wc);
  e.after = block_kinetic_energy(mlcp.M, ws.solution.nu);
  // Push-out work: U rows and the impulse-carrying I rows (their G column is the primary's).
  for (int j = 0; j < layout.slack_begin(); ++j) {
    const bool carries = j < layout.pi_begin() ||
                         ws.constraints.intercontacts[j - layout.pi_begin()].carries_impulse;
    if (carries && mlcp.r[j] < 0) e.stabilisation += std::max<Real>(0, z[j]) * -mlcp.r[j];
  }
  // Round-off of the three sums, and what the LCP tolerance (m/s) lets each impulse do.
  e.tolerance =
      1e-9 * std::max({e.before, e.free_flight, e.after}) + z.lpNorm<1>() * lcp_tolerance + 1e-12;
  return e;
}

// Fills report.energy for the solution in ws; false when the balance fails.
bool certify_energy(const State& state, const Workspace& ws, const World& world,
                    StepReport& report) {
  if (!world.stepping.check_energy) return true;
  report.energy = energy_balance(state, ws, report.solver.tolerance);
  return report.energy.ok();
}

// Non-finite state, or a body faster than the divergence bounds (StepOptions).
int first_diverged_body(const World& world, const State& state) {
  for (int i = 0; i < world.body_count(); ++i) {
    if (!state.present[i] || world.bodies[i].is_static) continue;
    const auto q = state.q_of(i);
    const auto v = state.v_of(i);
    if (!q.allFinite() || !v.allFinite()) return i;
    const int nl = world.dimension == 2 ? 2 : 3;
    const Real speed = v.head(nl).norm();
    const Real spin = v.tail(world.dimension == 2 ? 1 : 3).norm();
    if (speed > world.stepping.max_speed || spin > world.stepping.max_angular_speed) return i;
  }
  return -1;
}

// The watchdog (docs/penetration.md): exact depths after the step, deep pairs (> ε), centres
// inside static bodies and centres out of the scene's bounds. Shapes must be placed.
void watch_penetration(const World& world, const State& state, Real h, Workspace& ws,
                       StepReport& report) {
  const Real eps = contact_epsilon(world.contact, h);
  ScenePenetration& pen = ws.penetration_scan;
  if (world.dimension == 2) {
    ws.centres2.resize(world.body_count());
    for (int i = 0; i < world.body_count(); ++i)
      if (state.present[i]) ws.centres2[i] = state.q_of(i).head<2>();
    scene_penetration(ws.polygons, ws.centres2, ws.is_static, state.present, eps, ws.penetration,
                      pen);
  } else {
    scene_penetration(ws.shapes3, ws.polyhedra, ws.poses3, ws.is_static, state.present, eps,
                      ws.penetration, pen);
  }
  report.max_penetration = pen.max_depth;
  report.deep_penetrations = pen.deep_pairs;  // empty in a clean step: no allocation
  report.centres_inside_static = pen.centres_inside;
  const Aabb3 bounds = scene_bounds(world, ws);
  ws.out_of_bounds.clear();
  for (int i = 0; i < world.body_count(); ++i) {
    if (!state.present[i] || world.bodies[i].is_static) continue;
    const Vec3 c = body_position(state, i);
    const int d = world.dimension;
    if ((c.head(d).array() < bounds.lo.head(d).array()).any() ||
        (c.head(d).array() > bounds.hi.head(d).array()).any())
      ws.out_of_bounds.push_back(i);
  }
  report.bodies_out_of_bounds = ws.out_of_bounds;
  if (report.status == StepStatus::kOk && (!pen.deep_pairs.empty() || !pen.centres_inside.empty()))
    report.status = StepStatus::kDeepPenetration;
}

}  // namespace

Aabb3 scene_bounds(const World& world, const Workspace& ws) {
  Aabb3 box{Vec3::Constant(std::numeric_limits<Real>::infinity()),
            Vec3::Constant(-std::numeric_limits<Real>::infinity())};
  bool any = false;
  for (int i = 0; i < world.body_count(); ++i) {
    if (!world.bodies[i].is_static) continue;
    any = true;
    if (world.dimension == 2) {
      box.lo.head<2>() = box.lo.head<2>().cwiseMin(ws.polygons[i].aabb.lo);
      box.hi.head<2>() = box.hi.head<2>().cwiseMax(ws.polygons[i].aabb.hi);
    } else {
      box.lo = box.lo.cwiseMin(ws.polyhedra[i].aabb.lo);
      box.hi = box.hi.cwiseMax(ws.polyhedra[i].aabb.hi);
    }
  }
  if (!any) return box;
  const int d = world.dimension;
  const Real grow = std::max<Real>(1.0, (box.hi - box.lo).head(d).maxCoeff());
  box.lo.array() -= grow;
  box.hi.array() += grow;
  return box;
}

const char* to_string(StepStatus status) {
  switch (status) {
    case StepStatus::kOk:
      return "ok";
    case StepStatus::kSolverFailed:
      return "solver_failed";
    case StepStatus::kEnergyGain:
      return "energy_gain";
    case StepStatus::kDiverged:
      return "diverged";
    case StepStatus::kDeepPenetration:
      return "deep_penetration";
  }
  return "unknown";
}

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
  // A state that is already non-finite or runaway (given so, e.g. through the C++ API) is
  // reported as such, before the broad phase meets NaN bounds.
  report.diverged_body = first_diverged_body(world, state);
  if (report.diverged_body >= 0) {
    report.status = StepStatus::kDiverged;
    return report;
  }
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
    if (report.status == StepStatus::kOk && !certify_energy(state, ws, world, report))
      report.status = StepStatus::kEnergyGain;
  }
  // After a failed solve the step goes on only if the user asked to continue and the
  // regularised problem solves (with its energy certified too); otherwise those bodies fly free
  // this step.
  const bool usable =
      any && (report.status == StepStatus::kOk || (world.stepping.continue_on_solver_failure &&
                                                   recover_by_regularisation(world, ws, report) &&
                                                   certify_energy(state, ws, world, report)));
  report.solution_applied = usable;
  if (any) report.seconds.solve = seconds_since(clock);
  update_velocities(world, state, h, ws, usable);
  for (int i = 0; i < world.body_count(); ++i)
    if (state.present[i] && !world.bodies[i].is_static)
      integrate_position(state, i, h, world.stepping.rotation);
  if (usable && world.contact.stabilisation == Stabilisation::kSplit)
    project_positions(world, state, h, ws, report);
  state.time = static_cast<Real>(step_index + 1) * h;
  report.time = state.time;
  report.diverged_body = first_diverged_body(world, state);
  if (report.diverged_body >= 0) report.status = StepStatus::kDiverged;
  report.seconds.integrate = seconds_since(clock);

  for (int i = 0; i < world.body_count(); ++i) report.bodies_present += state.present[i];
  report.kinetic_energy = kinetic_energy(world.bodies, state);
  report.potential_energy = potential_energy(world.bodies, state, world.gravity);
  if (report.status != StepStatus::kDiverged &&
      (world.stepping.measure_overlap || world.stepping.watch_penetration)) {
    place_bodies(world, state, h, ws);
    if (world.stepping.measure_overlap) report.overlap = measure_overlap(world, state, ws);
    if (world.stepping.watch_penetration) watch_penetration(world, state, h, ws, report);
  }
  report.seconds.metrics = seconds_since(clock);
  return report;
}

}  // namespace exactsim
