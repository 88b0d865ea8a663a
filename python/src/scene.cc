// exactsim.Scene: a scene from a file, a dict in the scene format, or built body by body.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings.h"
#include "exactsim/api/body_spec.h"
#include "exactsim/api/validate.h"
#include "exactsim/io/event_scene_json.h"
#include "exactsim/io/scene_json.h"
#include "exactsim/io/scene_rules.h"
#include "exactsim/math/error.h"
#include "json_py.h"

namespace exactsim::py {

namespace pb = pybind11;

namespace {

ContactModel model_from(const std::string& m) {
  if (m == "peg") return ContactModel::kPeg;
  if (m == "standard") return ContactModel::kStandard;
  if (m == "corrective") return ContactModel::kCorrective;
  throw InputError("contact.model: unknown contact model '" + m +
                   "' (expected \"peg\", \"standard\" or \"corrective\")");
}

int add_body_py(Scene& s, const PyShape& shape, pb::object density, pb::object mass,
                pb::object inertia, pb::object position, pb::object angle, pb::object orientation,
                pb::object velocity, pb::object angular_velocity, bool is_static,
                const std::string& name, pb::object friction, pb::object spawn_time, bool kinematic,
                pb::object restitution) {
  const int d = s.world.dimension, i = s.world.body_count();
  const std::string at = "bodies[" + std::to_string(i) + "] (" +
                         (name.empty() ? "body" + std::to_string(i) : name) + ").";
  BodySpec b;
  b.name = name;
  if (shape.parts.empty())
    b.shape = shape.shape;
  else
    b.parts = shape.parts;
  b.is_static = is_static;
  b.kinematic = kinematic;
  if (!density.is_none()) b.density = number(density, at + "density");
  if (!mass.is_none()) b.mass = number(mass, at + "mass");
  if (!inertia.is_none()) {
    if (d == 2) {
      b.planar_inertia = numbers(inertia, 1, at + "inertia")[0];
    } else {
      const auto rows =
          numbers(pb::module_::import("numpy").attr("ravel")(inertia), 9, at + "inertia");
      Mat3 j;
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) j(r, c) = rows[3 * r + c];
      b.inertia = j;
    }
  }
  if (!position.is_none()) {
    const auto p = numbers(position, d, at + "position");
    b.position = Coordinates(p[0], p[1], d == 3 ? p[2] : 0.0);
  }
  if (!angle.is_none()) b.angle = number(angle, at + "angle");
  if (!orientation.is_none()) {
    const auto o = numbers(orientation, 4, at + "orientation");
    b.orientation = Quat(o[0], o[1], o[2], o[3]);
  }
  if (!velocity.is_none()) {
    const auto v = numbers(velocity, d, at + "velocity");
    b.velocity = Coordinates(v[0], v[1], d == 3 ? v[2] : 0.0);
  }
  if (!angular_velocity.is_none()) {
    const auto w = numbers(angular_velocity, d == 2 ? 1 : 3, at + "angular_velocity");
    if (d == 2)
      b.omega = w[0];
    else
      b.angular_velocity = Coordinates(w[0], w[1], w[2]);
  }
  if (!friction.is_none()) b.friction = number(friction, at + "friction");
  if (!restitution.is_none()) b.restitution = number(restitution, at + "restitution");
  if (!spawn_time.is_none()) b.spawn_time = number(spawn_time, at + "spawn_time");
  return add_body(s, b);
}

// A scene-level value checked by a scene rule, InputError "WHERE: reason".
template <class F>
auto checked(const std::string& where, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const InputError& e) {
    throw InputError(where + ": " + e.what());
  }
}

int add_joint_py(Scene& s, const std::string& type, const std::vector<std::string>& bodies,
                 pb::object anchor, pb::object axis, const std::string& name) {
  const int d = s.world.dimension, k = static_cast<int>(s.world.joints.size());
  const std::string at = "joints[" + std::to_string(k) + "].";
  JointSpec j;
  j.name = name;
  j.type = checked(at + "type", [&] { return joint_type(type); });
  if (bodies.empty() || bodies.size() > 2)
    throw InputError(at + "bodies: expected one body name (joined to the world) or two");
  j.body_a = bodies[0];
  if (bodies.size() == 2) j.body_b = bodies[1];
  const auto p = numbers(anchor, d, at + "anchor");
  j.anchor = Coordinates(p[0], p[1], d == 3 ? p[2] : 0.0);
  if (!axis.is_none()) {
    const auto a = numbers(axis, 3, at + "axis");
    j.axis = Coordinates(a[0], a[1], a[2]);
  }
  return add_joint(s, j);
}

