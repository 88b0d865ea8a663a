// The scene's optional "solver" object (docs/scene-format.md).
#pragma once

#include <nlohmann/json.hpp>

#include "exactsim/solvers/lcp.h"
#include "json_cursor.h"

namespace exactsim::io {

void read_solver_options(const JsonCursor& c, SolverOptions& o);
nlohmann::json solver_options_to_json(const SolverOptions& o);

}  // namespace exactsim::io
