// The stress campaign (`exactsim stress`, docs/robustness.md "Stress campaign"): the job list,
// one run's metrics, and the aggregated table.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "exactsim/stepping/world.h"

namespace exactsim {

// One run of the campaign.
struct StressRun {
  std::string family;  // pour2d-random, pour3d-random, hull-pour2d, hull-pour3d, stack3d,
                       // tower3d, pyramid3d, incline2d-slide, incline2d-stick, incline3d-slide,
                       // incline3d-stick
  std::string model;   // "peg" or "standard" (always with continue-on-failure)
  Real step = 0.005;   // h, s
  Real duration = 1;   // s
  std::uint64_t seed = 1;
  std::string name() const;  // file stem: <family>-<model>-h<ms>-s<seed>
};

// The families in table order.
const std::vector<std::string>& stress_families();

// The campaign. Full: the random pours at seeds 1–100, h ∈ {0.005, 0.01}, 5 s; the hull pours at
// seeds 1–5, both h, 5 s; stack, tower, pyramid at h = 0.005 for 3 s; the four inclines at
// h = 0.005 for 1 s; each for PEG and for the standard model. Quick, the CI subset: runs of the
// full campaign, unchanged, that take about a minute together on two cores: the pours at seeds 1–3
// (hull pours: seed 1), the inclines, and PEG's stack and tower. The pyramid (both models) and the
// standard model's stack and tower are the campaign's only: their failing solves take 4 to 30 min
// per run (docs/robustness.md "Running it"). `hull_seeds` > 0 runs the hull pours at seeds
// 1–hull_seeds instead (`stress --hull-seeds`: their failures are rare events that five seeds
// under-sample, docs/robustness.md).
std::vector<StressRun> stress_job_list(bool quick, int hull_seeds = 0);

// The penetration sweep (docs/penetration.md "The penetration sweep"): PEG on the random
// 2D and 3D pours, seeds 1–`seeds`, h ∈ {0.001, 0.005, 0.01, 0.016, 0.03, 0.05}, 5 s.
std::vector<StressRun> penetration_sweep_job_list(int seeds);

// The scene of a run, continue_on_solver_failure set (scenarios: stress_scenes.h, scenarios.h).
Scene build_stress_scene(const StressRun& run);

// Runaway protection: a run stops, counted as "ended early" with the reason, after a step that
// used more than step_budget_seconds of CPU time (of the run's thread, so that the cut does not
// depend on the machine's load), whose LCP had more than max_lcp unknowns (not the structures,
// whose LCP does not grow: 240–6,720 unknowns from their first step), or once the run has used
// run_budget_seconds of CPU time (0: no limit).
struct StressLimits {
  double step_budget_seconds = 30;
  int max_lcp = 2000;
  double run_budget_seconds = 0;
  // Each run's StepOptions::memory_budget_bytes (docs/input-validation.md "Memory budget").
  std::uint64_t memory_budget_bytes = kDefaultMemoryBudgetBytes;
};

// The "bodies lost" region (docs/robustness.md): the AABB of the static bodies (at their
// initial poses) and of the dynamic bodies' initial centres, enlarged by `margin` on every side
// but the bottom, whose limit is the static bodies' lowest point. A dynamic body whose centre of
// mass leaves it, or becomes non-finite, is lost.
struct LostRegion {
  Vec3 lo, hi;
};
LostRegion lost_region(const Scene& scene);
inline Real lost_margin(int dimension) { return dimension == 2 ? 0.5 : 1.0; }

// Runs one campaign run and returns its metrics (docs/robustness.md lists the fields). Never
// throws for a failing simulation: divergence, runaway and exceptions are recorded.
nlohmann::json run_stress(const StressRun& run, const StressLimits& limits);

// The params stored beside a run's result (what makes a result file reusable on resume).
nlohmann::json stress_params(const StressRun& run, const StressLimits& limits);

// The Markdown report of a set of results (as returned by run_stress): the aggregated table per
// (family, model, h) and per-run rows for the stacks, pyramid and inclines.
std::string stress_table(const std::vector<nlohmann::json>& results);

}  // namespace exactsim
