// Compound bodies (docs/api.md "Compound bodies"): convex parts welded in one frame.
//
// Closed forms. An L of two rectangles (2D) or boxes (3D) of uniform density: each part's mass
// is ρ times its area (volume), the union's centre of mass the mass-weighted mean of the parts',
// and its inertia the sum of each part's own (m(a² + b²)/12 for a rectangle about its centre,
// diag(b² + c², a² + c², a² + b²) m/12 for a box) moved to the common centre by the parallel-axis
// theorem, m |d|² in 2D and m (|d|² 1 − d dᵀ) in 3D.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "exactsim/exactsim.h"
#include "exactsim/geometry/compound.h"
#include "exactsim/io/mesh_file.h"
#include "exactsim/io/scene_json.h"
#include "input_error.h"

namespace exactsim::compound_test {
namespace {

// An axis-aligned rectangle [x0, x1] × [y0, y1] and box [lo, hi].
ConvexPolygon rectangle(Real x0, Real y0, Real x1, Real y1) {
  const std::vector<Vec2> corners{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
  return polygon_from_points(corners);
}

ConvexPolyhedron cuboid(const Vec3& lo, const Vec3& hi) {
  std::vector<Vec3> corners;
  for (int k = 0; k < 8; ++k)
    corners.emplace_back(k & 1 ? hi.x() : lo.x(), k & 2 ? hi.y() : lo.y(), k & 4 ? hi.z() : lo.z());
  return polyhedron_from_points(corners);
}

// The L: a foot [0, 1] × [0, 0.2] and an arm [0, 0.2] × [0.2, 1.2] on its left end (3D: both
// 0.2 deep in y, centred on y = 0), the corner of the L at the shape frame's origin.
std::vector<Shape> l_parts(int dimension) {
  if (dimension == 2) return {rectangle(0, 0, 1, 0.2), rectangle(0, 0.2, 0.2, 1.2)};
  return {cuboid({0, -0.1, 0}, {1, 0.1, 0.2}), cuboid({0, -0.1, 0.2}, {0.2, 0.1, 1.2})};
}

struct Part {
  Vec3 lo, hi;  // axis-aligned extent (2D: z ignored)
};

const Part kFoot{{0, -0.1, 0}, {1, 0.1, 0.2}};
const Part kArm{{0, -0.1, 0.2}, {0.2, 0.1, 1.2}};

Scene floor_scene(int dimension, Real mu = 0.5) {
  Scene s = make_scene(dimension, 0.005, 1.0);
  s.world.contact.friction = mu;
  if (dimension == 2)
    add_body(s, {.name = "floor",
                 .shape = make_box(Vec2(10, 1)),
                 .is_static = true,
                 .position = {0, -0.5}});
  else
    add_body(s, {.name = "floor",
                 .shape = make_box(Vec3(10, 10, 1)),
                 .is_static = true,
                 .position = {0, 0, -0.5}});
  return s;
}

TEST(Compound, LShapesMassPropertiesAreTheClosedForm) {
  const Real rho = 100;
  // 2D: the parts in the plane (x, z of the table above → x, y).
  {
    Scene s = floor_scene(2);
    const int l =
        add_body(s, {.name = "L", .parts = l_parts(2), .density = rho, .position = {2, 0.01}});
    const Body& b = s.world.bodies[l];
    Real m = 0, inertia = 0;
    Vec2 c = Vec2::Zero();
    for (const Part& p : {kFoot, kArm}) {
      const Real w = p.hi.x() - p.lo.x(), h = p.hi.z() - p.lo.z();
      m += rho * w * h;
      c += rho * w * h * Vec2(p.lo.x() + w / 2, p.lo.z() + h / 2);
    }
    c /= m;
    for (const Part& p : {kFoot, kArm}) {
      const Real w = p.hi.x() - p.lo.x(), h = p.hi.z() - p.lo.z(), mp = rho * w * h;
      const Vec2 d = Vec2(p.lo.x() + w / 2, p.lo.z() + h / 2) - c;
      inertia += mp * (w * w + h * h) / 12 + mp * d.squaredNorm();
    }
    EXPECT_NEAR(b.mass, m, 1e-12 * m);
    EXPECT_NEAR(b.planar_inertia, inertia, 1e-12 * inertia);
    EXPECT_EQ(b.extra_parts, 1);
    // The body origin is the centre of mass: the shape frame stays where it was put.
    EXPECT_NEAR(s.initial.q_of(l)[0], 2 + c.x(), 1e-12);
    EXPECT_NEAR(s.initial.q_of(l)[1], 0.01 + c.y(), 1e-12);
  }
  {
    Scene s = floor_scene(3);
    const int l =
        add_body(s, {.name = "L", .parts = l_parts(3), .density = rho, .position = {2, 0, 0.01}});
    const Body& b = s.world.bodies[l];
    Real m = 0;
    Vec3 c = Vec3::Zero();
    for (const Part& p : {kFoot, kArm}) {
      const Vec3 e = p.hi - p.lo;
      m += rho * e.prod();
      c += rho * e.prod() * (p.lo + p.hi) / 2;
    }
    c /= m;
    Mat3 inertia = Mat3::Zero();
    for (const Part& p : {kFoot, kArm}) {
      const Vec3 e = p.hi - p.lo, d = (p.lo + p.hi) / 2 - c;
      const Real mp = rho * e.prod();
      const Vec3 own(e.y() * e.y() + e.z() * e.z(), e.x() * e.x() + e.z() * e.z(),
                     e.x() * e.x() + e.y() * e.y());
      inertia += Mat3(own.asDiagonal()) * mp / 12 +
                 mp * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
    }
    EXPECT_NEAR(b.mass, m, 1e-12 * m);
    EXPECT_LT((b.inertia - inertia).norm(), 1e-12 * inertia.norm());
    EXPECT_LT((s.initial.q_of(l).head<3>() - (Vec3(2, 0, 0.01) + c)).norm(), 1e-12);
  }
}

// The same body from a scene file's `compound` shape, and from the scene written back: bitwise.
TEST(Compound, SceneFileAndCodeBuildTheSameBody) {
  for (int d : {2, 3}) {
    SCOPED_TRACE(d);
    Scene code = floor_scene(d);
    add_body(code, {.name = "L",
                    .parts = l_parts(d),
                    .density = 100,
                    .position = d == 2 ? Coordinates(2, 0.01) : Coordinates(2, 0, 0.01)});
    nlohmann::json doc = scene_to_json(code);
    // As a user writes it: the parts as given, with a density.
    nlohmann::json& l = doc["bodies"][1];
    l.erase("mass");
    l.erase("inertia");
    l["density"] = 100;
    l["position"] = d == 2 ? nlohmann::json{2, 0.01} : nlohmann::json{2, 0, 0.01};
    nlohmann::json parts = nlohmann::json::array();
    for (const Part& p : {kFoot, kArm})
      if (d == 2)
        parts.push_back({{"polygon",
                          {{p.lo.x(), p.lo.z()},
                           {p.hi.x(), p.lo.z()},
                           {p.hi.x(), p.hi.z()},
                           {p.lo.x(), p.hi.z()}}}});
      else
        parts.push_back({{"hull", nlohmann::json::array({{p.lo.x(), p.lo.y(), p.lo.z()},
                                                         {p.hi.x(), p.lo.y(), p.lo.z()},
                                                         {p.lo.x(), p.hi.y(), p.lo.z()},
                                                         {p.hi.x(), p.hi.y(), p.lo.z()},
                                                         {p.lo.x(), p.lo.y(), p.hi.z()},
                                                         {p.hi.x(), p.lo.y(), p.hi.z()},
                                                         {p.lo.x(), p.hi.y(), p.hi.z()},
                                                         {p.hi.x(), p.hi.y(), p.hi.z()}})}});
    l["shape"] = {{"compound", parts}};
    const Scene file = parse_scene(doc, "compound.json");
    const Body& a = code.world.bodies[1];
    const Body& b = file.world.bodies[1];
    EXPECT_EQ(a.mass, b.mass);
    EXPECT_EQ(a.planar_inertia, b.planar_inertia);
    EXPECT_EQ(a.inertia, b.inertia);
    EXPECT_EQ(code.initial.q, file.initial.q);
    ASSERT_EQ(b.extra_parts, 1);
    // Written back and read again: the same body and parts, bit for bit.
    const Scene again = parse_scene(scene_to_json(file), "again.json");
    EXPECT_EQ(again.world.bodies[1].mass, b.mass);
    EXPECT_EQ(again.initial.q, file.initial.q);
    ASSERT_EQ(again.world.parts.size(), file.world.parts.size());
    for (int c = 0; c < file.world.collider_count(); ++c)
      if (d == 2)
        EXPECT_EQ(again.world.polygons[again.world.collider_shape(c)].vertices,
                  file.world.polygons[file.world.collider_shape(c)].vertices);
      else
        EXPECT_EQ(again.world.polyhedra[again.world.collider_shape(c)].vertices,
                  file.world.polyhedra[file.world.collider_shape(c)].vertices);
  }
}

// Dropped foot down, the L comes to rest on the foot's underside: its centre of mass at the
// closed-form height above the floor, not turned, at rest; its two parts, which touch along the
// foot's top face, never push each other apart (no contact within one body).
TEST(Compound, LRestsOnItsFoot) {
  for (int d : {2, 3}) {
    SCOPED_TRACE(d);
    Scene s = floor_scene(d);
    const int l =
        add_body(s, {.name = "L",
                     .parts = l_parts(d),
                     .density = 100,
                     .position = d == 2 ? Coordinates(0, 0.01) : Coordinates(0, 0, 0.01)});
    const Real com_height = s.initial.q_of(l)[d - 1] - 0.01;  // above the foot's underside
    Simulation sim(s);
    for (int k = 0; k < 200; ++k) {
      ASSERT_EQ(sim.step().status, StepStatus::kOk) << "step " << k;
      for (const ContactResult& c : sim.contacts()) ASSERT_NE(c.body_a, c.body_b);
    }
    EXPECT_NEAR(sim.position(l)[d - 1], com_height, 1e-6);
    if (d == 2)
      EXPECT_NEAR(sim.angle(l), 0, 1e-9);
    else
      EXPECT_NEAR(sim.orientation(l).angularDistance(Quat::Identity()), 0, 1e-9);
    EXPECT_LT(sim.velocity(l).norm(), 1e-6);
    EXPECT_LT(sim.angular_velocity(l).norm(), 1e-6);
  }
}

// A small box dropped into the L's inner corner rests on the foot's top face, inside the corner:
// where the union's surface is, not on the hull's diagonal from the foot's tip to the arm's top.
TEST(Compound, ABoxSettlesInTheLsInnerCorner) {
  for (int d : {2, 3}) {
    SCOPED_TRACE(d);
    Scene s = floor_scene(d);
    const int l = add_body(s, {.name = "L",
                               .parts = l_parts(d),
                               .density = 100,
                               .position = d == 2 ? Coordinates(0, 0) : Coordinates(0, 0, 0)});
    const Real side = 0.1;
    const int box = d == 2 ? add_body(s, {.name = "box",
                                          .shape = make_box(Vec2(side, side)),
                                          .density = 100,
                                          .position = {0.5, 0.4}})
                           : add_body(s, {.name = "box",
                                          .shape = make_box(Vec3(side, side, side)),
                                          .density = 100,
                                          .position = {0.5, 0, 0.4}});
    Simulation sim(s);
    for (int k = 0; k < 200; ++k) ASSERT_EQ(sim.step().status, StepStatus::kOk) << "step " << k;
    // On the foot's top face (height 0.2), between the arm (x = 0.2) and the foot's tip (x = 1).
    const Vec3 p = sim.position(box);
    EXPECT_NEAR(p[d - 1], 0.2 + side / 2, 1e-6);
    EXPECT_GT(p.x(), 0.2 + side / 2 - 1e-6);
    EXPECT_LT(p.x(), 1.0);
    EXPECT_LT(sim.velocity(box).norm(), 1e-6);
    EXPECT_LT(sim.velocity(l).norm(), 1e-6);
  }
}

TEST(Compound, OverlappingPartsAreRejectedWithTheirIndices) {
  Scene s = floor_scene(2);
  EXPECT_EQ(
      ErrorOf([&] {
        add_body(s, {.name = "bad",
                     .parts = {rectangle(0, 0, 1, 1), rectangle(0.5, 0, 1.5, 1)},
                     .density = 1,
                     .position = {0, 2}});
      }),
      "bodies[1] (bad).parts: parts 0 and 1 overlap (50 % of the smaller); the parts of a body "
      "may only touch");
  EXPECT_EQ(s.world.body_count(), 1);  // the failed call left the scene as it was
  EXPECT_TRUE(s.world.parts.empty());
  EXPECT_EQ(s.world.polygons.size(), 1u);
  // Parts that are fine but whose mass is out of range (2e12 kg): nothing of them stays either.
  EXPECT_NE(ErrorOf([&] {
              add_body(s, {.name = "heavy",
                           .parts = {rectangle(0, 0, 1000, 1000), rectangle(1000, 0, 2000, 1000)},
                           .density = 1e6});
            }),
            "(no InputError)");
  EXPECT_EQ(s.world.body_count(), 1);
  EXPECT_TRUE(s.world.parts.empty());
  EXPECT_EQ(s.world.polygons.size(), 1u);
  EXPECT_EQ(ErrorOf([&] {
              add_body(s, {.name = "both",
                           .shape = rectangle(0, 0, 1, 1),
                           .parts = {rectangle(0, 0, 1, 1)},
                           .density = 1});
            }),
            "bodies[1] (both).parts: give either shape or parts, not both");
}

// An OBJ file whose two objects are the L's parts is one compound body of both.
TEST(Compound, AnObjFileWithTwoObjectsIsOneCompoundBody) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "exactsim_compound";
  std::filesystem::create_directories(dir);
  const std::filesystem::path obj = dir / "l.obj";
  {
    std::ofstream f(obj);
    for (const Part* p : {&kFoot, &kArm}) {
      f << "o part\n";
      for (int k = 0; k < 8; ++k)
        f << "v " << (k & 1 ? p->hi.x() : p->lo.x()) << ' ' << (k & 2 ? p->hi.y() : p->lo.y())
          << ' ' << (k & 4 ? p->hi.z() : p->lo.z()) << '\n';
    }
  }
  const std::vector<ConvexPolyhedron> parts = read_mesh_parts(obj.string());
  ASSERT_EQ(parts.size(), 2u);
  nlohmann::json doc = scene_to_json(floor_scene(3));
  doc["bodies"].push_back({{"name", "L"},
                           {"shape", {{"mesh", "l.obj"}}},
                           {"density", 100},
                           {"position", {0, 0, 0.01}}});
  const Scene s = parse_scene(doc, (dir / "scene.json").string());
  Scene code = floor_scene(3);
  add_body(code, {.name = "L", .parts = l_parts(3), .density = 100, .position = {0, 0, 0.01}});
  EXPECT_EQ(s.world.bodies[1].extra_parts, 1);
  EXPECT_NEAR(s.world.bodies[1].mass, code.world.bodies[1].mass, 1e-12);
  EXPECT_LT((s.world.bodies[1].inertia - code.world.bodies[1].inertia).norm(), 1e-12);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace exactsim::compound_test
