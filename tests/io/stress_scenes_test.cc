// The stress campaign's scenes and job list (docs/robustness.md "Stress campaign"): builders are
// deterministic, bodies start apart, masses and aspect ratios are in the stated ranges, the
// incline slides with the closed-form acceleration and sticks above tan θ, and the --quick job
// list is what the docs say.
#include "experiments/stress_scenes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <set>

#include "exactsim/geometry/pose.h"
#include "exactsim/stepping/step.h"
#include "experiments/scenario_by_name.h"
#include "experiments/stress.h"

namespace exactsim {
namespace {

bool same_bits(Real a, Real b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Bit-identical scenes: every number that enters a simulation.
void expect_identical(const Scene& a, const Scene& b) {
  ASSERT_EQ(a.name, b.name);
  ASSERT_EQ(a.world.body_count(), b.world.body_count());
  EXPECT_TRUE(same_bits(a.step, b.step));
  EXPECT_TRUE(same_bits(a.duration, b.duration));
  EXPECT_TRUE(same_bits(a.world.contact.friction, b.world.contact.friction));
  EXPECT_EQ(a.world.contact.friction_directions, b.world.contact.friction_directions);
  EXPECT_EQ(a.world.contact.model, b.world.contact.model);
  for (int i = 0; i < a.world.body_count(); ++i) {
    const Body &x = a.world.bodies[i], &y = b.world.bodies[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.is_static, y.is_static);
    EXPECT_EQ(x.shape, y.shape);
    EXPECT_TRUE(same_bits(x.mass, y.mass)) << i;
    EXPECT_TRUE(same_bits(x.planar_inertia, y.planar_inertia)) << i;
    for (int k = 0; k < 9; ++k) EXPECT_TRUE(same_bits(x.inertia(k), y.inertia(k))) << i;
    EXPECT_TRUE(same_bits(x.spawn_time, y.spawn_time)) << i;
  }
  ASSERT_EQ(a.world.polygons.size(), b.world.polygons.size());
  for (size_t s = 0; s < a.world.polygons.size(); ++s) {
    ASSERT_EQ(a.world.polygons[s].vertices.size(), b.world.polygons[s].vertices.size());
    for (size_t v = 0; v < a.world.polygons[s].vertices.size(); ++v)
      for (int k = 0; k < 2; ++k)
        EXPECT_TRUE(
            same_bits(a.world.polygons[s].vertices[v][k], b.world.polygons[s].vertices[v][k]));
  }
  ASSERT_EQ(a.world.polyhedra.size(), b.world.polyhedra.size());
  for (size_t s = 0; s < a.world.polyhedra.size(); ++s) {
    const auto &p = a.world.polyhedra[s], &q = b.world.polyhedra[s];
    ASSERT_EQ(p.vertices.size(), q.vertices.size());
    for (size_t v = 0; v < p.vertices.size(); ++v)
      for (int k = 0; k < 3; ++k) EXPECT_TRUE(same_bits(p.vertices[v][k], q.vertices[v][k]));
    ASSERT_EQ(p.faces.size(), q.faces.size());
    for (size_t f = 0; f < p.faces.size(); ++f) EXPECT_EQ(p.faces[f].vertices, q.faces[f].vertices);
  }
  ASSERT_EQ(a.initial.q.size(), b.initial.q.size());
  for (Eigen::Index k = 0; k < a.initial.q.size(); ++k)
    EXPECT_TRUE(same_bits(a.initial.q[k], b.initial.q[k]));
  ASSERT_EQ(a.initial.v.size(), b.initial.v.size());
  for (Eigen::Index k = 0; k < a.initial.v.size(); ++k)
    EXPECT_TRUE(same_bits(a.initial.v[k], b.initial.v[k]));
}

std::vector<Scene> all_scenes(std::uint64_t seed) {
  HullPourOptions h;
  StackOptions s;
  s.seed = seed;
  std::vector<Scene> out = {hull_pour2d(seed, h), hull_pour3d(seed, h), box_stack3d(s),
                            box_tower3d(s), box_pyramid3d(s)};
  for (int dim : {2, 3})
    for (Real off : {-0.05, 0.05}) {
      InclineOptions o;
      o.dimension = dim;
      o.friction_offset = off;
      out.push_back(incline_scene(o));
    }
  return out;
}

TEST(StressScenes, DeterministicFromTheSeed) {
  const auto a = all_scenes(7), b = all_scenes(7);
  ASSERT_EQ(a.size(), b.size());
  for (size_t k = 0; k < a.size(); ++k) {
    SCOPED_TRACE(a[k].name);
    expect_identical(a[k], b[k]);
  }
  // Another seed gives other hulls.
  const Scene c = hull_pour3d(8, {});
  EXPECT_NE(a[1].world.polyhedra.back().vertices.front(),
            c.world.polyhedra.back().vertices.front());
}

Pose3 pose3(const Scene& s, int i) {
  const auto q = s.initial.q_of(i);
  return {Vec3(q[0], q[1], q[2]), Quat(q[3], q[4], q[5], q[6]).normalized()};
}

Real initial_overlap(const Scene& s, int i, int j) {
  const World& w = s.world;
  if (w.dimension == 3)
    return polyhedron_intersection_volume(w.polyhedra[w.bodies[i].shape], pose3(s, i),
                                          w.polyhedra[w.bodies[j].shape], pose3(s, j));
  WorldPolygon a, b;
  const auto qi = s.initial.q_of(i), qj = s.initial.q_of(j);
  place(w.polygons[w.bodies[i].shape], Pose2{Vec2(qi[0], qi[1]), qi[2]}, a);
  place(w.polygons[w.bodies[j].shape], Pose2{Vec2(qj[0], qj[1]), qj[2]}, b);
  return polygon_intersection_area(a.vertices, b.vertices);
}

// Stacks and inclines: no pair overlaps at t = 0. Pours: no body overlaps the container at its
// spawn pose (bodies of a pour never sit at their spawn poses together).
TEST(StressScenes, BodiesDoNotStartOverlapping) {
  for (std::uint64_t seed : {1, 2, 3}) {
    for (const Scene& s : all_scenes(seed)) {
      SCOPED_TRACE(s.name);
      const World& w = s.world;
      const bool pour = s.name.find("pour") != std::string::npos;
      for (int i = 0; i < w.body_count(); ++i)
        for (int j = i + 1; j < w.body_count(); ++j) {
          if (w.bodies[i].is_static && w.bodies[j].is_static) continue;
          if (pour && !w.bodies[i].is_static && !w.bodies[j].is_static) continue;
          EXPECT_EQ(initial_overlap(s, i, j), 0) << w.bodies[i].name << " / " << w.bodies[j].name;
        }
    }
  }
}

// Body-frame bounding-box extents, sorted descending.
std::vector<Real> extents(const Scene& s, int i) {
  const World& w = s.world;
  Vec3 lo = Vec3::Constant(INFINITY), hi = -lo;
  if (w.dimension == 2) {
    for (const Vec2& v : w.polygons[w.bodies[i].shape].vertices) {
      lo.head<2>() = lo.head<2>().cwiseMin(v);
      hi.head<2>() = hi.head<2>().cwiseMax(v);
    }
    return {std::max(hi.x() - lo.x(), hi.y() - lo.y()), std::min(hi.x() - lo.x(), hi.y() - lo.y())};
  }
  for (const Vec3& v : w.polyhedra[w.bodies[i].shape].vertices) {
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  std::vector<Real> e = {hi.x() - lo.x(), hi.y() - lo.y(), hi.z() - lo.z()};
  std::sort(e.rbegin(), e.rend());
  return e;
}

TEST(StressScenes, HullPoursMassAndAspectRatios) {
  for (std::uint64_t seed : {1, 2, 3, 4, 5}) {
    for (int dim : {2, 3}) {
      const Scene s = dim == 2 ? hull_pour2d(seed, {}) : hull_pour3d(seed, {});
      SCOPED_TRACE(s.name);
      EXPECT_EQ(s.world.contact.friction, 0.3);
      Real lo = INFINITY, hi = 0;
      int kinds[3] = {0, 0, 0}, with_flat = 0, dynamic = 0;
      for (int i = 0; i < s.world.body_count(); ++i) {
        const Body& b = s.world.bodies[i];
        if (b.is_static) continue;
        ++dynamic;
        lo = std::min(lo, b.mass);
        hi = std::max(hi, b.mass);
        const auto e = extents(s, i);
        const Real aspect = e.front() / e.back();
        if (b.name.rfind("sliver", 0) == 0) {
          ++kinds[1];
          EXPECT_NEAR(aspect, 20, 0.4) << b.name;  // 2 %: ±2e-4 jitter on 0.015
        } else if (b.name.rfind("elongated", 0) == 0) {
          ++kinds[2];
          EXPECT_NEAR(aspect, 5, 0.05) << b.name;
          if (dim == 3) {
            EXPECT_NEAR(e[1] / e[2], 1, 0.01) << b.name;
          }
        } else {
          ++kinds[0];
          EXPECT_NEAR(aspect, 1, 0.01) << b.name;
        }
        if (dim == 2) {
          const auto& poly = s.world.polygons[b.shape];
          EXPECT_GE(poly.size(), 4);
          EXPECT_LE(poly.size(), 12);
          // Near-collinear neighbour edges: the jitter leaves turns of well under a degree.
          for (int k = 0; k < poly.size(); ++k) {
            const Real c = poly.edge_normals[k].dot(poly.edge_normals[poly.next(k)]);
            if (c > std::cos(M_PI / 180)) {
              ++with_flat;
              break;
            }
          }
        } else {
          const auto& poly = s.world.polyhedra[b.shape];
          EXPECT_GE(poly.num_vertices(), 4);
          EXPECT_LE(poly.num_vertices(), 12);
          for (const auto& edge : poly.edges)
            if (edge.nearly_flat) {
              ++with_flat;
              break;
            }
        }
        // Inertia is the shape's at the body's mass: positive definite.
        if (dim == 3) {
          EXPECT_GT(b.inertia.selfadjointView<Eigen::Lower>().eigenvalues().minCoeff(), 0);
        } else {
          EXPECT_GT(b.planar_inertia, 0);
        }
      }
      EXPECT_EQ(dynamic, dim == 2 ? 20 : 10);
      for (int k : kinds) EXPECT_GE(k, 3);
      EXPECT_LE(hi / lo, 100 * (1 + 1e-12));
      EXPECT_GE(hi / lo, 100 * (1 - 1e-12));
      EXPECT_GE(with_flat, dynamic / 2) << "near-coplanar faces are the point of these hulls";
    }
  }
}

struct InclineRun {
  Real a_measured = 0, v_end = 0;
  int failed = 0;
};

InclineRun run_incline(const InclineOptions& o) {
  const Scene s = incline_scene(o);
  State st = s.initial;
  Workspace ws;
  const Vec3 d = incline_downhill(o);
  const int n = s.step_count(), dim = o.dimension;
  Real v_half = 0;
  InclineRun out;
  for (int k = 0; k < n; ++k) {
    const StepReport r = step(s.world, st, ws, s.step, k);
    out.failed += is_failed_solve(r.status) || r.status == StepStatus::kDiverged;
    if (k + 1 == n / 2) v_half = st.v_of(1).head(dim).dot(d.head(dim));
  }
  out.v_end = st.v_of(1).head(dim).dot(d.head(dim));
  out.a_measured = (out.v_end - v_half) / (s.step * (n - n / 2));
  return out;
}

// Below tan θ the box slides with g (sin θ − μ cos θ) (2 %); above it stays put.
TEST(StressScenes, InclineSlidesWithTheClosedFormAndSticksAboveTanTheta) {
  for (int dim : {2, 3}) {
    for (ContactModel model : {ContactModel::kStandard, ContactModel::kPeg}) {
      SCOPED_TRACE(std::to_string(dim) + "D " + to_string(model));
      InclineOptions o;
      o.dimension = dim;
      o.model = model;
      o.duration = 0.5;
      o.friction_offset = -0.05;
      const Real expected = incline_acceleration(o);
      EXPECT_NEAR(expected,
                  9.81 * (std::sin(M_PI / 9) - (std::tan(M_PI / 9) - 0.05) * std::cos(M_PI / 9)),
                  1e-12);
      const InclineRun slide = run_incline(o);
      EXPECT_EQ(slide.failed, 0);
      EXPECT_NEAR(slide.a_measured, expected, 0.02 * expected);
      o.friction_offset = 0.05;
      EXPECT_EQ(incline_acceleration(o), 0);
      const InclineRun stick = run_incline(o);
      EXPECT_EQ(stick.failed, 0);
      EXPECT_LT(std::abs(stick.v_end), 1e-6);
    }
  }
}

// The --quick job list of docs/robustness.md: 46 runs.
TEST(StressCampaign, QuickJobListIsWhatTheDocsSay) {
  const auto jobs = stress_job_list(true);
  EXPECT_EQ(jobs.size(), 50u);
  std::map<std::string, int> per_family;
  std::set<std::string> names, campaign;
  for (const StressRun& r : stress_job_list(false)) campaign.insert(r.name());
  for (const StressRun& r : jobs) {
    ++per_family[r.family];
    EXPECT_TRUE(names.insert(r.name()).second) << "duplicate " << r.name();
    // Every run of the CI subset is the campaign's run, unchanged.
    EXPECT_TRUE(campaign.count(r.name())) << r.name();
    EXPECT_TRUE(r.model == "peg" || r.model == "standard");
    const bool pour = r.family.find("pour") != std::string::npos;
    if (pour) {
      EXPECT_EQ(r.duration, 5.0) << r.name();
      EXPECT_TRUE(r.step == 0.005 || r.step == 0.01) << r.name();
      EXPECT_LE(r.seed, r.family.rfind("hull", 0) == 0 ? 1u : 3u) << r.name();
    } else {
      EXPECT_EQ(r.step, 0.005) << r.name();
      EXPECT_EQ(r.duration, r.family.rfind("incline", 0) == 0 ? 1.0 : 3.0) << r.name();
    }
    // The standard model's minutes-long failing runs are the campaign's only.
    if (r.model == "standard") {
      EXPECT_TRUE(r.family.rfind("incline", 0) == 0 ||
                  r.family.find("random") != std::string::npos || r.family == "ball-pour3d")
          << r.name();
    }
    const Scene s = build_stress_scene(r);
    EXPECT_TRUE(s.world.stepping.continue_on_solver_failure);
    EXPECT_EQ(to_string(s.world.contact.model), r.model);
    EXPECT_EQ(s.step, r.step);
  }
  const std::map<std::string, int> want = {
      {"pour2d-random", 12},  {"pour3d-random", 12},  {"hull-pour2d", 2},    {"hull-pour3d", 2},
      {"ball-pour3d", 12},    {"stack3d", 1},         {"tower3d", 1},        {"incline2d-slide", 2},
      {"incline2d-stick", 2}, {"incline3d-slide", 2}, {"incline3d-stick", 2}};
  EXPECT_EQ(per_family, want);
  // 800 random pours, 400 ball pours, 40 hull pours, 6 stacks, 10 structures, 8 inclines.
  EXPECT_EQ(stress_job_list(false).size(), 1264u);
  // --hull-seeds 300: hull pours at seeds 1..300 (beyond the random pours' 100), nothing else
  // added.
  const auto more = stress_job_list(false, 300);
  EXPECT_EQ(more.size(), 1264u + 8u * 295u);
  std::set<std::string> more_names;
  for (const StressRun& r : more) {
    EXPECT_TRUE(more_names.insert(r.name()).second) << "duplicate " << r.name();
    EXPECT_LE(r.seed, r.family.rfind("hull", 0) == 0 ? 300u : 100u) << r.name();
  }
}

// The structures of experiments/structures.h are in the full campaign, under both models, at the
// h and duration docs/robustness.md "The runs" gives, and not in the CI subset.
TEST(StressCampaign, TheStructuresAreInTheCampaign) {
  const std::map<std::string, std::pair<Real, Real>> want = {{"arch3d", {0.005, 3.0}},
                                                             {"jenga3d", {0.005, 3.0}},
                                                             {"cube-pyramid3d", {0.005, 3.0}},
                                                             {"dominoes3d", {0.005, 4.0}},
                                                             {"tight-bin3d", {0.05, 3.0}}};
  std::map<std::string, int> runs;
  for (const StressRun& r : stress_job_list(false)) {
    const auto it = want.find(r.family);
    if (it == want.end()) continue;
    ++runs[r.family];
    EXPECT_EQ(r.step, it->second.first) << r.name();
    EXPECT_EQ(r.duration, it->second.second) << r.name();
    const Scene s = build_stress_scene(r);
    EXPECT_EQ(to_string(s.world.contact.model), r.model);
    EXPECT_GT(s.world.body_count(), 9) << r.name();
  }
  for (const auto& [family, _] : want) EXPECT_EQ(runs[family], 2) << family;
  for (const StressRun& r : stress_job_list(true)) EXPECT_EQ(want.count(r.family), 0u) << r.name();
}

// The structures are built-in scenarios too (`exactsim run --scenario`, sweeps): PEG, the step and
// duration given or their defaults, and no number of bodies.
TEST(StressCampaign, TheStructuresAreScenarios) {
  ScenarioSpec spec;
  spec.name = "cube-pyramid3d";
  ASSERT_TRUE(is_scenario(spec.name));
  const Scene pyramid = scenario_scene(spec, "");
  EXPECT_EQ(pyramid.world.body_count(), 31);  // the floor and 30 cubes
  EXPECT_EQ(pyramid.world.contact.model, ContactModel::kPeg);
  EXPECT_EQ(pyramid.step, 0.005);
  spec.name = "tight-bin3d";
  spec.step = 0.05;
  spec.duration = 3.0;
  const Scene bin = scenario_scene(spec, "");
  EXPECT_EQ(bin.step, 0.05);
  EXPECT_EQ(bin.duration, 3.0);
  spec.bodies = 3;
  EXPECT_THROW(scenario_scene(spec, ""), InputError);
  EXPECT_FALSE(is_scenario("pyramid3d"));  // the stack campaign's pyramid is not one
}

// The penetration sweep (docs/penetration.md): PEG, both random pours, six h, 5 s, seeds 1..N.
TEST(StressCampaign, PenetrationSweepJobListIsWhatTheDocsSay) {
  const auto jobs = penetration_sweep_job_list(3);
  EXPECT_EQ(jobs.size(), 36u);
  std::set<std::string> names;
  std::set<Real> steps;
  for (const StressRun& r : jobs) {
    EXPECT_TRUE(names.insert(r.name()).second) << "duplicate " << r.name();
    EXPECT_EQ(r.model, "peg");
    EXPECT_TRUE(r.family == "pour2d-random" || r.family == "pour3d-random") << r.name();
    EXPECT_EQ(r.duration, 5.0);
    EXPECT_LE(r.seed, 3u);
    steps.insert(r.step);
  }
  EXPECT_EQ(steps, (std::set<Real>{0.001, 0.005, 0.01, 0.016, 0.03, 0.05}));
  EXPECT_EQ(penetration_sweep_job_list(100).size(), 1200u);
}

// One run's record: the fields the table reads, and a sliding incline measured as such.
TEST(StressCampaign, RunRecordsTheMetrics) {
  StressRun r{"incline2d-slide", "standard", 0.005, 0.5, 1};
  const auto j = run_stress(r, {});
  EXPECT_EQ(j["steps_done"], 100);
  EXPECT_EQ(j["steps_planned"], 100);
  EXPECT_EQ(j["failed_solves"], 0);
  EXPECT_EQ(j["bodies_lost"], 0);
  EXPECT_TRUE(j["ended_early"].is_null());
  EXPECT_LT(j["max_energy_gain"].get<Real>(), 1e-6);
  // The watchdog's numbers: a block sliding on an incline sits within the contact band.
  EXPECT_EQ(j["deep_penetration_steps"], 0);
  EXPECT_EQ(j["centre_inside_static_steps"], 0);
  EXPECT_GE(j["max_penetration"].get<Real>(), 0);
  EXPECT_LE(j["max_penetration"].get<Real>(), j["contact_epsilon"].get<Real>());
  const Real a = j["incline"]["measured_acceleration"], e = j["incline"]["expected_acceleration"];
  EXPECT_NEAR(a, e, 0.02 * e);
  // The LCP limit ends a run early and says why.
  StressLimits tight;
  tight.max_lcp = 0;
  const auto k = run_stress(r, tight);
  EXPECT_EQ(k["steps_done"], 1);
  ASSERT_TRUE(k["ended_early"].is_string());
  EXPECT_NE(k["ended_early"].get<std::string>().find("LCP size"), std::string::npos);
  EXPECT_NE(stress_table({j, k}).find("incline2d-slide-standard-h05-s1"), std::string::npos);
}

// The 15-box pyramid (the campaign's target: no failed solve, at rest). Its box-on-box supports
// are flush edge to edge, which PEG's flush-support rule makes U's (docs/peg3d.md "Algorithm"
// step 4); without it the solve fails from step 6 and the pyramid collapses (docs/robustness.md
// "Why the pyramid stands: flush supports").
// The first 0.5 s: every solve certified, the boxes settled within the 2 mm they start apart.
TEST(StressCampaign, PyramidStandsWithEverySolveCertified) {
  StackOptions o;
  o.duration = 0.5;
  const auto j = run_stress(StressRun{"pyramid3d", "peg", o.step, o.duration, 1}, {});
  EXPECT_EQ(j["steps_done"], 100);
  EXPECT_EQ(j["failed_solves"], 0);
  EXPECT_EQ(j["bodies_lost"], 0);
  EXPECT_EQ(j["deep_penetration_steps"], 0);
  EXPECT_LT(j["final_kinetic_energy"].get<Real>(), 1e-6);
  EXPECT_LT(j["max_energy_gain"].get<Real>(), 1e-6);
}

TEST(StressCampaign, LostRegion) {
  const Scene s = box_stack3d({});
  const LostRegion g = lost_region(s);
  EXPECT_EQ(g.lo.z(), -1);  // the floor's underside: no margin below
  EXPECT_EQ(g.hi.z(), 0.16 + 0.32 * 3 + 1);
  EXPECT_EQ(g.lo.x(), -6);
  EXPECT_EQ(g.hi.y(), 6);
}

}  // namespace
}  // namespace exactsim
