// exactsim: the one header for users (docs/api.md). Scenes from files or built in code, a
// validated Simulation that keeps its own time, contact results, the PLUS impact solver and the
// event-driven simulation.
#pragma once

#include "exactsim/api/body_spec.h"        // make_scene, add_body, BodySpec, Shape
#include "exactsim/api/contact_results.h"  // ContactResult, contact_results
#include "exactsim/api/simulation.h"       // Simulation
#include "exactsim/api/validate.h"         // validate_world, validate_state
#include "exactsim/api/version.h"          // version()
#include "exactsim/geometry/compound.h"    // compound_mass_properties
#include "exactsim/geometry/polygon.h"  // make_box(Vec2), make_regular_polygon, polygon_from_points
#include "exactsim/geometry/polyhedron.h"  // make_box(Vec3), make_icosahedron, polyhedron_from_points
#include "exactsim/impact/impact_problem_json.h"  // read_impact_problem, solve_impact_problem
#include "exactsim/io/event_scene_json.h"         // read_event_scene_file, event_simulation
#include "exactsim/io/mesh_file.h"                // read_mesh_shape, read_mesh_parts
#include "exactsim/io/run.h"                      // run_scene, report_to_json
#include "exactsim/io/scene_json.h"               // read_scene_file, parse_scene, scene_to_json
#include "exactsim/math/error.h"                  // InputError
#include "exactsim/metrics/energy.h"              // kinetic_energy, potential_energy
#include "exactsim/stepping/step_report.h"        // StepReport, StepStatus
