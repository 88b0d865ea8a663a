// Contact Jacobians (docs/collision.md "Conventions"): Gᵀν must equal dψ/dt, checked against
// central finite differences of the EXACT gap recomputed by the narrow phase after moving both
// (dynamic) bodies by ±h ν (translation plus the exponential map for rotation), for every contact
// type.
#include "exactsim/collision/contact_jacobian.h"

#include <gtest/gtest.h>

#include <random>

#include "exactsim/collision/closest_points.h"
#include "exactsim/collision/polyhedron_contacts.h"
#include "exactsim/collision/vertex_edge.h"
#include "exactsim/math/error.h"
#include "exactsim/math/rotation.h"

namespace exactsim {
namespace {

const Contact* find_same(const std::vector<Contact>& cs, const Contact& c) {
  for (const Contact& d : cs) {
    if (d.type == c.type && d.body_a == c.body_a && d.feature_a == c.feature_a &&
        d.feature_b == c.feature_b) {
      return &d;
    }
  }
  return nullptr;
}

// ---- 2D ---------------------------------------------------------------------------------------

std::vector<Contact> contacts_2d(const ConvexPolygon (&shapes)[2], const Pose2 (&poses)[2]) {
  WorldPolygon w[2];
  for (int i = 0; i < 2; ++i) place(shapes[i], poses[i], w[i]);
  std::vector<Contact> cs;
  vertex_edge_contacts(w[0], 0, w[1], 1, 100.0, cs);  // every vertex–edge pair
  return cs;
}

TEST(ContactJacobian, VertexEdgeMatchesFiniteDifferences) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<Real> u(-1, 1);
  int checked = 0;
  for (int trial = 0; trial < 20; ++trial) {
    const ConvexPolygon shapes[2] = {random_convex_polygon(rng), random_convex_polygon(rng)};
    const Pose2 poses[2] = {Pose2{Vec2(u(rng), u(rng)), 4 * u(rng)},
                            Pose2{Vec2(u(rng), u(rng)), 4 * u(rng)}};
    Vec3 nu[2];  // (v_x, v_y, ω) per body
    for (auto& v : nu) v = Vec3(u(rng), u(rng), 3 * u(rng));
    const auto cs = contacts_2d(shapes, poses);
    const Real h = 1e-6;
    Pose2 plus[2], minus[2];
    for (int i = 0; i < 2; ++i) {
      plus[i] = {poses[i].position + h * nu[i].head<2>(), poses[i].angle + h * nu[i].z()};
      minus[i] = {poses[i].position - h * nu[i].head<2>(), poses[i].angle - h * nu[i].z()};
    }
    const auto cs_plus = contacts_2d(shapes, plus), cs_minus = contacts_2d(shapes, minus);
    for (const Contact& c : cs) {
      const Contact* cp = find_same(cs_plus, c);
      const Contact* cm = find_same(cs_minus, c);
      ASSERT_TRUE(cp && cm);
      const Real fd = (cp->gap - cm->gap) / (2 * h);
      const int a = c.body_a, b = c.body_b;
      const Vec3 x_a(poses[a].position.x(), poses[a].position.y(), 0);
      const Vec3 x_b(poses[b].position.x(), poses[b].position.y(), 0);
      Vec6 g_a, g_b;
      contact_jacobian(c, 2, x_a, x_b, g_a, g_b);
      EXPECT_TRUE((g_a.tail<3>().array() == 0).all());
      const Real analytic = g_a.head<3>().dot(nu[a]) + g_b.head<3>().dot(nu[b]);
      EXPECT_NEAR(analytic, fd, 1e-7 * (1 + std::abs(fd)));
      ++checked;
    }
  }
  EXPECT_GT(checked, 500);
}

// ---- 3D ---------------------------------------------------------------------------------------

struct Pair3 {
  ConvexPolyhedron shapes[2];
  Pose3 poses[2];
};

std::vector<Contact> contacts_3d(const Pair3& p, const Pose3 (&poses)[2]) {
  WorldPolyhedron w[2];
  for (int i = 0; i < 2; ++i) place(p.shapes[i], poses[i], w[i]);
  std::vector<Contact> cs;
  polyhedron_contacts(p.shapes[0], w[0], 0, p.shapes[1], w[1], 1, {100.0, 100.0, 1e-6}, cs);
  return cs;
}

// Closest points of an ee contact's segments interior to both (s, t away from 0 and 1): there
// ψ = n̂·(p_b − p_a) is the signed distance of the edges' lines and p_b − p_a ∥ n̂.
bool interior_edge_edge(const Pair3& p, const Contact& c) {
  const int a = c.body_a, b = c.body_b;
  const PolyhedronEdge& ea = p.shapes[a].edges[c.feature_a];
  const PolyhedronEdge& eb = p.shapes[b].edges[c.feature_b];
  const auto cp = closest_points_segments(p.poses[a].apply(p.shapes[a].vertices[ea.tail]),
                                          p.poses[a].apply(p.shapes[a].vertices[ea.head]),
                                          p.poses[b].apply(p.shapes[b].vertices[eb.tail]),
                                          p.poses[b].apply(p.shapes[b].vertices[eb.head]));
  return cp.s > 1e-3 && cp.s < 1 - 1e-3 && cp.t > 1e-3 && cp.t < 1 - 1e-3;
}

TEST(ContactJacobian, VertexFaceAndEdgeEdgeMatchFiniteDifferences) {
  std::mt19937_64 rng(21);
  std::uniform_real_distribution<Real> u(-1, 1);
  int checked_vf = 0, checked_ee = 0;
  for (int trial = 0; trial < 8; ++trial) {
    Pair3 p;
    for (int i = 0; i < 2; ++i) {
      p.shapes[i] = random_convex_polyhedron(rng);
      p.poses[i] =
          Pose3{Vec3(u(rng), u(rng), u(rng)),
                Quat(Eigen::AngleAxisd(3 * u(rng), Vec3(u(rng), u(rng), u(rng)).normalized()))};
    }
    Vec6 nu[2];  // (v, ω world) per body
    for (auto& v : nu) v << u(rng), u(rng), u(rng), 3 * u(rng), 3 * u(rng), 3 * u(rng);
    const Real h = 1e-6;
    Pose3 plus[2], minus[2];
    for (int i = 0; i < 2; ++i) {
      const Vec3 v = nu[i].head<3>(), w = nu[i].tail<3>();
      plus[i] = {p.poses[i].position + h * v, integrate_exponential(p.poses[i].orientation, w, h)};
      minus[i] = {p.poses[i].position - h * v,
                  integrate_exponential(p.poses[i].orientation, w, -h)};
    }
    const auto cs = contacts_3d(p, p.poses);
    const auto cs_plus = contacts_3d(p, plus), cs_minus = contacts_3d(p, minus);
    for (const Contact& c : cs) {
      if (c.type == ContactType::kEdgeEdge && !interior_edge_edge(p, c)) continue;
      const Contact* cp = find_same(cs_plus, c);
      const Contact* cm = find_same(cs_minus, c);
      ASSERT_TRUE(cp && cm);
      const Real fd = (cp->gap - cm->gap) / (2 * h);
      Vec6 g_a, g_b;
      contact_jacobian(c, 3, p.poses[c.body_a].position, p.poses[c.body_b].position, g_a, g_b);
      const Real analytic = g_a.dot(nu[c.body_a]) + g_b.dot(nu[c.body_b]);
      EXPECT_NEAR(analytic, fd, 1e-6 * (1 + std::abs(fd)))
          << (c.type == ContactType::kEdgeEdge ? "ee" : "vf") << " " << c.feature_a << " "
          << c.feature_b;
      (c.type == ContactType::kEdgeEdge ? checked_ee : checked_vf)++;
    }
  }
  EXPECT_GT(checked_vf, 500);
  EXPECT_GT(checked_ee, 200);
}

TEST(ContactJacobian, BlocksFollowSpec15) {
  // Hand example: n̂ = (0, −1), p_a = (1, 0), x_A = (0, 1), ψ = 0.5, x_B = (3, −2).
  Contact c;
  c.point_a = Vec3(1, 0, 0);
  c.normal = Vec3(0, -1, 0);
  c.gap = 0.5;
  Vec6 g_a, g_b;
  contact_jacobian(c, 2, Vec3(0, 1, 0), Vec3(3, -2, 0), g_a, g_b);
  // G_A = [−n̂; (p_a − x_A) ×₂ (−n̂)] = [0, 1; (1, −1) ×₂ (0, 1)] = [0, 1, 1].
  EXPECT_EQ(g_a.head<3>(), Vec3(0, 1, 1));
  // p_b = (1, −0.5); G_B = [n̂; (p_b − x_B) ×₂ n̂] = [0, −1; (−2, 1.5) ×₂ (0, −1)] = [0, −1, 2].
  EXPECT_EQ(g_b.head<3>(), Vec3(0, -1, 2));
  // 3D: angular block r × (∓n̂).
  c.point_a = Vec3(1, 0, 2);
  c.normal = Vec3(0, 0, 1);
  c.gap = 0;
  contact_jacobian(c, 3, Vec3::Zero(), Vec3(1, 1, 2), g_a, g_b);
  EXPECT_EQ(g_a.head<3>(), Vec3(0, 0, -1));
  EXPECT_EQ(g_a.tail<3>(), Vec3(1, 0, 2).cross(Vec3(0, 0, -1)));
  EXPECT_EQ(g_b.tail<3>(), Vec3(0, -1, 0).cross(Vec3(0, 0, 1)));
  EXPECT_THROW(contact_jacobian(c, 4, Vec3::Zero(), Vec3::Zero(), g_a, g_b), InputError);
}

TEST(ContactJacobian, DirectionJacobianIsRelativeVelocityAlongD) {
  // d·(velocity of B's material point at p_b − velocity of A's at p_a), both bodies moving.
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<Real> u(-1, 1);
  for (int k = 0; k < 50; ++k) {
    const Vec3 d = Vec3(u(rng), u(rng), u(rng)).normalized();
    const Vec3 p_a(u(rng), u(rng), u(rng)), p_b(u(rng), u(rng), u(rng));
    const Vec3 x_a(u(rng), u(rng), u(rng)), x_b(u(rng), u(rng), u(rng));
    const Vec3 v_a(u(rng), u(rng), u(rng)), w_a(u(rng), u(rng), u(rng));
    const Vec3 v_b(u(rng), u(rng), u(rng)), w_b(u(rng), u(rng), u(rng));
    Vec6 g_a, g_b, nu_a, nu_b;
    nu_a << v_a, w_a;
    nu_b << v_b, w_b;
    direction_jacobian(d, p_a, p_b, 3, x_a, x_b, g_a, g_b);
    const Real expected = d.dot((v_b + w_b.cross(p_b - x_b)) - (v_a + w_a.cross(p_a - x_a)));
    EXPECT_NEAR(g_a.dot(nu_a) + g_b.dot(nu_b), expected, 1e-14);
    // Planar: same with z-components dropped and ω about z.
    const Vec3 d2 = Vec3(d.x(), d.y(), 0).normalized();
    direction_jacobian(d2, p_a, p_b, 2, x_a, x_b, g_a, g_b);
    const Vec3 ra = p_a - x_a, rb = p_b - x_b;
    const Real wa = w_a.z(), wb = w_b.z();
    const Vec2 vel_a = v_a.head<2>() + wa * Vec2(-ra.y(), ra.x());
    const Vec2 vel_b = v_b.head<2>() + wb * Vec2(-rb.y(), rb.x());
    const Real expected2 = d2.head<2>().dot(vel_b - vel_a);
    EXPECT_NEAR(g_a.head<2>().dot(v_a.head<2>()) + g_a[2] * wa + g_b.head<2>().dot(v_b.head<2>()) +
                    g_b[2] * wb,
                expected2, 1e-14);
  }
}

}  // namespace
}  // namespace exactsim
