// `exactsim reproduce <experiment>`: the papers' experiments, one command each.
#include "commands.h"
#include "exactsim/math/error.h"
#include "reproduce_compliant.h"
#include "reproduce_peg2d.h"
#include "reproduce_peg3d.h"
#include "reproduce_plus.h"

namespace exactsim::cli {

Action register_reproduce(CLI::App& app) {
  auto experiment = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>("results");
  auto quick = std::make_shared<bool>(false);
  CLI::App* sub = app.add_subcommand("reproduce", "Reproduce a paper's experiment");
  sub->add_option("experiment", *experiment,
                  "plus (PLUS Examples 1–3), peg2d (PEG 2D pouring), peg3d (PEG 3D pouring), "
                  "plus-vs-compliant (PLUS against the compliant model, Examples 1–4)")
      ->required();
  sub->add_option("--out", *out, "Output folder (a subfolder per experiment)");
  sub->add_flag("--quick", *quick, "A small subset, for CI");
  auto models = std::make_shared<std::vector<std::string>>();
  auto jobs = std::make_shared<int>(0);
  CLI::Option* models_opt =
      sub->add_option("--models", *models,
                      "peg2d, peg3d: contact models to run (default peg,standard,corrective)")
          ->delimiter(',');
  CLI::Option* jobs_opt =
      sub->add_option("--jobs", *jobs, "peg2d, peg3d: parallel runs (default 0 = all cores)");
  auto h_ms = std::make_shared<std::vector<int>>();
  auto seeds = std::make_shared<int>(10);
  CLI::Option* h_opt =
      sub->add_option("--h-ms", *h_ms, "peg3d: step sizes in ms (default 1…16)")->delimiter(',');
  CLI::Option* seeds_opt =
      sub->add_option("--seeds", *seeds, "peg3d: random polyhedra sets 1…N (default 10)");
  return [=]() -> int {
    // An option the experiment would ignore is refused, not silently dropped.
    const auto refuse = [&](const CLI::Option* o, std::initializer_list<const char*> for_) {
      if (o->count() == 0) return;
      for (const char* e : for_)
        if (*experiment == e) return;
      throw InputError(
          "reproduce " + *experiment + ": " + o->get_name() +
          " does not apply to this experiment (only to " +
          (for_.size() == 1 ? std::string(*for_.begin()) : std::string("peg2d and peg3d")) + ")");
    };
    refuse(models_opt, {"peg2d", "peg3d"});
    refuse(jobs_opt, {"peg2d", "peg3d"});
    refuse(h_opt, {"peg3d"});
    refuse(seeds_opt, {"peg3d"});
    if (*experiment == "plus") return reproduce_plus(*out + "/plus", *quick);
    if (*experiment == "peg2d") {
      Peg2dSweepOptions o;
      o.out_dir = *out + (*quick ? "/peg2d-quick" : "/peg2d");
      o.quick = *quick;
      if (!models->empty()) o.models = *models;
      o.jobs = *jobs;
      return reproduce_peg2d(o);
    }
    if (*experiment == "peg3d") {
      Peg3dSweepOptions o;
      o.out_dir = *out + (*quick ? "/peg3d-quick" : "/peg3d");
      o.quick = *quick;
      if (!models->empty()) o.models = *models;
      o.jobs = *jobs;
      o.h_ms = *h_ms;
      o.seeds = *seeds;
      return reproduce_peg3d(o);
    }
    if (*experiment == "plus-vs-compliant")
      return reproduce_compliant(
          *out + (*quick ? "/plus-vs-compliant-quick" : "/plus-vs-compliant"), *quick);
    throw InputError("reproduce: unknown experiment '" + *experiment +
                     "' (expected plus, peg2d, peg3d or plus-vs-compliant)");
  };
}

}  // namespace exactsim::cli
