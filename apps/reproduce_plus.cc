// The PLUS paper's Examples 1–3 (Uchida, Sherman & Delp 2015 §4a–c): tables (CSV + Markdown),
// the round-by-round Table 2, and per-interval data for scripts/plot_plus.py (Figs. 8–10, 12).
#include "reproduce_plus.h"
#include "sweep_format.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "exactsim/events/event_simulation.h"
#include "exactsim/events/sphere_contacts.h"
#include "exactsim/impact/plus.h"
#include "exactsim/math/error.h"
#include "experiments/plus_examples.h"

namespace exactsim::cli {
namespace {

// Per-interval path of one impact: cumulative impulses and the slip of each contact.
std::string interval_path_csv(const ImpactProblem& p, const ImpactResult& r) {
  std::ostringstream s;
  s << "round,interval,phase,contact,friction,alpha,limit,p_t1,p_t2,p_n,v_t1,v_t2,v_n\n";
  VecX total = VecX::Zero(p.rows());
  VecX v = p.velocity;
  const int nc = static_cast<int>(p.contacts.size());
  for (int k = 0; k < nc; ++k)
    s << 0 << ',' << 0 << ",start," << k << ",-,0,-,0,0,0," << g(v(3 * k)) << ',' << g(v(3 * k + 1))
      << ',' << g(v(3 * k + 2)) << '\n';
  for (size_t round = 0; round < r.log.size(); ++round) {
    const RoundLog& rl = r.log[round];
    for (size_t i = 0; i < rl.intervals.size(); ++i) {
      const IntervalLog& in = rl.intervals[i];
      total += in.impulse;
      v += p.delassus * in.impulse;
      for (int k = 0; k < nc; ++k)
        s << round + 1 << ',' << i + 1 << ',' << to_string(rl.phase[k]) << ',' << k << ','
          << to_string(in.friction[k]) << ',' << g(in.alpha) << ',' << to_string(in.limit) << ','
          << g(total(3 * k)) << ',' << g(total(3 * k + 1)) << ',' << g(total(3 * k + 2)) << ','
          << g(v(3 * k)) << ',' << g(v(3 * k + 1)) << ',' << g(v(3 * k + 2)) << '\n';
    }
  }
  return s.str();
}

int phase_intervals(const ImpactResult& r, size_t round) {
  return round < r.log.size() ? static_cast<int>(r.log[round].intervals.size()) : 0;
}

void example1(const std::filesystem::path& dir, bool quick) {
  std::ostringstream csv, md;
  csv << "mu,e_min,theta_max,rounds,intervals,compression_intervals,expansion_intervals,"
         "transition,p_t1,p_t2,p_n,v_t1,v_t2,v_n,kinetic_energy_change\n";
  md << "# Example 1: one brick vertex hits the ground\n\n"
        "Pre-impact velocity [-5, 0, -5.74] m/s, no spin; Table A1 parameters. Impulses in N s,\n"
        "velocities of the contact point in m/s (ground axes), energy in J.\n\n"
        "| μ | e_min | θ_max (rad) | intervals (compr. + exp.) | sliding → rolling | impulse (t1, "
        "t2, n) "
        "| post-impact velocity | ΔT |\n|---|---|---|---|---|---|---|---|\n";
  const std::vector<Real> thetas =
      quick ? std::vector<Real>{0.01} : std::vector<Real>{0.01, 0.15, 0.25};
  for (Real mu : {0.125, 0.225, 0.325}) {
    for (Real theta : thetas) {
      const ImpactProblem p = example1_problem(mu, theta);
      const ImpactResult r = solve_plus(p);
      const Vec3 pi = r.impulse.head<3>(), v = r.velocity.head<3>();
      csv << mu << ',' << example1_min_cor(mu) << ',' << theta << ',' << r.rounds << ','
          << r.intervals << ',' << phase_intervals(r, 0) << ',' << phase_intervals(r, 1) << ','
          << to_string(r.contacts[0].transition) << ',' << g(pi(0)) << ',' << g(pi(1)) << ','
          << g(pi(2)) << ',' << g(v(0)) << ',' << g(v(1)) << ',' << g(v(2)) << ','
          << g(r.kinetic_energy_change) << '\n';
      md << "| " << mu << " | " << example1_min_cor(mu) << " | " << theta << " | " << r.intervals
         << " (" << phase_intervals(r, 0) << " + " << phase_intervals(r, 1) << ") | "
         << to_string(r.contacts[0].transition) << " | (" << g(pi(0)) << ", " << g(pi(1)) << ", "
         << g(pi(2)) << ") | (" << g(v(0)) << ", " << g(v(1)) << ", " << g(v(2)) << ") | "
         << g(r.kinetic_energy_change) << " |\n";
      char name[64];
      std::snprintf(name, sizeof name, "example1_path_mu%.3f_theta%.2f.csv", mu, theta);
      write_text_file(dir / name, interval_path_csv(p, r));
    }
  }
  md << "\nPaper: μ = 0.125 slides throughout, 0.225 turns to rolling in expansion, 0.325 in "
        "compression; Fig. 10 reports 116, 11 and 8 intervals for μ = 0.325.\n";
  write_text_file(dir / "example1.csv", csv.str());
  write_text_file(dir / "example1.md", md.str());
}

void example2(const std::filesystem::path& dir) {
  const ImpactProblem p = example2_problem();
  const ImpactResult r = solve_plus(p);
  std::ostringstream csv, md;
  csv << "contact,x,y,transition,p_t1,p_t2,p_n,compression_p_n,v_t1,v_t2,v_n\n";
  md << "# Example 2: four vertices at once\n\nμ = 0.2, e_min = 0.414, pre-impact velocity "
        "[-2, 0, -8.84] m/s. Rounds: "
     << r.rounds << ", intervals: " << r.intervals << ", ΔT = " << g(r.kinetic_energy_change)
     << " J.\n\n| contact (x, y) | sliding → rolling | impulse (t1, t2, n) | compression p_n | "
        "post-impact velocity |\n|---|---|---|---|---|\n";
  const EventSimulation w = example2_simulation(0.0);
  const std::vector<SphereContact> contacts = find_contacts(w.world, w.state, 1e-9);
  const std::vector<WeldedSphere> spheres = welded_spheres(w.world);
  for (size_t k = 0; k < contacts.size(); ++k) {
    const Vec3 c = spheres[contacts[k].sphere_b].center;
    const Vec3 pi = r.impulse.segment<3>(3 * k), v = r.velocity.segment<3>(3 * k);
    csv << k << ',' << c.x() << ',' << c.y() << ',' << to_string(r.contacts[k].transition) << ','
        << g(pi(0)) << ',' << g(pi(1)) << ',' << g(pi(2)) << ','
        << g(r.contacts[k].compression_impulse(2)) << ',' << g(v(0)) << ',' << g(v(1)) << ','
        << g(v(2)) << '\n';
    md << "| " << k << " (" << c.x() << ", " << c.y() << ") | "
       << to_string(r.contacts[k].transition) << " | (" << g(pi(0)) << ", " << g(pi(1)) << ", "
       << g(pi(2)) << ") | " << g(r.contacts[k].compression_impulse(2)) << " | (" << g(v(0)) << ", "
       << g(v(1)) << ", " << g(v(2)) << ") |\n";
  }
  write_text_file(dir / "example2.csv", csv.str());
  write_text_file(dir / "example2.md", md.str());
  write_text_file(dir / "example2_path.csv", interval_path_csv(p, r));
}

void example3(const std::filesystem::path& dir) {
  std::ostringstream table, md, vel;
  table << "model,round,balls_1_2,balls_2_3,balls_3_4,balls_4_5\n";
  vel << "model,rounds,v1,v2,v3,v4,v5,kinetic_energy_change\n";
  md << "# Example 3: Newton's cradle\n\nFive frictionless balls, r = 0.25 m, m = 1 kg, COR 1, "
        "ball 1 at -2 m/s.\n\n## Impact rounds (paper Table 2)\n\n| balls | round 1 | round 2 | "
        "round 3 | round 4 | round 5 |\n|---|---|---|---|---|---|\n";
  for (InducedImpacts model : {InducedImpacts::kRounds, InducedImpacts::kSimultaneous}) {
    const ImpactResult r = solve_plus(example3_problem(model));
    const std::string name = model == InducedImpacts::kRounds ? "rounds" : "simultaneous";
    for (size_t round = 0; round < r.log.size(); ++round) {
      table << name << ',' << round + 1;
      for (ContactPhase ph : r.log[round].phase) table << ',' << to_string(ph);
      table << '\n';
    }
    if (model == InducedImpacts::kRounds) {
      const char* pairs[4] = {"1 and 2", "2 and 3", "3 and 4", "4 and 5"};
      for (int k = 0; k < 4; ++k) {
        md << "| " << pairs[k];
        for (const RoundLog& rl : r.log) md << " | " << to_string(rl.phase[k]);
        md << " |\n";
      }
      md << "\n## Final velocities (m/s)\n\n| model | rounds | balls 1–5 | ΔT (J) "
            "|\n|---|---|---|---|\n";
    }
    EventSimulation w = example3_simulation(0.0);
    apply_contact_impulse(w.world, w.state, find_contacts(w.world, w.state, 1e-9), r.impulse);
    vel << name << ',' << r.rounds;
    md << "| " << name << " | " << r.rounds << " | ";
    for (int b = 0; b < w.world.body_count(); ++b) {
      const Real vx = body_velocity(w.state, b).x() + 0.0;
      vel << ',' << g(vx);
      md << g(vx) << ' ';
    }
    vel << ',' << g(r.kinetic_energy_change) << '\n';
    md << "| " << g(r.kinetic_energy_change) << " |\n";
  }
  md << "\nPaper: rounds give (0, 0, 0, 0, -2); treating the row as one body (Fig. 14 row C) "
        "gives (1.2, -0.8, -0.8, -0.8, -0.8).\n";
  write_text_file(dir / "example3_rounds.csv", table.str());
  write_text_file(dir / "example3_velocities.csv", vel.str());
  write_text_file(dir / "example3.md", md.str());
}

// The examples as event-driven simulations (the brick falls 5 cm onto the ground).
void simulations(const std::filesystem::path& dir) {
  std::ostringstream csv;
  csv << "scene,impact,time,contacts,rounds,intervals,energy_before,energy_after\n";
  auto run = [&](const std::string& name, EventSimulation sim, Real duration) {
    sim.options = example_event_options(ImpactOptions{});
    advance(sim, duration);
    for (size_t i = 0; i < sim.impacts.size(); ++i) {
      const ImpactEvent& e = sim.impacts[i];
      csv << name << ',' << i + 1 << ',' << g(e.time) << ',' << e.contacts.size() << ','
          << e.result.rounds << ',' << e.result.intervals << ',' << g(e.energy_before) << ','
          << g(e.energy_after) << '\n';
    }
  };
  for (Real mu : {0.125, 0.225, 0.325})
    run("example1_mu" + g(mu), example1_simulation(mu, 0.05), 0.5);
  run("example2", example2_simulation(0.05), 0.5);
  run("example3", example3_simulation(0.1), 0.2);
  write_text_file(dir / "simulations.csv", csv.str());
}

}  // namespace

int reproduce_plus(const std::string& out_dir, bool quick) {
  const std::filesystem::path dir(out_dir);
  std::filesystem::create_directories(dir);
  example1(dir, quick);
  example2(dir);
  example3(dir);
  if (!quick) simulations(dir);
  std::printf("PLUS examples written to %s (plots: /usr/bin/python3 scripts/plot_plus.py %s)\n",
              out_dir.c_str(), out_dir.c_str());
  return 0;
}

}  // namespace exactsim::cli
