// The World: bodies, shapes and model options, owned as flat arrays (design.md).
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "exactsim/collision/vertex_edge.h"
#include "exactsim/contact/peg.h"
#include "exactsim/dynamics/body.h"
#include "exactsim/dynamics/integrate.h"
#include "exactsim/geometry/polygon.h"
#include "exactsim/geometry/polyhedron.h"
#include "exactsim/solvers/lcp.h"

namespace exactsim {

enum class ContactModel {
  kStandard,    // every detected feature pair is a unilateral constraint (spec peg.md §2)
  kPeg,         // polytopal exact geometry: U, I and X constraints (spec peg.md §3)
  kCorrective,  // the archived "Corrective" baseline: one contact per overlapping pair, found
                // by the separating-axis test after penetration (spec peg.md §5.1 (ii), §5.2)
};

const char* to_string(ContactModel m);

struct ContactOptions {
  ContactModel model = ContactModel::kStandard;
  Real friction = 0;  // Coulomb μ of a pair without body-level values (pair rule: √(μ_A μ_B))
  int friction_directions = 4;  // k of the polyhedral cone in 3D (2D always uses 2: ±t̂)
  // Proximity distance ε in m. NaN selects the spec default max(h/2, 0.8 mm); in 2D a feature
  // pair is also detected when it is within ε in the configuration predicted by h ν (spec §3.5),
  // in 3D ε is widened per pair by the relative displacement bound h(|v_rel| + |ω| r) (spec
  // §6.1.11).
  Real epsilon = std::numeric_limits<Real>::quiet_NaN();
  Real epsilon_edge = std::numeric_limits<Real>::quiet_NaN();  // 3D edge–edge ε_ee; NaN = ε
  bool predict_motion = true;  // use the predicted configuration / displacement bound above
  // Cap of the ψ/h stabilisation (spec §6.1 item 10): a contact that starts the step ψ deep asks
  // for separation speed −ψ/h, which for a spawned or deeply overlapping body is a violent push.
  // With a finite cap (m/s) the rows use max(ψ/h, −cap) instead. Off (+∞) by default, as in the
  // paper.
  Real max_stabilisation_speed = std::numeric_limits<Real>::infinity();
  // 2D: kSwept (default) catches vertices that cross the ±ε band within one step; the authors'
  // kCurrentOrPredicted misses them (spec §6.1 item 11) and is kept for paper-literal runs.
  ProximityRule proximity = ProximityRule::kSwept;
  PegOptions peg;  // used with ContactModel::kPeg
};

struct StepOptions {
  RotationUpdate rotation = RotationUpdate::kExponential;
  bool continue_on_solver_failure = false;  // otherwise a failed solve ends the run (non-zero exit)
  bool measure_overlap = true;              // exact overlap of all pairs at the end of every step
};

struct World {
  int dimension = 2;
  Vec3 gravity = Vec3(0, -9.81, 0);  // m/s² (2D uses x, y)
  std::vector<Body> bodies;
  std::vector<ConvexPolygon> polygons;      // shapes of 2D bodies, by Body::shape
  std::vector<ConvexPolyhedron> polyhedra;  // shapes of 3D bodies, by Body::shape
  ContactOptions contact;
  SolverOptions solver;
  StepOptions stepping;

  int body_count() const { return static_cast<int>(bodies.size()); }
};

// A complete simulation description: what a scene file holds.
struct Scene {
  std::string name;
  World world;
  State initial;
  Real step = 0.005;    // h, s
  Real duration = 1.0;  // s; the run takes round(duration / step) steps
  int step_count() const;
};

}  // namespace exactsim
