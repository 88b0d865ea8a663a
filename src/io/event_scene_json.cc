// Event-driven PLUS scene reader: docs/scene-format.md (the core) + docs/plus.md
// "Scene files" (the shapes and contact fields of contact.model "plus").
#include "exactsim/io/event_scene_json.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>

#include <nlohmann/json.hpp>

#include "exactsim/io/scene_json.h"
#include "exactsim/io/scene_limits.h"
#include "exactsim/stepping/world.h"
#include "impact_json.h"
#include "inertia_json.h"
#include "json_cursor.h"

namespace exactsim {
namespace {

using io::format_number;
using io::JsonCursor;
using io::read_impact_law;

constexpr int kMaxBodies = 100000;
constexpr int kMaxSpheresPerBody = 10000;
constexpr std::uintmax_t kMaxFileBytes = 256ull << 20;

// {"constant": e} or {"e_min", "v_capture", "v_plastic"} (docs/plus.md "Scene files").
RestitutionLaw read_restitution(const JsonCursor& c) {
  c.expect_object({"constant", "e_min", "v_capture", "v_plastic"});
  if (c.has("constant")) {
    if (c.value().size() != 1)
      c.fail(
          "give either {\"constant\": e} or {\"e_min\", \"v_capture\", \"v_plastic\"}, not both");
    const JsonCursor e = c.at("constant");
    const Real value = e.non_negative();
    if (value > 1) e.fail("must lie in [0, 1], got " + e.value().dump());
    return RestitutionLaw::constant(value);
  }
  RestitutionLaw law;
  const JsonCursor e = c.at("e_min");
  law.e_min = e.non_negative();
  if (law.e_min > 1) e.fail("must lie in [0, 1], got " + e.value().dump());
  law.v_capture = c.at("v_capture").in_range(0, limits::kMaxSpeed, "m/s");
  // v_plastic = 0 would make the law constant (restitution.h): that is spelled "constant".
  law.v_plastic = c.at("v_plastic").positive();
  if (law.v_plastic > limits::kMaxSpeed) c.at("v_plastic").in_range(0, limits::kMaxSpeed, "m/s");
  if (law.v_plastic < law.v_capture) c.at("v_plastic").fail("must be >= v_capture");
  return law;
}

// ImpactOptions (impact/impact_problem.h); ranges as check_impact_problem.
void read_plus_options(const JsonCursor& c, ImpactOptions& o) {
  c.expect_object({"v_transition", "theta_max", "alpha_min", "v_observe", "max_rounds",
                   "max_intervals", "step_length", "induced_impacts", "mixed_rounds",
                   "record_log"});
  if (c.has("v_transition"))
    o.v_transition = c.at("v_transition").in_range(0, limits::kMaxSpeed, "m/s");
  if (c.has("theta_max")) {
    const JsonCursor t = c.at("theta_max");
    o.theta_max = t.positive();
    if (o.theta_max >= M_PI / 2) t.fail("must lie in (0, pi/2) rad, got " + t.value().dump());
  }
  if (c.has("alpha_min")) {
    const JsonCursor a = c.at("alpha_min");
    o.alpha_min = a.non_negative();
    if (o.alpha_min >= 1) a.fail("must lie in [0, 1), got " + a.value().dump());
  }
  if (c.has("v_observe")) o.v_observe = c.at("v_observe").in_range(0, limits::kMaxSpeed, "m/s");
  if (c.has("max_rounds")) o.max_rounds = c.at("max_rounds").integer(1, 1000000000);
  if (c.has("max_intervals")) o.max_intervals = c.at("max_intervals").integer(1, 1000000000);
  if (c.has("step_length")) {
    const JsonCursor s = c.at("step_length");
    const std::string v = s.string();
    if (v == "closest_point")
      o.step_length = StepLengthRule::kClosestPoint;
    else if (v == "whole_step")
      o.step_length = StepLengthRule::kWholeStep;
    else
      s.fail("unknown rule '" + v + "' (expected \"closest_point\" or \"whole_step\")");
  }
  if (c.has("induced_impacts")) {
    const JsonCursor s = c.at("induced_impacts");
    const std::string v = s.string();
    if (v == "rounds")
      o.induced_impacts = InducedImpacts::kRounds;
    else if (v == "simultaneous")
      o.induced_impacts = InducedImpacts::kSimultaneous;
    else if (v == "mixed")
      o.induced_impacts = InducedImpacts::kMixed;
    else
      s.fail("unknown model '" + v + "' (expected \"rounds\", \"simultaneous\" or \"mixed\")");
  }
  if (c.has("mixed_rounds")) o.mixed_rounds = c.at("mixed_rounds").integer(1, o.max_rounds - 1);
  if (c.has("record_log")) o.record_log = c.at("record_log").boolean();
}

// EventOptions other than max_step (events/event_simulation.h).
void read_event_options(const JsonCursor& c, EventOptions& o) {
  c.expect_object({"gap_tolerance", "proximity", "v_persist"});
  if (c.has("gap_tolerance"))
    o.gap_tolerance = c.at("gap_tolerance")
                          .in_range(limits::kMinContactDistance, limits::kMaxContactDistance, "m");
  if (c.has("proximity"))
    o.proximity =
        c.at("proximity").in_range(limits::kMinContactDistance, limits::kMaxContactDistance, "m");
  if (c.has("v_persist")) o.v_persist = c.at("v_persist").in_range(0, limits::kMaxSpeed, "m/s");
  if (o.proximity < o.gap_tolerance)
    c.fail("proximity (" + std::to_string(o.proximity) + " m) must be >= gap_tolerance (" +
           std::to_string(o.gap_tolerance) + " m)");
}

struct Defaults {
  Real friction = 0.0;
  std::optional<RestitutionLaw> restitution;
};

// contact.impact, the time stepper's spelling (docs/impacts.md "Using it"): the law of every body
// without its own (the stepper's nominal one where a field is not given) and PLUS's options.
void read_impact(const JsonCursor& c, EventOptions& options, Defaults& defaults) {
  c.expect_object({"model", "restitution", "capture_velocity", "plastic_velocity",
                   "transition_velocity", "theta_max", "induced", "mixed_rounds"});
  if (c.has("model") && c.at("model").string() != "plus")
    c.at("model").fail("an event-driven scene's impacts are PLUS's: expected \"plus\"");
  RestitutionLaw law = ImpactStepOptions{}.restitution;
  read_impact_law(c, law, options.impact);
  defaults.restitution = law;
}

void read_contact(const JsonCursor& c, EventOptions& options, Defaults& defaults) {
  c.expect_object({"model", "friction", "restitution", "plus", "events", "impact"});
  if (c.has("impact"))
    for (const char* old : {"restitution", "plus"})
      if (c.has(old))
        c.at(old).fail(
            "give either contact.impact (the time stepper's spelling) or "
            "contact.restitution and contact.plus, not both");
  const JsonCursor m = c.at("model");
  if (m.string() != "plus")
    m.fail("this reader runs contact model \"plus\" (event-driven PLUS); \"" + m.string() +
           "\" scenes are time-stepped: use `exactsim run`");
  if (c.has("friction")) defaults.friction = c.at("friction").in_range(0, limits::kMaxFriction, "");
  if (c.has("restitution")) defaults.restitution = read_restitution(c.at("restitution"));
  if (c.has("plus")) read_plus_options(c.at("plus"), options.impact);
  if (c.has("impact")) read_impact(c.at("impact"), options, defaults);
  if (c.has("events")) read_event_options(c.at("events"), options);
}

// A vector's norm within `max` (speeds, gravity; docs/input-validation.md).
void check_norm(const JsonCursor& c, const Vec3& v, Real max, const char* what, const char* unit) {
  const Real norm = v.stableNorm();
  if (!(norm <= max))
    c.fail(std::string(what) + " " + format_number(norm) + " " + unit +
           " exceeds the accepted maximum of " + format_number(max) + " " + unit +
           " (docs/input-validation.md)");
}

// Normalised on read (scene-format.md), after scaling by the largest component so that no
// square overflows or underflows (docs/input-validation.md).
Quat read_orientation(const JsonCursor& c) {
  const auto n = c.numbers(4);
  const Eigen::Vector4d raw(n[0], n[1], n[2], n[3]);
  const Real largest = raw.cwiseAbs().maxCoeff();
  if (!(largest > 0)) c.fail("the quaternion has zero norm");
  const Eigen::Vector4d scaled = raw / largest;
  Quat o(scaled[0], scaled[1], scaled[2], scaled[3]);
  o.normalize();
  return o;
}

// {"normal": n, "offset": d} in body coordinates, placed by the body's pose.
HalfSpace read_half_space(const JsonCursor& c, const Vec3& position, const Quat& orientation) {
  c.expect_object({"normal", "offset"});
  const JsonCursor nc = c.at("normal");
  const Vec3 n = nc.vec3();
  if (!(n.norm() > 1e-12)) nc.fail("the normal has zero length");
  HalfSpace h;
  h.normal = orientation * n.normalized();
  // {x : n·(Rᵀ(x − p)) ≤ d} = {x : (R n)·x ≤ d + (R n)·p}
  h.offset = (c.has("offset")
                  ? c.at("offset").in_range(-limits::kMaxCoordinate, limits::kMaxCoordinate, "m")
                  : 0.0) +
             h.normal.dot(position);
  return h;
}

// The body's spheres (body coordinates); `single` when the shape is one centred sphere.
std::vector<Sphere> read_spheres(const JsonCursor& c, bool& single) {
  std::vector<Sphere> out;
  const std::string kind = c.value().begin().key();
  const JsonCursor v = c.at(kind.c_str());
  single = kind == "sphere";
  if (single) {
    v.expect_object({"radius"});
    Sphere s;
    s.radius = v.at("radius").in_range(limits::kMinSize, limits::kMaxSize, "m");
    out.push_back(s);
    return out;
  }
  v.expect_array();
  if (v.size() == 0) v.fail("at least one sphere is required");
  if (v.size() > static_cast<std::size_t>(kMaxSpheresPerBody))
    v.fail("too many spheres (" + std::to_string(v.size()) + "; the limit is " +
           std::to_string(kMaxSpheresPerBody) + ")");
  for (std::size_t i = 0; i < v.size(); ++i) {
    const JsonCursor si = v.at(i);
    si.expect_object({"center", "radius"});
    Sphere s;
    s.centre = si.at("center").point3(limits::kMaxCoordinate);
    s.radius = si.at("radius").in_range(limits::kMinSize, limits::kMaxSize, "m");
    out.push_back(s);
  }
  return out;
}

// A half-space body, added to the world after the dynamic ones.
struct Ground {
  std::string name;
  HalfSpace plane;
};

void read_body(const JsonCursor& c, EventScene& scene, const Defaults& defaults,
               std::set<std::string>& names, std::vector<Ground>& grounds) {
  c.expect_object({"name", "static", "shape", "mass", "inertia", "density", "position",
                   "orientation", "velocity", "angular_velocity", "friction", "restitution",
                   "spawn_time"});
  const std::string name = c.at("name").name();
  if (!names.insert(name).second) c.at("name").fail("duplicate body name '" + name + "'");
  const bool is_static = c.has("static") && c.at("static").boolean();
  if (c.has("spawn_time") && c.at("spawn_time").non_negative() != 0)
    c.at("spawn_time").fail("the event-driven simulation starts every body at t = 0");

  const JsonCursor shape = c.at("shape");
  shape.expect_object({"sphere", "spheres", "half_space"});
  if (shape.value().size() != 1) shape.fail("exactly one shape kind must be given");
  const bool half_space = shape.has("half_space");
  const Quat orientation =
      c.has("orientation") ? read_orientation(c.at("orientation")) : Quat::Identity();

  if (half_space) {
    // A half-space is ground: fixed, and without material (a sphere–half-space contact uses
    // the sphere's friction and restitution, docs/plus.md).
    if (!is_static) c.fail("a half_space body must be \"static\": true");
    for (const char* f : {"mass", "inertia", "density"})
      if (c.has(f)) c.at(f).fail("a static half-space has no mass");
    for (const char* f : {"friction", "restitution"})
      if (c.has(f))
        c.at(f).fail("a half-space has no material: its contacts use the sphere's " +
                     std::string(f) + " (set it on the sphere's body or in contact)");
    for (const char* f : {"velocity", "angular_velocity"})
      if (c.has(f) && c.at(f).vec3().norm() != 0) c.at(f).fail("a static body cannot move");
    const Vec3 p =
        c.has("position") ? c.at("position").point3(limits::kMaxCoordinate) : Vec3::Zero();
    grounds.push_back({name, read_half_space(shape.at("half_space"), p, orientation)});
    return;
  }
  if (is_static) c.at("static").fail("only half_space bodies can be static in a \"plus\" scene");

  bool single = false;
  const std::vector<Sphere> spheres = read_spheres(shape, single);
  Real mass = 0;
  Mat3 inertia;
  const bool has_mass = c.has("mass"), has_inertia = c.has("inertia"),
             has_density = c.has("density");
  if (has_density && (has_mass || has_inertia))
    c.fail("give either 'density' or 'mass' + 'inertia', not both");
  if (has_mass != has_inertia) c.fail("'mass' and 'inertia' must be given together");
  if (!has_density && !has_mass) c.fail("a dynamic body needs 'density' or 'mass' + 'inertia'");
  if (has_density) {
    const JsonCursor d = c.at("density");
    // Welded spheres are contact geometry, not the mass distribution (the childproof brick's
    // mass is its box's): only the single sphere has an exact density → mass rule.
    if (!single)
      d.fail(
          "density is defined for a single \"sphere\" only; welded \"spheres\" need 'mass' + "
          "'inertia'");
    const Real rho = d.in_range(limits::kMinDensity, limits::kMaxDensity, "kg/m^3");
    const Real r = spheres[0].radius;
    mass = rho * 4.0 / 3.0 * M_PI * r * r * r;
    inertia = Mat3::Identity() * (0.4 * mass * r * r);
    if (!(mass >= limits::kMinMass && mass <= limits::kMaxMass))
      d.fail("gives a mass of " + format_number(mass) + " kg, outside the accepted range [" +
             format_number(limits::kMinMass) + ", " + format_number(limits::kMaxMass) +
             "] kg (docs/input-validation.md)");
  } else {
    mass = c.at("mass").in_range(limits::kMinMass, limits::kMaxMass, "kg");
    Real reach = 0;  // the r of m r²
    for (const Sphere& s : spheres) reach = std::max(reach, s.centre.norm() + s.radius);
    inertia =
        io::read_inertia3(c.at("inertia"), mass, reach, "the largest sphere reach from the origin");
  }
  const Vec3 position = c.at("position").point3(limits::kMaxCoordinate);
  Vec3 velocity = Vec3::Zero(), angular_velocity = Vec3::Zero();
  if (c.has("velocity")) {
    velocity = c.at("velocity").vec3();
    check_norm(c.at("velocity"), velocity, limits::kMaxSpeed, "speed", "m/s");
  }
  if (c.has("angular_velocity")) {
    angular_velocity = c.at("angular_velocity").vec3();
    check_norm(c.at("angular_velocity"), angular_velocity, limits::kMaxAngularSpeed,
               "angular speed", "rad/s");
  }

  RestitutionLaw law;
  if (c.has("restitution"))
    law = read_restitution(c.at("restitution"));
  else if (defaults.restitution)
    law = *defaults.restitution;
  else
    c.fail("no restitution law: give 'restitution' here or in contact.restitution");

  const int index = add_sphere_body(scene.world, scene.state, mass, inertia, spheres, position,
                                    orientation, velocity, angular_velocity);
  scene.world.bodies[index].name = name;
  ContactLaw material;
  material.friction = c.has("friction") ? c.at("friction").in_range(0, limits::kMaxFriction, "")
                                        : defaults.friction;
  material.restitution = law;
  set_body_contact_law(scene.world, index, material);
}

}  // namespace

bool is_event_scene(const nlohmann::json& doc) {
  if (!doc.is_object()) return false;
  const auto contact = doc.find("contact");
  if (contact == doc.end() || !contact->is_object()) return false;
  const auto model = contact->find("model");
  return model != contact->end() && model->is_string() && model->get<std::string>() == "plus";
}

EventScene parse_event_scene(const nlohmann::json& doc, const std::string& origin) {
  const JsonCursor top(doc, origin, "");
  top.expect_object(
      {"format", "version", "name", "dimension", "gravity", "time", "contact", "bodies"});
  if (top.at("format").string() != "exactsim-scene")
    top.at("format").fail("expected \"exactsim-scene\"");
  if (top.at("version").integer(1, 1000) != 1)
    top.at("version").fail("this exactsim reads version 1 only");
  if (top.at("dimension").integer(2, 3) != 3)
    top.at("dimension").fail("the event-driven \"plus\" simulation is 3D only");
  EventScene scene;
  scene.name =
      top.has("name") ? top.at("name").name() : std::filesystem::path(origin).stem().string();
  if (top.has("gravity")) {
    scene.world.gravity = top.at("gravity").vec3();
    check_norm(top.at("gravity"), scene.world.gravity, limits::kMaxGravity, "magnitude", "m/s^2");
  }

  const JsonCursor time = top.at("time");
  time.expect_object({"step", "duration", "output_interval"});
  scene.options.max_step = time.at("step").in_range(limits::kMinStep, limits::kMaxStep, "s");
  scene.duration = time.at("duration").in_range(0, limits::kMaxTime, "s");
  if (scene.duration / scene.options.max_step > 1e9) time.fail("duration / step exceeds 1e9 steps");
  scene.output_interval =
      time.has("output_interval") ? time.at("output_interval").positive() : scene.options.max_step;
  if (scene.duration / scene.output_interval > 1e8)
    time.at("output_interval").fail("duration / output_interval exceeds 1e8 samples");

  Defaults defaults;
  read_contact(top.at("contact"), scene.options, defaults);

  const JsonCursor bodies = top.at("bodies");
  bodies.expect_array();
  if (bodies.size() == 0) bodies.fail("at least one body is required");
  if (bodies.size() > static_cast<std::size_t>(kMaxBodies))
    bodies.fail("too many bodies (limit " + std::to_string(kMaxBodies) + ")");
  std::set<std::string> names;
  std::vector<Ground> grounds;
  for (std::size_t i = 0; i < bodies.size(); ++i)
    read_body(bodies.at(i), scene, defaults, names, grounds);
  if (scene.world.bodies.empty()) bodies.fail("at least one dynamic (sphere) body is required");
  for (const Ground& g : grounds)
    scene.world.bodies[add_half_space(scene.world, scene.state, g.plane)].name = g.name;
  scene.world.contact.friction = defaults.friction;
  if (defaults.restitution) scene.world.contact.impact.restitution = *defaults.restitution;
  return scene;
}

EventScene read_event_scene_file(const std::string& path) {
  return parse_event_scene(io::parse_json_strict(io::read_input_file(path, kMaxFileBytes), path),
                           path);
}

EventSimulation event_simulation(const EventScene& scene) {
  EventSimulation sim;
  sim.world = scene.world;
  sim.state = scene.state;
  sim.options = scene.options;
  return sim;
}

Scene stepper_scene(const EventScene& scene) {
  const World& w = scene.world;
  const State& state = scene.state;
  auto vec = [](const auto& v) {
    nlohmann::json a = nlohmann::json::array();
    for (int k = 0; k < v.size(); ++k) a.push_back(v[k]);
    return a;
  };
  std::vector<int> dynamic;
  for (int b = 0; b < w.body_count(); ++b)
    if (!w.bodies[b].is_static) dynamic.push_back(b);
  const ContactLaw first = body_contact_law(w, dynamic[0]);
  for (const int b : dynamic) {
    const ContactLaw m = body_contact_law(w, b);
    if (!w.half_spaces.empty() &&
        (m.friction != first.friction || m.restitution.e_min != first.restitution.e_min))
      throw InputError("bodies " + w.bodies[dynamic[0]].name + " and " + w.bodies[b].name +
                       " differ in friction or restitution: the event-driven simulator gives a "
                       "sphere's contact with a half-space the sphere's own, the time stepper "
                       "pairs them (docs/plus.md)");
  }
  const EventOptions& o = scene.options;
  // Capture speeds at least v_persist, below which the event-driven simulator holds a contact.
  auto held = [&](RestitutionLaw law) {
    law.v_capture = std::max(law.v_capture, o.v_persist);
    law.v_plastic = std::max(law.v_plastic, law.v_capture);
    return law;
  };
  const RestitutionLaw scene_law = held(first.restitution);
  nlohmann::json doc = {{"format", "exactsim-scene"},
                        {"version", 1},
                        {"name", scene.name},
                        {"dimension", 3},
                        {"gravity", vec(w.gravity)},
                        {"time", {{"step", o.max_step}, {"duration", scene.duration}}},
                        {"contact",
                         {{"model", "peg"},
                          {"friction", first.friction},
                          {"impact",
                           {{"model", "plus"},
                            {"restitution", scene_law.e_min},
                            {"capture_velocity", scene_law.v_capture},
                            {"plastic_velocity", scene_law.v_plastic}}}}}};
  nlohmann::json bodies = nlohmann::json::array();
  for (const HalfSpace& h : w.half_spaces)
    bodies.push_back(
        {{"name", "half_space " + std::to_string(bodies.size())},
         {"static", true},
         {"shape", {{"half_space", {{"normal", vec(h.normal)}, {"offset", h.offset}}}}}});
  const std::vector<WeldedSphere> spheres = welded_spheres(w);
  for (const int b : dynamic) {
    const Body& body = w.bodies[b];
    nlohmann::json parts = nlohmann::json::array();
    for (const WeldedSphere& s : spheres) {
      if (s.body != b) continue;
      nlohmann::json sphere = {{"radius", s.radius}};
      if (s.center != Vec3::Zero()) sphere["center"] = vec(s.center);
      parts.push_back({{"sphere", sphere}});
    }
    nlohmann::json inertia = nlohmann::json::array();
    for (int r = 0; r < 3; ++r) inertia.push_back(vec(body.inertia.row(r)));
    nlohmann::json j = {
        {"name", body.name},
        {"shape", parts.size() == 1 ? parts[0] : nlohmann::json{{"compound", parts}}},
        {"mass", body.mass},
        {"inertia", inertia},
        {"position", vec(state.q_of(b).head<3>())},
        {"orientation", vec(state.q_of(b).tail<4>())},
        {"velocity", vec(state.v_of(b).head<3>())},
        {"angular_velocity", vec(state.v_of(b).tail<3>())}};
    const ContactLaw m = body_contact_law(w, b);
    if (m.friction != first.friction) j["friction"] = m.friction;
    if (m.restitution.e_min != first.restitution.e_min) j["restitution"] = m.restitution.e_min;
    const RestitutionLaw law = held(m.restitution);
    if (law.v_capture != scene_law.v_capture) j["capture_velocity"] = law.v_capture;
    if (law.v_plastic != scene_law.v_plastic) j["plastic_velocity"] = law.v_plastic;
    bodies.push_back(j);
  }
  doc["bodies"] = bodies;
  Scene out = parse_scene(doc, scene.name);
  // PLUS's options and the impact's proximity, beyond what a scene file spells.
  out.world.contact.impact.plus = o.impact;
  out.world.contact.impact.proximity = o.proximity;
  return out;
}

}  // namespace exactsim
