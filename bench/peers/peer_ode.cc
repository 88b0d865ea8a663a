// peer_ode: an exactsim scene in ODE (docs/peers.md "ODE"): boxes as dBox, hulls as dConvex (the
// principal-frame vertices, exactsim's faces and planes), dWorldQuickStep, Coulomb friction by
// dContactApprox1, 2D prisms held in the plane by a Plane2D joint.
#include <ode/ode.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "peer_driver.h"

namespace exactsim::peers {
namespace {

constexpr int kMaxContactsPerPair = 8;

// dConvex keeps pointers to its planes, points and polygons: they live as long as the engine.
struct ConvexData {
  std::vector<dReal> planes, points;
  std::vector<unsigned> polygons;
};

class OdeEngine final : public PeerEngine {
 public:
  OdeEngine(const PeerScene& scene, Real h) : scene_(scene), h_(h) {
    world_ = dWorldCreate();
    space_ = dHashSpaceCreate(nullptr);
    contacts_ = dJointGroupCreate(0);
    dWorldSetGravity(world_, scene.gravity.x(), scene.gravity.y(), scene.gravity.z());
    bodies_.assign(scene.bodies.size(), nullptr);
    for (const PeerBody& b : scene.bodies) all_boxes_ = all_boxes_ && b.is_box;
    convex_.resize(scene.bodies.size());
  }
  ~OdeEngine() override {
    dJointGroupDestroy(contacts_);
    dSpaceDestroy(space_);  // destroys its geoms
    dWorldDestroy(world_);  // and the bodies and joints
  }
  OdeEngine(const OdeEngine&) = delete;
  OdeEngine& operator=(const OdeEngine&) = delete;

  void add_body(int i) override {
    const PeerBody& b = scene_.bodies[i];
    dGeomID g = nullptr;
    if (all_boxes_) {
      g = dCreateBox(space_, 2 * b.half.x(), 2 * b.half.y(), 2 * b.half.z());
    } else {
      ConvexData& c = convex_[i];
      const ConvexPolyhedron hull = b.is_box ? make_box(Vec3(2 * b.half)) : b.hull;
      for (const Vec3& v : hull.vertices) c.points.insert(c.points.end(), {v.x(), v.y(), v.z()});
      for (const PolyhedronFace& f : hull.faces) {
        c.planes.insert(c.planes.end(), {f.normal.x(), f.normal.y(), f.normal.z(), f.offset});
        c.polygons.push_back(static_cast<unsigned>(f.vertices.size()));
        for (int v : f.vertices) c.polygons.push_back(static_cast<unsigned>(v));
      }
      g = dCreateConvex(space_, c.planes.data(), static_cast<unsigned>(hull.faces.size()),
                        c.points.data(), static_cast<unsigned>(hull.vertices.size()),
                        c.polygons.data());
    }
    dGeomSetData(g, reinterpret_cast<void*>(static_cast<std::intptr_t>(i)));  // for near()
    const dQuaternion q = {b.orientation.w(), b.orientation.x(), b.orientation.y(),
                           b.orientation.z()};
    if (b.is_static) {
      dGeomSetPosition(g, b.position.x(), b.position.y(), b.position.z());
      dGeomSetQuaternion(g, q);
      return;
    }
    dBodyID body = dBodyCreate(world_);
    dMass m;
    dMassSetParameters(&m, b.mass, 0, 0, 0, b.principal_inertia.x(), b.principal_inertia.y(),
                       b.principal_inertia.z(), 0, 0, 0);
    dBodySetMass(body, &m);
    dBodySetPosition(body, b.position.x(), b.position.y(), b.position.z());
    dBodySetQuaternion(body, q);
    dBodySetLinearVel(body, b.velocity.x(), b.velocity.y(), b.velocity.z());
    dBodySetAngularVel(body, b.angular_velocity.x(), b.angular_velocity.y(),
                       b.angular_velocity.z());
    dGeomSetBody(g, body);
    if (scene_.dimension == 2) {
      dJointID plane = dJointCreatePlane2D(world_, nullptr);
      dJointAttach(plane, body, nullptr);
    }
    bodies_[i] = body;
  }

