// An island's solve policy (docs/solvers.md "The solve policy"): one table of attempts per kind of
// island, walked by one driver until an answer certifies on the whole MLCP.
#include "island_solve.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <span>

#include "exactsim/stepping/friction_on_demand.h"
#include "exactsim/stepping/memory_budget.h"
#include "exactsim/stepping/warm_start.h"
#include "solvers/lcp_scratch.h"

namespace exactsim {
namespace {

// reduce → (large problems: a projected Gauss–Seidel estimate of the active set, docs/stepping.md
// "Iterate, then certify") → certified solve, in ws.solver. `basis` (a guessed complementary
// basis) and `start` (the Gauss–Seidel start) may be null.
void solve_island_mlcp(const World& world, const SolverOptions& options, const Mlcp& mlcp,
                       const MlcpLayout& layout, const std::vector<bool>* basis, const VecX* start,
                       IslandWorkspace& ws, MlcpSolution& out, StepReport& report) {
  WarmGuess guess;
  guess.basis = basis;
  reduce_mlcp(mlcp, ws.solver);
  const StepOptions& o = world.stepping;
  if (o.gauss_seidel_min_unknowns > 0 && layout.size() >= o.gauss_seidel_min_unknowns &&
      layout.n_bilateral == 0) {
    const Real tolerance = verification_tolerance(ws.solver.reduced, options);
    const GaussSeidelResult g = projected_gauss_seidel(
        mlcp, layout, ws.solver, start, o.gauss_seidel_sweeps, tolerance, ws.gauss_seidel);
    report.gauss_seidel_sweeps += g.sweeps;
    guess.active = &ws.gauss_seidel.guess;
    guess.priority = &ws.gauss_seidel.priority;
  }
  solve_reduced_mlcp(mlcp, options, ws.solver, out, guess);
}

// The complementary basis the last solve in ws.solver ended on (Lemke's, degenerate basics
// included, or the verified guess), else null.
const std::vector<bool>* solver_basis(const IslandWorkspace& ws, const SolveCertificate& c) {
  const bool basis = c.method == SolveMethod::kLemke || c.method == SolveMethod::kWarmStart;
  return basis ? &ws.solver.lcp.active : nullptr;
}

constexpr int kMaxFrictionRounds = 4;

enum class OnDemand {
  kSolved,      // certified on the whole MLCP, in ws.solution
  kFailed,      // a round's Lemke ran out of its budget: the island's failed solve
  kSolveWhole,  // every cone was kept, a round's solve failed otherwise, the rounds ran out, or
                // the completion did not verify
};

// docs/stepping.md "Friction on demand" (friction_on_demand.h): the island's MLCP with the
// friction unknowns of the loaded cones only, in rounds that add every left-out cone whose contact
// took an impulse; the result is completed and certified on the whole MLCP into ws.solution.
// A round whose solve failed is retried whole (the whole MLCP is another LCP: on the frictional
// box stack it solves the step whose sub-problem ended unverified), unless its Lemke ran out of
// its pivot budget: the whole problem is larger, and on the 100-hull pile its retry tripled the
// failing step's cost (docs/stepping.md "Friction on demand").
OnDemand solve_with_friction_on_demand(const World& world, const SolverOptions& solver,
                                       IslandWorkspace& ws, bool warm, StepReport& report) {
  FrictionOnDemand& f = ws.friction;
  const MlcpLayout& full = ws.layout;
  const Eigen::Index m = full.size();
  int& pivots = f.pivots;
  int iterations = 0;
  pivots = 0;
  choose_friction_cones(full, ws.mlcp, warm ? &ws.warm.z : nullptr, f);
  auto left_out = [&f] {
    return static_cast<int>(std::count(f.keep.begin(), f.keep.end(), false));
  };
  if (left_out() == 0) return OnDemand::kSolveWhole;
  bool guessed = warm;  // f.full_basis holds a basis to start from
  if (warm) f.full_basis = ws.warm.guess;
  for (int round = 0; round < kMaxFrictionRounds; ++round) {
    select_friction_cones(full, ws.mlcp, f);
    if (guessed) gather_from_full(f.columns, f.full_basis, f.basis);
    if (warm) gather_from_full(f.columns, ws.warm.z, f.z);
    solve_island_mlcp(world, solver, f.mlcp, f.layout, guessed ? &f.basis : nullptr,
                      warm ? &f.z : nullptr, ws, f.solution, report);
    const SolveCertificate& sub = f.solution.certificate;
    pivots += sub.pivots;
    iterations += sub.iterations;
    if (!sub.ok()) {
      if (sub.primary_status != SolveStatus::kMaxIterations) return OnDemand::kSolveWhole;
      ws.solution.certificate = sub;
      ws.solution.certificate.pivots = pivots;
      report.friction_cones_left_out = left_out();  // the failed problem was this sub-problem
      return OnDemand::kFailed;
    }
    // The sub-problem's basis in full coordinates (left-out cones: β, σ nonbasic) starts the
    // next round and is what the warm start remembers.
    const std::vector<bool>* basis = solver_basis(ws, sub);
    if (basis == nullptr) {
      active_set(f.solution.z, f.solution.w, f.basis);
      basis = &f.basis;
    }
    f.full_basis.assign(m, false);
    for (std::size_t i = 0; i < f.columns.size(); ++i) f.full_basis[f.columns[i]] = (*basis)[i];
    guessed = true;
    scatter_to_full(f.columns, f.solution.z, m, ws.solution.z);
    if (add_loaded_cones(full, ws.solution.z, f) > 0) continue;
    ws.solution.nu = f.solution.nu;
    complete_left_out_cones(full, ws.mlcp, f, ws.solution.nu, ws.solution.z);
    SolverOptions options = solver;
    options.impulse_scale = sub.impulse_scale;
    SolveCertificate cert = verify_mlcp(ws.mlcp, ws.solution.nu, ws.solution.z, sub.tolerance,
                                        options, ws.solution.w, ws.solver);
    cert.method = sub.method;
    cert.primary_status = sub.primary_status;
    cert.pivots = pivots;
    cert.iterations = iterations;
    ws.solution.certificate = cert;
    if (!cert.ok()) return OnDemand::kSolveWhole;
    report.friction_cones_left_out = left_out();
    return OnDemand::kSolved;
  }
  return OnDemand::kSolveWhole;
}

// The dense path (islands up to dense_max_unknowns(World); docs/solvers.md "Large
// islands: the sparse path"): the MLCP written out dense, then friction on demand or the whole
// problem through solve_island_mlcp with `solver`'s stack. Returns the basis the warm start
// remembers (null: the solution's active set).
const std::vector<bool>* solve_dense(const World& world, const SolverOptions& solver,
                                     IslandWorkspace& ws, bool warm, StepReport& report) {
  const MlcpLayout& layout = ws.layout;
  check_step_memory_budget(ws.problem.M.size(), layout.size(),
                           layout.n_unilateral + layout.n_intercontact,
                           static_cast<int>(layout.active_bodies.size()), world.solver,
                           world.stepping.memory_budget_bytes);  // before the dense copy
  dense_of(ws.problem, ws.mlcp);
  const StepOptions& o = world.stepping;
  const bool on_demand = o.friction_on_demand_min_unknowns > 0 &&
                         report.lcp_size >= o.friction_on_demand_min_unknowns &&
                         layout.n_friction_contacts > 0 && layout.n_bilateral == 0;
  const OnDemand outcome = on_demand
                               ? solve_with_friction_on_demand(world, solver, ws, warm, report)
                               : OnDemand::kSolveWhole;
  if (outcome == OnDemand::kSolveWhole) {
    solve_island_mlcp(world, solver, ws.mlcp, layout, warm ? &ws.warm.guess : nullptr,
                      warm ? &ws.warm.z : nullptr, ws, ws.solution, report);
    if (on_demand) ws.solution.certificate.pivots += ws.friction.pivots;  // the rounds' effort too
  }
  // Lemke's final basis (or the verified guess) keeps its degenerate basics: without them the
  // next guess of a frictional pile at rest is singular and falls back to a cold solve.
  return outcome == OnDemand::kSolved ? &ws.friction.full_basis
                                      : solver_basis(ws, ws.solution.certificate);
}

// Whether a solve proved its problem infeasible: the exact Lemke's Farkas vector. A double-
// precision one only passes a tolerance test, which a feasible problem with many redundant rows
// can pass too (a frictionless step of the 3D pour, seed 13: 444 rows on 42 velocities, N of rank
// 41, solved by a cold Lemke after a warm one ended "infeasible").
bool proven_infeasible(const SolveCertificate& c) {
  return c.status == SolveStatus::kInfeasible && c.exact;
}

// Dense islands of at least this many unknowns try Lemke briefly before the working set.
constexpr int kBriefDenseMinUnknowns = 200;

// The policy (docs/solvers.md "The solve policy"), one row per kind of island:
// - a dense island of kBriefDenseMinUnknowns or more: Lemke briefly (its own retries but not the
//   stack's fallbacks, within one pivot per unknown a run: a step of a pile takes at most about
//   n/2 in all, and a run that does not end within n pivots took 13,000–15,000 on the 30-hull
//   pour of docs/performance.md, and seconds), then the working set, then the whole stack;
// - a smaller dense island: the whole stack, then the working set;
// - a sparse island (above dense_max_unknowns(World)): the working set, the sparse Lemke on
//   the whole problem, then the dense path where its Lemke's work cap and the memory budget allow
//   (attempt_runs).
using Kind = SolveAttemptKind;
constexpr Kind kLargeDenseIsland[] = {Kind::kDenseBrief, Kind::kWorkingSet, Kind::kDense};
constexpr Kind kSmallDenseIsland[] = {Kind::kDense, Kind::kWorkingSet};
constexpr Kind kSparseIsland[] = {Kind::kWorkingSet, Kind::kSparseLemke, Kind::kDense};
constexpr std::size_t kMostAttempts = 3;  // the longest row
static_assert(std::size(kLargeDenseIsland) <= kMostAttempts &&
              std::size(kSmallDenseIsland) <= kMostAttempts &&
              std::size(kSparseIsland) <= kMostAttempts);

std::span<const Kind> island_policy(const IslandWorkspace& ws, int unknowns) {
  if (!ws.dense) return kSparseIsland;
  if (unknowns >= kBriefDenseMinUnknowns) return kLargeDenseIsland;
  return kSmallDenseIsland;
}

// Whether the dense path may run on the island: its Lemke may take the n/2 pivots a pile's step
// takes (max_pivot_work >= n³/2) and its copy of the MLCP fits the memory budget.
bool dense_path_fits(const World& world, const IslandWorkspace& ws) {
  const MlcpLayout& layout = ws.layout;
  const double n = layout.size();
  if (world.solver.max_pivot_work > 0 && n * n * n / 2 > world.solver.max_pivot_work) return false;
  const double dense_bytes =
      step_lcp_bytes(ws.problem.M.size(), layout.size(),
                     layout.n_unilateral + layout.n_intercontact, world.solver);
  return dense_bytes <= static_cast<double>(world.stepping.memory_budget_bytes);
}

// Whether an attempt after the first runs. Nothing runs after the exact Lemke proved the problem
// infeasible (proven_infeasible); the working set has no equality rows (an island with joints
// stays on the dense path); neither the sparse Lemke on the whole island nor the whole dense
// stack runs after another attempt where a failed solve is taken again as halves (`retaken`;
// docs/stepping.md "When a solve fails": on the 3D pour of 100 hulls, seed 4, step 93, the
// sparse Lemke took 10.0 s to fail where the halves certified in 0.12 s; on the 3D hull pour of
// seed 2 at h = 0.05, step 97, the whole stack took 18.2 s on 854 unknowns, the halves 0.17 s);
// the dense path runs after a sparse attempt only where its Lemke may take the n/2 pivots a
// pile's step takes (max_pivot_work >= n³/2; docs/solvers.md "The solve policy") and its copy of
// the MLCP fits the memory budget.
bool attempt_runs(Kind kind, const World& world, const IslandWorkspace& ws, bool retaken) {
  if (proven_infeasible(ws.solution.certificate)) return false;
  if (kind == Kind::kWorkingSet) return ws.layout.n_bilateral == 0;
  if (kind == Kind::kSparseLemke || kind == Kind::kDense) {
    if (retaken) return false;
    return kind == Kind::kSparseLemke || ws.dense || dense_path_fits(world, ws);
  }
  return true;
}

// One attempt: its answer in ws.solution; returns the basis the warm start remembers (null: the
// answer's active set) and the unknowns it worked on.
const std::vector<bool>* run_attempt(Kind kind, const World& world, Real h, IslandWorkspace& ws,
                                     bool warm, bool retaken, int& unknowns, StepReport& report) {
  unknowns = static_cast<int>(ws.layout.size());
  switch (kind) {
    case Kind::kDenseBrief: {
      SolverOptions brief = world.solver;
      brief.fallback = false;
      brief.max_pivots = brief.max_pivots > 0 ? std::min(brief.max_pivots, unknowns) : unknowns;
      ws.dense = true;
      return solve_dense(world, brief, ws, warm, report);
    }
    case Kind::kDense:
      ws.dense = true;
      return solve_dense(world, world.solver, ws, warm, report);
    case Kind::kWorkingSet: {
      const bool halves_next = retaken && !ws.dense && !dense_path_fits(world, ws);
      const Real margin = world.solver.diagnostics.working_set_margin * world.gravity.norm() * h;
      solve_on_working_set(ws.problem, ws.layout, ws.island, world.solver,
                           warm ? &ws.warm.guess : nullptr, warm ? &ws.warm.z : nullptr, margin,
                           halves_next ? world.solver.diagnostics.retaken_pivots_per_unknown : 0,
                           ws.working, ws.sparse, ws.lemke, ws.solution);
      unknowns = static_cast<int>(ws.working.columns.size());
      ws.dense = false;
      return &ws.working.basis;
    }
    case Kind::kSparseLemke:
      solve_sparse_lemke(ws.problem, world.solver, ws.lemke, ws.solution,
                         warm ? &ws.warm.guess : nullptr);
      ws.dense = false;
      return &ws.lemke.active;
  }
  return nullptr;
}

}  // namespace

const char* to_string(SolveAttemptKind kind) {
  switch (kind) {
    case Kind::kDenseBrief:
      return "dense_brief";
    case Kind::kDense:
      return "dense";
    case Kind::kWorkingSet:
      return "working_set";
    case Kind::kSparseLemke:
      return "sparse_lemke";
  }
  return "?";
}

const std::vector<bool>* solve_island_policy(const World& world, Real h, IslandWorkspace& ws,
                                             bool warm, bool retaken, StepReport& report) {
  const std::span<const Kind> policy = island_policy(ws, report.lcp_size);
  std::array<SolveAttempt, kMostAttempts> attempts;  // (no allocation unless kept)
  int count = 0;
  int pivots = 0, iterations = 0;
  SolveStatus first = SolveStatus::kNumerical;
  const std::vector<bool>* basis = nullptr;
  MlcpSolution earlier;  // a failed answer a failed working set gives back (allocates on failure)
  bool earlier_dense = false;
  for (const Kind kind : policy) {
    if (count > 0 && !attempt_runs(kind, world, ws, retaken)) continue;
    // A working set that follows another attempt and fails leaves that attempt's answer: the one
    // the recovery by regularisation starts from (docs/stepping.md "When a solve fails").
    const bool keep_earlier = count > 0 && kind == Kind::kWorkingSet;
    if (keep_earlier) {
      earlier = ws.solution;
      earlier_dense = ws.dense;
    }
    const auto start = std::chrono::steady_clock::now();
    int unknowns = 0;
    const std::vector<bool>* attempt_basis =
        run_attempt(kind, world, h, ws, warm, retaken, unknowns, report);
    SolveCertificate& c = ws.solution.certificate;
    attempts[count] = {
        .kind = kind,
        .status = c.status,
        .method = c.method,
        .unknowns = unknowns,
        .pivots = c.pivots,
        .iterations = c.iterations,
        .seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
    if (count == 0) first = c.status;
    pivots += c.pivots;
    iterations += c.iterations;
    ++count;
    const bool solved = c.ok();
    if (solved || !keep_earlier) {
      basis = attempt_basis;
      report.solved_unknowns = solved ? unknowns : report.lcp_size;
    } else {
      std::swap(ws.solution, earlier);
      ws.dense = earlier_dense;
    }
    if (solved) {
      if (kind == Kind::kWorkingSet && count > 1) ++report.rescued_islands;
      break;
    }
  }
  SolveCertificate& c = ws.solution.certificate;
  c.pivots = pivots;
  c.iterations = iterations;
  if (count > 1) {
    c.primary_status = first;
    report.attempts.insert(report.attempts.end(), attempts.begin(), attempts.begin() + count);
  }
  return basis;
}

}  // namespace exactsim
