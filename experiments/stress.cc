#include "experiments/stress.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include <time.h>

#include "exactsim/io/run.h"
#include "exactsim/math/error.h"
#include "exactsim/stepping/step.h"
#include "experiments/scenarios.h"
#include "experiments/stress_scenes.h"
#include "experiments/structures.h"

namespace exactsim {
namespace {

using nlohmann::json;

// Thrown from the step callback to end a runaway run (caught in run_stress).
struct StopRun : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// CPU time of the calling thread: the runaway budgets use it, so that whether a run is cut does
// not depend on the machine's load (wall time on a shared machine can be 10x the CPU time).
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

json finite_or_null(Real x) { return std::isfinite(x) ? json(x) : json(nullptr); }

int h_ms(Real h) { return static_cast<int>(std::lround(h * 1000)); }

bool is_incline(const std::string& family) { return family.rfind("incline", 0) == 0; }
bool is_pour(const std::string& family) { return family.find("pour") != std::string::npos; }

bool is_structure(const std::string& family) { return structure_builder(family) != nullptr; }

// A stack's, structure's or incline's one run (docs/robustness.md "The runs").
StressRun single_run(const std::string& family, const std::string& model) {
  const Real h = family == "tight-bin3d" ? 0.05 : 0.005;
  Real duration = 3.0;
  if (is_incline(family)) duration = 1.0;
  if (family == "dominoes3d") duration = 4.0;
  return {family, model, h, duration, 1};
}

InclineOptions incline_options(const StressRun& r) {
  InclineOptions o;
  o.dimension = r.family[7] == '2' ? 2 : 3;
  o.angle_deg = 20;
  o.friction_offset = r.family.find("slide") != std::string::npos ? -0.05 : 0.05;
  o.step = r.step;
  o.duration = r.duration;
  o.model = r.model == "peg" ? ContactModel::kPeg : ContactModel::kStandard;
  return o;
}

// Body b's world vertices at the scene's initial pose, extended into `lo`/`hi`.
void extend_by_body(const Scene& s, int b, Vec3& lo, Vec3& hi) {
  const World& w = s.world;
  const auto q = s.initial.q_of(b);
  if (w.dimension == 2) {
    const Real c = std::cos(q[2]), sn = std::sin(q[2]);
    for (const Vec2& v : w.polygons[w.bodies[b].shape].vertices) {
      const Vec3 p(q[0] + c * v.x() - sn * v.y(), q[1] + sn * v.x() + c * v.y(), 0);
      lo = lo.cwiseMin(p);
      hi = hi.cwiseMax(p);
    }
  } else {
    const Quat rot(q[3], q[4], q[5], q[6]);
    const Vec3 x(q[0], q[1], q[2]);
    for (const Vec3& v : w.polyhedra[w.bodies[b].shape].vertices) {
      const Vec3 p = x + rot.normalized() * v;
      lo = lo.cwiseMin(p);
      hi = hi.cwiseMax(p);
    }
  }
}

}  // namespace

std::string StressRun::name() const {
  char b[128];
  std::snprintf(b, sizeof b, "%s-%s-h%02d-s%llu", family.c_str(), model.c_str(), h_ms(step),
                static_cast<unsigned long long>(seed));
  return b;
}

const std::vector<std::string>& stress_families() {
  static const std::vector<std::string> f = {
      "pour2d-random",   "pour3d-random",  "hull-pour2d", "hull-pour3d",     "ball-pour3d",
      "stack3d",         "tower3d",        "pyramid3d",   "arch3d",          "jenga3d",
      "cube-pyramid3d",  "dominoes3d",     "tight-bin3d", "incline2d-slide", "incline2d-stick",
      "incline3d-slide", "incline3d-stick"};
  return f;
}

std::vector<StressRun> stress_job_list(bool quick, int hull_seeds) {
  // Stacks and inclines first, then the pours seed by seed (all families, models and h of seed 1,
  // then seed 2, ...): a campaign stopped part-way has a balanced sample of every cell.
  std::vector<StressRun> jobs;
  const std::vector<std::string> models = {"peg", "standard"};
  if (hull_seeds <= 0) hull_seeds = quick ? 1 : 5;
  const int pour_seeds = quick ? 3 : 100;
  // The CI subset leaves out the runs whose failing solves take minutes each (docs/robustness.md
  // "Running it"): the pyramid, and the standard model's stack, tower and hull pours; and the
  // structures, which tests/physics/structures_test.cc runs.
  const auto in_subset = [quick](const std::string& family, const std::string& model) {
    if (!quick) return true;
    if (family == "pyramid3d" || is_structure(family)) return false;
    return model == "peg" || is_incline(family) || family.find("random") != std::string::npos ||
           family == "ball-pour3d";
  };
  for (const std::string& family : stress_families()) {
    if (is_pour(family)) continue;
    for (const std::string& model : models)
      if (in_subset(family, model)) jobs.push_back(single_run(family, model));
  }
  for (int seed = 1; seed <= std::max(pour_seeds, hull_seeds); ++seed)
    for (const std::string& family : stress_families()) {
      if (!is_pour(family)) continue;
      if (seed > (family.rfind("hull", 0) == 0 ? hull_seeds : pour_seeds)) continue;
      for (const std::string& model : models)
        if (in_subset(family, model))
          for (Real h : {0.005, 0.01})
            jobs.push_back({family, model, h, 5.0, static_cast<std::uint64_t>(seed)});
    }
  return jobs;
}

std::vector<StressRun> penetration_sweep_job_list(int seeds) {
  std::vector<StressRun> jobs;
  for (int seed = 1; seed <= seeds; ++seed)
    for (const char* family : {"pour2d-random", "pour3d-random"})
      for (Real h : {0.001, 0.005, 0.01, 0.016, 0.03, 0.05})
        jobs.push_back({family, "peg", h, 5.0, static_cast<std::uint64_t>(seed)});
  return jobs;
}

Scene build_stress_scene(const StressRun& r) {
  ContactModel model;
  if (r.model == "peg")
    model = ContactModel::kPeg;
  else if (r.model == "standard")
    model = ContactModel::kStandard;
  else
    throw InputError("stress: unknown model '" + r.model + "'");
  Scene s;
  if (r.family == "pour2d-random") {
    Pour2dOptions o;
    o.step = r.step;
    o.duration = r.duration;
    o.model = model;
    s = pour2d_random(r.seed, o);
  } else if (r.family == "pour3d-random") {
    Pour3dOptions o;
    o.step = r.step;
    o.duration = r.duration;
    o.model = model;
    s = pour3d_random(r.seed, o);
  } else if (r.family == "hull-pour2d" || r.family == "hull-pour3d" || r.family == "ball-pour3d") {
    HullPourOptions o;
    o.step = r.step;
    o.duration = r.duration;
    o.model = model;
    s = r.family == "hull-pour2d"   ? hull_pour2d(r.seed, o)
        : r.family == "hull-pour3d" ? hull_pour3d(r.seed, o)
                                    : ball_pour3d(r.seed, o);
  } else if (r.family == "stack3d" || r.family == "tower3d" || r.family == "pyramid3d") {
    StackOptions o;
    o.step = r.step;
    o.duration = r.duration;
    o.model = model;
    o.seed = r.seed;
    s = r.family == "stack3d"   ? box_stack3d(o)
        : r.family == "tower3d" ? box_tower3d(o)
                                : box_pyramid3d(o);
  } else if (const StructureBuilder build = structure_builder(r.family)) {
    StructureOptions o;
    o.step = r.step;
    o.duration = r.duration;
    o.model = model;
    s = build(o);
  } else if (is_incline(r.family) && r.family.size() > 8) {
    s = incline_scene(incline_options(r));
  } else {
    throw InputError("stress: unknown scene family '" + r.family + "'");
  }
  s.world.stepping.continue_on_solver_failure = true;
  s.world.stepping.measure_overlap = true;
  return s;
}

LostRegion lost_region(const Scene& s) {
  const World& w = s.world;
  Vec3 lo = Vec3::Constant(INFINITY), hi = Vec3::Constant(-INFINITY);
  for (int b = 0; b < w.body_count(); ++b)
    if (w.bodies[b].is_static) extend_by_body(s, b, lo, hi);
  const Real bottom = w.dimension == 2 ? lo.y() : lo.z();
  for (int b = 0; b < w.body_count(); ++b) {
    if (w.bodies[b].is_static) continue;
    const auto q = s.initial.q_of(b);
    const Vec3 x(q[0], q[1], w.dimension == 2 ? 0 : q[2]);
    lo = lo.cwiseMin(x);
    hi = hi.cwiseMax(x);
  }
  const Real m = lost_margin(w.dimension);
  lo -= Vec3::Constant(m);
  hi += Vec3::Constant(m);
  (w.dimension == 2 ? lo.y() : lo.z()) = bottom;
  if (w.dimension == 2) {
    lo.z() = -INFINITY;
    hi.z() = INFINITY;
  }
  return {lo, hi};
}

json stress_params(const StressRun& r, const StressLimits& l) {
  json j = {{"family", r.family},   {"model", r.model},
            {"h", r.step},          {"duration", r.duration},
            {"seed", r.seed},       {"step_budget_seconds", l.step_budget_seconds},
            {"max_lcp", l.max_lcp}, {"run_budget_seconds", l.run_budget_seconds}};
  // Only when not the default: earlier campaigns' results stay resumable.
  if (l.memory_budget_bytes != kDefaultMemoryBudgetBytes)
    j["memory_budget_bytes"] = l.memory_budget_bytes;
  return j;
}

json run_stress(const StressRun& run, const StressLimits& lim) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  Scene scene = build_stress_scene(run);
  scene.world.stepping.memory_budget_bytes = lim.memory_budget_bytes;
  const World& w = scene.world;
  const int dim = w.dimension;
  const LostRegion region = lost_region(scene);

