#include <cmath>
#include <numbers>

#include "exactsim/collision/contact_jacobian.h"
#include "exactsim/math/error.h"
#include "exactsim/stepping/joint.h"

namespace exactsim {
namespace {

struct Frame {
  Vec3 x = Vec3::Zero();
  Quat q = Quat::Identity();
};

Frame frame_of(const State& s, int body) {
  if (body == kWorldBody) return {};
  return {body_position(s, body), body_orientation(s, body)};
}

// The anchors in the world frame.
void anchors(const Joint& j, const Frame& a, const Frame& b, Vec3& p_a, Vec3& p_b) {
  p_a = a.x + a.q * j.anchor_a;
  p_b = b.x + b.q * j.anchor_b;
}

// The rotation that takes body b's orientation as placed (relative to a) to its orientation now,
// as a world-frame rotation vector (zero when the joint holds).
Vec3 orientation_error(const Joint& j, const Frame& a, const Frame& b) {
  const Quat err = (b.q * (a.q * j.relative).conjugate()).normalized();
  const Eigen::AngleAxisd aa(err);
  Real angle = aa.angle();
  if (angle > std::numbers::pi) angle -= 2 * std::numbers::pi;
  return angle * aa.axis();
}

// An orthonormal pair perpendicular to the unit vector n.
void perpendicular_pair(const Vec3& n, Vec3& t1, Vec3& t2) {
  const Vec3 helper = std::abs(n.x()) < 0.6 ? Vec3::UnitX() : Vec3::UnitY();
  t1 = n.cross(helper).normalized();
  t2 = n.cross(t1);
}

// An angular row: the rate (ω_b − ω_a)·d (2D: ω's one entry, d = ẑ).
JointRow angular_row(const Vec3& d, Real error, int dimension) {
  JointRow row;
  row.error = error;
  if (dimension == 2) {
    row.g_a[2] = -1;
    row.g_b[2] = 1;
  } else {
    row.g_a.tail<3>() = -d;
    row.g_b.tail<3>() = d;
  }
  return row;
}

}  // namespace

const char* to_string(JointType t) {
  switch (t) {
    case JointType::kRevolute:
      return "revolute";
    case JointType::kBall:
      return "ball";
    case JointType::kFixed:
      return "fixed";
  }
  return "?";
}

JointType joint_type(const std::string& name) {
  for (JointType t : {JointType::kRevolute, JointType::kBall, JointType::kFixed})
    if (name == to_string(t)) return t;
  throw InputError("expected \"revolute\", \"ball\" or \"fixed\", got \"" + name + "\"");
}

int joint_row_count(const Joint& j, int dimension) {
  if (dimension == 2) return j.type == JointType::kFixed ? 3 : 2;
  switch (j.type) {
    case JointType::kBall:
      return 3;
    case JointType::kRevolute:
      return 5;
    case JointType::kFixed:
      return 6;
  }
  return 0;
}

bool joint_present(const Joint& j, const State& s) {
  auto present = [&](int b) { return b == kWorldBody || s.present[b]; };
  return present(j.body_a) && present(j.body_b);
}

Joint place_joint(const State& s, JointType type, int a, int b, const Vec3& world_anchor,
                  const Vec3& world_axis) {
  if (a < 0 || a >= s.body_count() || b < kWorldBody || b >= s.body_count() || a == b)
    throw InputError(
        "place_joint: the bodies must be two different bodies, or a body and the world");
  if (s.dimension == 2 && type == JointType::kBall)
    throw InputError("place_joint: a ball joint is a 3D joint (2D has revolute and fixed)");
  const Frame fa = frame_of(s, a), fb = frame_of(s, b);
  Joint j;
  j.type = type;
  j.body_a = a;
  j.body_b = b;
  j.anchor_a = fa.q.conjugate() * (world_anchor - fa.x);
  j.anchor_b = fb.q.conjugate() * (world_anchor - fb.x);
  const Vec3 axis = s.dimension == 2 ? Vec3::UnitZ() : world_axis.normalized();
  j.axis_a = fa.q.conjugate() * axis;
  j.axis_b = fb.q.conjugate() * axis;
  j.relative = (fa.q.conjugate() * fb.q).normalized();
  j.placed_anchor = world_anchor;
  j.placed_axis = s.dimension == 2 ? Vec3::UnitZ() : world_axis;
  return j;
}

void joint_rows(const Joint& j, const State& s, std::vector<JointRow>& rows) {
  const int dim = s.dimension;
  const Frame a = frame_of(s, j.body_a), b = frame_of(s, j.body_b);
  Vec3 p_a, p_b;
  anchors(j, a, b, p_a, p_b);
  // The anchors held together: d·(p_b − p_a) for each axis d (ball, revolute, fixed).
  for (int k = 0; k < dim; ++k) {
    JointRow row;
    const Vec3 d = Vec3::Unit(k);
    direction_jacobian(d, p_a, p_b, dim, a.x, b.x, row.g_a, row.g_b);
    row.error = d.dot(p_b - p_a);
    rows.push_back(row);
  }
  if (j.type == JointType::kBall || (dim == 2 && j.type == JointType::kRevolute)) return;
  if (j.type == JointType::kFixed) {
    const Vec3 e = orientation_error(j, a, b);
    if (dim == 2) {
      rows.push_back(angular_row(Vec3::UnitZ(), e.z(), dim));
      return;
    }
    for (int k = 0; k < 3; ++k) rows.push_back(angular_row(Vec3::Unit(k), e[k], dim));
    return;
  }
  // 3D revolute: the two axes kept parallel; the error a × b has the rate (ω_b − ω_a)
  // perpendicular to the axis (docs/joints.md "Rows").
  const Vec3 axis_a = a.q * j.axis_a, axis_b = b.q * j.axis_b;
  Vec3 t1, t2;
  perpendicular_pair(axis_a, t1, t2);
  const Vec3 e = axis_a.cross(axis_b);
  rows.push_back(angular_row(t1, t1.dot(e), dim));
  rows.push_back(angular_row(t2, t2.dot(e), dim));
}

JointError joint_error(const Joint& j, const State& s) {
  const Frame a = frame_of(s, j.body_a), b = frame_of(s, j.body_b);
  Vec3 p_a, p_b;
  anchors(j, a, b, p_a, p_b);
  JointError e;
  e.position = (p_b - p_a).norm();
  if (j.type == JointType::kFixed) {
    e.angle = orientation_error(j, a, b).norm();
  } else if (j.type == JointType::kRevolute && s.dimension == 3) {
    const Vec3 axis_a = a.q * j.axis_a, axis_b = b.q * j.axis_b;
    e.angle = std::atan2(axis_a.cross(axis_b).norm(), axis_a.dot(axis_b));
  }
  return e;
}

void add_joint_impulse(const Joint& j, const State& s, const std::vector<JointRow>& rows,
                       const Eigen::Ref<const VecX>& lambda, JointImpulse& out) {
  Vec3 linear = Vec3::Zero(), angular_com = Vec3::Zero();
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const Real l = lambda[static_cast<Eigen::Index>(k)];
    const Vec6& g = rows[k].g_a;
    if (s.dimension == 2) {
      linear += l * Vec3(g[0], g[1], 0);
      angular_com.z() += l * g[2];
    } else {
      linear += l * g.head<3>();
      angular_com += l * g.tail<3>();
    }
  }
  out.linear += linear;
  out.angular += angular_com + body_position(s, j.body_a).cross(linear);
}

}  // namespace exactsim