// contact.impact from a dict (or None: the model "none"), read by the scene file's rules; the
// message without the reader's origin, as the builder's other messages.
ImpactStepOptions impact_from(pb::handle d, ContactModel model) {
  if (d.is_none()) return {};
  const std::string origin = "<Scene>";
  try {
    return read_impact_options(from_python(d, origin), model, origin);
  } catch (const InputError& e) {
    const std::string what = e.what();
    if (!what.starts_with(origin + ": ")) throw;
    throw InputError(what.substr(origin.size() + 2));
  }
}

}  // namespace

double number(pb::handle h, const std::string& where) {
  if (pb::isinstance<pb::bool_>(h) || pb::isinstance<pb::str>(h) || pb::isinstance<pb::bytes>(h))
    throw InputError(where + ": expected a number, got " + std::string(pb::str(pb::repr(h))));
  try {
    return h.cast<double>();
  } catch (const pb::cast_error&) {
    throw InputError(where + ": expected a number, got " + std::string(pb::str(pb::repr(h))));
  }
}

std::vector<double> numbers(pb::handle h, std::size_t n, const std::string& where) {
  std::vector<double> v;
  const bool scalar = pb::isinstance<pb::float_>(h) || pb::isinstance<pb::int_>(h);
  if (n == 1 && scalar) return {number(h, where)};
  if (scalar || pb::isinstance<pb::str>(h) || !pb::hasattr(h, "__iter__"))
    throw InputError(where + ": expected " + std::to_string(n) + " numbers, got " +
                     std::string(pb::str(pb::repr(h))));
  if (pb::hasattr(h, "__len__") && pb::len(h) != n)
    throw InputError(where + ": expected " + std::to_string(n) + " numbers, got " +
                     std::to_string(pb::len(h)));
  for (auto x : pb::iter(h)) {
    if (v.size() == n)
      throw InputError(where + ": expected " + std::to_string(n) + " numbers, got more");
    v.push_back(number(x, where + "[" + std::to_string(v.size()) + "]"));
  }
  if (v.size() != n)
    throw InputError(where + ": expected " + std::to_string(n) + " numbers, got " +
                     std::to_string(v.size()));
  return v;
}

Scene scene_from_dict(pb::handle d, const std::string& origin) {
  return parse_scene(from_python(d, origin), origin);
}

