// A small planar scene built from world-frame vertex lists and stepped one step() at a time
// (shared by the PEG model tests of this folder).
#pragma once

#include <vector>

#include "exactsim/api/contact_results.h"
#include "exactsim/geometry/polygon.h"
#include "exactsim/stepping/step.h"

namespace exactsim::planar_test {

struct Sim {
  World world;
  State state;
  Workspace ws;
  long steps = 0;

  Sim() {
    world.dimension = 2;
    world.gravity = Vec3(0, -9.81, 0);
    state.dimension = 2;
  }
  // A body given by its world vertices at θ = 0; origin = vertex mean (= centroid for the
  // triangles, boxes and diamonds used here). Unit density unless mass / inertia are given.
  int add(const std::vector<Vec2>& vertices, bool fixed, Vec2 velocity = Vec2::Zero(),
          Real mass = 0, Real inertia = 0) {
    Vec2 c = Vec2::Zero();
    for (const Vec2& p : vertices) c += p;
    c /= static_cast<Real>(vertices.size());
    std::vector<Vec2> local;
    for (const Vec2& p : vertices) local.push_back(p - c);
    world.polygons.push_back(polygon_from_points(local, HullInput::kRequireConvex));
    Body b;
    b.is_static = fixed;
    b.shape = static_cast<int>(world.polygons.size()) - 1;
    const PolygonMassProperties mp = polygon_mass_properties(world.polygons.back(), 1.0);
    b.mass = mass > 0 ? mass : mp.mass;
    b.planar_inertia = inertia > 0 ? inertia : mp.inertia;
    world.bodies.push_back(b);
    const int i = world.body_count() - 1;
    state.q.conservativeResize(3 * (i + 1));
    state.v.conservativeResize(3 * (i + 1));
    state.q.segment<3>(3 * i) = Vec3(c.x(), c.y(), 0);
    state.v.segment<3>(3 * i) = Vec3(velocity.x(), velocity.y(), 0);
    state.present.push_back(1);
    return i;
  }
  StepReport step(Real h) { return exactsim::step(world, state, ws, h, steps++); }
  Vec3 v(int i) const { return state.v.segment<3>(3 * i); }
  Vec3 q(int i) const { return state.q.segment<3>(3 * i); }
  // Largest normal impulse (U and I primaries) of the last step, over all islands.
  Real max_impulse() const {
    Real largest = 0;
    for (const ContactResult& c : contacts()) largest = std::max(largest, c.normal_impulse);
    return largest;
  }
  // The last step's contacts and their impulses, as Simulation::contacts() gives them.
  std::vector<ContactResult> contacts() const { return contact_results(ws); }
};

inline std::vector<Vec2> box(Real x0, Real y0, Real x1, Real y1) {
  return {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
}

// docs/peg.md "The worked example": B static, apex (0, 0); A (m = 1, J = 0.1) with its tip (0.02,
// 0.03) just past the apex, sliding right at 3 m/s. ε = 0.05 (so all four contacts of PEG paper
// Fig. 5 are detected), swept proximity with prediction (the defaults), h = 0.01.
inline Sim worked_example(ContactModel model, bool a_first = true) {
  Sim s;
  s.world.contact.model = model;
  s.world.contact.epsilon = 0.05;
  const std::vector<Vec2> a = {{-0.98, 0.53}, {0.02, 0.03}, {1.02, 0.53}};
  const std::vector<Vec2> b = {{1, -1}, {0, 0}, {-1, -1}};
  if (!a_first) s.add(b, true);
  s.add(a, false, Vec2(3, 0), 1.0, 0.1);
  if (a_first) s.add(b, true);
  return s;
}

}  // namespace exactsim::planar_test
