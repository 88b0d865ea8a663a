#include "exactsim/api/validate.h"

#include <cmath>
#include <cstdio>

#include "exactsim/math/error.h"

namespace exactsim {
namespace {

std::string num(Real x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

bool positive(Real x) { return x > 0 && std::isfinite(x); }

[[noreturn]] void fail(const std::string& where, const std::string& reason) {
  throw InputError(where + ": " + reason);
}

}  // namespace

std::string body_label(const World& world, int i) {
  std::string s = "bodies[" + std::to_string(i) + "]";
  if (i >= 0 && i < world.body_count() && !world.bodies[i].name.empty())
    s += " (" + world.bodies[i].name + ")";
  return s;
}

void validate_body(const World& w, int i) {
  const Body& b = w.bodies[i];
  const std::string at = body_label(w, i) + ".";
  const int shapes = static_cast<int>(w.dimension == 2 ? w.polygons.size() : w.polyhedra.size());
  if (b.shape < 0 || b.shape >= shapes)
    fail(at + "shape", "index " + std::to_string(b.shape) + " names no " +
                           (w.dimension == 2 ? "polygon" : "polyhedron") + " of the world (" +
                           std::to_string(shapes) + " given)");
  if (w.dimension == 2) {
    const ConvexPolygon& p = w.polygons[b.shape];
    if (p.size() < 3 || p.edge_normals.size() != p.vertices.size())
      fail(at + "shape", "polygon " + std::to_string(b.shape) + " has " + std::to_string(p.size()) +
                             " vertices and " + std::to_string(p.edge_normals.size()) +
                             " edge normals; build it with polygon_from_points");
  } else {
    const ConvexPolyhedron& p = w.polyhedra[b.shape];
    if (p.num_vertices() < 4 || p.num_faces() < 4 || p.num_edges() < 6 ||
        p.vertex_edges.size() != p.vertices.size())
      fail(at + "shape", "polyhedron " + std::to_string(b.shape) +
                             " is incomplete (vertices, faces, edges, adjacency); build it with "
                             "polyhedron_from_points");
  }
  if (!b.is_static) {
    if (!positive(b.mass)) fail(at + "mass", "must be > 0 and finite, got " + num(b.mass));
    if (w.dimension == 2) {
      if (!positive(b.planar_inertia))
        fail(at + "planar_inertia", "must be > 0 and finite, got " + num(b.planar_inertia));
    } else {
      const Mat3& J = b.inertia;
      if (!J.allFinite()) fail(at + "inertia", "must be finite");
      if ((J - J.transpose()).cwiseAbs().maxCoeff() > 1e-12 * J.cwiseAbs().maxCoeff())
        fail(at + "inertia", "must be symmetric");
      Eigen::SelfAdjointEigenSolver<Mat3> eig(J);
      if (!(eig.eigenvalues().minCoeff() > 0))
        fail(at + "inertia", "must be positive definite (smallest eigenvalue " +
                                 num(eig.eigenvalues().minCoeff()) + ")");
    }
  }
  if (!std::isnan(b.friction) && !(b.friction >= 0 && std::isfinite(b.friction)))
    fail(at + "friction", "must be >= 0 and finite (or NaN: the scene's), got " + num(b.friction));
  if (!(b.spawn_time >= 0) || !std::isfinite(b.spawn_time))
    fail(at + "spawn_time", "must be >= 0 and finite, got " + num(b.spawn_time));
}

void validate_world(const World& w) {
  if (w.dimension != 2 && w.dimension != 3)
    fail("world.dimension", "must be 2 or 3, got " + std::to_string(w.dimension));
  if (!w.gravity.allFinite()) fail("world.gravity", "must be finite");
  if (w.dimension == 2 && w.gravity.z() != 0) fail("world.gravity", "z must be 0 in 2D");
  const ContactOptions& c = w.contact;
  if (!(c.friction >= 0) || !std::isfinite(c.friction))
    fail("world.contact.friction", "must be >= 0 and finite, got " + num(c.friction));
  if (w.dimension == 3 && c.friction_directions < 3)
    fail("world.contact.friction_directions",
         "must be >= 3 in 3D, got " + std::to_string(c.friction_directions));
  if (!std::isnan(c.epsilon) && !positive(c.epsilon))
    fail("world.contact.epsilon", "must be > 0 (or NaN: the default), got " + num(c.epsilon));
  if (!std::isnan(c.epsilon_edge) && !positive(c.epsilon_edge))
    fail("world.contact.epsilon_edge", "must be > 0 (or NaN: ε), got " + num(c.epsilon_edge));
  if (!(c.max_stabilisation_speed > 0))
    fail("world.contact.max_stabilisation_speed",
         "must be > 0 (+inf: off), got " + num(c.max_stabilisation_speed));
  if (w.body_count() == 0) fail("world.bodies", "at least one body is required");
  for (int i = 0; i < w.body_count(); ++i) validate_body(w, i);
}

void validate_state(const World& w, const State& s) {
  if (s.dimension != w.dimension)
    fail("state.dimension", std::to_string(s.dimension) + ", but the world is " +
                                std::to_string(w.dimension) + "D (set State::dimension)");
  const long n = w.body_count(), nq = config_size(w.dimension), nv = velocity_size(w.dimension);
  if (static_cast<long>(s.present.size()) != n)
    fail("state.present", std::to_string(s.present.size()) + " flags for " + std::to_string(n) +
                              " bodies (one per body: 0 until spawned, step() sets them)");
  if (s.q.size() != n * nq)
    fail("state.q", std::to_string(s.q.size()) + " entries, " + std::to_string(n) + " bodies in " +
                        std::to_string(w.dimension) + "D need " + std::to_string(n * nq));
  if (s.v.size() != n * nv)
    fail("state.v", std::to_string(s.v.size()) + " entries, " + std::to_string(n) + " bodies in " +
                        std::to_string(w.dimension) + "D need " + std::to_string(n * nv));
  if (!std::isfinite(s.time)) fail("state.time", "must be finite");
  for (int i = 0; i < n; ++i) {
    const std::string at = body_label(w, i) + ".";
    if (s.present[i] > 1)
      fail(at + "present", "must be 0 or 1, got " + std::to_string(s.present[i]));
    if (!s.q_of(i).allFinite()) fail(at + "position", "must be finite (state.q)");
    if (!s.v_of(i).allFinite()) fail(at + "velocity", "must be finite (state.v)");
    if (w.dimension == 3) {
      const Real norm = s.q_of(i).tail<4>().norm();
      if (std::abs(norm - 1) > 1e-9)
        fail(at + "orientation",
             "quaternion norm " + std::to_string(norm).substr(0, 8) + ", must be 1 (normalise it)");
    }
    if (w.bodies[i].is_static && s.v_of(i).cwiseAbs().maxCoeff() != 0)
      fail(at + "velocity", "a static body cannot move");
  }
}

void validate_scene(const Scene& scene) {
  if (!positive(scene.step)) fail("time.step", "must be > 0 and finite, got " + num(scene.step));
  if (!(scene.duration >= 0) || !std::isfinite(scene.duration))
    fail("time.duration", "must be >= 0 and finite, got " + num(scene.duration));
  validate_world(scene.world);
  validate_state(scene.world, scene.initial);
  if (scene.initial.time != 0)
    fail("state.time", "must be 0 at the start (" + num(scene.initial.time) +
                           " given): a Simulation counts time from 0 in steps of h");
}

}  // namespace exactsim
