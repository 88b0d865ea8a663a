#include "solver_options_json.h"

#include "exactsim/io/scene_limits.h"

namespace exactsim::io {

void read_solver_options(const JsonCursor& c, SolverOptions& o) {
  c.expect_object({"tolerance", "pivot_tolerance", "max_pivots_per_unknown", "fallback",
                   "fb_max_iterations", "fb_stall_window", "polish", "exact_retry",
                   "exact_max_size", "regularisation_path_retry", "revised_min_size",
                   "revised_sparse_density", "max_ray_restarts"});
  // Relative tolerances lie in (0, 1] (docs/input-validation.md): above 1 every answer passes.
  auto tolerance = [](const JsonCursor& t) {
    const Real x = t.positive();
    if (x > limits::kMaxSolverTolerance) t.in_range(0, limits::kMaxSolverTolerance, "");
    return x;
  };
  if (c.has("tolerance")) o.tolerance = tolerance(c.at("tolerance"));
  if (c.has("pivot_tolerance")) o.pivot_tolerance = tolerance(c.at("pivot_tolerance"));
  if (c.has("max_pivots_per_unknown"))
    o.max_pivots_per_unknown = c.at("max_pivots_per_unknown").integer(1, 100000);
  if (c.has("fallback")) o.fallback = c.at("fallback").boolean();
  if (c.has("fb_max_iterations"))
    o.fb_max_iterations = c.at("fb_max_iterations").integer(1, 100000);
  if (c.has("fb_stall_window")) o.fb_stall_window = c.at("fb_stall_window").integer(0, 100000);
  if (c.has("polish")) o.polish = c.at("polish").boolean();
  if (c.has("exact_retry")) o.exact_retry = c.at("exact_retry").boolean();
  // The exact retry's cost grows steeply with n (docs/solvers.md "Exact Lemke"): up to 400.
  if (c.has("exact_max_size")) o.exact_max_size = c.at("exact_max_size").integer(0, 400);
  if (c.has("regularisation_path_retry"))
    o.regularisation_path_retry = c.at("regularisation_path_retry").boolean();
  if (c.has("revised_min_size"))
    o.revised_min_size = c.at("revised_min_size").integer(0, 1000000000);
  if (c.has("revised_sparse_density"))
    o.revised_sparse_density = c.at("revised_sparse_density").in_range(0, 1, "");
  if (c.has("max_ray_restarts")) o.max_ray_restarts = c.at("max_ray_restarts").integer(0, 1000);
}

nlohmann::json solver_options_to_json(const SolverOptions& o) {
  return {{"tolerance", o.tolerance},
          {"pivot_tolerance", o.pivot_tolerance},
          {"max_pivots_per_unknown", o.max_pivots_per_unknown},
          {"fallback", o.fallback},
          {"fb_max_iterations", o.fb_max_iterations},
          {"fb_stall_window", o.fb_stall_window},
          {"polish", o.polish},
          {"exact_retry", o.exact_retry},
          {"exact_max_size", o.exact_max_size},
          {"regularisation_path_retry", o.regularisation_path_retry},
          {"revised_min_size", o.revised_min_size},
          {"revised_sparse_density", o.revised_sparse_density},
          {"max_ray_restarts", o.max_ray_restarts}};
}

}  // namespace exactsim::io
