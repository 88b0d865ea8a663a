// The Stewart–Trinkle time step (docs/stepping.md), as the algorithm reads:
//   spawn → detect → constraints → assemble → solve + verify → velocities → positions → report.
#include "exactsim/stepping/step.h"
#include "solvers/lcp_scratch.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <numeric>
#include <thread>

#include "depth_witness.h"
#include "detect.h"
#include "exactsim/contact/peg.h"
#include "exactsim/contact/standard_model.h"
#include "exactsim/dynamics/integrate.h"
#include "exactsim/dynamics/mass_matrix.h"
#include "exactsim/math/error.h"
#include "exactsim/metrics/energy.h"
#include "exactsim/metrics/overlap.h"
#include "exactsim/stepping/islands.h"
#include "exactsim/stepping/peg_general_form.h"
#include "exactsim/stepping/position_projection.h"
#include "exactsim/stepping/sleep.h"
#include "exactsim/stepping/warm_start.h"
#include "island_solve.h"
#include "regularised_recovery.h"

namespace exactsim {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point& t) {
  const auto now = Clock::now();
  const double s = std::chrono::duration<double>(now - t).count();
  t = now;
  return s;
}

void build_constraints(const World& world, Workspace& ws) {
  switch (world.contact.model) {
    case ContactModel::kStandard:
      build_standard_constraints(ws.constraints);
      return;
    case ContactModel::kPeg:
      if (world.dimension == 3) {
        // A sphere's contact is a U as detected (collision/sphere_contact.h): PEG's configurations
        // are those of polytope features. It joins the set after PEG's contacts.
        std::vector<Contact>& contacts = ws.constraints.contacts;
        ws.sphere_contacts.clear();
        if (!world.spheres.empty())
          std::erase_if(contacts, [&](const Contact& c) {
            if (c.type != ContactType::kSphere) return false;
            ws.sphere_contacts.push_back(c);
            return true;
          });
        build_peg_constraints_3d(ws.shapes3, ws.polyhedra, ws.is_static, world.contact.peg,
                                 ws.constraints, ws.peg3d, ws.motion);
        for (const Contact& c : ws.sphere_contacts) {
          ws.constraints.unilateral.push_back(static_cast<int>(contacts.size()));
          contacts.push_back(c);
        }
      } else {
        build_peg_constraints_2d(ws.polygons, ws.is_static, world.contact.peg, ws.constraints,
                                 ws.peg2d);
      }
      return;
    case ContactModel::kCorrective:  // its detection already made one U contact per pair
      build_standard_constraints(ws.constraints);
      return;
  }
}

