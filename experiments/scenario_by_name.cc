#include "experiments/scenario_by_name.h"

#include "exactsim/math/error.h"
#include "experiments/scenarios.h"
#include "experiments/stress_scenes.h"
#include "experiments/structures.h"

namespace exactsim {

const char* const kScenarioNames =
    "pour2d, pour2d-random, pour3d, pour3d-random, hull-pour2d, hull-pour3d, arch3d, jenga3d, "
    "cube-pyramid3d, dominoes3d, tight-bin3d";

bool is_scenario(const std::string& name) {
  return name == "pour2d" || name == "pour3d" || scenario_takes_seed(name) ||
         structure_builder(name) != nullptr;
}

bool scenario_takes_seed(const std::string& name) {
  return name == "pour2d-random" || name == "pour3d-random" || name == "hull-pour2d" ||
         name == "hull-pour3d";
}

bool scenario_has_sets(const std::string& name) { return name == "pour2d"; }

namespace {

template <class Options>
Options with_spec(Options o, const ScenarioSpec& s) {
  if (s.step) o.step = *s.step;
  if (s.duration) o.duration = *s.duration;
  if (s.bodies >= 0) o.bodies = s.bodies;
  return o;
}

}  // namespace

Scene scenario_scene(const ScenarioSpec& s, const std::string& data_dir) {
  if (s.name == "pour2d") {
    if (s.set < 'a' || s.set > 'j')
      throw InputError(std::string("pour2d: the body set must be one of a…j, got '") + s.set + "'");
    return pour2d_archived(data_dir + "/peg2d_pouring_body_sets.json", s.set,
                           with_spec(Pour2dOptions{}, s));
  }
  if (s.name == "pour2d-random") return pour2d_random(s.seed, with_spec(Pour2dOptions{}, s));
  if (s.name == "pour3d") return pour3d_icosahedra(with_spec(Pour3dOptions{}, s));
  if (s.name == "pour3d-random") return pour3d_random(s.seed, with_spec(Pour3dOptions{}, s));
  if (s.name == "hull-pour2d") return hull_pour2d(s.seed, with_spec(HullPourOptions{}, s));
  if (s.name == "hull-pour3d") return hull_pour3d(s.seed, with_spec(HullPourOptions{}, s));
  if (const StructureBuilder build = structure_builder(s.name)) {
    if (s.bodies >= 0)
      throw InputError(s.name +
                       ": a structure has a fixed set of bodies (no --bodies, scenario.bodies)");
    StructureOptions o;
    if (s.step) o.step = *s.step;
    if (s.duration) o.duration = *s.duration;
    return build(o);
  }
  throw InputError("unknown scenario '" + s.name + "' (expected " + kScenarioNames + ")");
}

}  // namespace exactsim
