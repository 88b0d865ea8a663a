// The rules a scene's values meet, whoever builds the scene (docs/input-validation.md): the scene
// reader (io/scene_json.h), add_body and Simulation (api/validate.h) and the Python module all
// check through these functions, so that the same value gets the same reason everywhere. Each
// function throws InputError with the reason alone, e.g. "must lie in [0.001, 1e6] kg/m^3, got
// 1e-9 (docs/input-validation.md)"; the caller puts the place in front: "FILE: bodies[1].density:
// " from a file, "bodies[1] (box).density: " from code.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>

#include "exactsim/io/scene_limits.h"
#include "exactsim/stepping/world.h"

namespace exactsim::rules {

// A number in a reason, written as JSON and Python write it (-1.0, 0.25, 1e+300, nan).
std::string shown(Real x);

// x finite and within [lo, hi]; `unit` ("m", "kg", "" for none) follows the range. The sign
// comes first: "must be > 0, got -1.0" when lo > 0, "must be >= 0, got ..." when lo == 0.
Real in_range(Real x, Real lo, Real hi, const char* unit);
// A whole number within [lo, hi].
int whole(Real x, int lo, int hi);
// A finite number (a component of a velocity).
Real finite(Real x);
// A norm (speed, gravity) at most max: "speed 2e5 m/s exceeds the accepted maximum of ...".
void norm_at_most(Real norm, Real max, const char* what, const char* unit);
// A name of a scene or body (limits::kMaxNameLength; no control characters, none of , " ' \ and
// no space at either end): names reach CSV files and terminals unescaped.
void name(const std::string& s);
// The unit quaternion (w, x, y, z) stands for: finite, not all zero; kept as given when of unit
// norm to round-off (so a written scene re-reads bit for bit), else scaled by its largest
// component and normalised (no square overflows or underflows).
Quat orientation(Real w, Real x, Real y, Real z);

// Mass properties. `r` is the largest distance of a shape vertex from the body origin.
inline constexpr const char* kVertexReach = "the largest vertex distance from the origin";
Real density(Real rho, int dimension);
Real mass(Real m);
// The mass a density gives.
void mass_from_density(Real m);
// A moment (planar, or each principal moment) within [kMinInertiaRatio, kMaxInertiaRatio] m r².
void inertia_ratio(Real moment, Real m, Real r, const char* reach = kVertexReach);
// A planar moment: > 0, within the ratio range.
void planar_inertia(Real j, Real m, Real r);
// A 3D inertia: symmetric, positive definite, principal moments that meet the triangle inequality
// (each at most the sum of the other two, as for every rigid body), within the ratio range.
void inertia(const Mat3& j, Real m, Real r, const char* reach = kVertexReach);

// A body's other values.
Real friction(Real mu);
Real restitution(Real e);  // a coefficient of restitution, 0…1
Real spawn_time(Real t);
Real coordinate(Real x);               // one component of a position or vertex, m
Real angle(Real theta);                // rad, 2D
Real angular_velocity_2d(Real omega);  // rad/s, 2D
void speed(Real norm);
void angular_speed(Real norm);
void static_at_rest(bool is_static, bool moves);
// A body is static or kinematic (docs/scene-format.md), not both.
void static_or_kinematic(bool is_static, bool kinematic);
// Forces and torques do not act on a kinematic body: it moves with its set velocity.
void not_kinematic(bool kinematic);

// Shapes: the number of points given, the built shape's size (largest side of its bounding box)
// and fullness (area or volume against size^d).
void point_count(std::size_t n);
void extent(std::span<const Vec2> vertices, Real area);
void extent(std::span<const Vec3> vertices, Real volume);
// A built shape: its vertex count and extent.
void shape(const ConvexPolygon& p);
void shape(const ConvexPolyhedron& p);
void shape(const Sphere& s);  // radius 1e-5 … 1e5 m, center within the coordinate limit
void shape(const SpatialPart& p);
// The parts of a compound body: 1 to kMaxParts, each a valid shape, meeting only at their
// boundaries (no two intersect by more than kMaxPartOverlapFraction of the smaller).
void parts(std::span<const ConvexPolygon> parts);
void parts(std::span<const ConvexPolyhedron> parts);
void parts(std::span<const SpatialPart> parts);  // polyhedra and spheres

// The scene: step, duration and their ratio; gravity; contact options; body count.
Real step(Real h);
Real duration(Real t);
void step_count(Real h, Real duration);        // at most kMaxSteps steps (the field: time)
void step_in_duration(Real h, Real duration);  // h <= a non-zero duration (time.step)
void gravity(const Vec3& g);
int friction_directions(Real k);
Real contact_distance(Real eps);  // ε, ε_ee
Real applicability(Real theta);   // the standard model's min_applicability: −1 … 1
int threads(Real n);
void body_count(std::size_t n);

// A joint of world w (docs/joints.md): two different bodies of w, or one and the world, not both
// unable to move; a ball joint in 3D only; a unit hinge axis.
void joint(const World& w, const Joint& j);
// A joint's axis: required (and nonzero) for a 3D revolute joint, absent on any other.
void joint_axis(int dimension, JointType type, const Vec3* axis);

// Bodies present at t = 0 that start deeply inside each other (find_initial_overlaps): the body
// to blame (the later of the first pair) and the reason, naming the pairs; nothing when none.
struct Blame {
  int body = -1;
  std::string reason;
};
std::optional<Blame> initial_overlap(const World& world, const State& initial);

}  // namespace exactsim::rules