  long steps = 0, failed = 0, energy_failures = 0, gains_over_1j = 0, solver_calls = 0;
  long pivots = 0, max_pivots = 0, first_failure = -1, lcp_sum = 0;
  int max_lcp = 0;
  Real max_gain = 0, max_overlap = 0, final_ke = 0, max_depth = 0;
  long deep_steps = 0, centre_inside_steps = 0;  // the watchdog's (docs/penetration.md)
  long projection_steps = 0, projection_relaxed = 0, projection_scaled = 0, projection_failures = 0;
  double solver_seconds = 0, max_step_seconds = 0;
  bool nonfinite = false, diverged = false;
  long diverged_step = -1;
  int diverged_body = -1;
  std::vector<std::uint8_t> lost(w.body_count(), 0);
  long first_lost_step = -1;
  std::string ended_early;
  // Incline: velocity along the slope at half time and at the end.
  const bool incline = is_incline(run.family);
  Vec3 downhill = Vec3::Zero();
  if (incline) downhill = incline_downhill(incline_options(run));
  const long planned = scene.step_count(), half = planned / 2;
  Real v_half = 0, t_half = 0, v_end = 0, t_end = 0, x_start = 0, x_end = 0;
  // The first `dim` entries of a body's position or velocity along the slope (a plain loop: GCC 12
  // reads the vectorised dot of a dynamic head of a Vec3 as out of bounds).
  const auto along_slope = [&](const auto& x) {
    Real sum = 0;
    for (int i = 0; i < dim; ++i) sum += x[i] * downhill[i];
    return sum;
  };
  if (incline) x_start = along_slope(scene.initial.q_of(1));

