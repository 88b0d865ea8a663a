// Building a scene in code: one body at a time from a shape, density or mass, pose and velocity
// (docs/api.md). The same rules as a scene file's body (docs/scene-format.md): the shape is given
// in its own frame, `position` places that frame, and the body origin moves to the centroid so
// that the shape stays where it was put.
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "exactsim/geometry/half_space.h"
#include "exactsim/geometry/polygon.h"
#include "exactsim/geometry/polyhedron.h"
#include "exactsim/geometry/sphere.h"
#include "exactsim/math/types.h"
#include "exactsim/stepping/world.h"

namespace exactsim {

// A body's shape: a convex polygon (2D scene), a convex polyhedron, a sphere or a half-space (3D
// scene). Made with make_box(Vec2) / make_regular_polygon / polygon_from_points (2D) or
// make_box(Vec3) / make_icosahedron / polyhedron_from_points / Sphere{radius} /
// HalfSpace{normal, offset} (3D), all in geometry/. A half-space is a static body's one shape.
using Shape = std::variant<ConvexPolygon, ConvexPolyhedron, Sphere, HalfSpace>;

// Up to three coordinates: {x, y} in 2D, {x, y, z} in 3D (z = 0 in 2D). Converts from Vec2/Vec3.
struct Coordinates {
  Real x = 0, y = 0, z = 0;
  Coordinates(Real x_ = 0, Real y_ = 0, Real z_ = 0) : x(x_), y(y_), z(z_) {}
  Coordinates(const Vec2& v) : x(v.x()), y(v.y()) {}  // NOLINT: implicit by design
  Coordinates(const Vec3& v) : x(v.x()), y(v.y()), z(v.z()) {}
  Vec3 vec3() const { return Vec3(x, y, z); }
};

// One body, written with designated initializers, e.g.
//   add_body(scene, {.name = "box", .shape = make_box(Vec2(0.2, 0.2)), .density = 100,
//                    .position = {0, 0.1}});
// Give `density` (kg/m² in 2D, kg/m³ in 3D) or `mass` (kg), not both; a dynamic body needs one
// (a static or kinematic body does not).
// With `mass` alone the inertia is the shape's at uniform density; give `planar_inertia` (2D,
// kg·m² about the centroid) or `inertia` (3D, body axes) to override it. Every value meets the
// scene format's rules (io/scene_rules.h, docs/input-validation.md), whichever way it is given.
struct BodySpec {
  std::string name{};  // unique; empty: "body<index>"
  Shape shape{};
  // A compound body (docs/api.md "Compound bodies"): its convex parts, welded, in one frame (as
  // `shape`'s), meeting only at their boundaries; mass properties are the union's. Give either
  // `shape` or `parts`; in 3D a part may be a sphere.
  std::vector<Shape> parts{};
  bool is_static = false;
  // Moves with `velocity` / `omega` / `angular_velocity`, kept as set across steps (change it
  // with Simulation::set_velocity), pushes dynamic bodies and is never pushed; needs no density
  // or mass (docs/stepping.md "Kinematic bodies"). Not together with is_static.
  bool kinematic = false;
  std::optional<Real> density{};         // kg/m² (2D) or kg/m³ (3D)
  std::optional<Real> mass{};            // kg
  std::optional<Real> planar_inertia{};  // kg·m², 2D, with `mass`
  std::optional<Mat3> inertia{};         // kg·m², 3D, with `mass`
  Coordinates position{};                // m: where the shape's frame goes
  Real angle = 0;                        // rad, counter-clockwise (2D)
  Quat orientation = Quat::Identity();   // body → world, unit (3D)
  Coordinates velocity{};                // m/s, of the centre of mass
  Real omega = 0;                        // rad/s, counter-clockwise (2D)
  Coordinates angular_velocity{};        // rad/s, world axes (3D)
  std::optional<Real> friction{};        // Coulomb μ of this body; unset: the scene's
  std::optional<Real> restitution{};     // impacts' e of this body (0…1); unset: the scene's
  Real spawn_time = 0;                   // s: the body joins at the first step starting then
};

// An empty scene: `dimension` 2 or 3, step h (s), the scene format's defaults (gravity −9.81 m/s²
// along −y in 2D and −z in 3D, contact model PEG, no friction). InputError for bad arguments.
Scene make_scene(int dimension, Real step, Real duration = 1.0);

// Appends the body to scene.world and its pose and velocity to scene.initial (not present until
// its first step, as with a scene file); computes mass and inertia from the shape. Returns the
// body's index. O(1) amortised: names are looked up in scene.body_index. InputError naming the
// body and field, e.g. `bodies[1] (box).density: must be > 0, got -1.0`; a failed call leaves
// the scene as it was.
int add_body(Scene& scene, const BodySpec& spec);

// One joint (docs/joints.md), e.g. a pin holding "bob" to the world at (0, 1):
//   add_joint(scene, {.type = JointType::kRevolute, .body_a = "bob", .anchor = {0, 1}});
// It is placed at the bodies' poses in scene.initial, so add the bodies first.
struct JointSpec {
  std::string name{};  // empty: "joint <index>"
  JointType type = JointType::kRevolute;
  std::string body_a{}, body_b{};     // body names; body_b empty: the world frame
  Coordinates anchor{};               // m, world frame
  std::optional<Coordinates> axis{};  // 3D revolute only (required there): the hinge axis
};

// Appends the joint to scene.world.joints; returns its index. InputError naming the joint and
// field, e.g. `joints[0] (pivot).body_a: no body is named 'bob'`, under the scene file's rules.
int add_joint(Scene& scene, const JointSpec& spec);

}  // namespace exactsim
