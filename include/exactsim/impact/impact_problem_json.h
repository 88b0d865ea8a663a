// Stand-alone impact problems as JSON (docs/impact-problem.md).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "exactsim/impact/impact_problem.h"
#include "exactsim/impact/impact_result.h"

namespace exactsim {

// Which solver a problem file asks for ("options.restitution_model").
enum class RestitutionModel { kPoisson, kNewton };

struct ImpactProblemFile {
  ImpactProblem problem;
  RestitutionModel model = RestitutionModel::kPoisson;
};

// Parses and checks a problem. Every error is an InputError whose message starts with the JSON
// path of the offending field, e.g. `contacts[1].restitution.e_min: must lie in [0, 1], got 1.5`.
// Unknown fields are errors.
ImpactProblemFile impact_problem_from_json(const nlohmann::json& j);

// Reads a file (InputError naming the file on I/O or JSON syntax errors).
ImpactProblemFile read_impact_problem(const std::string& path);

// The problem as JSON (format "exactsim-impact", version 1); inverse of impact_problem_from_json.
nlohmann::json impact_problem_to_json(const ImpactProblem& problem,
                                      RestitutionModel model = RestitutionModel::kPoisson);

// The result object of docs/impact-problem.md (plus "model" and "converged"); the log is
// included when the result has one.
nlohmann::json impact_result_to_json(const ImpactResult& result);

// Solves with the model the file asks for.
ImpactResult solve_impact_problem(const ImpactProblemFile& file);

}  // namespace exactsim
