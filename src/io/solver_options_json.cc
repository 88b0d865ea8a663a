#include "solver_options_json.h"

#include <iterator>
#include <vector>

#include "exactsim/io/scene_limits.h"

namespace exactsim::io {

namespace {

// Relative tolerances lie in (0, 1] (docs/input-validation.md): above 1 every answer passes.
Real relative_tolerance(const JsonCursor& t) {
  const Real x = t.positive();
  if (x > limits::kMaxSolverTolerance) t.in_range(0, limits::kMaxSolverTolerance, "");
  return x;
}

// SolverOptions::Diagnostics's keys, under "diagnostics" or at the top of "solver".
constexpr const char* kDiagnosticKeys[] = {"pivot_tolerance",
                                           "fb_stall_window",
                                           "polish",
                                           "revised_min_size",
                                           "revised_sparse_density",
                                           "max_ray_restarts",
                                           "lexicographic_columns",
                                           "working_set_parts",
                                           "first_round_from_last_answer",
                                           "rescue_from_last_answer",
                                           "interior_point_best",
                                           "working_set_margin",
                                           "retaken_pivots_per_unknown",
                                           "projection_interior_min_rows",
                                           "approach_interior_min_rows",
                                           "arc_length_min_rows",
                                           "slacks_on_demand"};

// The fenced-off constants a scene may set (SolverOptions::Diagnostics), read from `c`: the
// "diagnostics" object, or "solver" itself where a file gives them there.
void read_diagnostics(const JsonCursor& c, SolverOptions::Diagnostics& d) {
  if (c.has("pivot_tolerance")) d.pivot_tolerance = relative_tolerance(c.at("pivot_tolerance"));
  if (c.has("fb_stall_window")) d.fb_stall_window = c.at("fb_stall_window").integer(0, 100000);
  if (c.has("polish")) d.polish = c.at("polish").boolean();
  if (c.has("revised_min_size"))
    d.revised_min_size = c.at("revised_min_size").integer(0, 1000000000);
  if (c.has("revised_sparse_density"))
    d.revised_sparse_density = c.at("revised_sparse_density").in_range(0, 1, "");
  if (c.has("max_ray_restarts")) d.max_ray_restarts = c.at("max_ray_restarts").integer(0, 1000);
  if (c.has("lexicographic_columns"))
    d.lexicographic_columns = c.at("lexicographic_columns").boolean();
  if (c.has("working_set_parts")) d.working_set_parts = c.at("working_set_parts").boolean();
  if (c.has("first_round_from_last_answer"))
    d.first_round_from_last_answer = c.at("first_round_from_last_answer").boolean();
  if (c.has("rescue_from_last_answer"))
    d.rescue_from_last_answer = c.at("rescue_from_last_answer").boolean();
  if (c.has("interior_point_best")) d.interior_point_best = c.at("interior_point_best").boolean();
  if (c.has("working_set_margin"))
    d.working_set_margin = c.at("working_set_margin").in_range(0, 1e6, "");
  if (c.has("retaken_pivots_per_unknown"))
    d.retaken_pivots_per_unknown = c.at("retaken_pivots_per_unknown").in_range(0, 100000, "");
  if (c.has("projection_interior_min_rows"))
    d.projection_interior_min_rows = c.at("projection_interior_min_rows").integer(0, 1000000000);
  if (c.has("approach_interior_min_rows"))
    d.approach_interior_min_rows = c.at("approach_interior_min_rows").integer(0, 1000000000);
  if (c.has("arc_length_min_rows"))
    d.arc_length_min_rows = c.at("arc_length_min_rows").integer(0, 1000000000);
  if (c.has("slacks_on_demand")) d.slacks_on_demand = c.at("slacks_on_demand").integer(0, 1);
}

}  // namespace

void read_solver_options(const JsonCursor& c, SolverOptions& o) {
  // The diagnostics are read here too (docs/scene-format.md "solver").
  std::vector<const char*> keys = {"tolerance",
                                   "max_pivots_per_unknown",
                                   "fb_max_iterations",
                                   "fallback",
                                   "regularisation_path_retry",
                                   "exact_retry",
                                   "exact_max_size",
                                   "diagnostics"};
  keys.insert(keys.end(), std::begin(kDiagnosticKeys), std::end(kDiagnosticKeys));
  c.expect_object(keys);
  if (c.has("tolerance")) o.tolerance = relative_tolerance(c.at("tolerance"));
  if (c.has("max_pivots_per_unknown"))
    o.max_pivots_per_unknown = c.at("max_pivots_per_unknown").integer(1, 100000);
  if (c.has("fb_max_iterations"))
    o.fb_max_iterations = c.at("fb_max_iterations").integer(1, 100000);
  if (c.has("fallback")) o.fallback = c.at("fallback").boolean();
  if (c.has("regularisation_path_retry"))
    o.regularisation_path_retry = c.at("regularisation_path_retry").boolean();
  if (c.has("exact_retry")) o.exact_retry = c.at("exact_retry").boolean();
  // The exact retry's cost grows steeply with n (docs/solvers.md "Exact Lemke"): up to 400.
  if (c.has("exact_max_size")) o.exact_max_size = c.at("exact_max_size").integer(0, 400);
  read_diagnostics(c, o.diagnostics);
  if (!c.has("diagnostics")) return;
  const JsonCursor d = c.at("diagnostics");
  d.expect_object(kDiagnosticKeys);
  for (const auto& [key, value] : d.value().items())
    if (c.has(key.c_str())) d.at(key.c_str()).fail("also given in " + c.path() + "; give it once");
  read_diagnostics(d, o.diagnostics);
}

nlohmann::json solver_options_to_json(const SolverOptions& o) {
  nlohmann::json out = {{"tolerance", o.tolerance},
                        {"max_pivots_per_unknown", o.max_pivots_per_unknown},
                        {"fb_max_iterations", o.fb_max_iterations},
                        {"fallback", o.fallback},
                        {"regularisation_path_retry", o.regularisation_path_retry},
                        {"exact_retry", o.exact_retry},
                        {"exact_max_size", o.exact_max_size}};
  // The diagnostics only where one differs from its default.
  const SolverOptions::Diagnostics& d = o.diagnostics;
  const SolverOptions::Diagnostics nominal;
  nlohmann::json diagnostics = nlohmann::json::object();
  const auto put = [&](const char* key, auto value, auto default_value) {
    if (value != default_value) diagnostics[key] = value;
  };
  put("pivot_tolerance", d.pivot_tolerance, nominal.pivot_tolerance);
  put("fb_stall_window", d.fb_stall_window, nominal.fb_stall_window);
  put("polish", d.polish, nominal.polish);
  put("revised_min_size", d.revised_min_size, nominal.revised_min_size);
  put("revised_sparse_density", d.revised_sparse_density, nominal.revised_sparse_density);
  put("max_ray_restarts", d.max_ray_restarts, nominal.max_ray_restarts);
  put("lexicographic_columns", d.lexicographic_columns, nominal.lexicographic_columns);
  put("working_set_parts", d.working_set_parts, nominal.working_set_parts);
  put("first_round_from_last_answer", d.first_round_from_last_answer,
      nominal.first_round_from_last_answer);
  put("rescue_from_last_answer", d.rescue_from_last_answer, nominal.rescue_from_last_answer);
  put("interior_point_best", d.interior_point_best, nominal.interior_point_best);
  put("working_set_margin", d.working_set_margin, nominal.working_set_margin);
  put("retaken_pivots_per_unknown", d.retaken_pivots_per_unknown,
      nominal.retaken_pivots_per_unknown);
  put("projection_interior_min_rows", d.projection_interior_min_rows,
      nominal.projection_interior_min_rows);
  put("approach_interior_min_rows", d.approach_interior_min_rows,
      nominal.approach_interior_min_rows);
  put("arc_length_min_rows", d.arc_length_min_rows, nominal.arc_length_min_rows);
  put("slacks_on_demand", d.slacks_on_demand, nominal.slacks_on_demand);
  if (!diagnostics.empty()) out["diagnostics"] = diagnostics;
  return out;
}

}  // namespace exactsim::io
