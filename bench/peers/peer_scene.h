// An exactsim scene as the peer engines take it (docs/peers.md "Mapping a scene"): per body, a
// native box or a convex hull in the body's principal axes, its mass and principal inertia, its
// friction, and the pose and velocity it starts with; 2D bodies as prisms through
// z = 0. Every engine's driver builds its model from this, and maps its bodies' poses back to
// exactsim's body frame through it, so that the mapping is one piece of code for all engines.
#pragma once

#include <string>
#include <vector>

#include "exactsim/stepping/world.h"

namespace exactsim::peers {

struct PeerBody {
  std::string name;
  bool is_static = false;
  // A box centred on the body origin along the body axes (exactsim's "box" shape, or any
  // 8-vertex hull that is one): the engines' native box, half side lengths `half`.
  bool is_box = false;
  Vec3 half = Vec3::Zero();
  // Otherwise the hull, in the principal frame (vertices R^T v of the body-frame vertices v), with
  // exactsim's faces (outward normals, CCW loops). 2D: the prism of `thickness` through z = 0.
  ConvexPolyhedron hull;
  // Principal frame in the body frame: inertia = R diag(principal_inertia) R^T. Identity for
  // static bodies, boxes and bodies whose inertia is already diagonal (no axis permutation).
  Mat3 rotation = Mat3::Identity();
  Real mass = 0;                          // kg (0 when static)
  Vec3 principal_inertia = Vec3::Zero();  // kg·m² (2D: the planar inertia on all three)
  Real friction = 0;                      // the body's μ (the scene's when it has none)
  Vec3 position = Vec3::Zero();           // initial centre of mass (2D: z = 0)
  Quat orientation = Quat::Identity();    // initial orientation of the principal frame
  Vec3 velocity = Vec3::Zero(), angular_velocity = Vec3::Zero();  // world frame, initial
};

struct PeerScene {
  int dimension = 3;
  Vec3 gravity = Vec3::Zero();   // 2D: z = 0
  std::vector<PeerBody> bodies;  // in the scene's body order
};

// The peer engines' view of `scene`, 2D bodies as prisms `thickness` deep (> 0; the static bodies'
// boxes are twice as deep, so that a prism never slides off them). InputError naming the body and
// the reason for what no peer engine is given: kinematic bodies and compound bodies.
PeerScene map_scene(const Scene& scene, Real thickness);

// The pair's Coulomb μ by exactsim's rule √(μ_a μ_b) (docs/scene-format.md).
Real pair_friction(const PeerBody& a, const PeerBody& b);

// Writes body i's state into `state` (exactsim's body frame: q = (x, y, θ) / (x, y, z, quaternion
// w first), v = (v_x, v_y, ω) / (v, ω), world frame) from the engine's pose of the principal
// frame and its world-frame velocities, and marks it present.
void set_body_state(const PeerScene& scene, int i, const Vec3& position,
                    const Quat& principal_orientation, const Vec3& velocity,
                    const Vec3& angular_velocity, State& state);

}  // namespace exactsim::peers
