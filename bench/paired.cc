// bench_paired: two settings of one scene on the same states. Whole runs of a pile
// part trajectories within a few steps, and one run's time is one sample of a chaotic system: it
// cannot resolve a change of 10–30 % in the solve (docs/performance.md "Scaling"). Here each step
// is taken by both settings on copies of the same state and workspace (the warm start's memory of
// the last step included), in alternating order, and the run continues from setting B's (the
// trajectory), so both settings solve the same problems from the same guesses.
//
//   bench_paired SCENE [--steps K] [--a PATCH] [--b PATCH] [--per-step]
//
// PATCH is a JSON merge patch (RFC 7386) on the scene file, e.g. '{"solver": {"diagnostics":
// {"max_ray_restarts": 0}}}'; each setting is validated like any scene file. Per step and in total:
// the solve stage's seconds (wall, as `steps.jsonl` reports it), the whole step's wall seconds
// (with the discarded attempts of a split or retaken step, which no stage holds), Lemke pivots,
// failed solves, split projections left unsolved, the deepest penetration, and whether the two
// steps' certified solutions moved the bodies differently. A scenario program: `make bench` skips
// it.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "exactsim/io/scene_json.h"
#include "exactsim/math/error.h"
#include "exactsim/stepping/adaptive_step.h"

namespace exactsim::bench {
namespace {

Scene patched_scene(const nlohmann::json& doc, const std::string& patch, const std::string& path,
                    const char* which) {
  nlohmann::json d = doc;
  try {
    d.merge_patch(nlohmann::json::parse(patch));
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(std::string("--") + which + ": not JSON: " + e.what());
  }
  try {
    return parse_scene(d, path);
  } catch (const InputError& e) {
    throw InputError(std::string("--") + which + ": " + e.what());
  }
}

struct Side {
  double solve_seconds = 0;
  double step_seconds = 0;       // advance(), wall
  double integrate_seconds = 0;  // the velocities, positions and the split projection
  long pivots = 0;
  int failed = 0;
  int projections_unsolved = 0;  // split projections that ran and did not certify
  double max_penetration = 0;    // m, the watchdog's deepest pair after a step
};

int pivots(const StepReport& r) { return r.solver_called ? r.solver.pivots : 0; }
bool failed(const StepReport& r) { return r.status == StepStatus::kSolverFailed; }

void add(const StepReport& r, Side& s) {
  s.solve_seconds += r.seconds.solve;
  s.integrate_seconds += r.seconds.integrate;
  s.pivots += pivots(r);
  s.failed += failed(r);
  s.projections_unsolved += r.projection_ran && !r.projection_solved;
  s.max_penetration = std::max(s.max_penetration, r.max_penetration);
}

}  // namespace
}  // namespace exactsim::bench

int main(int argc, char** argv) {
  using namespace exactsim;
  using namespace exactsim::bench;
  CLI::App app{"Two settings of a scene stepped on the same states (docs/performance.md)"};
  std::string path, patch_a = "{}", patch_b = "{}";
  long steps = 0;
  bool per_step = false;
  app.add_option("scene", path, "scene file")->required()->check(CLI::ExistingFile);
  app.add_option("--steps", steps, "steps to run (default: the scene's duration)")
      ->check(CLI::PositiveNumber);
  app.add_option("--a", patch_a, "JSON merge patch of setting A (stepped on copies)");
  app.add_option("--b", patch_b, "JSON merge patch of setting B (the trajectory)");
  app.add_flag("--per-step", per_step, "a line per step");
  CLI11_PARSE(app, argc, argv);
  try {
    std::ifstream in(path);
    const nlohmann::json doc = nlohmann::json::parse(in);
    const Scene a = patched_scene(doc, patch_a, path, "a");
    const Scene b = patched_scene(doc, patch_b, path, "b");
    if (a.step != b.step) throw InputError("--a, --b: the settings must keep the time step");
    if (steps == 0) steps = b.step_count();
    State state = b.initial;
    Workspace ws;
    Side ta, tb;
    long fewer = 0, more = 0, differ = 0;
    std::printf("bench_paired: %s, %ld steps of h = %g s; A = %s, B = %s (B is the trajectory)\n",
                path.c_str(), steps, b.step, patch_a.c_str(), patch_b.c_str());
    if (per_step)
      std::printf("step  lcp  solve A (s)  solve B (s)  pivots A  pivots B  failed A/B\n");
    for (long k = 0; k < steps; ++k) {
      // Both settings step copies of the state and workspace (a copied workspace's buffers have
      // no spare capacity), and every other step B goes first, so that neither always finds the
      // caches warmed by the other's solve of the same problem: with A alone on copies and always
      // first, identical settings measured B / A = 0.966–0.969.
      State copy = state, next = state;
      Workspace scratch = ws, next_ws = ws;
      StepReport ra, rb;
      const auto timed = [](Side& side, auto&& take) {
        const auto start = std::chrono::steady_clock::now();
        take();
        side.step_seconds +=
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      };
      const auto step_a = [&] {
        timed(ta, [&] { ra = advance(a.world, copy, scratch, a.step, k); });
      };
      const auto step_b = [&] {
        timed(tb, [&] { rb = advance(b.world, next, next_ws, b.step, k); });
      };
      if (k % 2 == 0) {
        step_a();
        step_b();
      } else {
        step_b();
        step_a();
      }
      state = std::move(next);
      ws = std::move(next_ws);
      add(ra, ta);
      add(rb, tb);
      const int pa = pivots(ra), pb = pivots(rb);
      fewer += pb < pa;
      more += pb > pa;
      differ += (copy.q - state.q).lpNorm<Eigen::Infinity>() > 0;
      if (per_step)
        std::printf("%4ld %5d %12.4f %12.4f %9d %9d  %d/%d\n", k, rb.lcp_size, ra.seconds.solve,
                    rb.seconds.solve, pa, pb, failed(ra), failed(rb));
    }
    const auto ratio = [](double b, double a) { return a > 0 ? b / a : 1.0; };
    std::printf(
        "\n| setting | solve (s) | integrate (s) | step, wall (s) | Lemke pivots | failed solves | "
        "unsolved projections | max penetration (m) |"
        "\n|---|---|---|---|---|---|---|---|\n| A | %.3f | %.3f | %.3f | %ld | %d | %d | %.3g |\n"
        "| B | %.3f | %.3f | %.3f | %ld | %d | %d | %.3g |\n\n"
        "B / A solve time %.3f, integrate time %.3f, step wall time %.3f; steps with fewer pivots "
        "in B %ld, more %ld; steps whose positions differ after the step %ld of %ld\n",
        ta.solve_seconds, ta.integrate_seconds, ta.step_seconds, ta.pivots, ta.failed,
        ta.projections_unsolved, ta.max_penetration, tb.solve_seconds, tb.integrate_seconds,
        tb.step_seconds, tb.pivots, tb.failed, tb.projections_unsolved, tb.max_penetration,
        ratio(tb.solve_seconds, ta.solve_seconds),
        ratio(tb.integrate_seconds, ta.integrate_seconds), ratio(tb.step_seconds, ta.step_seconds),
        fewer, more, differ, steps);
  } catch (const InputError& e) {
    std::fprintf(stderr, "bench_paired: error: %s\n", e.what());
    return 2;
  } catch (const nlohmann::json::exception& e) {
    std::fprintf(stderr, "bench_paired: error: %s: %s\n", path.c_str(), e.what());
    return 2;
  }
  return 0;
}