  const double cpu_start = thread_cpu_seconds();
  double last = cpu_start;
  const auto on_step = [&](const State& st, const StepReport& r) {
    const double now = thread_cpu_seconds();
    const double step_seconds = now - last;
    last = now;
    max_step_seconds = std::max(max_step_seconds, step_seconds);
    ++steps;
    if (is_failed_solve(r.status)) {
      ++failed;
      if (first_failure < 0) first_failure = r.step;
    }
    energy_failures += r.status == StepStatus::kEnergyGain;
    if (r.solver_called) {
      ++solver_calls;
      pivots += r.solver.pivots;
      max_pivots = std::max<long>(max_pivots, r.solver.pivots);
      solver_seconds += r.seconds.solve;
      lcp_sum += r.lcp_size;
    }
    max_lcp = std::max(max_lcp, r.lcp_size);
    if (r.energy.checked) {
      const Real gain = r.energy.after - r.energy.free_flight;
      if (std::isfinite(gain)) {
        max_gain = std::max(max_gain, gain);
        gains_over_1j += gain > 1.0;
      } else {
        nonfinite = true;
      }
    }
    max_depth = std::max(max_depth, r.max_penetration);
    deep_steps += !r.deep_penetrations.empty();
    centre_inside_steps += !r.centres_inside_static.empty();
    projection_steps += r.projection_ran;
    projection_relaxed += r.projection_relaxed_rows > 0;
    projection_scaled += r.projection_scale < 1;
    projection_failures += r.projection_ran && !r.projection_solved;
    if (std::isfinite(r.overlap))
      max_overlap = std::max(max_overlap, r.overlap);
    else
      nonfinite = true;
    final_ke = r.kinetic_energy;
    if (!std::isfinite(r.kinetic_energy)) nonfinite = true;
    if (r.status == StepStatus::kDiverged && !diverged) {
      diverged = true;
      diverged_step = r.step;
      diverged_body = r.diverged_body;
    }
    for (int b = 0; b < w.body_count(); ++b) {
      if (!st.present[b] || w.bodies[b].is_static || lost[b]) continue;
      const auto q = st.q_of(b);
      const Vec3 x(q[0], q[1], dim == 2 ? 0 : q[2]);
      const bool inside = x.allFinite() && (x.array() >= region.lo.array()).all() &&
                          (x.array() <= region.hi.array()).all();
      if (!inside) {
        lost[b] = 1;
        if (first_lost_step < 0) first_lost_step = r.step;
      }
    }
    if (incline) {
      const Real v = along_slope(st.v_of(1));
      if (r.step + 1 == half) {
        v_half = v;
        t_half = r.time;
      }
      v_end = v;
      t_end = r.time;
      x_end = along_slope(st.q_of(1));
    }
    char why[160];
    if (r.lcp_size > lim.max_lcp && !is_structure(run.family)) {
      std::snprintf(why, sizeof why, "LCP size %d > %d at step %ld", r.lcp_size, lim.max_lcp,
                    r.step);
      throw StopRun(why);
    }
    if (step_seconds > lim.step_budget_seconds) {
      std::snprintf(why, sizeof why, "step %ld took %.1f s CPU > budget %.1f s (LCP %d)", r.step,
                    step_seconds, lim.step_budget_seconds, r.lcp_size);
      throw StopRun(why);
    }
    const double used = now - cpu_start;
    if (lim.run_budget_seconds > 0 && used > lim.run_budget_seconds) {
      std::snprintf(why, sizeof why, "run budget %.0f s CPU spent at step %ld",
                    lim.run_budget_seconds, r.step);
      throw StopRun(why);
    }
  };

