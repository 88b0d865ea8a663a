// bench_metrics: the cost of the end-of-step metrics stage (the overlap metric and the
// penetration watchdog) against the step itself, on bench_scaling's pour (scaling_scene.h) of
// up to 100,000 bodies, and the stage as it was before it shared one broad phase, timed on the
// very same end-of-step states in the same run.
//
// Every step is one step() with the library's defaults (overlap measurement and watchdog on,
// continue_on_solver_failure on). "step" is the step's own stages (detect … integrate), "metrics"
// its metrics stage: one placement of the current poses, the broad phase taken from the step's
// detection (overlapping_box_pairs with the detection boxes as cover), the exact overlap and
// depths over those pairs, the energies and the bounds check. "before" then re-runs, on the
// same end state, the stage as it was until this benchmark was written (copied below): a second
// placement of current and predicted poses, a sort-and-sweep for the overlap metric, another
// sort-and-sweep on x for the watchdog, the same exact overlap, depths, energies and bounds. Its
// values must equal the step's report bitwise (checked every step).
//
// A scenario program, not a Google Benchmark; docs/input-validation.md "Overlap metric at scale".
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "exactsim/metrics/energy.h"
#include "exactsim/metrics/overlap.h"
#include "exactsim/metrics/penetration_depth.h"
#include "exactsim/stepping/step.h"
#include "scaling_scene.h"

