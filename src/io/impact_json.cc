#include "impact_json.h"

#include <string>

#include "exactsim/io/scene_limits.h"
#include "exactsim/io/scene_rules.h"

namespace exactsim::io {

void read_impact_law(const JsonCursor& c, RestitutionLaw& law, ImpactOptions& plus) {
  if (c.has("restitution")) law.e_min = c.at("restitution").rule(rules::restitution);
  if (c.has("capture_velocity"))
    law.v_capture = c.at("capture_velocity").in_range(0, limits::kMaxSpeed, "m/s");
  // The plastic speed defaults to the capture speed: e = e_min at every speed above capture.
  law.v_plastic = law.v_capture;
  if (c.has("plastic_velocity")) {
    const JsonCursor p = c.at("plastic_velocity");
    law.v_plastic = p.in_range(0, limits::kMaxSpeed, "m/s");
    if (law.v_plastic < law.v_capture)
      p.fail("must not be below capture_velocity (" + std::to_string(law.v_capture) + " m/s)");
  }
  if (c.has("transition_velocity"))
    plus.v_transition = c.at("transition_velocity").in_range(1e-9, limits::kMaxSpeed, "m/s");
  if (c.has("theta_max")) plus.theta_max = c.at("theta_max").in_range(1e-6, 1.5, "rad");
  if (c.has("induced")) {
    const JsonCursor m = c.at("induced");
    const std::string v = m.string();
    if (v == "sequential")
      plus.induced_impacts = InducedImpacts::kRounds;
    else if (v == "simultaneous")
      plus.induced_impacts = InducedImpacts::kSimultaneous;
    else if (v == "mixed")
      plus.induced_impacts = InducedImpacts::kMixed;
    else
      m.fail("unknown induced-impact model '" + v +
             "' (expected \"sequential\", \"simultaneous\" or \"mixed\")");
  }
  if (c.has("mixed_rounds"))
    plus.mixed_rounds = c.at("mixed_rounds").integer(1, plus.max_rounds - 1);
}

}  // namespace exactsim::io
