#include "bullet_world.h"

#include <algorithm>
#include <cmath>

namespace exactsim::peers {
namespace {

btVector3 bt(const Vec3& v) { return btVector3(v.x(), v.y(), v.z()); }
btQuaternion bt(const Quat& q) { return btQuaternion(q.x(), q.y(), q.z(), q.w()); }

// The largest distance of a vertex from the centre of mass (rotation-invariant).
double radius(const PeerBody& b) {
  if (b.is_box) return b.half.norm();
  double r = 0;
  for (const Vec3& v : b.hull.vertices) r = std::max(r, v.norm());
  return r;
}

}  // namespace

const char* bullet_precision() { return sizeof(btScalar) == 8 ? "double" : "float"; }

BulletWorld::BulletWorld(const PeerScene& scene, const BulletSettings& settings) {
  world_.setGravity(bt(scene.gravity));
  if (settings.sleep) gDeactivationTime = settings.sleep_time;  // a global of Bullet's
  for (const PeerBody& b : scene.bodies) {
    if (b.is_box) {
      shapes_.push_back(std::make_unique<btBoxShape>(bt(b.half)));
    } else {
      auto hull = std::make_unique<btConvexHullShape>();
      for (const Vec3& v : b.hull.vertices) hull->addPoint(bt(v), false);
      hull->recalcLocalAabb();
      hull->setMargin(settings.margin);
      if (settings.polyhedral_features) hull->initializePolyhedralFeatures();
      shapes_.push_back(std::move(hull));
    }
    btTransform start;
    start.setIdentity();
    start.setOrigin(bt(b.position));
    start.setRotation(bt(b.orientation));
    const btScalar mass = b.is_static ? 0 : b.mass;
    btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shapes_.back().get(),
                                                  bt(b.principal_inertia));
    info.m_startWorldTransform = start;
    info.m_friction = std::sqrt(b.friction);  // the pair's product is √(μ_a μ_b)
    info.m_restitution = 0;
    auto body = std::make_unique<btRigidBody>(info);
    if (!b.is_static) {
      body->setLinearVelocity(bt(b.velocity));
      body->setAngularVelocity(bt(b.angular_velocity));
      if (settings.sleep) {
        // exactsim's rule is |v| + |ω| r < sleep_speed for sleep_time (docs/stepping.md
        // "Sleeping"); Bullet's is |v| < linear and |ω| < angular threshold for
        // gDeactivationTime: the same speed, and ω at that speed over the body's radius.
        body->setSleepingThresholds(settings.sleep_speed, settings.sleep_speed / radius(b));
      } else {
        body->setActivationState(DISABLE_DEACTIVATION);
      }
      if (scene.dimension == 2) {
        body->setLinearFactor(btVector3(1, 1, 0));
        body->setAngularFactor(btVector3(0, 0, 1));
      }
    }
    bodies_.push_back(std::move(body));
  }
  added_.assign(bodies_.size(), 0);
}

BulletWorld::~BulletWorld() {
  for (std::size_t i = 0; i < bodies_.size(); ++i)
    if (added_[i]) world_.removeRigidBody(bodies_[i].get());
}

void BulletWorld::add_body(int i) {
  if (added_[i]) return;
  world_.addRigidBody(bodies_[i].get());
  added_[i] = 1;
}

int BulletWorld::step(double h) { return world_.stepSimulation(h, 1, h); }

int BulletWorld::contact_points() const {
  int n = 0;
  for (int m = 0; m < dispatcher_.getNumManifolds(); ++m)
    n += dispatcher_.getManifoldByIndexInternal(m)->getNumContacts();
  return n;
}

}  // namespace exactsim::peers
