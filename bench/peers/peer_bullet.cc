// peer_bullet: an exactsim scene in Bullet (docs/peers.md "Bullet"), through bullet_world.h.
#include <LinearMath/btScalar.h>

#include <memory>
#include <string>

#include "bullet_world.h"
#include "peer_driver.h"

namespace exactsim::peers {
namespace {

// The settings a competent user would choose for piles of small hulls (docs/peers.md "Bullet").
BulletSettings settings() {
  BulletSettings s;
  s.margin = 0.001;
  s.polyhedral_features = true;
  return s;
}

class BulletEngine final : public PeerEngine {
 public:
  BulletEngine(const PeerScene& scene, Real h) : h_(h), world_(scene, settings()) {}
  void add_body(int i) override { world_.add_body(i); }
  void step() override { world_.step(h_); }
  BodyMotion motion(int i) const override {
    const btRigidBody& b = world_.body(i);
    const btVector3 p = b.getCenterOfMassPosition();
    const btQuaternion q = b.getOrientation();
    const btVector3 v = b.getLinearVelocity(), w = b.getAngularVelocity();
    return {Vec3(p.x(), p.y(), p.z()), Quat(q.w(), q.x(), q.y(), q.z()), Vec3(v.x(), v.y(), v.z()),
            Vec3(w.x(), w.y(), w.z())};
  }

 private:
  Real h_;
  BulletWorld world_;
};

}  // namespace
}  // namespace exactsim::peers

int main(int argc, char** argv) {
  using namespace exactsim::peers;
  const BulletSettings s = settings();
  PeerEngineInfo info;
  info.engine = "bullet";
  info.version = std::to_string(BT_BULLET_VERSION / 100) + "." +
                 std::to_string(BT_BULLET_VERSION % 100) + " " + bullet_precision();
  info.settings = {{"collision_margin_m", s.margin},
                   {"polyhedral_features", s.polyhedral_features},
                   {"deactivation", "disabled"},
                   {"friction", "sqrt(mu) per body (Bullet multiplies)"},
                   {"restitution", 0},
                   {"stepSimulation", "(h, 1, h)"}};
  info.build = [](const PeerScene& scene, exactsim::Real h) -> std::unique_ptr<PeerEngine> {
    return std::make_unique<BulletEngine>(scene, h);
  };
  return run_driver(argc, argv, info);
}