  RunOptions o;
  o.progress = false;
  try {
    const RunSummary s = run_scene(scene, o, on_step);
    if (s.failed) ended_early = s.failure;
  } catch (const StopRun& e) {
    ended_early = std::string("runaway: ") + e.what();
  } catch (const std::exception& e) {
    ended_early = std::string("exception at step ") + std::to_string(steps) + ": " + e.what();
  }
  const double wall = std::chrono::duration<double>(Clock::now() - start).count();
  const double cpu = thread_cpu_seconds() - cpu_start;
  long lost_count = 0;
  for (auto f : lost) lost_count += f;
  json j = {{"name", run.name()},
            {"family", run.family},
            {"model", run.model},
            {"h", run.step},
            {"duration", run.duration},
            {"seed", run.seed},
            {"dimension", dim},
            {"bodies", w.body_count()},
            {"steps_planned", planned},
            {"steps_done", steps},
            {"failed_solves", failed},
            {"energy_failures", energy_failures},
            {"first_failure_step", first_failure < 0 ? json(nullptr) : json(first_failure)},
            {"energy_gains_over_1J", gains_over_1j},
            {"max_energy_gain", max_gain},
            {"max_overlap", max_overlap},
            {"nonfinite", nonfinite},
            {"diverged", diverged},
            {"diverged_step", diverged_step < 0 ? json(nullptr) : json(diverged_step)},
            {"diverged_body", diverged_body < 0 ? json(nullptr) : json(diverged_body)},
            {"bodies_lost", lost_count},
            {"max_penetration", max_depth},
            {"contact_epsilon", contact_epsilon(w, run.step)},
            {"deep_penetration_steps", deep_steps},
            {"centre_inside_static_steps", centre_inside_steps},
            {"projection_steps", projection_steps},
            {"projection_relaxed", projection_relaxed},
            {"projection_scaled", projection_scaled},
            {"projection_failures", projection_failures},
            {"first_lost_step", first_lost_step < 0 ? json(nullptr) : json(first_lost_step)},
            {"final_kinetic_energy", finite_or_null(final_ke)},
            {"wall_seconds", wall},
            {"solver_seconds", solver_seconds},
            {"cpu_seconds", cpu},
            {"max_step_cpu_seconds", max_step_seconds},
            {"solver_calls", solver_calls},
            {"mean_pivots", solver_calls ? static_cast<Real>(pivots) / solver_calls : 0.0},
            {"max_pivots", max_pivots},
            {"mean_lcp", solver_calls ? static_cast<Real>(lcp_sum) / solver_calls : 0.0},
            {"max_lcp", max_lcp},
            {"ended_early", ended_early.empty() ? json(nullptr) : json(ended_early)}};
  if (incline) {
    const InclineOptions io = incline_options(run);
    j["incline"] = {
        {"angle_deg", io.angle_deg},
        {"friction", incline_friction(io)},
        {"expected_acceleration", incline_acceleration(io)},
        {"measured_acceleration",
         t_end > t_half ? finite_or_null((v_end - v_half) / (t_end - t_half)) : json(nullptr)},
        {"final_speed", finite_or_null(v_end)},
        {"distance", finite_or_null(x_end - x_start)}};
  }
  return j;
}