// The joints whose bodies are present (docs/joints.md): a joint acts once both have spawned.
void add_joints(const World& world, const State& state, ConstraintSet& set) {
  set.joints.clear();
  for (int j = 0; j < static_cast<int>(world.joints.size()); ++j)
    if (joint_present(world.joints[j], state)) set.joints.push_back(j);
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

// T + V of the island's bodies in `state` (the metrics' definitions, metrics/energy.h).
Real island_energy(const World& world, const State& state, const MlcpLayout& layout) {
  Real e = 0;
  for (const int b : layout.active_bodies) {
    const Body& body = world.bodies[b];
    const auto v = state.v_of(b);
    e += 0.5 * v.dot(mass_block(body, state, b) * v) -
         body.mass * world.gravity.dot(body_position(state, b));
  }
  return e;
}

// The energy certificate of the solve in ws (docs/robustness.md "Energy balance"); `state`
// still holds the velocities at the start of the step.
EnergyBalance energy_balance(const State& state, const IslandWorkspace& ws, Real lcp_tolerance) {
  const MlcpLayout& layout = ws.layout;
  const SparseMlcp& mlcp = ws.problem;
  const VecX& z = ws.solution.z;
  EnergyBalance e;
  e.checked = true;
  const int nb = velocity_size(state.dimension);
  for (std::size_t k = 0; k < layout.active_bodies.size(); ++k) {
    const auto v = state.v_of(layout.active_bodies[k]);
    const MatX& b = mlcp.M.blocks[k];
    for (int r = 0; r < nb; ++r) e.before += 0.5 * v[r] * b.row(r).dot(v);
  }
  e.free_flight = 0.5 * mlcp.c.dot(free_velocity(ws));
  e.after = block_kinetic_energy(mlcp.M, ws.solution.nu);
  // Push-out work: U rows and the impulse-carrying I rows (their G column is the primary's), on
  // the gap part of r; the kinematic bodies' part is their work on the island, over the friction
  // rows too (every row with a G column).
  const VecX& kin = layout.kinematic_rate;
  for (int j = 0; j < layout.slack_begin(); ++j) {
    const bool carries =
        j < layout.pi_begin() || ws.island.intercontacts[j - layout.pi_begin()].carries_impulse;
    if (!carries) continue;
    const Real gap_rate = mlcp.r[j] - kin[j];
    if (gap_rate < 0) e.stabilisation += std::max<Real>(0, z[j]) * -gap_rate;
    e.kinematic_work -= z[j] * kin[j];
  }
  for (int j = layout.beta_begin(); j < layout.sigma_begin(); ++j)
    e.kinematic_work -= z[j] * kin[j];
  // Joint rows (free λ, Jᵀν⁺ = −r): their impulses do the work −λ r, at most max(0, −λ φ/τ) from
  // the position error, plus the kinematic bodies' share (docs/joints.md "Energy").
  for (int j = layout.bilateral_begin(); j < layout.size(); ++j) {
    e.stabilisation += std::max<Real>(0, -z[j] * (mlcp.r[j] - kin[j]));
    e.kinematic_work -= z[j] * kin[j];
  }
  // Round-off of the three sums, what the LCP tolerance (m/s) lets each impulse do, and the work
  // of the pairs the certificate accepts as complementary, Σ max(0, z_j w_j) (each at most tol·Z):
  // the step's energy change is at most zᵀw plus the push-out and kinematic work above
  // (docs/robustness.md "Energy balance").
  const VecX& w = ws.solution.w;
  Real complementarity_work = 0;
  for (Eigen::Index j = 0; j < z.size(); ++j)
    complementarity_work += std::max<Real>(0, z[j] * w[j]);
  e.tolerance = 1e-9 * std::max({e.before, e.free_flight, e.after}) +
                z.lpNorm<1>() * lcp_tolerance + complementarity_work + 1e-12;
  return e;
}

// Fills report.energy for the solution in ws; false when the balance fails.
bool certify_energy(const State& state, const IslandWorkspace& ws, const World& world,
                    StepReport& report) {
  if (!world.stepping.check_energy) return true;
  report.energy = energy_balance(state, ws, report.solver.tolerance);
  return report.energy.ok();
}


// The watchdog's scan into ws.penetration_scan: exact depths of ws.end_pairs, deep pairs
// (> eps) and centres inside static bodies, by body. Shapes must be placed and ws.end_pairs found
// (find_overlapping_pairs).
const ScenePenetration& scan_penetration(const World& world, const State& state, Real eps,
                                         Workspace& ws) {
  ScenePenetration& pen = ws.penetration_scan;
  // The point that must not be inside a static body: a body's centre of mass, and the vertex
  // average of each part of a compound body (its centre of mass may lie outside every part).
  const int n = world.body_count();
  auto part_centre = [&](const auto& vertices) {
    auto sum = vertices[0];
    for (std::size_t k = 1; k < vertices.size(); ++k) sum += vertices[k];
    sum /= static_cast<Real>(vertices.size());
    return sum;
  };
  auto single = [&](int c) { return c < n && world.bodies[c].extra_parts == 0; };
  if (world.dimension == 2) {
    ws.centres2.resize(world.collider_count());
    for (int c = 0; c < world.collider_count(); ++c)
      if (ws.collider_present[c])
        ws.centres2[c] =
            single(c) ? Vec2(state.q_of(c).head<2>()) : part_centre(ws.polygons[c].vertices);
    scene_penetration(ws.polygons, ws.centres2, ws.is_static, ws.end_pairs, eps, pen);
  } else {
    ws.centres3.clear();
    if (!world.parts.empty()) {
      ws.centres3.resize(world.collider_count());
      for (int c = 0; c < world.collider_count(); ++c)
        if (ws.collider_present[c])
          ws.centres3[c] =
              single(c) ? ws.poses3[c].position : part_centre(ws.polyhedra[c].vertices);
    }
    scene_penetration(ws.shapes3, ws.polyhedra, ws.poses3, ws.is_static, ws.end_pairs, eps,
                      ws.penetration, pen, {}, ws.centres3, ws.radius3);
  }
  if (!world.parts.empty()) {  // colliders → bodies
    for (PenetratingPair& p : pen.deep_pairs) {
      p.body_a = world.collider_body(p.body_a);
      p.body_b = world.collider_body(p.body_b);
    }
    for (CentreInsideStatic& c : pen.centres_inside) {
      c.body = world.collider_body(c.body);
      c.static_body = world.collider_body(c.static_body);
    }
  }
  return pen;
}

// The watchdog (docs/penetration.md): exact depths after the step, deep pairs (> ε), pairs that
// crossed deeper than ε during the step, centres inside static bodies and centres out of the
// scene's bounds. Shapes must be placed and ws.end_pairs found (find_overlapping_pairs).
void watch_penetration(const World& world, const State& state, Real h, Real eps, Workspace& ws,
                       StepReport& report) {
  const ScenePenetration& pen = scan_penetration(world, state, eps, ws);
  report.max_penetration = pen.max_depth;
  report.deep_penetrations = pen.deep_pairs;  // empty in a clean step: no allocation
  report.centres_inside_static = pen.centres_inside;
  const Aabb3 bounds = scene_bounds(world, ws);
  const int d = world.dimension;
  const bool bounded = (bounds.lo.head(d).array() <= bounds.hi.head(d).array()).all();
  ws.out_of_bounds.clear();
  for (int i = 0; i < world.body_count() && bounded; ++i) {
    if (!state.present[i] || world.bodies[i].is_static) continue;
    const Vec3 c = body_position(state, i);
    if ((c.head(d).array() < bounds.lo.head(d).array()).any() ||
        (c.head(d).array() > bounds.hi.head(d).array()).any())
      ws.out_of_bounds.push_back(i);
  }
  report.bodies_out_of_bounds = ws.out_of_bounds;
  find_crossings(world, state, ws.start_q, h, eps, ws, report);
  if (report.status == StepStatus::kOk &&
      (!pen.deep_pairs.empty() || !pen.centres_inside.empty() || !report.crossings.empty()))
    report.status = StepStatus::kDeepPenetration;
}

// The impulses of the applied solve of ws.island into `out`, per contact of the step (docs/api.md
// "Contact results"): p_U and the impulse-carrying p_I along n̂, Σ β_r d_r of each friction cone.
void record_contact_impulses(const World& world, IslandWorkspace& ws,
                             std::vector<ContactImpulse>& out) {
  MlcpLayout& L = ws.layout;
  const ConstraintSet& set = ws.island;
  const VecX& z = ws.solution.z;
  auto at = [&](int local) -> ContactImpulse& { return out[ws.island_contacts[local]]; };
  for (int j = 0; j < L.n_unilateral; ++j) at(set.unilateral[j]).normal += z[L.p_begin() + j];
  for (int j = 0; j < L.n_intercontact; ++j)
    if (set.intercontacts[j].carries_impulse)
      at(set.intercontacts[j].primary).normal += z[L.pi_begin() + j];
  // The impulses that stopped the approach after the projection (position_projection.h).
  const PositionProjectionScratch& p = ws.projection;
  for (Eigen::Index a = 0; a < p.lambda.size(); ++a) {
    const int j = p.rows[p.pushed[a]];
    at(j < L.pi_begin() ? set.unilateral[j] : set.intercontacts[j - L.pi_begin()].primary).normal +=
        p.lambda[a];
  }
  const int k = L.friction_directions;
  ws.cone_impulses.resize(L.n_friction_contacts);
  for (int f = 0; f < L.n_friction_contacts; ++f) {
    const int c = L.friction_contact[f];
    friction_directions(set.contacts[c].normal, L.friction_first[f], world.dimension, k,
                        L.directions);
    Vec3& friction = ws.cone_impulses[f];
    friction.setZero();
    for (int d = 0; d < k; ++d) friction += z[L.beta_begin() + f * k + d] * L.directions[d];
    at(c).friction += friction;
  }
  if (world.dimension == 3)
    remember_friction_directions(set.contacts, L.friction_contact, L.friction_tangent,
                                 ws.cone_impulses, ws.friction_current, L.patches);
}

// The multipliers λ of the applied solve of ws.island's joint rows into `out`, per world joint:
// the MLCP's last unknowns, joint by joint in the island's order.
void record_joint_lambda(const World& world, const IslandWorkspace& ws, std::vector<Vec6>& out) {
  int row = ws.layout.bilateral_begin();
  for (const int j : ws.island.joints) {
    const int n = joint_row_count(world.joints[j], world.dimension);
    out[j].head(n) = ws.solution.z.segment(row, n);
    row += n;
  }
}

// What every island of a step reads and none writes: the last step's warm-start bases and friction
// directions, the bodies as placed at the start of the step, and the split projection's slop
// (formed once a step: it scans every shape for the thinnest).
struct IslandInputs {
  const std::vector<WarmStart::Row>& warm;
  std::span<const FrictionDirection> friction;
  StartPlacement start;
  bool exact_flight;  // bodies without impulse follow the exact parabola (docs/impacts.md)
  bool retakes_failed_solve;  // Workspace::retakes_failed_solve
  Real split_slop;            // split_slop(world, h) under split stabilisation, else 0
};

// With impacts, flight is exact except in the part of a step that ends at an impact located
// along the semi-implicit motion (PartToImpact; docs/impacts.md "Exact flight").
bool exact_flight(const World& world, const Workspace& ws) {
  const PartToImpact& p = ws.impact.to_impact;
  return world.contact.impact.model == ImpactModel::kPlus && !(p.active && !p.exact);
}

IslandInputs island_inputs(const World& world, const Workspace& ws, Real h) {
  return {ws.warm.previous,
          ws.friction_previous,
          {ws.polygons, ws.shapes3, ws.polyhedra, ws.radius3},
          exact_flight(world, ws),
          ws.retakes_failed_solve,
          world.contact.stabilisation == Stabilisation::kSplit ? split_slop(world, h) : 0};
}

// Whether the solution z of an island's MLCP has no impulse: every contact, intercontact and
// friction unknown is zero (slacks and sliding speeds may not be).
bool carries_no_impulse(const MlcpLayout& layout, const VecX& z) {
  return z.head(layout.slack_begin()).isZero(0) &&
         z.segment(layout.beta_begin(), layout.sigma_begin() - layout.beta_begin()).isZero(0) &&
         z.tail(layout.n_bilateral).isZero(0);
}

// Whether a body of the island moves faster than one step of gravity gives it, |g| h (a point of
// body b at |v| + |ω| r): the island is not at rest, and its answer need not be a vertex of the
// LCP (docs/solvers.md "The threshold").
bool island_moving(const World& world, const State& state, const MlcpLayout& layout, Real h) {
  const Real rest = world.gravity.norm() * h;
  const int d = world.dimension;
  for (const int b : layout.active_bodies) {
    const auto v = state.v_of(b);
    if (v.head(d).norm() + v.tail(v.size() - d).norm() * bounding_radius(world, b) > rest)
      return true;
  }
  return false;
}

// One island (ws.island): assemble → solve + verify → certify energy → (recover) → velocities →
// positions → split projection → the whole step's energy balance. Fills the island's own report.
void solve_island(const World& world, State& state, Real h, const IslandInputs& in,
                  IslandWorkspace& ws, StepReport& report) {
  const std::vector<WarmStart::Row>& previous = in.warm;
  ws.projection.lambda.resize(0);  // no approach stopped yet (record_contact_impulses reads it)
  auto clock = Clock::now();
  const long ray_restarts = ws.solver.lcp.ray_restarts;
  assemble_stewart_trinkle(world, state, ws.island, h, ws.layout, ws.problem, in.friction);
  const Real energy_before = island_energy(world, state, ws.layout);
  report.active_bodies = static_cast<int>(ws.layout.active_bodies.size());
  report.lcp_size = report.solved_unknowns = ws.layout.size();
  report.seconds.assemble = seconds_since(clock);
  const bool warm =
      world.stepping.warm_start && guess_active_set(ws.island, ws.layout, previous, ws.warm);
  // Islands with joints are solved dense: the sparse path has no equality rows (docs/joints.md).
  ws.dense =
      report.lcp_size <= dense_max_unknowns(world, island_moving(world, state, ws.layout, h)) ||
      ws.layout.n_bilateral > 0;
  const std::vector<bool>* basis =
      solve_island_policy(world, h, ws, warm, in.retakes_failed_solve, report);
  report.solver_called = true;
  report.solver = ws.solution.certificate;
  report.ray_restarts = static_cast<int>(ws.solver.lcp.ray_restarts - ray_restarts);
  if (world.contact.model == ContactModel::kPeg && world.contact.peg.general_form)
    select_general_form_primaries(world, state, h, ws, report);  // docs/peg.md "General form"
  if (!report.solver.ok()) report.status = StepStatus::kSolverFailed;
  if (report.status == StepStatus::kOk && !certify_energy(state, ws, world, report))
    report.status = StepStatus::kEnergyGain;
  // After a failed solve the island goes on only if the user asked to continue and the
  // regularised problem solves (with its energy certified too); otherwise its bodies fly free
  // this step. In a step that advance() takes again as halves on a failed solve, the failed
  // step is thrown away whatever its islands did, so none is regularised (docs/stepping.md
  // "When a solve fails").
  const bool usable =
      report.status == StepStatus::kOk ||
      (world.stepping.continue_on_solver_failure && !in.retakes_failed_solve &&
       recover_by_regularisation(world, ws, report) && certify_energy(state, ws, world, report));
  report.solution_applied = usable;
  report.islands_flown_free = usable ? 0 : 1;
  if (world.stepping.warm_start && report.status == StepStatus::kOk) {
    // Lemke's final basis (or the verified guess) keeps its degenerate basics: without them the
    // next guess of a frictional pile at rest is singular and falls back to a cold solve.
    remember_active_set(ws.solution.z, ws.solution.w, basis, ws.warm);
  }
  report.seconds.solve = seconds_since(clock);
  // ν⁺ from the solution, or ν + h M⁻¹F when the bodies fly free (docs/stepping.md stage 6).
  // With impacts, an island whose solve carries no impulse flies free along the exact parabola,
  // as bodies in no constraint do (docs/impacts.md "Exact flight").
  const int nb = velocity_size(world.dimension);
  const bool free = !usable || (in.exact_flight && carries_no_impulse(ws.layout, ws.solution.z));
  for (std::size_t k = 0; k < ws.layout.active_bodies.size(); ++k) {
    const int b = ws.layout.active_bodies[k];
    if (free) {
      integrate_flight(world.bodies[b], state, b, h, world.gravity, world.stepping.rotation,
                       in.exact_flight);
      continue;
    }
    state.v_of(b) = ws.solution.nu.segment(static_cast<Eigen::Index>(k) * nb, nb);
    integrate_position(state, b, h, world.stepping.rotation);
  }
  if (usable && world.contact.stabilisation == Stabilisation::kSplit)
    project_positions(world, state, h, in.split_slop, in.start, ws, report);
  // The whole step's balance (docs/robustness.md "Energy balance"), on the applied solution.
  EnergyBalance& e = report.energy;
  if (usable && e.checked) {
    e.total_before = energy_before;
    for (const int b : ws.layout.active_bodies) e.total_before += applied_work(state, b, h);
    e.total_after = island_energy(world, state, ws.layout);
    e.projection = report.projection_lift + report.approach_joint_work;
    e.total_tolerance = e.tolerance + 1e-12 * (std::abs(e.total_before) + std::abs(e.total_after));
    if (report.status == StepStatus::kOk && !e.step_ok()) report.status = StepStatus::kEnergyGain;
  }
  report.seconds.integrate = seconds_since(clock);
}

struct IslandTotals {
  double assemble_seconds = 0, solve_seconds = 0, integrate_seconds = 0;
  bool projection_failed = false;  // an island whose projection ran did not verify
};

// Adds island k's report to the step's: sizes and effort summed, the first failing island's
// certificate and status (the first island's when all pass), energies summed (each island was
// checked on its own), the worst regularisation and projection depth.
void add_island(const StepReport& i, int k, StepReport& r, IslandTotals& t) {
  r.solver_called = true;
  r.active_bodies += i.active_bodies;
  r.lcp_size += i.lcp_size;
  r.largest_island_lcp = std::max(r.largest_island_lcp, i.lcp_size);
  r.solved_unknowns += i.solved_unknowns;
  r.rescued_islands += i.rescued_islands;
  for (SolveAttempt a : i.attempts) {
    a.island = k;
    r.attempts.push_back(a);
  }
  const int pivots = r.solver.pivots + i.solver.pivots;
  const int iterations = r.solver.iterations + i.solver.iterations;
  const bool first_failure = r.status == StepStatus::kOk && i.status != StepStatus::kOk;
  if (k == 0 || first_failure) {
    r.solver = i.solver;
    r.status = i.status;
  }
  r.solver.pivots = pivots;
  r.solver.iterations = iterations;
  r.solution_applied = (k == 0 || r.solution_applied) && i.solution_applied;
  r.regularisation = std::max(r.regularisation, i.regularisation);
  r.islands_flown_free += i.islands_flown_free;
  r.energy.checked = r.energy.checked || i.energy.checked;
  r.energy.before += i.energy.before;
  r.energy.free_flight += i.energy.free_flight;
  r.energy.after += i.energy.after;
  r.energy.stabilisation += i.energy.stabilisation;
  r.energy.tolerance += i.energy.tolerance;
  r.energy.kinematic_work += i.energy.kinematic_work;
  r.energy.total_before += i.energy.total_before;
  r.energy.total_after += i.energy.total_after;
  r.energy.projection += i.energy.projection;
  r.energy.total_tolerance += i.energy.total_tolerance;
  r.primary_switches += i.primary_switches;
  r.gauss_seidel_sweeps += i.gauss_seidel_sweeps;
  r.friction_cones_left_out += i.friction_cones_left_out;
  r.ray_restarts += i.ray_restarts;
  r.general_form_failed = r.general_form_failed || i.general_form_failed;
  r.projection_depth = std::max(r.projection_depth, i.projection_depth);
  r.projection_relaxed_rows += i.projection_relaxed_rows;
  r.projection_rows += i.projection_rows;
  r.projection_set_rows += i.projection_set_rows;
  r.projection_scale = std::min(r.projection_scale, i.projection_scale);
  r.projection_lift += i.projection_lift;
  r.approach_joint_work += i.approach_joint_work;
  r.approach_stopped_rows += i.approach_stopped_rows;
  r.projection_ran = r.projection_ran || i.projection_ran;
  t.projection_failed = t.projection_failed || (i.projection_ran && !i.projection_solved);
  r.projection_solved = r.projection_ran && !t.projection_failed;
  t.assemble_seconds += i.seconds.assemble;
  t.solve_seconds += i.seconds.solve;
  t.integrate_seconds += i.seconds.integrate;
}

// The overlap metric over ws.end_pairs (find_overlapping_pairs), summed in their (i, j) order.
Real overlap_of_pairs(const World& world, Workspace& ws) {
  if (world.dimension == 2) return total_overlap_area(ws.polygons, ws.end_pairs);
  return total_overlap_volume(ws.shapes3, ws.poses3, ws.end_pairs, &ws.intersection, ws.polyhedra,
                              ws.radius3);
}

// Island k of the step, in `lane` (number `lane_index`): extracted, then left asleep or solved into
// ws.island_reports[k]. Islands share `state`, ws.contact_impulses and ws.body_island, but each
// writes only its own bodies' and contacts' entries.
void step_island(const World& world, State& state, Real h, const IslandInputs& in, bool sleeping,
                 Workspace& ws, IslandWorkspace& lane, int lane_index, int k) {
  StepReport& report = ws.island_reports[k];
  extract_island(ws.constraints, ws.islands, k, lane.island, lane.island_contacts,
                 lane.contact_local);
  if (sleeping && island_sleeps(world, lane.island, state)) {
    report.islands_asleep = 1;  // frozen: not solved, not moved
    return;
  }
  const int first_row = static_cast<int>(lane.warm.current.size());
  solve_island(world, state, h, in, lane, report);
  if (report.solution_applied) {
    record_contact_impulses(world, lane, ws.contact_impulses);
    record_joint_lambda(world, lane, ws.joint_lambda);
  }
  for (const int b : lane.layout.active_bodies) ws.body_island[b] = k;
  ws.island_rows[k] = {lane_index, first_row, static_cast<int>(lane.warm.current.size())};
}

int island_threads(const StepOptions& o, int islands) {
  const int threads =
      o.threads > 0 ? o.threads : static_cast<int>(std::thread::hardware_concurrency());
  return std::max(1, std::min(threads, islands));
}

// Stages 4–6 for every island of the step (docs/stepping.md "Islands", "Parallel islands"): on
// StepOptions::threads threads, which take the islands largest first, each into its own lane;
// the warm start's remembered bases are then gathered in island order, so the step is bit for
// bit the serial one. An exception (the memory budget) is rethrown after all threads stopped:
// the lowest island's.
void solve_islands(const World& world, State& state, Real h, bool sleeping, Workspace& ws) {
  const int count = ws.islands.count;
  const std::size_t contacts = ws.constraints.contacts.size();
  ws.island_reports.assign(count, StepReport{});
  ws.island_rows.resize(count);
  ws.contact_impulses.assign(contacts, ContactImpulse{});
  ws.joint_lambda.assign(world.joints.size(), Vec6::Zero());
  ws.contact_local.assign(contacts, -1);
  const IslandInputs in = island_inputs(world, ws, h);
  const int threads = island_threads(world.stepping, count);
  if (threads == 1) {
    for (int k = 0; k < count; ++k) step_island(world, state, h, in, sleeping, ws, ws, 0, k);
    return;
  }
  ws.lanes.resize(threads - 1);
  for (IslandWorkspace& lane : ws.lanes) lane.contact_local.assign(contacts, -1);
  const IslandPartition& p = ws.islands;
  auto size = [&p](int k) {
    return p.u_begin[k + 1] - p.u_begin[k] + p.i_begin[k + 1] - p.i_begin[k];
  };
  ws.island_order.resize(count);
  std::iota(ws.island_order.begin(), ws.island_order.end(), 0);
  std::stable_sort(ws.island_order.begin(), ws.island_order.end(),
                   [&](int a, int b) { return size(a) > size(b); });
  std::atomic<int> next{0};
  std::vector<std::exception_ptr> errors(count);
  auto work = [&](IslandWorkspace& lane, int lane_index) {
    for (int i; (i = next.fetch_add(1)) < count;) {
      const int k = ws.island_order[i];
      try {
        step_island(world, state, h, in, sleeping, ws, lane, lane_index, k);
      } catch (...) {
        errors[k] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work, std::ref(ws.lanes[t - 1]), t);
  work(ws, 0);
  for (std::thread& t : pool) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  // The bases in island order, as a serial step appends them.
  std::vector<WarmStart::Row> own;
  own.swap(ws.warm.current);
  auto rows_of = [&](int lane) -> std::vector<WarmStart::Row>& {
    return lane == 0 ? own : ws.lanes[lane - 1].warm.current;
  };
  for (int k = 0; k < count; ++k) {
    if (ws.island_reports[k].islands_asleep > 0) continue;
    const auto& [lane, first, end] = ws.island_rows[k];
    const auto& rows = rows_of(lane);
    ws.warm.current.insert(ws.warm.current.end(), rows.begin() + first, rows.begin() + end);
  }
  for (IslandWorkspace& lane : ws.lanes) lane.warm.current.clear();
}

// The step is over: the friction directions the lanes remembered become the previous ones, sorted
// by contact (the same whatever lane solved which island).
void end_friction_step(Workspace& ws) {
  for (IslandWorkspace& lane : ws.lanes) {
    ws.friction_current.insert(ws.friction_current.end(), lane.friction_current.begin(),
                               lane.friction_current.end());
    lane.friction_current.clear();
  }
  std::sort(ws.friction_current.begin(), ws.friction_current.end());
  ws.friction_previous.swap(ws.friction_current);
  ws.friction_current.clear();
}

}  // namespace

const BlockDiagonal& inverse_mass(const IslandWorkspace& ws) {
  return ws.dense ? ws.solver.W : ws.sparse.W;
}

const VecX& free_velocity(const IslandWorkspace& ws) {
  return ws.dense ? ws.solver.Wc : ws.sparse.Wc;
}

bool has_spawned(const Body& body, Real time, Real h) { return body.spawn_time <= time + 1e-9 * h; }

int spawn_bodies(const World& world, State& state, Real h) {
  int spawned = 0;
  for (int i = 0; i < world.body_count(); ++i)
    if (!state.present[i] && has_spawned(world.bodies[i], state.time, h)) {
      state.present[i] = 1;
      ++spawned;
    }
  return spawned;
}

Aabb3 scene_bounds(const World& world, const Workspace& ws) {
  Aabb3 box{Vec3::Constant(std::numeric_limits<Real>::infinity()),
            Vec3::Constant(-std::numeric_limits<Real>::infinity())};
  bool any = false;
  for (int i = 0; i < world.collider_count(); ++i) {
    // A half-space bounds nothing: its stand-in's box is no scene's (a body below its plane has
    // its centre inside a static body).
    if (!is_fixed(world.bodies[world.collider_body(i)]) ||
        world.collider_kind(i) == ShapeKind::kHalfSpace)
      continue;
    any = true;
    if (world.dimension == 2) {
      box.lo.head<2>() = box.lo.head<2>().cwiseMin(ws.polygons[i].aabb.lo);
      box.hi.head<2>() = box.hi.head<2>().cwiseMax(ws.polygons[i].aabb.hi);
    } else {
      box.lo = box.lo.cwiseMin(ws.polyhedra[i].aabb.lo);
      box.hi = box.hi.cwiseMax(ws.polyhedra[i].aabb.hi);
    }
  }
  // A joint chain holds its bodies within the sum of its anchors' offsets of where it is fixed to
  // the world: the world anchors are in the box, and that reach widens it.
  Real reach = 0;
  for (const Joint& j : world.joints) {
    reach += j.anchor_a.norm();
    if (j.body_b != kWorldBody) {
      reach += j.anchor_b.norm();
      continue;
    }
    any = true;
    box.lo = box.lo.cwiseMin(j.anchor_b);
    box.hi = box.hi.cwiseMax(j.anchor_b);
  }
  if (!any) return box;
  const int d = world.dimension;
  const Real grow = std::max<Real>(1.0, (box.hi - box.lo).head(d).maxCoeff()) + reach;
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
    case StepStatus::kImpactFailed:
      return "impact_failed";
  }
  return "unknown";
}

const char* to_string(SplitCause::Kind kind) {
  switch (kind) {
    case SplitCause::Kind::kNone:
      return "none";
    case SplitCause::Kind::kFailedSolve:
      return "failed_solve";
    case SplitCause::Kind::kDeepPair:
      return "deep_pair";
    case SplitCause::Kind::kCrossing:
      return "crossing";
  }
  return "unknown";
}

Real measure_overlap(const World& world, const State& state, Workspace& ws) {
  find_overlapping_pairs(world, state, ws, /*from_detection=*/false);
  return overlap_of_pairs(world, ws);
}

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

StateMetrics measure_state(const World& world, const State& state, Workspace& ws) {
  place_current_bodies(world, state, ws);
  find_overlapping_pairs(world, state, ws, /*from_detection=*/false);
  StateMetrics m;
  m.overlap = overlap_of_pairs(world, ws);
  m.max_penetration =
      scan_penetration(world, state, std::numeric_limits<Real>::infinity(), ws).max_depth;
  return m;
}

// Adds this step's joint impulses (ws.joint_lambda, rows at the configuration the step started
// from) to ws.joint_impulses.
static void add_step_joint_impulses(const World& world, const State& state, Workspace& ws) {
  if (world.joints.empty()) return;
  State& start = ws.joint_start;  // (same sizes every step: no allocation after the first)
  start = state;
  start.q = ws.start_q;
  std::vector<JointRow>& rows = ws.impact.joint_rows;  // (scratch)
  for (std::size_t j = 0; j < world.joints.size(); ++j) {
    if (ws.joint_lambda[j].isZero(0)) continue;
    rows.clear();
    joint_rows(world.joints[j], start, rows);
    add_joint_impulse(world.joints[j], start, rows,
                      ws.joint_lambda[j].head(static_cast<Eigen::Index>(rows.size())),
                      ws.joint_impulses[j]);
  }
}

void start_joint_impulses(const World& world, const State& state, Workspace& ws) {
  ws.joint_impulses.assign(world.joints.size(), JointImpulse{});
  if (!world.joints.empty()) ws.joint_impulses_q = state.q;
}

StepReport step(const World& world, State& state, Workspace& ws, Real h, long step_index) {
  return step(world, state, ws, h, step_index, contact_epsilon(world, h));
}

StepReport step(const World& world, State& state, Workspace& ws, Real h, long step_index,
                Real eps) {
  StepReport report;
  report.step = step_index;
  auto clock = Clock::now();

  report.spawned = spawn_bodies(world, state, h);
  ws.start_q = state.q;
  if (ws.user_step == 0) start_joint_impulses(world, state, ws);  // a step taken on its own
  const bool sleeping = world.stepping.sleep;
  if (sleeping) wake_moved_bodies(world, state);
  // A state that is already non-finite or runaway (given so, e.g. through the C++ API) is
  // reported as such, before the broad phase meets NaN bounds.
  report.diverged_body = first_diverged_body(world, state);
  if (report.diverged_body >= 0) {
    report.status = StepStatus::kDiverged;
    return report;
  }
  place_bodies(world, state, h, ws);
  detect_contacts(world, state, h, eps, ws);
  if (ws.impact.to_impact.active && ws.impact.to_impact.exact) leave_out_located_pair(world, ws);
  report.potential_contacts = static_cast<int>(ws.constraints.contacts.size());
  report.seconds.detect = seconds_since(clock);

  build_constraints(world, ws);
  if (world.contact.model == ContactModel::kPeg)
    report.depth_witnesses = add_depth_witnesses(world, eps, ws);
  map_contacts_to_bodies(world, ws.constraints.contacts);
  add_joints(world, state, ws.constraints);
  ws.constraints.joint_time = ws.user_step;
  report.unilateral = static_cast<int>(ws.constraints.unilateral.size());
  report.intercontact = static_cast<int>(ws.constraints.intercontacts.size());
  report.cross = ws.constraints.cross_count();
  report.unused_contacts = ws.constraints.unused_contacts(ws.contact_marks);
  report.peg_changed = world.contact.model == ContactModel::kPeg &&
                       (report.intercontact > 0 || report.unused_contacts > 0);
  partition_islands(world, ws.constraints, world.stepping.islands, ws.islands);
  report.seconds.constraints = seconds_since(clock);

  // Each island's MLCP is solved, certified and applied on its own (docs/stepping.md
  // "Islands"); the bodies in no constraint fly free, unless they sleep.
  ws.body_island.assign(world.body_count(), -1);
  solve_islands(world, state, h, sleeping, ws);
  add_step_joint_impulses(world, state, ws);
  IslandTotals totals;
  int solved = 0;
  for (int k = 0; k < ws.islands.count; ++k) {
    const StepReport& island = ws.island_reports[k];
    if (island.islands_asleep > 0)
      ++report.islands_asleep;
    else
      add_island(island, solved++, report, totals);
  }
  report.islands = solved;
  end_warm_start_step(ws.warm);
  end_friction_step(ws);
  report.seconds.solve = totals.solve_seconds;
  report.seconds.assemble = totals.assemble_seconds;
  seconds_since(clock);  // (the islands timed their own stages)
  for (int i = 0; i < world.body_count(); ++i) {
    if (!state.present[i] || is_fixed(world.bodies[i]) || ws.body_island[i] >= 0) continue;
    if (sleeping && state.asleep[i]) continue;
    // A kinematic body keeps its velocity (after the islands, which read its pose at the start).
    // With impacts the flight between them is the exact parabola (docs/impacts.md).
    integrate_flight(world.bodies[i], state, i, h, world.gravity, world.stepping.rotation,
                     exact_flight(world, ws));
  }
  if (sleeping)
    report.bodies_asleep =
        settle_sleepers(world, state, h, ws.body_island, ws.islands.count, ws.island_rest);
  state.time = static_cast<Real>(step_index + 1) * h;
  report.time = state.time;
  report.diverged_body = first_diverged_body(world, state);
  if (report.diverged_body >= 0) report.status = StepStatus::kDiverged;
  report.seconds.integrate = totals.integrate_seconds + seconds_since(clock);

  for (int i = 0; i < world.body_count(); ++i) report.bodies_present += state.present[i];
  report.kinetic_energy = kinetic_energy(world.bodies, state);
  report.potential_energy = potential_energy(world.bodies, state, world.gravity);
  if (report.status != StepStatus::kDiverged &&
      (world.stepping.measure_overlap || world.stepping.watch_penetration)) {
    // One placement and one broad phase for both metrics, from this step's detection.
    place_current_bodies(world, state, ws);
    find_overlapping_pairs(world, state, ws, /*from_detection=*/true);
    if (world.stepping.measure_overlap) report.overlap = overlap_of_pairs(world, ws);
    if (world.stepping.watch_penetration) watch_penetration(world, state, h, eps, ws, report);
  }
  report.seconds.metrics = seconds_since(clock);
  return report;
}

}  // namespace exactsim
