// `exactsim events`: run an event-driven PLUS scene file (contact.model "plus", docs/plus.md
// "Scene files"); write trajectory.csv and impacts.jsonl, print a summary.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <optional>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "exactsim/io/event_scene_json.h"
#include "exactsim/io/scene_json.h"
#include "exactsim/math/error.h"

namespace exactsim::cli {
namespace {

struct EventsArgs {
  std::string scene_file, out;
  std::optional<double> duration;
};

// One row per moving body: time, name, then the State's q = (x, quaternion w x y z) and
// ν = (v, ω).
void write_samples(std::ofstream& csv, const EventSimulation& sim) {
  for (int i = 0; i < sim.world.body_count(); ++i) {
    if (sim.world.bodies[i].is_static) continue;
    csv << sim.time << ',' << sim.world.bodies[i].name;
    for (const Real x : sim.state.q_of(i)) csv << ',' << x;
    for (const Real x : sim.state.v_of(i)) csv << ',' << x;
    csv << '\n';
  }
}

nlohmann::json impact_json(const ImpactEvent& e) {
  nlohmann::json contacts = nlohmann::json::array(), impulses = nlohmann::json::array();
  for (size_t k = 0; k < e.contacts.size(); ++k) {
    const SphereContact& c = e.contacts[k];
    contacts.push_back({{"sphere_a", c.sphere_a},
                        {"half_space", c.half_space},
                        {"sphere_b", c.sphere_b},
                        {"point", {c.point.x(), c.point.y(), c.point.z()}},
                        {"normal", {c.normal.x(), c.normal.y(), c.normal.z()}}});
    // (t1, t2, n) in the contact's frame, N s
    impulses.push_back(
        {e.result.impulse(3 * k), e.result.impulse(3 * k + 1), e.result.impulse(3 * k + 2)});
  }
  return {{"time", e.time},
          {"contacts", contacts},
          {"rounds", e.result.rounds},
          {"intervals", e.result.intervals},
          {"impulses", impulses},
          {"kinetic_energy_change", e.result.kinetic_energy_change},
          {"energy_before", e.energy_before},
          {"energy_after", e.energy_after},
          {"converged", e.result.converged}};
}

}  // namespace

int run_events(const EventScene& scene, const std::string& out,
               std::optional<double> duration_option) {
  const Real duration = duration_option ? *duration_option : scene.duration;
  if (!(duration >= 0) || !std::isfinite(duration)) throw InputError("--duration: must be >= 0");
  EventSimulation sim = event_simulation(scene);
  std::ofstream csv, log;
  if (!out.empty()) {
    std::filesystem::create_directories(out);
    csv.open(out + "/trajectory.csv");
    log.open(out + "/impacts.jsonl");
    if (!csv || !log) throw InputError(out + ": cannot write the output files");
    csv << std::setprecision(17) << "time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n";
    write_samples(csv, sim);
  }
  const Real energy0 = mechanical_energy(sim.world, sim.state);
  // Sampling by advancing to each sample instant: advance() ends its last step there exactly.
  const long samples = static_cast<long>(std::ceil(duration / scene.output_interval - 1e-9));
  size_t logged = 0;
  for (long k = 1; k <= samples; ++k) {
    advance(sim, std::min(duration, k * scene.output_interval));
    if (!out.empty()) {
      write_samples(csv, sim);
      for (; logged < sim.impacts.size(); ++logged)
        log << impact_json(sim.impacts[logged]).dump() << '\n';
    }
  }
  int rounds = 0, intervals = 0, unconverged = 0;
  for (const ImpactEvent& e : sim.impacts) {
    rounds += e.result.rounds;
    intervals += e.result.intervals;
    unconverged += e.result.converged ? 0 : 1;
  }
  const std::size_t half_spaces = sim.world.half_spaces.size();
  std::printf("scene %s (event-driven PLUS): t = %g s, %zu bodies, %zu spheres, %zu half-spaces\n",
              scene.name.c_str(), sim.time, sim.world.bodies.size() - half_spaces,
              welded_spheres(sim.world).size(), half_spaces);
  std::printf(
      "  steps: %d free, %d persistent-contact, %d located events; impacts %zu "
      "(rounds %d, intervals %d, not converged %d)\n",
      sim.free_steps, sim.persistent_steps, sim.located_events, sim.impacts.size(), rounds,
      intervals, unconverged);
  std::printf("  mechanical energy: %.9g J -> %.9g J\n", energy0,
              mechanical_energy(sim.world, sim.state));
  for (int i = 0; i < sim.world.body_count(); ++i) {
    if (sim.world.bodies[i].is_static) continue;
    const Vec3 x = body_position(sim.state, i), v = body_velocity(sim.state, i);
    std::printf("  %-10s x = (%.6g, %.6g, %.6g) m, v = (%.9g, %.9g, %.9g) m/s\n",
                sim.world.bodies[i].name.c_str(), x.x(), x.y(), x.z(), v.x(), v.y(), v.z());
  }
  if (!out.empty()) std::printf("  written: %s/{trajectory.csv, impacts.jsonl}\n", out.c_str());
  return unconverged == 0 ? 0 : 3;
}

Action register_events(CLI::App& app) {
  auto a = std::make_shared<EventsArgs>();
  CLI::App* sub = app.add_subcommand(
      "events",
      "Run a scene event-driven with PLUS impacts: an event-driven scene (contact.model "
      "\"plus\"), or any time-stepping scene, its polygons and polyhedra with located impacts "
      "(docs/plus.md)");
  sub->add_option("scene", a->scene_file, "Scene file (JSON)")->required();
  sub->add_option("--out", a->out,
                  "Output folder: trajectory.csv and impacts.jsonl (an event-driven scene), or "
                  "what `exactsim run` writes");
  sub->add_option("--duration", a->duration, "Simulated time in s (overrides the scene)");
  return [a] {
    const nlohmann::json doc = read_scene_document(a->scene_file);
    if (is_event_scene(doc))
      return run_events(parse_event_scene(doc, a->scene_file), a->out, a->duration);
    return run_stepped_events(a->scene_file, a->out, a->duration);
  };
}

}  // namespace exactsim::cli
