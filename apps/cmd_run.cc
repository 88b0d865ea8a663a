// `exactsim run`: simulate a scene file or a built-in scenario; write trajectory and reports.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <optional>

#include "commands.h"
#include "exactsim/geometry/polygon.h"
#include "exactsim/geometry/polyhedron.h"
#include "exactsim/io/checkpoint.h"
#include "exactsim/io/event_scene_json.h"
#include "exactsim/io/run.h"
#include "exactsim/io/scene_json.h"
#include "exactsim/io/scene_limits.h"
#include "exactsim/math/error.h"
#include "exactsim/viewer/replay.h"
#include "experiments/scenario_by_name.h"
#include "interrupt.h"
#include "memory_budget_option.h"

namespace exactsim::cli {

std::string data_dir() {
  if (const char* env = std::getenv("EXACTSIM_DATA")) return env;
  std::error_code ec;
  if (std::filesystem::is_directory(EXACTSIM_DATA_DIR, ec)) return EXACTSIM_DATA_DIR;
  return EXACTSIM_INSTALLED_DATA_DIR;
}

namespace {

struct RunArgs {
  std::string scene_file, scenario, set = "a", model, out, write_scene, stabilisation, resume,
                                    impact;
  std::uint64_t seed = 1;
  std::optional<double> dt, duration, epsilon, max_stabilisation_speed, memory_budget, restitution;
  int bodies = -1, every = 1;
  std::optional<int> gauss_seidel;
  std::optional<int> friction_on_demand;
  std::optional<int> threads;
  bool continue_on_failure = false, quiet = false, general_form = false, one_mlcp = false,
       cold_start = false, sleep = false, no_watchdog = false;
  bool seed_given = false, set_given = false, bodies_given = false;  // to refuse what is ignored
  std::vector<std::string> given;  // the options given, to refuse them with --resume
  std::string contacts = "auto";   // RunOptions::contact_list: auto, on, off
};

// The scene of a run that does not resume: from `doc`, the scene file's document (read when a
// scene file is given without --scenario), or the scenario.
Scene build_scene(const RunArgs& a, const std::optional<nlohmann::json>& doc) {
  std::optional<ContactModel> model;
  if (!a.model.empty()) {
    if (a.model == "standard")
      model = ContactModel::kStandard;
    else if (a.model == "peg")
      model = ContactModel::kPeg;
    else if (a.model == "corrective")
      model = ContactModel::kCorrective;
    else
      throw InputError("--model: unknown model '" + a.model +
                       "' (expected standard, peg or corrective)");
  }
  if (a.seed_given && !scenario_takes_seed(a.scenario))
    throw InputError(
        "--seed: only the random scenarios (pour2d-random, pour3d-random, hull-pour2d, "
        "hull-pour3d) take a seed");
  if (a.set_given && !scenario_has_sets(a.scenario))
    throw InputError("--set: only the pour2d scenario has archived body sets");
  if (a.bodies_given && a.scenario.empty())
    throw InputError("--bodies: only the scenarios take a number of bodies");
  Scene scene;
  if (!a.scene_file.empty()) {
    if (!a.scenario.empty()) throw InputError("give either a scene file or --scenario, not both");
    // An event-driven scene with --model is time-stepped (docs/plus.md "Time-stepping an
    // event-driven scene").
    scene = is_event_scene(*doc) ? stepper_scene(parse_event_scene(*doc, a.scene_file))
                                 : parse_scene(*doc, a.scene_file);
    if (a.dt) scene.step = *a.dt;
    if (a.duration) scene.duration = *a.duration;
  } else if (a.scenario.empty()) {
    throw InputError(std::string("give a scene file or --scenario (") + kScenarioNames + ")");
  } else if (!is_scenario(a.scenario)) {
    throw InputError("--scenario: unknown scenario '" + a.scenario + "' (expected " +
                     kScenarioNames + ")");
  } else {
    if (a.set.size() != 1 || a.set[0] < 'a' || a.set[0] > 'j')
      throw InputError("--set: expected one of a…j, got '" + a.set + "'");
    ScenarioSpec spec;
    spec.name = a.scenario;
    spec.set = a.set[0];
    spec.seed = a.seed;
    spec.bodies = a.bodies;
    spec.step = a.dt;
    spec.duration = a.duration;
    scene = scenario_scene(spec, data_dir());
  }
  if (!(scene.step > 0)) throw InputError("--dt: the step must be > 0");
  if (!(scene.duration >= 0)) throw InputError("--duration: must be >= 0");
  // Scene files and scenarios default to the same model: a scene file's own choice (PEG when it
  // names none, docs/scene-format.md), and PEG for the built-in scenarios.
  if (model)
    scene.world.contact.model = *model;
  else if (!a.scenario.empty())
    scene.world.contact.model = ContactModel::kPeg;
  if (a.continue_on_failure) scene.world.stepping.continue_on_solver_failure = true;
  if (a.general_form) scene.world.contact.peg.general_form = true;
  if (a.one_mlcp) scene.world.stepping.islands = false;
  if (a.cold_start) scene.world.stepping.warm_start = false;
  if (a.sleep) scene.world.stepping.sleep = true;
  if (a.no_watchdog) scene.world.stepping.watch_penetration = false;
  if (a.threads) scene.world.stepping.threads = *a.threads;
  if (a.gauss_seidel) scene.world.stepping.gauss_seidel_min_unknowns = *a.gauss_seidel;
  if (a.friction_on_demand)
    scene.world.stepping.friction_on_demand_min_unknowns = *a.friction_on_demand;
  if (a.stabilisation == "split")
    scene.world.contact.stabilisation = Stabilisation::kSplit;
  else if (a.stabilisation == "velocity")
    scene.world.contact.stabilisation = Stabilisation::kVelocity;
  else if (!a.stabilisation.empty())
    throw InputError("--stabilisation: unknown '" + a.stabilisation +
                     "' (expected split or velocity)");
  if (a.epsilon) {
    if (!(*a.epsilon >= limits::kMinContactDistance && *a.epsilon <= limits::kMaxContactDistance))
      throw InputError("--epsilon: the contact distance must be in [1e-12, 1000] m");
    scene.world.contact.epsilon = *a.epsilon;
  }
  if (a.max_stabilisation_speed) {
    if (!(*a.max_stabilisation_speed > 0))
      throw InputError("--max-stabilisation-speed: must be > 0 (inf: uncapped)");
    scene.world.contact.max_stabilisation_speed = *a.max_stabilisation_speed;
  }
  if (a.memory_budget)
    scene.world.stepping.memory_budget_bytes = memory_budget_bytes(*a.memory_budget);
  ImpactStepOptions& impact = scene.world.contact.impact;
  if (a.impact == "plus")
    impact.model = ImpactModel::kPlus;
  else if (a.impact == "none")
    impact.model = ImpactModel::kNone;
  else if (!a.impact.empty())
    throw InputError("--impact: unknown '" + a.impact + "' (expected none or plus)");
  if (a.restitution) {
    if (!(*a.restitution >= 0 && *a.restitution <= 1))
      throw InputError("--restitution: must be in [0, 1]");
    impact.restitution.e_min = *a.restitution;
  }
  if (impact.model == ImpactModel::kPlus && scene.world.contact.model == ContactModel::kCorrective)
    throw InputError("--impact: impacts need the peg or standard contact model");
  return scene;
}

// `--resume DIR`: the scene is DIR/scene.json and the rest comes from the checkpoint, so no
// option may say otherwise (docs/robustness.md "Interrupted runs").
Scene resumed_scene(const RunArgs& a) {
  for (const std::string& option : a.given)
    if (option != "--resume" && option != "--quiet")
      throw InputError("--resume: " + (option[0] == '-' ? option : "a scene file") +
                       " cannot be given: the run continues as " + a.resume +
                       "/scene.json and its checkpoint say (only --quiet may be added)");
  require_checkpoint(a.resume);
  return read_scene_file(a.resume + "/scene.json");
}

// A step large for the thinnest body: its default contact distance ε = h/2 would reach past half
// of that body, so contact_epsilon caps ε at half its width (docs/collision.md "ε parameters and
// defaults"). Said on stderr; the run goes on.
void warn_if_step_is_large(const Scene& scene) {
  const World& w = scene.world;
  if (!std::isnan(w.contact.epsilon)) return;  // the scene chose its ε
  double thinnest = std::numeric_limits<double>::infinity();
  int body = -1;
  for (int i = 0; i < w.body_count(); ++i) {
    const int shape = w.bodies[i].shape;
    if (shape < 0) continue;
    const double width = w.dimension == 2 ? minimum_width(w.polygons[shape])
                         : w.bodies[i].kind == ShapeKind::kSphere
                             ? 2 * w.spheres[shape].radius
                             : minimum_width(w.polyhedra[shape]);
    if (width < thinnest) thinnest = width, body = i;
  }
  if (body < 0 || !(scene.step > thinnest)) return;
  std::fprintf(stderr,
               "exactsim run: warning: h = %g s is large for the thinnest body, '%s' (%.3g m "
               "across): the contact distance h/2 = %.3g m would reach past its middle, so it is "
               "capped at %.3g m (docs/collision.md \"ε parameters and defaults\"); h <= %.3g "
               "s keeps eps = h/2\n",
               scene.step, w.bodies[body].name.c_str(), thinnest, scene.step / 2, thinnest / 2,
               thinnest);
}

int run(const RunArgs& a) {
  // The backstop while the scene is read (the option's budget or the default), then from the
  // scene's own budget (docs/input-validation.md "Memory budget").
  set_memory_backstop(a.memory_budget ? memory_budget_bytes(*a.memory_budget)
                                      : kDefaultMemoryBudgetBytes);
  const bool resume = !a.resume.empty();
  std::optional<nlohmann::json> doc;  // the scene file's, read once
  if (!resume && !a.scene_file.empty() && a.scenario.empty()) {
    doc = read_scene_document(a.scene_file);
    const bool stepped = std::find(a.given.begin(), a.given.end(), "--model") != a.given.end();
    if (is_event_scene(*doc) && !stepped) {
      // The event-driven simulator (docs/plus.md "Scene files") takes the output folder and the
      // duration; every other option is the time stepper's (with --model, it steps the scene).
      for (const std::string& option : a.given)
        if (option != "scene" && option != "--out" && option != "--duration" && option != "--quiet")
          throw InputError(option + ": " + a.scene_file +
                           " is an event-driven scene (contact.model \"plus\"), which takes only "
                           "--out and --duration, or --model to time-step it (docs/plus.md)");
      return run_events(parse_event_scene(*doc, a.scene_file), a.out, a.duration);
    }
  }
  const Scene scene = resume ? resumed_scene(a) : build_scene(a, doc);
  set_memory_backstop(scene.world.stepping.memory_budget_bytes);
  warn_if_step_is_large(scene);
  if (!a.write_scene.empty()) write_scene_file(scene, a.write_scene);
  RunOptions o;
  std::string replay;
  o.out_dir = resume ? a.resume : a.out;
  o.resume = resume;
  o.trajectory_every = a.every;
  o.progress = !a.quiet;
  o.contact_list = a.contacts == "on" ? 1 : a.contacts == "off" ? 0 : -1;
  catch_interrupts();
  o.interrupt = interrupt_flag();
  const RunSummary s = run_scene(scene, o);
  release_interrupts();
  if (s.interrupted) {
    const int sig = *o.interrupt;
    std::fprintf(stderr, "exactsim run: interrupted (%s) after step %ld of %ld; %s\n",
                 sig == SIGINT ? "SIGINT" : "SIGTERM", s.steps_done, s.steps_planned,
                 o.out_dir.empty() ? "without --out there is nothing to resume"
                                   : ("resume with: exactsim run --resume " + o.out_dir).c_str());
    return interrupted_status(sig);
  }
  if (!o.out_dir.empty() && s.steps_done > 0) {  // a failed run gets its replay too
    ReplayOptions ro;
    ro.scene = &scene;
    const ReplayOutput r = write_replay(o.out_dir, ro);
    replay = "  replay: " + r.html + ", picture: " + r.picture + "\n";
  }
  const char* unit = s.dimension == 2 ? "m^2" : "m^3";
  std::printf("scene %s, model %s, %dD, h = %g s: %ld/%ld steps in %.2f s wall (solver %.2f s)\n",
              s.scene.c_str(), s.model.c_str(), s.dimension, s.step, s.steps_done, s.steps_planned,
              s.wall_seconds, s.solver_seconds);
  std::printf(
      "  contacts per step: mean %.1f, max %d; solver calls %ld, failures %ld (energy %ld, "
      "islands flown free %ld), fallbacks %ld, max pivots %ld; failed solves taken again as half "
      "steps %ld\n",
      s.mean_contacts, s.max_contacts, s.solver_calls, s.solver_failures, s.energy_failures,
      s.islands_flown_free, s.fallback_solves, s.max_pivots, s.retaken_failed_solves);
  std::printf(
      "  overlap per step: median %.3e %s, max %.3e %s; final energy: kinetic %.6g J, "
      "potential %.6g J\n",
      s.median_overlap, unit, s.max_overlap, unit, s.kinetic_energy, s.potential_energy);
  if (scene.world.contact.impact.model == ImpactModel::kPlus)
    std::printf(
        "  impacts (PLUS, located): %ld, kinetic energy change through them %.6g J; left "
        "inelastic: %ld unfinished by PLUS, %ld steps past the cap\n",
        s.impacts, s.impact_energy_change, s.impact_fallbacks, s.impact_capped_steps);
  if (s.model == "peg")
    std::printf("  PEG changed the standard model's constraints in %ld of %ld steps\n",
                s.peg_changed_steps, s.steps_done);
  if (scene.world.stepping.watch_penetration)
    std::printf(
        "  watchdog: max penetration %.3e m, deep-penetration steps %ld, bodies lost %d; max "
        "energy gain beyond its budgets %.3g J\n",
        s.max_penetration, s.deep_penetration_steps, s.bodies_lost, s.max_energy_gain);
  else
    std::printf(
        "  watchdog off (penetration and lost bodies not checked); max energy "
        "gain beyond its budgets %.3g J\n",
        s.max_energy_gain);
  if (scene.world.stepping.sleep)
    std::printf("  asleep at the end: %d bodies (docs/stepping.md \"Sleeping\")\n",
                s.bodies_asleep);
  if (s.bodies_falling > 0 || s.bodies_not_spawned > 0) {
    std::string what;
    if (s.bodies_falling > 0)
      what = std::to_string(s.bodies_falling) +
             (s.bodies_falling == 1 ? " body is still falling" : " bodies are still falling");
    if (s.bodies_not_spawned > 0)
      what += (what.empty() ? "" : ", ") + std::to_string(s.bodies_not_spawned) +
              (s.bodies_not_spawned == 1 ? " body has not spawned yet"
                                         : " bodies have not spawned yet");
    std::printf("  at the end, t = %.3f s: %s (a longer --duration lets them settle)\n",
                s.step * static_cast<double>(s.steps_done), what.c_str());
  }
  std::printf("  peak memory: %.1f MB\n", s.peak_memory_mb);
  if (!o.out_dir.empty())
    std::printf("  written: %s/{scene.json, trajectory.csv, steps.jsonl, summary.json}\n%s",
                o.out_dir.c_str(), replay.c_str());
  else
    std::printf("  nothing written (no --out DIR)\n");
  if (s.failed) {
    std::fprintf(stderr, "exactsim run: failed at %s\n", s.failure.c_str());
    return 3;
  }
  return 0;
}

}  // namespace

int run_stepped_events(const std::string& scene_file, const std::string& out,
                       std::optional<double> duration) {
  const nlohmann::json doc = read_scene_document(scene_file);
  const auto* contact = doc.contains("contact") ? &doc["contact"] : nullptr;
  if (contact && contact->is_object() && contact->contains("impact") &&
      (*contact)["impact"].is_object() && (*contact)["impact"].value("model", "") == "none")
    throw InputError(scene_file +
                     ": contact.impact.model: \"none\" steps every collision inelastically; "
                     "`exactsim events` resolves them with PLUS (docs/plus.md \"Event-driven "
                     "polytopes\"): give \"plus\", or run the scene with `exactsim run`");
  RunArgs a;
  a.scene_file = scene_file;
  a.out = out;
  a.duration = duration;
  a.impact = "plus";
  return run(a);
}

Action register_run(CLI::App& app) {
  auto a = std::make_shared<RunArgs>();
  CLI::App* sub = app.add_subcommand("run", "Simulate a scene file or a built-in scenario");
  sub->add_option("scene", a->scene_file,
                  "Scene file (JSON, docs/scene-format.md), or an event-driven PLUS scene "
                  "(contact.model \"plus\", docs/plus.md: only --out and --duration apply)");
  sub->add_option("--scenario", a->scenario,
                  "Built-in scenario: pour2d (archived sets), pour2d-random, pour3d (icosahedra), "
                  "pour3d-random, hull-pour2d, hull-pour3d (the stress campaign's awkward hulls, "
                  "mu = 0.3); the structures arch3d, jenga3d, cube-pyramid3d, dominoes3d, "
                  "tight-bin3d (docs/robustness.md \"Structures\")");
  sub->add_option("--set", a->set, "Archived 2D body set a…j (pour2d)");
  sub->add_option("--seed", a->seed,
                  "Random seed (pour2d-random, pour3d-random, hull-pour2d, hull-pour3d)");
  sub->add_option("--bodies", a->bodies, "Number of bodies to drop (scenarios)");
  sub->add_option("--model", a->model,
                  "Contact model: peg, standard or corrective (overrides the scene; scenarios "
                  "default to peg)");
  sub->add_option("--impact", a->impact,
                  "Impacts: none (every collision inelastic) or plus (located PLUS impacts), as "
                  "contact.impact.model (docs/impacts.md)");
  sub->add_option("--restitution", a->restitution,
                  "Coefficient of restitution of the impacts, as contact.impact.restitution");
  sub->add_option("--dt", a->dt, "Time step h in s (overrides the scene)");
  sub->add_option("--duration", a->duration, "Simulated time in s (overrides the scene)");
  sub->add_option("--out", a->out,
                  "Output folder: scene.json, trajectory.csv, steps.jsonl, summary.json, "
                  "replay.html, final.svg (an earlier run's are removed first)");
  sub->add_option("--resume", a->resume,
                  "Continue the interrupted or killed run whose --out folder is DIR from its "
                  "checkpoint, bit for bit as if it had not stopped (docs/robustness.md "
                  "\"Interrupted runs\")");
  sub->add_option("--every", a->every, "Write the trajectory every N steps")
      ->check(at_least(1, "(the trajectory is written every N steps)"));
  sub->add_option("--write-scene", a->write_scene, "Also write the scene as a scene file");
  sub->add_flag(
      "--continue-on-failure", a->continue_on_failure,
      "Keep going after a failed solve or a deep penetration (the step report records it; a "
      "failed island is regularised, and flies free for the step where that fails too, "
      "docs/stepping.md \"When a solve fails\")");
  sub->add_flag("--general-form", a->general_form,
                "PEG 2D: the general intercontact form (docs/peg.md), as contact.parameters."
                "general_form");
  sub->add_option("--epsilon", a->epsilon,
                  "Contact distance eps in m (overrides the scene's contact.parameters.epsilon; "
                  "docs/collision.md \"ε parameters and defaults\")");
  sub->add_option("--stabilisation", a->stabilisation,
                  "How overlap is pushed out: split (default: positions only) or velocity (the "
                  "paper's psi/h); docs/robustness.md");
  sub->add_option("--max-stabilisation-speed", a->max_stabilisation_speed,
                  "Cap (m/s) of the psi/h push-out of overlaps, as contact.parameters."
                  "max_stabilisation_speed; inf = uncapped (docs/robustness.md)");
  sub->add_flag("--one-mlcp", a->one_mlcp,
                "Solve each step as one MLCP over all constrained bodies, as the papers did, "
                "instead of one per island (docs/stepping.md \"Islands\")");
  sub->add_flag("--cold-start", a->cold_start,
                "Solve every step's LCPs from scratch instead of from the previous step's "
                "complementary basis (docs/stepping.md \"Warm start\")");
  sub->add_option("--threads", a->threads,
                  "Solve the islands of a step on this many threads (0 = one per core; default "
                  "1), bit for bit as on one (docs/stepping.md \"Parallel islands\")")
      ->check(CLI::Range(0, limits::kMaxThreads));
  sub->add_flag("--sleep", a->sleep,
                "Let islands at rest sleep: left out of the solve until an awake body touches "
                "them, as stepping.sleep (docs/stepping.md \"Sleeping\")");
  sub->add_flag("--no-watchdog", a->no_watchdog,
                "Step at the fixed h without the penetration watchdog, as the paper "
                "reproductions do: no step is split and deep penetrations are not reported "
                "(stepping.watch_penetration = false; docs/penetration.md)");
  sub->add_option("--gauss-seidel", a->gauss_seidel,
                  "Islands with at least this many LCP unknowns start Lemke from a projected "
                  "Gauss-Seidel estimate (default 200; 0 = never; docs/stepping.md \"Iterate, "
                  "then certify\")")
      ->check(at_least(0, "(0 = never)"));
  sub->add_option("--friction-on-demand", a->friction_on_demand,
                  "Islands with at least this many LCP unknowns are solved with the friction "
                  "unknowns of loaded contacts only, then verified whole (default 200; 0 = never; "
                  "docs/stepping.md \"Friction on demand\")")
      ->check(at_least(0, "(0 = never)"));
  add_memory_budget_option(sub, a->memory_budget);
  sub->add_option("--contacts", a->contacts,
                  "Each step's contacts (bodies, point, normal, impulse) in steps.jsonl, drawn by "
                  "the replay page: auto (scenes of at most 32 bodies), on or off")
      ->check(CLI::IsMember({"auto", "on", "off"}));
  sub->add_flag("--quiet", a->quiet, "No progress line");
  return [a, sub] {
    a->seed_given = sub->get_option("--seed")->count() > 0;
    a->set_given = sub->get_option("--set")->count() > 0;
    a->bodies_given = sub->get_option("--bodies")->count() > 0;
    for (const CLI::Option* option : sub->get_options())
      if (option->count() > 0) a->given.push_back(option->get_name());
    return run(*a);
  };
}

}  // namespace exactsim::cli