// ---- The report ------------------------------------------------------------------------------

namespace {

std::string fmt(double x) {
  if (!std::isfinite(x)) return "–";
  char b[32];
  if (x == 0)
    return "0";
  else if (std::fabs(x) >= 1e5 || std::fabs(x) < 1e-3)
    std::snprintf(b, sizeof b, "%.2e", x);
  else
    std::snprintf(b, sizeof b, "%.3g", x);
  return b;
}

Real num(const json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<Real>() : NAN;
}

struct Cell {
  int runs = 0;
  long steps_planned = 0, steps_done = 0, failed = 0, energy_failures = 0, gains = 0, lost = 0;
  long early = 0, nonfinite = 0, runs_with_failure = 0, solver_calls = 0;
  Real max_gain = 0, max_overlap = 0;
  double wall = 0, cpu = 0, solver = 0, pivots = 0;
};

std::string per_10k(long failed, long steps) {
  return steps ? fmt(1e4 * static_cast<double>(failed) / static_cast<double>(steps)) : "–";
}

}  // namespace

std::string stress_table(const std::vector<json>& results) {
  // (family order, model, h) → cell
  std::map<std::tuple<int, std::string, int>, Cell> cells;
  const auto& fam = stress_families();
  std::map<std::string, Cell> pours_by_model;
  for (const json& r : results) {
    const std::string family = r["family"].get<std::string>();
    const int fi = static_cast<int>(std::find(fam.begin(), fam.end(), family) - fam.begin());
    Cell& c = cells[{fi, r["model"].get<std::string>(), h_ms(r["h"].get<Real>())}];
    for (Cell* t : {&c, is_pour(family) ? &pours_by_model[r["model"].get<std::string>()]
                                        : static_cast<Cell*>(nullptr)}) {
      if (!t) continue;
      ++t->runs;
      t->steps_planned += r["steps_planned"].get<long>();
      t->steps_done += r["steps_done"].get<long>();
      t->failed += r["failed_solves"].get<long>();
      t->runs_with_failure += r["failed_solves"].get<long>() > 0;
      t->energy_failures += r["energy_failures"].get<long>();
      t->gains += r["energy_gains_over_1J"].get<long>();
      t->max_gain = std::max<Real>(t->max_gain, num(r, "max_energy_gain"));
      t->max_overlap = std::max<Real>(t->max_overlap, num(r, "max_overlap"));
      t->lost += r["bodies_lost"].get<long>();
      t->early += !r["ended_early"].is_null();
      t->nonfinite += r["nonfinite"].get<bool>() || r["diverged"].get<bool>();
      t->wall += r["wall_seconds"].get<double>();
      t->cpu += r.contains("cpu_seconds") ? r["cpu_seconds"].get<double>() : 0.0;
      t->solver += r["solver_seconds"].get<double>();
      t->solver_calls += r["solver_calls"].get<long>();
      t->pivots += r["mean_pivots"].get<double>() * r["solver_calls"].get<double>();
    }
  }
  std::ostringstream s;
  s << "| scene family | model | h (s) | runs | steps done / planned | failed solves (runs) "
       "| per 10⁴ steps | energy failures | steps gaining > 1 J | max gain (J) | max overlap "
       "| NaN / diverged runs | bodies lost | runs ended early | mean pivots | wall s | CPU s | "
       "solver s |\n"
    << "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& [key, c] : cells) {
    const auto& [fi, model, hm] = key;
    s << "| " << (fi < static_cast<int>(fam.size()) ? fam[fi] : "?") << " | " << model << " | "
      << fmt(hm / 1000.0) << " | " << c.runs << " | " << c.steps_done << " / " << c.steps_planned
      << " | " << c.failed << " (" << c.runs_with_failure << ") | "
      << per_10k(c.failed, c.steps_done) << " | " << c.energy_failures << " | " << c.gains << " | "
      << fmt(c.max_gain) << " | " << fmt(c.max_overlap) << " | " << c.nonfinite << " | " << c.lost
      << " | " << c.early << " | " << (c.solver_calls ? fmt(c.pivots / c.solver_calls) : "–")
      << " | " << fmt(c.wall) << " | " << fmt(c.cpu) << " | " << fmt(c.solver) << " |\n";
  }
  // The watchdog's numbers (docs/penetration.md), from the results that have them.
  std::map<std::tuple<int, std::string, int>, std::vector<const json*>> pen;
  for (const json& r : results)
    if (r.contains("max_penetration")) {
      const auto f = std::find(fam.begin(), fam.end(), r["family"].get<std::string>());
      pen[{static_cast<int>(f - fam.begin()), r["model"].get<std::string>(),
           h_ms(r["h"].get<Real>())}]
          .push_back(&r);
    }
  if (!pen.empty()) {
    s << "\nPenetration (the step watchdog, exact depths; targets: depth ≤ ε at every "
         "step, no centre inside a static body, no body lost):\n\n"
      << "| scene family | model | h (s) | runs | steps | ε (m) | max depth (m) | runs deeper "
         "than ε | steps deeper than ε | steps with a centre inside a static body | bodies lost "
         "| failed solves | split projections: ran / relaxed / scaled / unsolved |\n"
      << "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const auto& [key, rs] : pen) {
      const auto& [fi, model, hm] = key;
      long steps = 0, deep = 0, deep_runs = 0, inside = 0, lost = 0, failed = 0;
      long projections[4] = {0, 0, 0, 0};
      bool projections_known = false;  // result files without projection_* fields lack the counts
      Real depth = 0, eps = 0;
      for (const json* r : rs) {
        steps += (*r)["steps_done"].get<long>();
        deep += (*r)["deep_penetration_steps"].get<long>();
        deep_runs += (*r)["deep_penetration_steps"].get<long>() > 0;
        inside += (*r)["centre_inside_static_steps"].get<long>();
        lost += (*r)["bodies_lost"].get<long>();
        failed += (*r)["failed_solves"].get<long>();
        depth = std::max<Real>(depth, num(*r, "max_penetration"));
        eps = num(*r, "contact_epsilon");
        if (r->contains("projection_steps")) {
          projections_known = true;
          projections[0] += (*r)["projection_steps"].get<long>();
          projections[1] += (*r)["projection_relaxed"].get<long>();
          projections[2] += (*r)["projection_scaled"].get<long>();
          projections[3] += (*r)["projection_failures"].get<long>();
        }
      }
      s << "| " << (fi < static_cast<int>(fam.size()) ? fam[fi] : "?") << " | " << model << " | "
        << fmt(hm / 1000.0) << " | " << rs.size() << " | " << steps << " | " << fmt(eps) << " | "
        << fmt(depth) << " | " << deep_runs << " | " << deep << " | " << inside << " | " << lost
        << " | " << failed << " | "
        << (projections_known
                ? std::to_string(projections[0]) + " / " + std::to_string(projections[1]) + " / " +
                      std::to_string(projections[2]) + " / " + std::to_string(projections[3])
                : "–")
        << " |\n";
    }
  }
  s << "\nAll pours (random and hull, both h) per model:\n\n"
    << "| model | runs | steps | failed solves | per 10⁴ steps (target ≤ 1) | steps gaining > 1 J "
       "| max gain (J) | NaN / diverged runs | bodies lost | runs ended early |\n"
    << "|---|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& [model, c] : pours_by_model)
    s << "| " << model << " | " << c.runs << " | " << c.steps_done << " | " << c.failed << " | "
      << per_10k(c.failed, c.steps_done) << " | " << c.gains << " | " << fmt(c.max_gain) << " | "
      << c.nonfinite << " | " << c.lost << " | " << c.early << " |\n";

  s << "\nStacks, pyramid and inclines, per run (targets: 0 failed solves, at rest at the end; "
       "inclines: measured acceleration = closed form):\n\n"
    << "| run | steps done / planned | failed solves | first failure (step) | steps gaining > 1 "
       "J | max gain (J) | max overlap | final kinetic energy (J) | bodies lost | a measured / "
       "closed form (m/s²) | ended early |\n"
    << "|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const std::string& family : fam) {
    if (is_pour(family)) continue;
    for (const json& r : results) {
      if (r["family"] != family) continue;
      s << "| " << r["name"].get<std::string>() << " | " << r["steps_done"].get<long>() << " / "
        << r["steps_planned"].get<long>() << " | " << r["failed_solves"].get<long>() << " | "
        << (r["first_failure_step"].is_null() ? "–"
                                              : std::to_string(r["first_failure_step"].get<long>()))
        << " | " << r["energy_gains_over_1J"].get<long>() << " | " << fmt(num(r, "max_energy_gain"))
        << " | " << fmt(num(r, "max_overlap")) << " | " << fmt(num(r, "final_kinetic_energy"))
        << " | " << r["bodies_lost"].get<long>() << " | ";
      if (r.contains("incline"))
        s << fmt(num(r["incline"], "measured_acceleration")) << " / "
          << fmt(num(r["incline"], "expected_acceleration"));
      else
        s << "–";
      s << " | "
        << (r["ended_early"].is_null() ? std::string("–") : r["ended_early"].get<std::string>())
        << " |\n";
    }
  }
  // Why the pours that ended early did (the first 30).
  int listed = 0, early = 0;
  std::ostringstream e;
  for (const json& r : results) {
    if (!is_pour(r["family"].get<std::string>()) || r["ended_early"].is_null()) continue;
    ++early;
    if (listed++ < 30)
      e << "* " << r["name"].get<std::string>() << ": " << r["ended_early"].get<std::string>()
        << "\n";
  }
  if (early) {
    s << "\nPours that ended early (" << early << (early > 30 ? ", the first 30" : "") << "):\n\n"
      << e.str();
  }
  return s.str();
}

}  // namespace exactsim
