// peer_mujoco: an exactsim scene in MuJoCo (docs/peers.md "MuJoCo"): an MJCF model written from
// the PeerScene (boxes as box geoms, hulls as meshes, static bodies as world geoms), every dynamic
// body on a free joint (3D) or on slide x, slide y and hinge z joints (2D), its frame the principal
// frame. A body joins by getting its pose, velocity and collision flags at its spawn.
#include <mujoco/mujoco.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "exactsim/math/error.h"
#include "peer_driver.h"

namespace exactsim::peers {
namespace {

constexpr const char* kCone = "elliptic";

std::string num(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}
std::string vec(const Vec3& v) { return num(v.x()) + " " + num(v.y()) + " " + num(v.z()); }
std::string quat(const Quat& q) {
  return num(q.w()) + " " + num(q.x()) + " " + num(q.y()) + " " + num(q.z());
}

// The geom of body i, in its body's frame (the principal frame) or the world's (static).
std::string geom_xml(const PeerBody& b, int i, bool world) {
  std::string g =
      "<geom name=\"g" + std::to_string(i) + "\" friction=\"" + num(b.friction) + " 0.005 0.0001\"";
  if (world) g += " pos=\"" + vec(b.position) + "\" quat=\"" + quat(b.orientation) + "\"";
  // Dynamic bodies collide from their spawn on (add_body sets the flags).
  if (!world) g += " contype=\"0\" conaffinity=\"0\"";
  if (b.is_box) return g + " type=\"box\" size=\"" + vec(b.half) + "\"/>\n";
  return g + " type=\"mesh\" mesh=\"m" + std::to_string(i) + "\"/>\n";
}

// Room for the contacts of n bodies (a pile: about 6 neighbours each, 4 points per pair with
// multiccd) and 3 constraint rows per contact (the elliptic cone of condim 3). MuJoCo 2.2 allocates
// the rows' dense njmax × njmax blocks up front: more room than this fails to allocate for 100
// bodies; too little shows as "contact list full" in engine_warnings.
int contacts(int n) { return 12 * n + 100; }

std::string model_xml(const PeerScene& scene, Real h) {
  const int n = static_cast<int>(scene.bodies.size());
  std::ostringstream x;
  x << "<mujoco model=\"exactsim\">\n<compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n"
    << "<size nconmax=\"" << contacts(n) << "\" njmax=\"" << 3 * contacts(n) << "\"/>\n"
    << "<option timestep=\"" << num(h) << "\" gravity=\"" << vec(scene.gravity) << "\" cone=\""
    << kCone << "\">\n<flag multiccd=\"enable\"/>\n</option>\n<asset>\n";
  for (int i = 0; i < n; ++i) {
    const PeerBody& b = scene.bodies[i];
    if (b.is_box) continue;
    x << "<mesh name=\"m" << i << "\" vertex=\"";
    for (const Vec3& v : b.hull.vertices) x << vec(v) << " ";
    x << "\"/>\n";
  }
  x << "</asset>\n<worldbody>\n";
  for (int i = 0; i < n; ++i) {
    const PeerBody& b = scene.bodies[i];
    if (b.is_static) {
      x << geom_xml(b, i, true);
      continue;
    }
    // At the origin: the joints' values are the world pose (add_body sets them).
    x << "<body name=\"b" << i << "\">\n";
    if (scene.dimension == 3) {
      x << "<freejoint/>\n";
    } else {
      x << "<joint type=\"slide\" axis=\"1 0 0\" limited=\"false\"/>\n"
        << "<joint type=\"slide\" axis=\"0 1 0\" limited=\"false\"/>\n"
        << "<joint type=\"hinge\" axis=\"0 0 1\" limited=\"false\"/>\n";
    }
    x << "<inertial pos=\"0 0 0\" mass=\"" << num(b.mass) << "\" diaginertia=\""
      << vec(b.principal_inertia) << "\"/>\n"
      << geom_xml(b, i, false) << "</body>\n";
  }
  x << "</worldbody>\n</mujoco>\n";
  return x.str();
}

class MujocoEngine final : public PeerEngine {
 public:
  MujocoEngine(const PeerScene& scene, Real h) : scene_(scene) {
    const std::string xml = model_xml(scene, h);
    auto vfs = std::make_unique<mjVFS>();
    mj_defaultVFS(vfs.get());
    if (mj_makeEmptyFileVFS(vfs.get(), "scene.xml", static_cast<int>(xml.size())) != 0)
      throw std::runtime_error("MuJoCo: cannot make the model's in-memory file");
    std::memcpy(vfs->filedata[mj_findFileVFS(vfs.get(), "scene.xml")], xml.data(), xml.size());
    char error[1000] = "";
    model_ = mj_loadXML("scene.xml", vfs.get(), error, sizeof error);
    mj_deleteVFS(vfs.get());
    if (!model_) throw InputError(std::string("MuJoCo did not take the model: ") + error);
    data_ = mj_makeData(model_);
    for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
      const std::string name = std::to_string(i);
      body_.push_back(mj_name2id(model_, mjOBJ_BODY, ("b" + name).c_str()));
      geom_.push_back(mj_name2id(model_, mjOBJ_GEOM, ("g" + name).c_str()));
    }
  }
  ~MujocoEngine() override {
    mj_deleteData(data_);
    mj_deleteModel(model_);
  }
  MujocoEngine(const MujocoEngine&) = delete;
  MujocoEngine& operator=(const MujocoEngine&) = delete;

