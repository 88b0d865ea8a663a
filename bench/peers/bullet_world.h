// A PeerScene as a Bullet world (docs/peers.md "Bullet"): the double-precision build when CMake
// found it. Shared by the peer driver (peer_bullet) and bench_scaling's Bullet runner.
#pragma once

#include <btBulletDynamicsCommon.h>

#include <memory>
#include <vector>

#include "peer_scene.h"

namespace exactsim::peers {

struct BulletSettings {
  // Collision margin of the convex hulls (m): Bullet's default 0.04 m would inflate 0.1 m bodies;
  // boxes keep theirs inside their half extents (btBoxShape), so it does not inflate them.
  double margin = 0.001;
  // Contact manifolds of hull pairs by polyhedral clipping (SAT, several points per pair in one
  // step: btConvexHullShape::initializePolyhedralFeatures) instead of one GJK/EPA point per step
  // accumulated over steps.
  bool polyhedral_features = false;
  // Deactivation (sleeping) with exactsim's rule mapped to Bullet's thresholds; off: every body
  // stays active.
  bool sleep = false;
  double sleep_speed = 0.01, sleep_time = 0.5;  // m/s, s
};

const char* bullet_precision();  // "double" or "float": btScalar of the linked build

class BulletWorld {
 public:
  // Every body's shape and rigid body, none in the world yet (add_body). Friction per body √μ
  // (Bullet multiplies the two bodies' values: the pair gets √(μ_a μ_b), exactsim's rule),
  // restitution 0, inertia in the principal frame; 2D prisms move in the plane only (linear
  // factor (1, 1, 0), angular factor (0, 0, 1)).
  BulletWorld(const PeerScene& scene, const BulletSettings& settings);
  ~BulletWorld();
  BulletWorld(const BulletWorld&) = delete;
  BulletWorld& operator=(const BulletWorld&) = delete;

  void add_body(int i);
  // One fixed step of h: stepSimulation(h, 1, h). Returns the internal steps taken (1).
  int step(double h);
  const btRigidBody& body(int i) const { return *bodies_[i]; }
  // Contact points of the current manifolds.
  int contact_points() const;

 private:
  btDefaultCollisionConfiguration config_;
  btCollisionDispatcher dispatcher_{&config_};
  btDbvtBroadphase broadphase_;
  btSequentialImpulseConstraintSolver solver_;
  btDiscreteDynamicsWorld world_{&dispatcher_, &broadphase_, &solver_, &config_};
  std::vector<std::unique_ptr<btCollisionShape>> shapes_;
  std::vector<std::unique_ptr<btRigidBody>> bodies_;
  std::vector<char> added_;
};

}  // namespace exactsim::peers
