// The built-in scenarios by name, as `exactsim run --scenario` and `exactsim sweep` build them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "exactsim/stepping/world.h"

namespace exactsim {

// A built-in scenario and its parameters: pour2d (archived body sets), pour2d-random, pour3d
// (icosahedra), pour3d-random, hull-pour2d, hull-pour3d (docs/robustness.md "Stress campaign"),
// and the structures arch3d, jenga3d, cube-pyramid3d, dominoes3d, tight-bin3d
// (experiments/structures.h; PEG, h = 5 ms, 2 s unless given; no number of bodies).
struct ScenarioSpec {
  std::string name;
  char set = 'a';                      // pour2d's archived body set a…j
  std::uint64_t seed = 1;              // the random scenarios'
  int bodies = -1;                     // −1: the scenario's default
  std::optional<Real> step, duration;  // s; the scenario's defaults when absent
};

// "pour2d, pour2d-random, …, tight-bin3d", for messages.
extern const char* const kScenarioNames;
bool is_scenario(const std::string& name);
// The random scenarios (pour2d-random, pour3d-random, hull-pour2d, hull-pour3d) take a seed.
bool scenario_takes_seed(const std::string& name);
// Only pour2d has archived body sets.
bool scenario_has_sets(const std::string& name);

// The scenario's scene, its contact model as the builder sets it (standard for the pours, PEG
// for the hull pours). `data_dir` holds the archived body sets (pour2d). InputError for an
// unknown name or a set outside a…j.
Scene scenario_scene(const ScenarioSpec& spec, const std::string& data_dir);

}  // namespace exactsim