namespace exactsim::bench {
namespace {

using Clock = std::chrono::steady_clock;

// ---- The metrics stage before the shared broad phase (main at 8288944) ------------------------

// penetration_depth.cc's scene sweep as it was: sort-and-sweep on x over the present bodies.
template <class BoxOf, class Visit>
void legacy_sweep_pairs(int n, std::span<const std::uint8_t> is_static,
                        std::span<const std::uint8_t> present,
                        std::vector<std::pair<Real, int>>& sweep, BoxOf box_of, Visit visit) {
  sweep.clear();
  for (int i = 0; i < n; ++i)
    if (present[i]) sweep.emplace_back(box_of(i).lo.x(), i);
  std::sort(sweep.begin(), sweep.end());
  const int m = static_cast<int>(sweep.size());
  for (int k = 0; k < m; ++k) {
    const int i = sweep[k].second;
    const auto& bi = box_of(i);
    for (int l = k + 1; l < m && sweep[l].first <= bi.hi.x(); ++l) {
      const int j = sweep[l].second;
      if (is_static[i] && is_static[j]) continue;
      if (!bi.overlaps(box_of(j))) continue;
      visit(std::min(i, j), std::max(i, j));
    }
  }
}

void legacy_record(ScenePenetration& out, int i, int j, const PenetrationResult& r,
                   Real threshold) {
  ++out.pairs_checked;
  if (r.depth > out.max_depth || (r.depth == out.max_depth && r.depth > 0 &&
                                  std::pair(i, j) < std::pair(out.max_a, out.max_b))) {
    out.max_depth = r.depth;
    out.max_a = i;
    out.max_b = j;
    out.max_result = r;
  }
  if (r.depth > threshold) out.deep_pairs.push_back(PenetratingPair{i, j, r});
}

void legacy_centre(ScenePenetration& out, std::span<const std::uint8_t> is_static, int i, int j,
                   auto&& depth_of_centre_in) {
  if (is_static[i] == is_static[j]) return;
  const int body = is_static[i] ? j : i, wall = is_static[i] ? i : j;
  const Real d = depth_of_centre_in(body, wall);
  if (d > 0) out.centres_inside.push_back(CentreInsideStatic{body, wall, d});
}

void legacy_finish(ScenePenetration& out) {
  std::sort(out.deep_pairs.begin(), out.deep_pairs.end(), [](const auto& x, const auto& y) {
    return std::pair(x.body_a, x.body_b) < std::pair(y.body_a, y.body_b);
  });
  std::sort(out.centres_inside.begin(), out.centres_inside.end(), [](const auto& x, const auto& y) {
    return std::pair(x.body, x.static_body) < std::pair(y.body, y.static_body);
  });
}

struct Legacy {
  Workspace ws;  // its own: the legacy placement does not disturb the step's workspace
  std::vector<std::pair<Real, int>> sweep;
  ScenePenetration pen;
  Real overlap = 0;
};

// step.cc's metrics stage as it was (with the report's energies, presence count and bounds
// check, which the new stage still does).
void legacy_metrics(const World& world, const State& state, Real h, Legacy& L) {
  Workspace& ws = L.ws;
  int present = 0;
  for (int i = 0; i < world.body_count(); ++i) present += state.present[i];
  volatile Real energies = kinetic_energy(world.bodies, state) +
                           potential_energy(world.bodies, state, world.gravity) + present;
  (void)energies;
  place_bodies(world, state, h, ws);  // current and (2D) predicted poses
  const Real eps = contact_epsilon(world, h);
  L.pen.clear();
  if (world.dimension == 2) {
    L.overlap = total_overlap_area(ws.polygons, ws.is_static, state.present);
    ws.centres2.resize(world.body_count());
    for (int i = 0; i < world.body_count(); ++i)
      if (state.present[i]) ws.centres2[i] = state.q_of(i).head<2>();
    legacy_sweep_pairs(
        world.body_count(), ws.is_static, state.present, L.sweep,
        [&](int i) -> const Aabb2& { return ws.polygons[i].aabb; },
        [&](int i, int j) {
          legacy_record(L.pen, i, j, penetration_depth(ws.polygons[i], ws.polygons[j]), eps);
          legacy_centre(L.pen, ws.is_static, i, j, [&](int body, int wall) {
            return interior_depth(ws.polygons[wall], ws.centres2[body]);
          });
        });
  } else {
    ws.boxes3.resize(world.body_count());
    for (int i = 0; i < world.body_count(); ++i)
      if (state.present[i]) ws.boxes3[i] = ws.polyhedra[i].aabb;
    L.overlap = total_overlap_volume(ws.shapes3, ws.poses3, ws.boxes3, ws.is_static, state.present,
                                     &ws.intersection);
    legacy_sweep_pairs(
        world.body_count(), ws.is_static, state.present, L.sweep,
        [&](int i) -> const Aabb3& { return ws.polyhedra[i].aabb; },
        [&](int i, int j) {
          legacy_record(L.pen, i, j,
                        penetration_depth(*ws.shapes3[i], ws.polyhedra[i], *ws.shapes3[j],
                                          ws.polyhedra[j], ws.penetration),
                        eps);
          legacy_centre(L.pen, ws.is_static, i, j, [&](int body, int wall) {
            return interior_depth(ws.polyhedra[wall], ws.poses3[body].position);
          });
        });
  }
  legacy_finish(L.pen);
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
}

// ---- The run ----------------------------------------------------------------------------------

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

double mean(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

int run(int dimension, int bodies, int steps, std::uint64_t seed) {
  ScalingSceneOptions so;
  so.dimension = dimension;
  so.bodies = bodies;
  so.seed = seed;
  const auto t0 = Clock::now();
  const Scene scene = scaling_scene(so);
  const World& world = scene.world;
  std::printf("%dD, %d bodies (%d dynamic), seed %llu, h = %g s; scene built in %.1f s\n",
              dimension, world.body_count(), bodies, static_cast<unsigned long long>(seed),
              scene.step, std::chrono::duration<double>(Clock::now() - t0).count());
  State state = scene.initial;
  Workspace ws;
  Legacy legacy;
  std::vector<double> step_s, metrics_s, before_s;
  int mismatches = 0;
  std::printf("%5s %9s %9s %8s %10s %12s %12s\n", "step", "contacts", "pairs", "escaped",
              "step (s)", "metrics (s)", "before (s)");
  for (int k = 0; k < steps; ++k) {
    const StepReport r = step(world, state, ws, scene.step, k);
    if (r.status == StepStatus::kDiverged) {
      std::printf("step %d diverged\n", k);
      return 1;
    }
    const auto t = Clock::now();
    legacy_metrics(world, state, scene.step, legacy);
    const double before = std::chrono::duration<double>(Clock::now() - t).count();
    const double own = r.seconds.total() - r.seconds.metrics;
    step_s.push_back(own);
    metrics_s.push_back(r.seconds.metrics);
    before_s.push_back(before);
    const bool same = legacy.overlap == r.overlap && legacy.pen.max_depth == r.max_penetration &&
                      legacy.pen.deep_pairs.size() == r.deep_penetrations.size() &&
                      legacy.pen.centres_inside.size() == r.centres_inside_static.size() &&
                      legacy.pen.pairs_checked == static_cast<int>(ws.end_pairs.size());
    mismatches += !same;
    std::printf("%5d %9d %9zu %8zu %10.4f %12.4f %12.4f%s\n", k, r.potential_contacts,
                ws.end_pairs.size(), ws.end_sweep.escaped.size(), own, r.seconds.metrics, before,
                same ? "" : "  VALUES DIFFER");
    std::fflush(stdout);
  }
  std::printf("median: step %.4f s, metrics %.4f s (%.2f x the step), before %.4f s (%.2f x)\n",
              median(step_s), median(metrics_s), median(metrics_s) / median(step_s),
              median(before_s), median(before_s) / median(step_s));
  std::printf("mean:   step %.4f s, metrics %.4f s (%.2f x the step), before %.4f s (%.2f x)\n",
              mean(step_s), mean(metrics_s), mean(metrics_s) / mean(step_s), mean(before_s),
              mean(before_s) / mean(step_s));
  std::printf("steps whose metrics cost less than the step: %d of %d; values equal to before: %s\n",
              static_cast<int>(std::inner_product(
                  metrics_s.begin(), metrics_s.end(), step_s.begin(), 0, std::plus<>(),
                  [](double m, double s) { return m < s ? 1 : 0; })),
              steps, mismatches == 0 ? "every step" : "NO");
  return mismatches == 0 ? 0 : 1;
}

}  // namespace
}  // namespace exactsim::bench

int main(int argc, char** argv) {
  CLI::App app{"bench_metrics: the end-of-step metrics stage against the step, before and after"};
  int dimension = 2, bodies = 99997, steps = 10;
  std::uint64_t seed = 1;
  app.add_option("--dims", dimension, "dimension, 2 or 3")->check(CLI::IsMember({2, 3}));
  app.add_option("--n", bodies, "dynamic bodies (the container adds 3 static ones in 2D, 5 in 3D)")
      ->check(CLI::PositiveNumber);
  app.add_option("--steps", steps, "steps (h = 0.01 s)")->check(CLI::PositiveNumber);
  app.add_option("--seed", seed, "scene seed");
  CLI11_PARSE(app, argc, argv);
  return exactsim::bench::run(dimension, bodies, steps, seed);
}
