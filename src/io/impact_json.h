// contact.impact's restitution law and PLUS options (docs/impacts.md "Using it"), read alike by
// the time stepper's scene reader and the event-driven one.
#pragma once

#include "exactsim/impact/impact_problem.h"
#include "exactsim/impact/restitution.h"
#include "json_cursor.h"

namespace exactsim::io {

// The fields restitution (e_min), capture_velocity, plastic_velocity (default: the capture
// speed), transition_velocity, theta_max, induced ("sequential", "simultaneous" or "mixed") and
// mixed_rounds of `c`,
// where present, into `law` and `plus`. The caller checks the object's field names.
void read_impact_law(const JsonCursor& c, RestitutionLaw& law, ImpactOptions& plus);

}  // namespace exactsim::io