  void step() override {
    dSpaceCollide(space_, this, &OdeEngine::near);
    dWorldQuickStep(world_, h_);
    dJointGroupEmpty(contacts_);
    if (scene_.dimension == 2)
      for (dBodyID b : bodies_)
        if (b) keep_planar(b);
  }

  BodyMotion motion(int i) const override {
    const dBodyID b = bodies_[i];
    const dReal* p = dBodyGetPosition(b);
    const dReal* q = dBodyGetQuaternion(b);
    const dReal* v = dBodyGetLinearVel(b);
    const dReal* w = dBodyGetAngularVel(b);
    return {Vec3(p[0], p[1], p[2]), Quat(q[0], q[1], q[2], q[3]), Vec3(v[0], v[1], v[2]),
            Vec3(w[0], w[1], w[2])};
  }

 private:
  // dSpaceCollide's callback: contact joints for the pair's points (not between two static
  // geoms), with the pair's μ (each geom's user data is its body index).
  static void near(void* self, dGeomID a, dGeomID b) {
    auto* e = static_cast<OdeEngine*>(self);
    const dBodyID ba = dGeomGetBody(a), bb = dGeomGetBody(b);
    if (!ba && !bb) return;
    std::array<dContactGeom, kMaxContactsPerPair> geoms;
    const int n = dCollide(a, b, kMaxContactsPerPair, geoms.data(), sizeof(dContactGeom));
    if (n == 0) return;
    const Real mu = pair_friction(e->scene_.bodies[e->index(a)], e->scene_.bodies[e->index(b)]);
    for (int k = 0; k < n; ++k) {
      // ODE's convex–convex collider gives faces that touch exactly a zero normal, on which
      // dWorldQuickStep aborts (a NaN orientation): such a point has no direction to push along.
      const dReal* normal = geoms[k].normal;
      if (!(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2] > 0.25)) continue;
      dContact c{};
      c.geom = geoms[k];
      c.surface.mode = dContactApprox1;  // μ is Coulomb's coefficient, not a force bound
      c.surface.mu = mu;
      dJointID j = dJointCreateContact(e->world_, e->contacts_, &c);
      dJointAttach(j, ba, bb);
    }
  }
  // Plane2D holds the velocities in the plane; the orientation drifts off the rotations about z by
  // round-off, which ODE's own demo (demo_plane2d) removes after every step, as here.
  static void keep_planar(dBodyID b) {
    const dReal* q = dBodyGetQuaternion(b);
    const dReal len = std::sqrt(q[0] * q[0] + q[3] * q[3]);
    const dQuaternion planar = {q[0] / len, 0, 0, q[3] / len};
    dBodySetQuaternion(b, planar);
    const dReal* w = dBodyGetAngularVel(b);
    dBodySetAngularVel(b, 0, 0, w[2]);
  }
  int index(dGeomID g) const {
    return static_cast<int>(reinterpret_cast<std::intptr_t>(dGeomGetData(g)));
  }

  const PeerScene& scene_;
  Real h_;
  dWorldID world_;
  dSpaceID space_;
  dJointGroupID contacts_;
  std::vector<dBodyID> bodies_;
  std::vector<ConvexData> convex_;
  bool all_boxes_ = true;  // boxes as dBox only then: ODE's box–convex contacts are poor
};

}  // namespace
}  // namespace exactsim::peers

int main(int argc, char** argv) {
  using namespace exactsim::peers;
  dInitODE2(0);
  PeerEngineInfo info;
  info.engine = "ode";
#ifdef dDOUBLE
  info.version = std::string(dODE_VERSION) + " double";
#else
  info.version = std::string(dODE_VERSION) + " single";
#endif
  info.settings = {{"stepper", "dWorldQuickStep, 20 iterations (default)"},
                   {"contact_mode", "dContactApprox1 (mu is the Coulomb coefficient)"},
                   {"friction", "sqrt(mu_a mu_b) per contact"},
                   {"max_contacts_per_pair", kMaxContactsPerPair},
                   {"space", "dHashSpace"}};
  info.build = [](const PeerScene& scene, exactsim::Real h) -> std::unique_ptr<PeerEngine> {
    return std::make_unique<OdeEngine>(scene, h);
  };
  const int status = run_driver(argc, argv, info);
  dCloseODE();
  return status;
}
