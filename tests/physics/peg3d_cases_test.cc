// The 3D cases of docs/peg.md "Tricky cases" and its "Invariants" for the PEG model, run through
// the full stepper: resting and sliding contact, vertex–edge and vertex–vertex passings (where the
// standard model is trapped), the inner corner of the five-box container and a wall's rim; the
// exact overlap volume after every step is asserted. Also: equivalence with the standard model
// when only U's arise, frame invariance, determinism, the 3D Corrective baseline.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "exactsim/stepping/step.h"

namespace exactsim {
namespace {

// ---- scene building ------------------------------------------------------------------------

Scene empty_scene(ContactModel model, Real h, Real epsilon) {
  Scene s;
  s.world.dimension = 3;
  s.initial.dimension = 3;
  s.world.gravity = Vec3(0, 0, -9.81);
  s.world.contact.model = model;
  s.world.contact.friction = 0;
  s.world.contact.epsilon = epsilon;
  s.step = h;
  return s;
}

int add_body(Scene& s, const ConvexPolyhedron& shape, bool is_static, const Vec3& x,
             const Quat& q = Quat::Identity(), const Vec6& v = Vec6::Zero()) {
  Body b;
  b.is_static = is_static;
  b.shape = static_cast<int>(s.world.polyhedra.size());
  if (is_static) {
    s.world.polyhedra.push_back(shape);
  } else {
    const PolyhedronMassProperties mp = polyhedron_mass_properties(shape, 1000);
    s.world.polyhedra.push_back(translated(shape, -mp.centroid));
    b.mass = mp.mass;
    b.inertia = mp.inertia;
  }
  const int i = s.world.body_count();
  s.world.bodies.push_back(b);
  State& st = s.initial;
  st.q.conservativeResize(7 * (i + 1));
  st.v.conservativeResize(6 * (i + 1));
  st.present.push_back(0);
  st.q_of(i) << x, q.w(), q.x(), q.y(), q.z();
  st.v_of(i) = v;
  return i;
}

// Downward spindle (apex (0, 0, −0.4), waist ±0.1, top (0, 0, 0.4)): its apex can pass a box's
// edge or corner with every apex edge applicable (APPL_vf against a side face −0.24 > −0.4).
ConvexPolyhedron spindle() {
  const Vec3 p[6] = {{0.1, 0, 0},  {-0.1, 0, 0}, {0, 0.1, 0},
                     {0, -0.1, 0}, {0, 0, 0.4},  {0, 0, -0.4}};
  return polyhedron_from_points(p);
}

// Static unit box with its top face at z = 0.
void add_table(Scene& s) { add_body(s, make_box(Vec3(1, 1, 1)), true, Vec3(0, 0, -0.5)); }

struct Sim3 {
  Scene scene;
  State state;
  Workspace ws;
  long steps = 0;
  Real max_overlap = 0;
  int max_intercontacts = 0;
  explicit Sim3(Scene s) : scene(std::move(s)), state(scene.initial) {}
  StepReport advance() {
    const StepReport r = step(scene.world, state, ws, scene.step, steps++);
    if (scene.world.contact.model != ContactModel::kStandard) {
      EXPECT_EQ(r.status, StepStatus::kOk) << "step " << r.step;
    }
    max_overlap = std::max(max_overlap, r.overlap);
    max_intercontacts = std::max(max_intercontacts, r.intercontact);
    return r;
  }
  void advance(int n) {
    for (int k = 0; k < n; ++k) advance();
  }
  Vec3 x(int i) const { return state.q_of(i).head<3>(); }
  Vec6 v(int i) const { return state.v_of(i); }
};

// ---- Tricky cases (docs/peg.md) -------------------------------------------------------------

// Tricky cases item 5: |z − z₀| ≤ 1e−9 and zero spin over 1000 steps at h = 0.01.
TEST(Peg3dCases, CubeRestsFlat) {
  Scene s = empty_scene(ContactModel::kPeg, 0.01, std::nan(""));
  add_body(s, make_box(Vec3(10, 10, 1)), true, Vec3(0, 0, -0.5));
  add_body(s, make_box(Vec3(0.5, 0.5, 0.5)), false, Vec3(0.3, -0.2, 0.25));
  Sim3 run(s);
  for (int k = 0; k < 1000; ++k) {
    run.advance();
    ASSERT_LE(std::abs(run.x(1).z() - 0.25), 1e-9) << "step " << k;
    ASSERT_LE(run.v(1).tail<3>().norm(), 1e-12) << "step " << k;  // round-off only
  }
  EXPECT_EQ(run.max_intercontacts, 0);
  EXPECT_LE(run.max_overlap, 1e-15);
}

// Tricky cases item 4: a box lying flat on a box with aligned edges (every corner a vertex–vertex
// configuration) rests for 2 s without NaN, drift or penetration.
TEST(Peg3dCases, BoxOnBoxAligned) {
  Scene s = empty_scene(ContactModel::kPeg, 0.01, 0.01);
  add_table(s);
  add_body(s, make_box(Vec3(1, 1, 1)), false, Vec3(0, 0, 0.5));
  Sim3 run(s);
  run.advance(200);
  EXPECT_TRUE(run.state.q.allFinite());
  EXPECT_LE((run.x(1) - Vec3(0, 0, 0.5)).norm(), 1e-9);
  EXPECT_LE(run.v(1).norm(), 1e-9);
  EXPECT_LE(run.max_overlap, 1e-12);
}

// An edge sliding over a crossed edge: a box rolled 45° about y slides along x on the top edge
// of a static box rolled 45° about x; the edge–edge U carries it with no penetration.
TEST(Peg3dCases, EdgeSlidesOverEdge) {
  const Real r = std::sqrt(0.5);
  Scene s = empty_scene(ContactModel::kPeg, 0.005, 0.01);
  add_body(s, make_box(Vec3(3, 1, 1)), true, Vec3::Zero(),
           Quat(Eigen::AngleAxisd(M_PI / 4, Vec3::UnitX())));
  add_body(s, make_box(Vec3(0.5, 0.5, 0.5)), false, Vec3(-0.5, 0, r + 0.25 * std::sqrt(2.0)),
           Quat(Eigen::AngleAxisd(M_PI / 4, Vec3::UnitY())),
           (Vec6() << 1, 0, 0, 0, 0, 0).finished());
  Sim3 run(s);
  const Real z0 = run.x(1).z();
  for (int k = 0; k < 100; ++k) {
    const StepReport rep = run.advance();
    ASSERT_EQ(rep.intercontact, 0) << "step " << k;
    ASSERT_GE(rep.unilateral, 1) << "step " << k;
  }
  EXPECT_NEAR(run.x(1).x(), 0.0, 1e-9);  // 0.5 s at 1 m/s, frictionless
  EXPECT_LE(std::abs(run.x(1).z() - z0), 1e-6);
  EXPECT_LE(run.max_overlap, 1e-10);
}

// Free flight of the spindle over h: the velocity PEG must give when nothing touches.
Vec6 free_flight(const Vec6& v0, Real h) {
  return v0 + h * (Vec6() << 0, 0, -9.81, 0, 0, 0).finished();
}

// Tricky cases items 2 and 7 in 3D: the spindle's apex has just passed a box's top edge (ve) or
// corner (vv), 5 mm below the top plane, moving away. PEG: no impulse, the body falls past; the
// standard model: a spurious upward kick from the top face's plane.
void expect_passes(const Vec3& apex, const Vec3& direction) {
  const Real h = 0.01;
  const Vec6 v0 = (Vec6() << 3 * direction, 0, 0, 0).finished();
  for (ContactModel model : {ContactModel::kPeg, ContactModel::kStandard}) {
    Scene s = empty_scene(model, h, 0.05);
    // The paper's ψ/h in the velocity LCP: the standard model's trap shows as its kick.
    s.world.contact.stabilisation = Stabilisation::kVelocity;
    add_table(s);
    add_body(s, spindle(), false, apex + Vec3(0, 0, 0.4), Quat::Identity(), v0);
    Sim3 run(s);
    const StepReport first = run.advance();
    ASSERT_TRUE(first.solver_called);
    if (model == ContactModel::kPeg) {
      EXPECT_GE(first.intercontact, 1);
      EXPECT_LE((run.v(1) - free_flight(v0, h)).norm(), 1e-12);
      run.advance(30);
      EXPECT_LT(run.x(1).z(), apex.z() + 0.4 - 0.05);  // it fell past the rim
      EXPECT_LE(run.max_overlap, 1e-12);
    } else {
      // Trapped: kicked up by the top face's plane, or (corner: several planes at once) no
      // solution at all — the LCP of the linearised half-spaces is infeasible (paper Fig. 3).
      EXPECT_TRUE(first.status == StepStatus::kSolverFailed ||
                  run.v(1)[2] - free_flight(v0, h)[2] > 0.3);
    }
  }
}

TEST(Peg3dCases, VertexPassesBoxEdge) { expect_passes(Vec3(0.52, 0, -0.005), Vec3(1, 0, 0)); }

TEST(Peg3dCases, VertexPassesBoxCorner) {
  expect_passes(Vec3(0.52, 0.52, -0.005), Vec3(1, 1, 0).normalized());
}

// The container of docs/peg3d-experiment.md "Protocol" (five overlapping static boxes).
void add_container(Scene& s) {
  auto box = [&](Vec3 size, Vec3 centre) { add_body(s, make_box(size), true, centre); };
  box(Vec3(10.25, 4.25, 0.25), Vec3(0, 0, -0.125));
  box(Vec3(0.25, 4.25, 4), Vec3(-5, 0, 1.75));
  box(Vec3(0.25, 4.25, 4), Vec3(5, 0, 1.75));
  box(Vec3(10.25, 0.25, 4), Vec3(0, -2, 1.75));
  box(Vec3(10.25, 0.25, 4), Vec3(0, 2, 1.75));
}

// Tricky cases item 6: an icosahedron sliding along the floor into the inner corner (x = 4.875,
// y = 1.875) stops there with no overlap with any part (hidden edges under the walls unused).
TEST(Peg3dCases, SlidesIntoInnerCornerOfContainer) {
  Scene s = empty_scene(ContactModel::kPeg, 0.005, 0.02);
  add_container(s);
  const ConvexPolyhedron ico = make_icosahedron(0.3);
  const int b = add_body(s, ico, false, Vec3(4.2, 1.2, 0.3), Quat::Identity(),
                         (Vec6() << 2, 2, 0, 0, 0, 0).finished());
  Sim3 run(s);
  run.advance(150);
  EXPECT_LE(run.max_overlap, 1e-10);
  EXPECT_GT(run.x(b).x(), 4.2);
  EXPECT_LE(run.x(b).x(), 4.875 - 0.2);  // stopped by the wall (inradius of the icosahedron 0.227)
  EXPECT_LE(run.x(b).y(), 1.875 - 0.2);
}

// Tricky cases item 7: an icosahedron landing on the rim of a wall, its centre just outside the
// wall's outer face, slides off (vertex–edge / vertex–vertex against a static body) and falls. Its
// tumbling lets the linearised constraints leave a second-order overlap (1.7e−9 m³ at h = 5 ms);
// halving h must shrink it by far more than 2× (measured: ≈ 23×), i.e. it is the linearisation,
// not a missed contact.
TEST(Peg3dCases, LandsOnWallRimAndSlidesOff) {
  Real overlap[2];
  for (int k = 0; k < 2; ++k) {
    const Real h = k == 0 ? 0.005 : 0.0025;
    Scene s = empty_scene(ContactModel::kPeg, h, 0.02);
    add_container(s);
    const int b = add_body(s, make_icosahedron(0.3), false, Vec3(5.2, 0.1, 4.1),
                           Quat(Eigen::AngleAxisd(0.3, Vec3(1, 1, 0).normalized())));
    Sim3 run(s);
    run.advance(static_cast<int>(std::lround(0.8 / h)));
    EXPECT_LT(run.x(b).z(), 3.75 - 0.5);  // off the rim, below the wall top
    EXPECT_GT(run.x(b).x(), 5.125);       // on the outside
    overlap[k] = run.max_overlap;
  }
  EXPECT_LE(overlap[0], 1e-8);
  EXPECT_LE(overlap[1], 1e-10);
  EXPECT_LE(overlap[1], overlap[0] / 8);
}

// ---- Invariants (docs/peg.md) ---------------------------------------------------------------

// A frictionless stack of four offset, tilted, spinning boxes (the scene of the skipped
// Determinism.BoxStack3d) lands and settles: the bottom vertices of each box sit near the side
// faces of the box below, the 3D SM trap where the standard model's contact set exploded; each
// box rests on the one below as a face patch (collision/face_patch.h), so no side face traps it.
// Frictionless, the boxes keep the horizontal drift and the twist the landing gave them: kinetic
// energy then stays constant (nothing dissipates it, nothing adds to it), the stack's horizontal
// momentum stays zero (the floor pushes only vertically), and no box sinks.
TEST(Peg3dCases, FrictionlessBoxStackComesToRest) {
  Scene s = empty_scene(ContactModel::kPeg, 0.005, std::nan(""));
  add_body(s, make_box(Vec3(10, 10, 1)), true, Vec3(0, 0, -0.5));
  for (int i = 0; i < 4; ++i)
    add_body(s, make_box(Vec3(0.5, 0.4, 0.3)), false, Vec3(0.03 * i, -0.02 * i, 0.16 + 0.32 * i),
             Quat(1, 0, 0, 0.05 * i).normalized(), (Vec6() << 0, 0, 0, 0, 0.1 * i, 0).finished());
  Sim3 run(s);
  run.advance(100);  // landed by step 30
  const Real settled = run.advance().kinetic_energy;
  run.max_overlap = 0;
  StepReport last;
  for (int k = 0; k < 100; ++k) last = run.advance();
  EXPECT_LE(run.max_overlap, 1e-12);
  EXPECT_NEAR(last.kinetic_energy, settled, 1e-9 * (1 + settled));
  Vec3 momentum = Vec3::Zero();
  for (int i = 1; i <= 4; ++i) {
    momentum += s.world.bodies[i].mass * run.v(i).head<3>();
    EXPECT_LT(std::abs(run.v(i)[2]), 1e-9) << "box " << i;
    EXPECT_GT(run.x(i).z(), 0.15 + 0.3 * (i - 1) - 1e-6) << "box " << i;
  }
  EXPECT_LT(momentum.norm(), 1e-9);
}

// Only U's arise (a cube resting and one sliding on a floor): PEG and the standard model give
// bit-identical trajectories.
TEST(Peg3dInvariants, EquivalentToStandardWhenOnlyUnilaterals) {
  State end[2];
  for (ContactModel model : {ContactModel::kPeg, ContactModel::kStandard}) {
    Scene s = empty_scene(model, 0.01, std::nan(""));
    add_body(s, make_box(Vec3(10, 10, 1)), true, Vec3(0, 0, -0.5));
    add_body(s, make_box(Vec3(0.5, 0.5, 0.5)), false, Vec3(-2, 0, 0.25));
    add_body(s, make_box(Vec3(0.4, 0.6, 0.3)), false, Vec3(2, 1, 0.25), Quat::Identity(),
             (Vec6() << -1, 0.5, 0, 0, 0, 0.5).finished());
    Sim3 run(s);
    for (int k = 0; k < 100; ++k) ASSERT_EQ(run.advance().intercontact, 0);
    end[model == ContactModel::kPeg ? 0 : 1] = run.state;
  }
  EXPECT_EQ(end[0].q, end[1].q);
  EXPECT_EQ(end[0].v, end[1].v);
}

Scene corner_scene(const Quat& frame, const Vec3& shift) {
  Scene s = empty_scene(ContactModel::kPeg, 0.01, 0.05);
  s.world.gravity = frame * Vec3(0, 0, -9.81);
  add_body(s, make_box(Vec3(1, 1, 1)), true, frame * Vec3(0, 0, -0.5) + shift, frame);
  add_body(s, spindle(), false, frame * Vec3(0.515, 0.52, 0.39) + shift, frame,
           (Vec6() << frame * Vec3(1.5, 1, 0), Vec3::Zero()).finished());
  add_body(s, make_icosahedron(0.3), false, frame * Vec3(-0.1, 0.0, 0.35) + shift, frame,
           (Vec6() << frame * Vec3(0.2, 0.1, 0), frame * Vec3(0, 0, 1)).finished());
  return s;
}

// Rotating and translating the whole scene (gravity included) rotates/translates the result.
TEST(Peg3dInvariants, FrameInvariance) {
  const Quat frame(Eigen::AngleAxisd(0.8, Vec3(1, -2, 0.5).normalized()));
  const Vec3 shift(3, -1, 2);
  Sim3 a(corner_scene(Quat::Identity(), Vec3::Zero())), b(corner_scene(frame, shift));
  a.advance(40);
  b.advance(40);
  for (int i = 1; i < 3; ++i) {
    EXPECT_LE((frame * a.x(i) + shift - b.x(i)).norm(), 1e-8) << "body " << i;
    EXPECT_LE((frame * a.v(i).head<3>() - b.v(i).head<3>()).norm(), 1e-7) << "body " << i;
  }
  EXPECT_GT(a.max_intercontacts, 0);
}

TEST(Peg3dInvariants, Deterministic) {
  Sim3 a(corner_scene(Quat::Identity(), Vec3::Zero())),
      b(corner_scene(Quat::Identity(), Vec3::Zero()));
  a.advance(40);
  b.advance(40);
  EXPECT_EQ(a.state.q, b.state.q);
  EXPECT_EQ(a.state.v, b.state.v);
}

// Friction through the assembly: a cube sliding on the floor with μ = 0.5 stops after
// v²/(2μg) and the I constraints of the vertex–edge case accept cones too.
TEST(Peg3dInvariants, FrictionStopsASlidingCube) {
  Scene s = empty_scene(ContactModel::kPeg, 0.005, std::nan(""));
  s.world.contact.friction = 0.5;
  add_body(s, make_box(Vec3(10, 10, 1)), true, Vec3(0, 0, -0.5));
  add_body(s, make_box(Vec3(0.5, 0.5, 0.5)), false, Vec3(0, 0, 0.25), Quat::Identity(),
           (Vec6() << 1, 0, 0, 0, 0, 0).finished());
  Sim3 run(s);
  run.advance(100);
  EXPECT_LE(run.v(1).head<3>().norm(), 1e-9);
  EXPECT_NEAR(run.x(1).x(), 1.0 / (2 * 0.5 * 9.81), 0.01);
  Scene t = corner_scene(Quat::Identity(), Vec3::Zero());
  t.world.contact.friction = 0.3;
  Sim3 run2(t);
  int checked = 0;
  for (int k = 0; k < 20; ++k) {
    const StepReport r = run2.advance();
    if (r.intercontact == 0) continue;
    // A cone on every U and on the primary of every impulse-carrying I (docs/peg.md), 4 directions.
    int carrying = 0;
    for (const auto& ic : run2.ws.constraints.intercontacts) carrying += ic.carries_impulse;
    ASSERT_EQ(r.islands, 1);  // ws.layout is the last island's
    EXPECT_EQ(run2.ws.layout.n_friction_contacts, r.unilateral + carrying);
    EXPECT_EQ(run2.ws.layout.friction_directions, 4);
    ++checked;
  }
  EXPECT_GT(checked, 0);
  EXPECT_LE(run2.max_overlap, 1e-10);
}

// The 3D Corrective baseline: contacts only after penetration; a cube dropped onto the floor
// penetrates (by the last step's fall) and is pushed back out.
TEST(Peg3dCorrective, OneContactPerOverlappingPair) {
  Scene s = empty_scene(ContactModel::kCorrective, 0.01, std::nan(""));
  add_body(s, make_box(Vec3(10, 10, 1)), true, Vec3(0, 0, -0.5));
  add_body(s, make_box(Vec3(0.5, 0.5, 0.5)), false, Vec3(0, 0, 0.3));
  Sim3 run(s);
  int contacts_seen = 0;
  for (int k = 0; k < 100; ++k) {
    const StepReport r = run.advance();
    EXPECT_LE(r.potential_contacts, 1);
    contacts_seen += r.potential_contacts;
  }
  EXPECT_GT(contacts_seen, 0);
  EXPECT_GT(run.max_overlap, 0);  // it only reacts to penetration
  EXPECT_NEAR(run.x(1).z(), 0.25, 0.01);
  EXPECT_LE(run.v(1).tail<3>().norm(), 1e-9);
}

}  // namespace
}  // namespace exactsim
