// The end-of-step metrics of step() (docs/stepping.md stage 7) share one broad phase, taken from
// the step's own detection (find_overlapping_pairs): after every step of 2D and 3D pours (static
// walls overlapping at the corners, bodies spawning, resting and sliding, touching and slightly
// overlapping pairs), the reported overlap, penetration depth, deep pairs and centres inside
// static bodies equal the brute-force all-pairs values of the end state, bitwise.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "exactsim/metrics/penetration_depth.h"
#include "exactsim/stepping/step.h"
#include "experiments/scenarios.h"

namespace exactsim {
namespace {

struct AllPairs {
  Real overlap = 0, max_depth = 0;
  std::vector<std::pair<int, int>> deep;
  std::vector<std::pair<int, int>> inside;  // (body, static body)
};

bool candidate(const World& w, const State& s, int i, int j) {
  return s.present[i] && s.present[j] && !(w.bodies[i].is_static && w.bodies[j].is_static);
}

// Every pair (i < j) in order, from shapes placed here from the end state.
AllPairs all_pairs_2d(const World& w, const State& s, Real eps) {
  const int n = w.body_count();
  std::vector<WorldPolygon> p(n);
  for (int i = 0; i < n; ++i)
    if (s.present[i])
      place(w.polygons[w.bodies[i].shape], Pose2{s.q_of(i).head<2>(), s.q_of(i)[2]}, p[i]);
  AllPairs a;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      if (!candidate(w, s, i, j) || !p[i].aabb.overlaps(p[j].aabb)) continue;
      a.overlap += polygon_intersection_area(p[i].vertices, p[j].vertices);
      const Real d = penetration_depth(p[i], p[j]).depth;
      a.max_depth = std::max(a.max_depth, d);
      if (d > eps) a.deep.emplace_back(i, j);
      if (w.bodies[i].is_static != w.bodies[j].is_static) {
        const int body = w.bodies[i].is_static ? j : i, wall = w.bodies[i].is_static ? i : j;
        if (interior_depth(p[wall], Vec2(s.q_of(body).head<2>())) > 0)
          a.inside.emplace_back(body, wall);
      }
    }
  std::sort(a.inside.begin(), a.inside.end());
  return a;
}

AllPairs all_pairs_3d(const World& w, const State& s, Real eps) {
  const int n = w.body_count();
  std::vector<WorldPolyhedron> p(n);
  std::vector<Pose3> poses(n);
  for (int i = 0; i < n; ++i)
    if (s.present[i]) {
      poses[i] = Pose3{body_position(s, i), body_orientation(s, i)};
      place(w.polyhedra[w.bodies[i].shape], poses[i], p[i]);
    }
  AllPairs a;
  IntersectionScratch is;
  PenetrationScratch ps;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) {
      if (!candidate(w, s, i, j) || !p[i].aabb.overlaps(p[j].aabb)) continue;
      const ConvexPolyhedron &si = w.polyhedra[w.bodies[i].shape],
                             &sj = w.polyhedra[w.bodies[j].shape];
      a.overlap += polyhedron_intersection_volume(si, poses[i], sj, poses[j], nullptr, &is);
      const Real d = penetration_depth(si, p[i], sj, p[j], ps).depth;
      a.max_depth = std::max(a.max_depth, d);
      if (d > eps) a.deep.emplace_back(i, j);
      if (w.bodies[i].is_static != w.bodies[j].is_static) {
        const int body = w.bodies[i].is_static ? j : i, wall = w.bodies[i].is_static ? i : j;
        if (interior_depth(p[wall], poses[body].position) > 0) a.inside.emplace_back(body, wall);
      }
    }
  std::sort(a.inside.begin(), a.inside.end());
  return a;
}

// Steps the scene and checks every step; returns the steps in which some body left its
// detection box (so the escaped-body sweep ran).
int check_run(const Scene& scene, long steps) {
  const World& w = scene.world;
  const Real h = scene.step, eps = contact_epsilon(w, h);
  State s = scene.initial;
  Workspace ws;
  int steps_with_escapes = 0, overlapping_steps = 0;
  for (long k = 0; k < steps; ++k) {
    const StepReport r = step(w, s, ws, h, k);
    if (r.status == StepStatus::kDiverged) {
      ADD_FAILURE() << "diverged at step " << k;
      break;
    }
    steps_with_escapes += !ws.end_sweep.escaped.empty();
    const AllPairs a = w.dimension == 2 ? all_pairs_2d(w, s, eps) : all_pairs_3d(w, s, eps);
    overlapping_steps += a.overlap > 0;
    EXPECT_EQ(r.overlap, a.overlap) << "step " << k;
    EXPECT_EQ(r.max_penetration, a.max_depth) << "step " << k;
    std::vector<std::pair<int, int>> deep, inside;
    for (const PenetratingPair& p : r.deep_penetrations) deep.emplace_back(p.body_a, p.body_b);
    for (const CentreInsideStatic& c : r.centres_inside_static)
      inside.emplace_back(c.body, c.static_body);
    EXPECT_EQ(deep, a.deep) << "step " << k;
    EXPECT_EQ(inside, a.inside) << "step " << k;
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_GT(overlapping_steps, 0);  // the walls overlap at the corners, bodies touch
  return steps_with_escapes;
}

TEST(EndOfStepMetrics, EqualAllPairsInA2dPour) {
  Pour2dOptions o;
  o.step = 0.005;
  o.bodies = 12;
  o.model = ContactModel::kPeg;
  Scene scene = pour2d_random(5, o);
  scene.world.stepping.continue_on_solver_failure = true;
  const int escapes = check_run(scene, 900);  // 4.5 s: all 12 spawned, falling, piling up
  EXPECT_GT(escapes, 0);
}

TEST(EndOfStepMetrics, EqualAllPairsInA3dPour) {
  Pour3dOptions o;
  o.step = 0.01;
  o.bodies = 4;
  o.model = ContactModel::kPeg;
  Scene scene = pour3d_random(3, o);
  scene.world.stepping.continue_on_solver_failure = true;
  check_run(scene, 250);  // 2.5 s: four hulls thrown in, landing
}

}  // namespace
}  // namespace exactsim