  void add_body(int i) override {
    const PeerBody& b = scene_.bodies[i];
    if (b.is_static) return;
    const int body = body_[i], geom = geom_[i];
    model_->geom_contype[geom] = model_->geom_conaffinity[geom] = 1;
    double* q = data_->qpos + model_->jnt_qposadr[model_->body_jntadr[body]];
    double* v = data_->qvel + model_->jnt_dofadr[model_->body_jntadr[body]];
    if (scene_.dimension == 3) {
      const Vec3 w_local = b.orientation.conjugate() * b.angular_velocity;
      const double values[] = {b.position.x(),    b.position.y(),    b.position.z(),
                               b.orientation.w(), b.orientation.x(), b.orientation.y(),
                               b.orientation.z()};
      std::memcpy(q, values, sizeof values);
      const double rates[] = {b.velocity.x(), b.velocity.y(), b.velocity.z(),
                              w_local.x(),    w_local.y(),    w_local.z()};
      std::memcpy(v, rates, sizeof rates);
    } else {
      q[0] = b.position.x();
      q[1] = b.position.y();
      q[2] = 2 * std::atan2(b.orientation.z(), b.orientation.w());
      v[0] = b.velocity.x();
      v[1] = b.velocity.y();
      v[2] = b.angular_velocity.z();
    }
    mj_kinematics(model_, data_);
    check_geom(b, i, geom);
  }

  void step() override { mj_step(model_, data_); }

  BodyMotion motion(int i) const override {
    const int body = body_[i];
    const double* q = data_->qpos + model_->jnt_qposadr[model_->body_jntadr[body]];
    const double* v = data_->qvel + model_->jnt_dofadr[model_->body_jntadr[body]];
    BodyMotion m;
    if (scene_.dimension == 3) {
      m.position = Vec3(q[0], q[1], q[2]);
      m.orientation = Quat(q[3], q[4], q[5], q[6]);
      m.velocity = Vec3(v[0], v[1], v[2]);
      m.angular_velocity = m.orientation * Vec3(v[3], v[4], v[5]);  // free joint: body frame
    } else {
      m.position = Vec3(q[0], q[1], 0);
      m.orientation = Quat(Eigen::AngleAxisd(q[2], Vec3::UnitZ()));
      m.velocity = Vec3(v[0], v[1], 0);
      m.angular_velocity = Vec3(0, 0, v[2]);
    }
    return m;
  }

  std::string warnings() const override {
    static const char* names[] = {"inertia",           "contact list full", "constraints full",
                                  "visual geoms full", "bad qpos",          "bad qvel",
                                  "bad qacc",          "bad ctrl"};
    std::string out;
    for (int k = 0; k < mjNWARNING && k < 8; ++k)
      if (data_->warning[k].number > 0)
        out += (out.empty() ? "" : "; ") + std::string(names[k]) + " x" +
               std::to_string(data_->warning[k].number);
    return out;
  }

 private:
  // The compiled geom must be where exactsim has the shape: MuJoCo re-centres and re-aligns a
  // mesh on its own inertial frame and moves the geom to match; a box is its half sizes. A
  // wrong mapping is an error, not a silently different scene.
  void check_geom(const PeerBody& b, int i, int geom) const {
    Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> r(data_->geom_xmat + 9 * geom);
    const Vec3 p(data_->geom_xpos + 3 * geom);
    std::vector<Vec3> expected, got;
    if (b.is_box) {
      for (int c = 0; c < 8; ++c) {
        const Vec3 corner((c & 1 ? 1 : -1) * b.half.x(), (c & 2 ? 1 : -1) * b.half.y(),
                          (c & 4 ? 1 : -1) * b.half.z());
        expected.push_back(b.position + b.orientation * corner);
        got.push_back(p + r * Vec3(model_->geom_size + 3 * geom).cwiseProduct(corner.cwiseSign()));
      }
    } else {
      for (const Vec3& v : b.hull.vertices) expected.push_back(b.position + b.orientation * v);
      const int mesh = model_->geom_dataid[geom];
      const float* vert = model_->mesh_vert + 3 * model_->mesh_vertadr[mesh];
      for (int k = 0; k < model_->mesh_vertnum[mesh]; ++k)
        got.push_back(p + r * Vec3(vert[3 * k], vert[3 * k + 1], vert[3 * k + 2]));
    }
    // Every expected vertex has a compiled one within float round-off (MuJoCo stores meshes in
    // single precision) and the reverse.
    const Real tol = 1e-5 * (1 + b.position.norm());
    auto covered = [&](const std::vector<Vec3>& from, const std::vector<Vec3>& to) {
      for (const Vec3& a : from) {
        Real best = 1e300;
        for (const Vec3& c : to) best = std::min(best, (a - c).norm());
        if (best > tol) return false;
      }
      return true;
    };
    if (!covered(expected, got) || !covered(got, expected))
      throw std::runtime_error("MuJoCo placed body '" + b.name + "' (bodies[" + std::to_string(i) +
                               "]) elsewhere than the scene has it");
  }

  const PeerScene& scene_;
  mjModel* model_ = nullptr;
  mjData* data_ = nullptr;
  std::vector<int> body_, geom_;  // MuJoCo's ids of each scene body's body and geom (−1: none)
};

}  // namespace
}  // namespace exactsim::peers

int main(int argc, char** argv) {
  using namespace exactsim::peers;
  PeerEngineInfo info;
  info.engine = "mujoco";
  info.version = mj_versionString();
  info.settings = {{"cone", kCone},
                   {"multiccd", "enable"},
                   {"friction", "mu per geom (MuJoCo takes the larger of the pair's)"},
                   {"inertia", "the scene's, at the centre of mass (inertiafromgeom false)"},
                   {"solref, solimp, integrator, solver", "MuJoCo's defaults"}};
  info.build = [](const PeerScene& scene, exactsim::Real h) -> std::unique_ptr<PeerEngine> {
    return std::make_unique<MujocoEngine>(scene, h);
  };
  return run_driver(argc, argv, info);
}
