// bench_scaling's Bullet runner (compiled only when CMake found Bullet: EXACTSIM_HAVE_BULLET).
#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <vector>

#include "scaling_run.h"
#include "scaling_scene.h"

namespace exactsim::bench {
namespace {

btVector3 bt(const Vec3& v) { return btVector3(v.x(), v.y(), v.z()); }
btQuaternion bt(const Quat& q) { return btQuaternion(q.x(), q.y(), q.z(), q.w()); }

struct BulletWorld {
  btDefaultCollisionConfiguration config;
  btCollisionDispatcher dispatcher{&config};
  btDbvtBroadphase broadphase;
  btSequentialImpulseConstraintSolver solver;
  btDiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &config};
  std::vector<std::unique_ptr<btCollisionShape>> shapes;
  std::vector<std::unique_ptr<btRigidBody>> bodies;
  std::vector<int> dynamic;  // index into bodies of each dynamic body

  ~BulletWorld() {
    for (auto& b : bodies) world.removeRigidBody(b.get());
  }
};

}  // namespace

bool bullet_available() { return true; }
const char* bullet_precision() { return sizeof(btScalar) == 8 ? "double" : "float"; }

void run_bullet(const Scene& scene, int steps, double margin, double thickness, bool sleep,
                const StepCallback& on_step, EndSample& end) {
  const World& w = scene.world;
  const int d = w.dimension;
  const Real h = scene.step;
  const btScalar friction = std::sqrt(w.contact.friction);  // the pair's product is μ
  BulletWorld bw;
  bw.world.setGravity(bt(w.gravity));
  if (sleep) gDeactivationTime = w.stepping.sleep_time;  // a global of Bullet's
  for (int i = 0; i < w.body_count(); ++i) {
    const Body& b = w.bodies[i];
    const Vec3 position = body_position(scene.initial, i);
    const Quat orientation = body_orientation(scene.initial, i);
    btTransform start;
    start.setIdentity();
    start.setOrigin(bt(position));
    btScalar mass = 0;
    btVector3 inertia(0, 0, 0);
    if (b.is_static) {
      Vec3 half = static_half_extents(scene, i);
      if (d == 2) half.z() = thickness;  // twice the prisms' depth
      bw.shapes.push_back(std::make_unique<btBoxShape>(bt(half)));
      start.setRotation(bt(orientation));
    } else if (d == 3) {
      // Bullet's body frame is the principal frame: vertices v' = Rᵀ v, orientation q R.
      Eigen::SelfAdjointEigenSolver<Mat3> eig(b.inertia);
      Mat3 r = eig.eigenvectors();
      if (r.determinant() < 0) r.col(2) *= -1;
      auto hull = std::make_unique<btConvexHullShape>();
      for (const Vec3& v : w.polyhedra[b.shape].vertices)
        hull->addPoint(bt(r.transpose() * v), false);
      hull->recalcLocalAabb();
      hull->setMargin(margin);
      bw.shapes.push_back(std::move(hull));
      mass = b.mass;
      inertia = bt(eig.eigenvalues());
      start.setRotation(bt(Quat(orientation * Quat(r)).normalized()));
    } else {
      // A prism through z = 0; z is a principal axis, and only rotation about it is free.
      auto hull = std::make_unique<btConvexHullShape>();
      for (const Vec2& v : w.polygons[b.shape].vertices)
        for (const Real z : {-0.5 * thickness, 0.5 * thickness})
          hull->addPoint(btVector3(v.x(), v.y(), z), false);
      hull->recalcLocalAabb();
      hull->setMargin(margin);
      bw.shapes.push_back(std::move(hull));
      mass = b.mass;
      inertia = btVector3(b.planar_inertia, b.planar_inertia, b.planar_inertia);
      start.setRotation(bt(orientation));
    }
    btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, bw.shapes.back().get(), inertia);
    info.m_startWorldTransform = start;
    info.m_friction = friction;
    info.m_restitution = 0;
    auto body = std::make_unique<btRigidBody>(info);
    if (!b.is_static) {
      if (sleep) {
        // exactsim's rule is |v| + |ω| r < sleep_speed for sleep_time (docs/stepping.md
        // "Sleeping"); Bullet's is |v| < linear and |ω| < angular threshold for
        // gDeactivationTime: the same speed, and ω at that speed over the body's radius.
        body->setSleepingThresholds(w.stepping.sleep_speed,
                                    w.stepping.sleep_speed / bounding_radius(w, i));
      } else {
        body->setActivationState(DISABLE_DEACTIVATION);
      }
      if (d == 2) {
        body->setLinearFactor(btVector3(1, 1, 0));
        body->setAngularFactor(btVector3(0, 0, 1));
      }
      bw.dynamic.push_back(static_cast<int>(bw.bodies.size()));
    }
    bw.world.addRigidBody(body.get());
    bw.bodies.push_back(std::move(body));
  }

  using Clock = std::chrono::steady_clock;
  for (int k = 0; k < steps; ++k) {
    const auto t0 = Clock::now();
    const int taken = bw.world.stepSimulation(h, 1, h);
    StepSample s;
    s.wall = std::chrono::duration<double>(Clock::now() - t0).count();
    s.substeps = taken;
    for (int m = 0; m < bw.dispatcher.getNumManifolds(); ++m)
      s.contacts += bw.dispatcher.getManifoldByIndexInternal(m)->getNumContacts();
    if (!on_step(s)) break;
  }

  const Aabb3 box = container_bounds(scene);
  const Vec3 lo = box.lo, hi = box.hi;
  const int up = d == 3 ? 2 : 1;
  double height_sum = 0;
  for (int i : bw.dynamic) {
    const btRigidBody& b = *bw.bodies[i];
    const btVector3 p = b.getCenterOfMassPosition();
    const Vec3 c(p.x(), p.y(), p.z());
    height_sum += c[up];
    end.max_speed = std::max<double>(end.max_speed, b.getLinearVelocity().length());
    bool out = false;
    for (int a = 0; a < d; ++a) out |= c[a] < lo[a] - 0.5 || c[a] > hi[a] + 0.5;
    end.escaped += out;
  }
  end.mean_height = bw.dynamic.empty() ? 0 : height_sum / static_cast<double>(bw.dynamic.size());
}

}  // namespace exactsim::bench
