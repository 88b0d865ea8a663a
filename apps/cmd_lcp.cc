// `exactsim lcp FILE...`: solve captured LCP files (EXACTSIM_DUMP_LCP, docs/solvers.md "The LCP
// regression suite") with the default stack, or with one method, and print one line per file: the
// verdict, the method that gave it, pivots, seconds and the largest impulse over the problem's
// scale Z.
// `--regularisation-path` instead prints max z / Z of the solutions of M + δI as δ falls
// (regularisation_path.h; '!' marks a δ whose regularised problem was not solved); with
// `--extended`, continued in long double to δ = 1e-14, each with a second line: the violation of
// that solution on the original problem over its tolerance.
#include <chrono>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "commands.h"
#include "exactsim/solvers/lcp.h"
#include "exactsim/solvers/lcp_io.h"
#include "exactsim/solvers/regularisation_path.h"
#include "solvers/lcp_scratch.h"

namespace exactsim::cli {

Action register_lcp(CLI::App& app) {
  auto* sub = app.add_subcommand("lcp",
                                 "Solve captured LCP files (EXACTSIM_DUMP_LCP) and print "
                                 "each verdict (docs/solvers.md \"Exact Lemke\")");
  auto files = std::make_shared<std::vector<std::string>>();
  auto method = std::make_shared<std::string>("stack");
  auto exact_work = std::make_shared<double>(SolverOptions{}.exact_max_work);
  auto verbose = std::make_shared<bool>(false);
  auto path = std::make_shared<bool>(false);
  auto extended = std::make_shared<bool>(false);
  sub->add_option("files", *files, "LCP files (format exactsim-lcp)")->required();
  sub->add_option("--method", *method,
                  "stack (the default solver stack, with the exact retry), lemke (double only) "
                  "or exact (exact arithmetic only)")
      ->check(CLI::IsMember({"stack", "lemke", "exact"}));
  sub->add_option("--exact-max-work", *exact_work,
                  "exact Lemke's work budget (word multiplications; 0: none)")
      ->check(at_least(0, "(0 = no budget)"));
  sub->add_flag("--verbose", *verbose, "also print each certificate (min z, min w, |z w|, tol)");
  sub->add_flag("--regularisation-path", *path,
                "instead, print max z / Z of the solutions of M + delta I for delta = 1e-2 ... "
                "1e-10 of max |M_ii| (bounded as delta falls: the LCP has solutions within its "
                "scale)");
  sub->add_flag("--extended", *extended,
                "with --regularisation-path: delta = 1e-8 ... 1e-14, continued in long double "
                "from the last solved basis, and a second line per file: the violation of each "
                "solution on the original problem over its tolerance")
      ->needs(sub->get_option("--regularisation-path"));
  return [files, method, exact_work, verbose, path, extended]() {
    if (*path) {
      const std::span<const Real> deltas =
          *extended ? std::span<const Real>(kExtendedPathDeltas) : kDefaultPathDeltas;
      bool header = false;  // printed before the first row, so that an error comes alone
      for (const std::string& file : *files) {
        LcpFileInfo info;
        const Lcp lcp = read_lcp(file, &info);
        if (!header) {
          header = true;
          std::printf("%-48s %5s", "file", "n");
          for (const Real delta : deltas) std::printf(" %10.0e", delta);
          std::printf("\n");
        }
        SolverOptions options;
        options.impulse_scale = info.impulse_scale;
        const auto points = *extended ? extended_regularisation_path(lcp, options)
                                      : regularisation_path(lcp, options);
        std::printf("%-48s %5ld", file.substr(file.find_last_of('/') + 1).c_str(),
                    static_cast<long>(lcp.q.size()));
        for (const RegularisationPoint& p : points)
          std::printf(" %s%9.3g", p.solved ? " " : "!", p.max_z_over_scale);
        std::printf("\n");
        if (!*extended) continue;
        std::printf("%-48s %5s", "  violation / tolerance", "");
        for (const RegularisationPoint& p : points)
          std::printf(" %s%9.3g", p.solved ? " " : "!", p.violation_over_tolerance);
        std::printf("\n");
      }
      return 0;
    }
    int unsolved = 0;
    bool header = false;  // printed before the first row, so that an error comes alone
    for (const std::string& path : *files) {
      LcpFileInfo info;
      const Lcp lcp = read_lcp(path, &info);
      if (!header) {
        header = true;
        std::printf("%-48s %5s  %-36s %-18s %7s %9s %10s\n", "file", "n", "status", "method",
                    "pivots", "seconds", "max z / Z");
      }
      SolverOptions options;
      options.impulse_scale = info.impulse_scale;
      options.exact_retry = true;
      options.exact_max_work = *exact_work;
      LcpScratch scratch;
      LcpSolution out;
      const auto t0 = std::chrono::steady_clock::now();
      if (*method == "exact")
        solve_lemke_exact(lcp, options, out);
      else if (*method == "lemke")
        solve_lemke(lcp, options, scratch, out);
      else
        solve_lcp(lcp, options, scratch, out);
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const Real z_max = out.z.size() > 0 ? out.z.lpNorm<Eigen::Infinity>() : 0.0;
      const std::string name = path.substr(path.find_last_of('/') + 1);
      std::printf("%-48s %5ld  %-36s %-18s %7d %9.3g %10.3g\n", name.c_str(),
                  static_cast<long>(lcp.q.size()), to_string(out.certificate.status),
                  to_string(out.certificate.method), out.certificate.pivots, seconds,
                  z_max / certificate_impulse_scale(lcp, options));
      if (*verbose) {
        const SolveCertificate& c = out.certificate;
        std::printf(
            "    first attempt %s; min z %.3g, min w %.3g, max |z w| %.3g; tolerance %.3g, "
            "impulse scale %.3g\n",
            to_string(c.primary_status), c.min_z, c.min_w, c.complementarity, c.tolerance,
            c.impulse_scale);
      }
      unsolved += out.certificate.ok() ? 0 : 1;
    }
    return unsolved == 0 ? 0 : 3;
  };
}

}  // namespace exactsim::cli