void bind_scene(pb::module_& m) {
  pb::class_<Scene>(m, "Scene",
                    "A scene: bodies, shapes, contact model, step size and duration.\n\n"
                    "Scene(dimension, step, duration=1.0, ...) starts an empty scene to fill "
                    "with add_body(); Scene.from_file() and Scene.from_dict() read the scene "
                    "format (docs/scene-format.md).")
      .def(pb::init([](int dimension, double step, double duration, const std::string& name,
                       pb::object gravity, const std::string& model, pb::object friction,
                       pb::object friction_directions, bool continue_on_solver_failure,
                       bool measure_overlap, pb::object impact) {
             Scene s = make_scene(dimension, step, duration);
             checked("name", [&] { rules::name(name); });
             s.name = name;
             if (!gravity.is_none()) {
               const auto g = numbers(gravity, dimension, "gravity");
               s.world.gravity = Vec3(g[0], g[1], dimension == 3 ? g[2] : 0.0);
               checked("gravity", [&] { rules::gravity(s.world.gravity); });
             }
             s.world.contact.model = model_from(model);
             const double mu = number(friction, "contact.friction");
             s.world.contact.friction =
                 checked("contact.friction", [&] { return rules::friction(mu); });
             const double k = number(friction_directions, "contact.friction_directions");
             s.world.contact.friction_directions = checked(
                 "contact.friction_directions", [&] { return rules::friction_directions(k); });
             s.world.stepping.continue_on_solver_failure = continue_on_solver_failure;
             s.world.stepping.measure_overlap = measure_overlap;
             s.world.contact.impact = impact_from(impact, s.world.contact.model);
             return s;
           }),
           pb::arg("dimension"), pb::arg("step"), pb::arg("duration") = 1.0,
           pb::arg("name") = "scene", pb::arg("gravity") = pb::none(), pb::arg("model") = "peg",
           pb::arg("friction") = 0.0, pb::arg("friction_directions") = 4,
           pb::arg("continue_on_solver_failure") = false, pb::arg("measure_overlap") = true,
           pb::arg("impact") = pb::none(),
           "An empty scene. dimension: 2 or 3; step: h in s; duration: s (what run() uses by "
           "default); gravity: m/s^2 (default 9.81 down -y in 2D, -z in 3D); model: 'peg', "
           "'standard' or 'corrective'; friction: Coulomb mu of pairs without their own; "
           "friction_directions: directions of the 3D friction cone; impact: None (every "
           "collision inelastic) or a dict of contact.impact, e.g. {'model': 'plus', "
           "'restitution': 0.5} (docs/impacts.md).")
      .def_static("from_file", &read_scene_file, pb::arg("path"),
                  "Reads a scene file (JSON, docs/scene-format.md). InputError names the file, "
                  "the JSON path and the reason.")
      .def_static(
          "from_event_file",
          [](const std::string& path) { return stepper_scene(read_event_scene_file(path)); },
          pb::arg("path"),
          "An event-driven scene file (contact.model \"plus\", docs/plus.md) as a scene for the "
          "time stepper with located PLUS impacts, as `exactsim run FILE --model peg` steps it "
          "(docs/plus.md \"Time-stepping an event-driven scene\").")
      .def_static(
          "from_dict",
          [](pb::dict d, const std::string& origin) { return scene_from_dict(d, origin); },
          pb::arg("document"), pb::arg("origin") = "<dict>",
          "A scene from a dict in the scene format; `origin` names it in error messages "
          "(and resolves relative mesh paths).")
      .def(
          "to_dict", [](const Scene& s) { return to_python(scene_to_json(s)); },
          "The scene as a dict in the scene format (shapes as vertex lists, mass and inertia "
          "explicit); Scene.from_dict() reads it back bit for bit.")
      .def("write", &write_scene_file, pb::arg("path"), "Writes the scene file (JSON).")
      .def("add_body", &add_body_py, pb::arg("shape"), pb::kw_only(),
           pb::arg("density") = pb::none(), pb::arg("mass") = pb::none(),
           pb::arg("inertia") = pb::none(), pb::arg("position") = pb::none(),
           pb::arg("angle") = pb::none(), pb::arg("orientation") = pb::none(),
           pb::arg("velocity") = pb::none(), pb::arg("angular_velocity") = pb::none(),
           pb::arg("static") = false, pb::arg("name") = "", pb::arg("friction") = pb::none(),
           pb::arg("spawn_time") = pb::none(), pb::arg("kinematic") = false,
           pb::arg("restitution") = pb::none(),
           "Adds a body; returns its index.\n\n"
           "shape: a Shape in its own frame (2D polygon or 3D polyhedron).\n"
           "density: kg/m^2 (2D) or kg/m^3 (3D), or mass: kg (inertia then from the shape at "
           "uniform density, unless `inertia` is given: kg m^2, a number in 2D, 3x3 in 3D).\n"
           "position: where the shape's frame goes, m ((x, y) or (x, y, z)); the body origin "
           "moves to the centroid, so the shape stays where it is put.\n"
           "angle: rad (2D); orientation: unit quaternion (w, x, y, z) (3D).\n"
           "velocity: m/s; angular_velocity: rad/s (a number in 2D, world-axes vector in 3D).\n"
           "static: fixed body (no density or mass needed); name: unique (default 'body<i>');\n"
           "friction: Coulomb mu of this body; spawn_time: s, when the body joins.\n"
           "restitution: coefficient of restitution of this body's PLUS impacts, 0..1 (pair\n"
           "rule sqrt(e_A e_B); default the scene's impact restitution).\n"
           "kinematic: moves with `velocity` / `angular_velocity`, kept as set across steps\n"
           "(Simulation.set_velocity changes it); pushes dynamic bodies, is never pushed, needs\n"
           "no density or mass; not together with static.\n"
           "InputError names the body and the field, e.g. 'bodies[1] (box).density: ...'.")
      .def("add_joint", &add_joint_py, pb::arg("type"), pb::arg("bodies"), pb::arg("anchor"),
           pb::kw_only(), pb::arg("axis") = pb::none(), pb::arg("name") = "",
           "Adds a joint (docs/joints.md); returns its index.\n\n"
           "type: 'revolute' (2D pin, 3D hinge), 'ball' (3D) or 'fixed'.\n"
           "bodies: one body name (joined to the world) or two.\n"
           "anchor: the joint's point, world frame, with the bodies where the scene puts them, m.\n"
           "axis: the hinge axis of a 3D revolute joint (required there), world frame.\n"
           "Joined bodies do not collide. InputError names the joint and the field.")
      .def_property_readonly(
          "dimension", [](const Scene& s) { return s.world.dimension; }, "2 or 3.")
      .def_property(
          "name", [](const Scene& s) { return s.name; },
          [](Scene& s, const std::string& n) {
            checked("name", [&] { rules::name(n); });
            s.name = n;
          },
          "Scene name (for summaries).")
      .def_property(
          "step", [](const Scene& s) { return s.step; },
          [](Scene& s, double h) {
            checked("time.step", [&] { rules::step(h); });
            checked("time", [&] { rules::step_count(h, s.duration); });
            checked("time.step", [&] { rules::step_in_duration(h, s.duration); });
            s.step = h;
          },
          "Time step h, s.")
      .def_property(
          "duration", [](const Scene& s) { return s.duration; },
          [](Scene& s, double t) {
            checked("time.duration", [&] { rules::duration(t); });
            checked("time", [&] { rules::step_count(s.step, t); });
            checked("time.step", [&] { rules::step_in_duration(s.step, t); });
            s.duration = t;
          },
          "Duration, s (run() without an argument).")
      .def_property(
          "model", [](const Scene& s) { return std::string(to_string(s.world.contact.model)); },
          [](Scene& s, const std::string& m) {
            const ContactModel model = model_from(m);
            if (model == ContactModel::kCorrective &&
                s.world.contact.impact.model != ImpactModel::kNone)
              throw InputError(
                  "contact.model: impacts need the \"peg\" or \"standard\" contact model "
                  "(set scene.impact = None first)");
            s.world.contact.model = model;
          },
          "Contact model: 'peg', 'standard' or 'corrective'.")
      .def_property(
          "impact",
          [](const Scene& s) { return to_python(impact_options_to_json(s.world.contact.impact)); },
          [](Scene& s, pb::object d) {
            s.world.contact.impact = impact_from(d, s.world.contact.model);
          },
          "Impacts (contact.impact, docs/impacts.md): None, every collision inelastic, or a dict "
          "such as {'model': 'plus', 'restitution': 0.5, 'capture_velocity': 0.01}; read back "
          "with every field.")
      .def_property(
          "friction", [](const Scene& s) { return s.world.contact.friction; },
          [](Scene& s, pb::object mu) {
            const double x = number(mu, "contact.friction");
            s.world.contact.friction =
                checked("contact.friction", [&] { return rules::friction(x); });
          },
          "Coulomb mu of pairs whose bodies have none (pair rule sqrt(mu_A mu_B)).")
      .def_property(
          "continue_on_solver_failure",
          [](const Scene& s) { return s.world.stepping.continue_on_solver_failure; },
          [](Scene& s, bool c) { s.world.stepping.continue_on_solver_failure = c; },
          "Go on after a failed solve (regularised), as the CLI's --continue-on-failure.")
      .def_property(
          "threads", [](const Scene& s) { return s.world.stepping.threads; },
          [](Scene& s, pb::object t) {
            const double n = number(t, "stepping.threads");
            s.world.stepping.threads =
                checked("stepping.threads", [&] { return rules::threads(n); });
          },
          "Threads solving a step's islands, bit for bit as on one (stepping.threads, "
          "docs/stepping.md \"Parallel islands\"; 0 = one per core; default 1).")
      .def_property(
          "sleep", [](const Scene& s) { return s.world.stepping.sleep; },
          [](Scene& s, bool on) { s.world.stepping.sleep = on; },
          "Let islands at rest sleep (stepping.sleep, docs/stepping.md \"Sleeping\"): left "
          "out of the solve, frozen, until an awake body touches them. Off by default.")
      .def_property_readonly(
          "body_names",
          [](const Scene& s) {
            std::vector<std::string> n;
            for (const Body& b : s.world.bodies) n.push_back(b.name);
            return n;
          },
          "Body names in index order.")
      .def_property_readonly(
          "body_count", [](const Scene& s) { return s.world.body_count(); }, "Number of bodies.")
      .def_property_readonly(
          "masses",
          [](const Scene& s) {
            std::vector<double> m;
            for (const Body& b : s.world.bodies) m.push_back(b.is_static ? 0.0 : b.mass);
            return m;
          },
          "Body masses in kg (0 for static and kinematic bodies).")
      .def("__repr__", [](const Scene& s) {
        return "<exactsim.Scene '" + s.name + "' " + std::to_string(s.world.dimension) + "D, " +
               std::to_string(s.world.body_count()) + " bodies, model " +
               to_string(s.world.contact.model) + ">";
      });
}

}  // namespace exactsim::py
