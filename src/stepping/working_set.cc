// The working set of a large island (working_set.h; docs/solvers.md "Large islands: the sparse
// path").
#include "exactsim/stepping/working_set.h"

#include <algorithm>
#include <cmath>

namespace exactsim {
namespace {

// Rounds of adding rejected units (on the 100-hull pile the islands take 2–4, docs/solvers.md
// "The working set").
constexpr int kMaxRounds = 8;

// The sparse Lemke's run from the last round's solved basis stops after this many pivots per
// unknown, and at least kWarmMinPivots (docs/solvers.md "A round after a solved basis"); the part
// then goes on as a round without that basis. Such a walk starts with thousands of rows basic, and
// a pivot there is dear: on the settled 2D pour of 1,000 polygons (sets of 7,000–8,000 rows) runs
// took 9,037 and 25,873 pivots (10.8 s and 160 s), where the interior point and a cold walk
// answer the round in 7–27 s, and the runs that certified took 27–29 pivots. Steps 65–75 of
// that pour took 193 s with 0.25, 201 s with 0.5 and 552 s without a cap.
constexpr Real kWarmPivotsPerUnknown = 0.25;
constexpr int kWarmMinPivots = 100;

// Row → unit and row → cone maps (a cone's rows belong to its contact's unit: the set holds a
// cone with its unit, working_set.h), and the slacks' ranges.
void map_rows(const MlcpLayout& layout, const ConstraintSet& set, WorkingSet& s) {
  const int m = layout.size(), n_u = layout.n_unilateral, n_i = layout.n_intercontact;
  s.unit_of_row.assign(m, -1);
  s.cone_of_row.assign(m, -1);
  s.slack_begin.assign(n_i + 1, layout.slack_begin());
  for (int j = 0; j < n_u; ++j) s.unit_of_row[j] = j;
  for (int j = 0; j < n_i; ++j) {
    s.slack_begin[j + 1] = s.slack_begin[j] + set.intercontacts[j].secondary_count;
    s.unit_of_row[layout.pi_begin() + j] = n_u + j;
    for (int r = s.slack_begin[j]; r < s.slack_begin[j + 1]; ++r) s.unit_of_row[r] = n_u + j;
  }
  const int k = layout.friction_directions;
  for (int f = 0; f < layout.n_friction_contacts; ++f) {
    const int unit = s.unit_of_row[layout.friction_impulse[f]];
    for (int r = 0; r < k; ++r) {
      s.cone_of_row[layout.beta_begin() + f * k + r] = f;
      s.unit_of_row[layout.beta_begin() + f * k + r] = unit;
    }
    s.cone_of_row[layout.sigma_begin() + f] = f;
    s.unit_of_row[layout.sigma_begin() + f] = unit;
  }
}

// The unit's impulse row (its U row or I row).
int impulse_row(const MlcpLayout& layout, int unit) {
  return unit < layout.n_unilateral ? unit : layout.pi_begin() + unit - layout.n_unilateral;
}

// The set's MLCP: the full problem's rows and columns of the set (D couples only rows of one unit
// or one cone, and a cone's σ row its unit's impulse: nothing in the set refers to a left-out
// unknown).
void restrict_problem(const SparseMlcp& full, bool first, WorkingSet& s) {
  const int m = full.size();
  const int n_u = static_cast<int>(s.unit_in.size() - s.slacks_in.size());
  s.columns.clear();
  s.sub_of.assign(m, -1);
  for (int i = 0; i < m; ++i) {
    if (!s.unit_in[s.unit_of_row[i]]) continue;
    const bool slack = i >= s.slack_begin.front() && i < s.slack_begin.back();
    if (slack && !s.slacks_in[s.unit_of_row[i] - n_u]) continue;
    s.sub_of[i] = static_cast<int>(s.columns.size());
    s.columns.push_back(i);
  }
  const int n = static_cast<int>(s.columns.size());
  SparseMlcp& p = s.problem;
  if (first) {  // (M and c are the whole problem's in every round)
    p.M = full.M;
    p.c = full.c;
  }
  p.r.resize(n);
  const int blocks = static_cast<int>(full.M.blocks.size());
  for (auto [from, to] : {std::pair{&full.g, &p.g}, std::pair{&full.h, &p.h}}) {
    to->pending.clear();
    for (int q = 0; q < n; ++q)
      for (int e = from->begin[s.columns[q]]; e < from->begin[s.columns[q] + 1]; ++e)
        to->add(q, from->block[e], from->values[e]);
    to->compress(n, blocks);
  }
  p.D.resize(n, n);
  p.D.reserve(full.D.nonZeros());
  for (int q = 0; q < n; ++q) {
    p.r[q] = full.r[s.columns[q]];
    p.D.startVec(q);
    for (SparseRowMatX::InnerIterator e(full.D, s.columns[q]); e; ++e)
      if (const int col = s.sub_of[e.col()]; col >= 0)  // (ascending with the full columns)
        p.D.insertBack(q, col) = e.value();
  }
  p.D.finalize();
}

// z of the left-out unknowns from ν: the slacks of a left-out unit, or of an I in the set
// without them, by forward substitution, σ of a left-out cone as the largest backward tangential
// speed (working_set.h).
void complete(const SparseMlcp& full, const MlcpLayout& layout, const WorkingSet& s, const VecX& nu,
              VecX& z) {
  const int n_u = layout.n_unilateral;
  for (int j = 0; j < layout.n_intercontact; ++j) {
    if (s.unit_in[n_u + j] && s.slacks_in[j]) continue;
    Real sum = 0;
    for (int r = s.slack_begin[j]; r < s.slack_begin[j + 1]; ++r) {
      const Real base = full.h.column_dot(full.M, r, nu) + full.r[r];
      z[r] = std::max<Real>(0, -(base + sum));
      sum += z[r];
    }
  }
  const int k = layout.friction_directions;
  for (int f = 0; f < layout.n_friction_contacts; ++f) {
    if (s.unit_in[s.unit_of_row[layout.sigma_begin() + f]]) continue;
    Real sigma = 0;
    for (int r = 0; r < k; ++r)
      sigma = std::max(sigma, -full.h.column_dot(full.M, layout.beta_begin() + f * k + r, nu));
    z[layout.sigma_begin() + f] = sigma;
  }
}

// Adds the left-out units whose row closes (w < −tol), with their cones, and where any does,
// those open by less than `margin`; returns how many.
int add_rejected(const MlcpLayout& layout, const VecX& w, Real tol, Real margin, WorkingSet& s) {
  int added = 0;
  const int units = layout.n_unilateral + layout.n_intercontact;
  for (int u = 0; u < units; ++u)
    if (!s.unit_in[u] && w[impulse_row(layout, u)] < -tol) s.unit_in[u] = 1, ++added;
  if (added > 0 && margin > 0)
    for (int u = 0; u < units; ++u)
      if (!s.unit_in[u] && w[impulse_row(layout, u)] < margin) s.unit_in[u] = 1, ++added;
  return added;
}

// The I's in the set without their slacks whose impulse row the slacks' closed form leaves
// non-complementary (|z w| beyond `bound`, the certificate's) take their slacks into the set
// (docs/solvers.md "The working set": "An I's slacks on demand"); returns how many.
int add_slacks(const MlcpLayout& layout, const VecX& z, const VecX& w, Real bound, WorkingSet& s) {
  int added = 0;
  for (int j = 0; j < layout.n_intercontact; ++j) {
    if (s.slacks_in[j] || !s.unit_in[layout.n_unilateral + j]) continue;
    const int row = layout.pi_begin() + j;
    if (std::abs(z[row] * w[row]) > bound) s.slacks_in[j] = 1, ++added;
  }
  s.slacks_joined += added;
  return added;
}

// Whether the working set takes the I's slacks on demand (SolverOptions::Diagnostics::
// slacks_on_demand; its −1: where the bodies are planar).
bool takes_slacks_on_demand(const SparseMlcp& p, const SolverOptions& options) {
  const int on = options.diagnostics.slacks_on_demand;
  if (on >= 0) return on == 1;
  return planar_bodies(p);
}

// The basis in full coordinates: the set's solve's, and the left-out unknowns' (z_i > w_i).
void record_basis(const MlcpSolution& out, const std::vector<bool>& active, WorkingSet& s) {
  const int m = static_cast<int>(s.sub_of.size());
  s.basis.assign(m, false);
  for (int i = 0; i < m; ++i)
    s.basis[i] = s.sub_of[i] >= 0 ? static_cast<bool>(active[s.sub_of[i]]) : out.z[i] > out.w[i];
}

// The set's guess (s.guess) after the first round: the last round's basis (s.basis) with the
// impulse rows of the units and σ of the cones that joined since. It starts block pivoting only
// in a part whose last answer was a solved basis (an interior point's estimate of one is no start
// for block pivoting: on the 100-hull pile such guesses certified in 0 of 130 rounds). The first
// round has none: last step's basis only chooses the first set (docs/solvers.md "The working
// set").
void round_guess(const MlcpLayout& layout, WorkingSet& s) {
  s.guess.resize(s.columns.size());
  for (std::size_t q = 0; q < s.columns.size(); ++q) {
    const int i = s.columns[q];
    bool basic = s.basis[i];
    if (s.joined[i]) {
      const int f = s.cone_of_row[i];
      basic = f >= 0 ? i == layout.sigma_begin() + f : i == impulse_row(layout, s.unit_of_row[i]);
    }
    s.guess[q] = basic;
  }
}

// The relative tolerance that gives the set's solves the island's tolerance `tol`: a solve's is
// options.tolerance · max(1, ‖b‖∞) of its own problem (docs/solvers.md "Certificate"), and the
// set's free rows are some of the island's, so its own would be smaller. What each round answers
// is certified on the whole island at `tol` (docs/solvers.md "The working set").
Real set_tolerance(const WorkingSet& s, const int* rows, int n, Real tol) {
  Real b_max = 0;
  for (int q = 0; q < n; ++q) b_max = std::max(b_max, std::abs(s.b[s.columns[rows[q]]]));
  return tol / std::max<Real>(1, b_max);
}

// ν of part k's bodies (blocks of `layout`, renumbered as part_problem does) from the set's ν, and
// back.
const VecX& gather_bodies(const BlockDiagonal& layout, const MlcpParts& parts, int k,
                          const VecX& nu, VecX& part_nu) {
  int size = 0;
  for (int q = parts.block_begin[k]; q < parts.block_begin[k + 1]; ++q)
    size += static_cast<int>(layout.blocks[parts.blocks[q]].rows());
  part_nu.resize(size);
  for (int q = parts.block_begin[k], at = 0; q < parts.block_begin[k + 1]; ++q) {
    const int b = parts.blocks[q], nb = static_cast<int>(layout.blocks[b].rows());
    part_nu.segment(at, nb) = nu.segment(layout.offsets[b], nb);
    at += nb;
  }
  return part_nu;
}

void scatter_bodies(const BlockDiagonal& layout, const MlcpParts& parts, int k, const VecX& part_nu,
                    VecX& nu) {
  for (int q = parts.block_begin[k], at = 0; q < parts.block_begin[k + 1]; ++q) {
    const int b = parts.blocks[q], nb = static_cast<int>(layout.blocks[b].rows());
    nu.segment(layout.offsets[b], nb) = part_nu.segment(at, nb);
    at += nb;
  }
}

// One part of the set (or the whole set) in a round (docs/solvers.md "The working set"): Lemke's
// pivoting from `from`, the last round's solved basis with the joined rows at their left-out
// values (null: none); where that does not certify, or without it, the interior point (from
// `start`, block pivoting, and `near`, the last round's answer), and where that does not
// certify the sparse Lemke from its cold starts: it ends at a solution or with a reason, where
// the interior point can stall (the basis a stalled interior point ended near is singular on a
// pile, and a run from it took longer). No crossover (docs/solvers.md "Interior point": on a
// pile its basis is singular). Each sparse Lemke run stops after lemke_pivots_per_unknown pivots
// per unknown (0: its own budget), the run from `from` also after kWarmPivotsPerUnknown. True
// where the answer is a solved basis, `active` its basis.
bool solve_part(const SparseMlcp& p, const SolverOptions& options, const std::vector<bool>* from,
                const std::vector<bool>* start, const MlcpSolution* near,
                const MlcpSolution* rescue, Real lemke_pivots_per_unknown,
                SparseMlcpScratch& scratch, SparseLemkeScratch& lemke, MlcpSolution& solution,
                std::vector<bool>& active, int& pivots, int& iterations) {
  const int max_pivots =
      lemke_pivots_per_unknown > 0
          ? std::max(1, static_cast<int>(std::ceil(lemke_pivots_per_unknown * p.size())))
          : 0;
  if (from != nullptr) {
    const int warm_pivots =
        std::max(kWarmMinPivots, static_cast<int>(std::ceil(kWarmPivotsPerUnknown * p.size())));
    solve_sparse_lemke(p, options, lemke, solution, from,
                       max_pivots > 0 ? std::min(max_pivots, warm_pivots) : warm_pivots);
    pivots += solution.certificate.pivots;
    if (solution.certificate.ok()) {
      active = lemke.active;
      return true;
    }
  }
  // Where the step's halves come next, no arc-length continuation either (docs/solvers.md
  // "Arc-length continuation": a run that does not certify spends its 400 factorisations).
  SolverOptions interior = options;
  if (lemke_pivots_per_unknown > 0) interior.diagnostics.arc_length_min_rows = 0;
  solve_sparse_mlcp(p, interior, scratch, solution, start, false, near, rescue);
  iterations += solution.certificate.iterations;
  active = scratch.active;
  if (solution.certificate.ok()) return scratch.basis_solved;
  solve_sparse_lemke(p, options, lemke, solution, nullptr, max_pivots);
  pivots += solution.certificate.pivots;
  if (!solution.certificate.ok()) return false;
  active = lemke.active;
  return true;
}

}  // namespace

void solve_on_working_set(const SparseMlcp& full, const MlcpLayout& layout,
                          const ConstraintSet& set, const SolverOptions& options,
                          const std::vector<bool>* guess, const VecX* last_z, Real margin,
                          Real lemke_pivots_per_unknown, WorkingSet& s, SparseMlcpScratch& scratch,
                          SparseLemkeScratch& lemke, MlcpSolution& out) {
  const int m = full.size();
  const bool has_last = last_z != nullptr && last_z->size() == m;
  const bool from_last = options.diagnostics.first_round_from_last_answer && has_last;
  const bool rescue = options.diagnostics.rescue_from_last_answer && has_last;
  map_rows(layout, set, s);
  prepare_sparse_mlcp(full, scratch);
  s.b = scratch.b;
  s.free_motion = scratch.Wc;
  const Real tol =
      options.tolerance * std::max<Real>(1.0, m > 0 ? s.b.lpNorm<Eigen::Infinity>() : 0.0);
  SolverOptions sub = options;
  sub.impulse_scale =
      options.impulse_scale > 0 ? options.impulse_scale : sparse_mlcp_impulse_scale(full, scratch);
  // The whole island's bound on the momentum residual (the certificate's).
  const Real momentum_bound =
      options.tolerance *
      std::max({Real(1), full.c.size() > 0 ? full.c.lpNorm<Eigen::Infinity>() : Real(0),
                sub.impulse_scale});
  const bool guessed = guess != nullptr && static_cast<int>(guess->size()) == m;
  // The first set: the units whose impulse the guess names basic (a basic slack or σ names
  // nothing), and those the free motion closes.
  s.unit_in.assign(layout.n_unilateral + layout.n_intercontact, 0);
  s.slacks_in.assign(layout.n_intercontact, takes_slacks_on_demand(full, options) ? 0 : 1);
  s.slacks_joined = 0;
  if (guessed)
    for (int u = 0; u < static_cast<int>(s.unit_in.size()); ++u)
      s.unit_in[u] = (*guess)[impulse_row(layout, u)];
  out.nu = scratch.Wc;
  out.z.setZero(m);
  complete(full, layout, s, out.nu, out.z);
  sparse_rows(full, out.nu, out.z, out.w);
  add_rejected(layout, out.w, tol, margin, s);
  // The rounds' effort: the sparse Lemke's pivots, and the other methods' iterations.
  int pivots = 0, iterations = 0;
  // The set's answer in full coordinates, certified on the whole problem, and its basis.
  auto adopt = [&](const std::vector<bool>& active) {
    out.nu = s.solution.nu;
    out.z.setZero(m);
    for (std::size_t q = 0; q < s.columns.size(); ++q) out.z[s.columns[q]] = s.solution.z[q];
    complete(full, layout, s, out.nu, out.z);
    const SolveMethod method = s.solution.certificate.method;
    out.certificate =
        verify_sparse_mlcp(full, out.nu, out.z, tol, sub.impulse_scale, options, scratch, out.w);
    out.certificate.method = method;
    out.certificate.pivots = pivots;
    out.certificate.iterations = iterations;
    record_basis(out, active, s);
  };
  for (s.rounds = 1;; ++s.rounds) {
    s.joined.assign(m, 0);
    for (int i = 0; i < m; ++i) s.joined[i] = s.rounds > 1 && s.sub_of[i] < 0;
    restrict_problem(full, s.rounds == 1, s);
    split_parts(s.problem, s.parts);
    const int n = static_cast<int>(s.columns.size());
    const int parts = options.diagnostics.working_set_parts ? s.parts.count() : 1;
    if (s.rounds > 1) {
      round_guess(layout, s);
      s.from.resize(n);
      s.near.nu = out.nu;
      s.near.z.resize(n);
      for (int q = 0; q < n; ++q) {
        const int i = s.columns[q];
        s.from[q] = s.joined[i] ? out.z[i] > 0 : static_cast<bool>(s.basis[i]);
        s.near.z[q] = out.z[i];
      }
    }
    if (from_last || rescue) {  // last step's impulses on the set, and the ν they give
      s.last.z.resize(n);
      for (int q = 0; q < n; ++q) s.last.z[q] = (*last_z)[s.columns[q]];
      VecX impulse = s.problem.c;
      s.problem.g.multiply_add(s.problem.M, s.last.z, impulse);
      scratch.W.apply(impulse, s.last.nu);
      if (s.rounds == 1 && from_last) s.near = s.last;
    }
    const bool rescue_here = rescue && !(s.rounds == 1 && from_last);
    const bool near = s.rounds > 1 || from_last;
    // A part starts from the last round's basis where that round solved a basis for every row
    // of it that was in the set.
    const auto warm = [&](const int* rows, int count) {
      if (s.rounds == 1) return false;
      bool any = false;
      for (int q = 0; q < count; ++q) {
        const int i = s.columns[rows[q]];
        if (s.joined[i]) continue;
        if (!s.solved[i]) return false;
        any = true;
      }
      return any;
    };
    // A part none of whose rows joined this round is a part of the last round: no row joins
    // two parts of the last round but a joined one.
    const auto unchanged = [&](const int* rows, int count) {
      if (s.rounds == 1) return false;
      for (int q = 0; q < count; ++q)
        if (s.joined[s.columns[rows[q]]]) return false;
      return true;
    };
    // Rows `rows` (a part, or the whole set) solved by `solve` into `solution` at the island's
    // tolerance, and again at the solver's tolerance on those rows where the momentum residual,
    // bounded by their own scale, is above the island's bound: the solver's is at most the
    // island's in each of the certificate's bounds (docs/solvers.md "The working set's parts").
    const auto solve_within_bounds = [&](const auto& solve, const MlcpSolution& solution,
                                         const int* rows, int count) {
      sub.tolerance = set_tolerance(s, rows, count, tol);
      const bool solved = solve();
      if (!solution.certificate.ok() ||
          solution.certificate.newton_euler_residual <= momentum_bound)
        return solved;
      sub.tolerance = options.tolerance;
      return solve();
    };
    s.active.assign(n, false);
    s.part_solved.assign(std::max(parts, 1), 0);
    if (parts <= 1) {
      const bool from = warm(s.parts.rows.data(), n);
      const auto solve = [&] {
        return solve_part(s.problem, sub, from ? &s.from : nullptr, from ? &s.guess : nullptr,
                          near ? &s.near : nullptr, rescue_here ? &s.last : nullptr,
                          lemke_pivots_per_unknown, scratch, lemke, s.solution, s.active, pivots,
                          iterations);
      };
      s.part_solved[0] = solve_within_bounds(solve, s.solution, s.parts.rows.data(), n);
    } else {
      // Each part alone (docs/solvers.md "The working set's parts"); bodies no row touches move
      // freely.
      s.solution.nu = s.free_motion;
      s.solution.z.setZero(n);
      int failed = -1, largest = 0;
      for (int k = 0; k < parts; ++k) {
        const int* rows = s.parts.rows.data() + s.parts.row_begin[k];
        const int count = s.parts.row_begin[k + 1] - s.parts.row_begin[k];
        if (unchanged(rows, count)) {
          // The same rows on the same bodies as a part of the last round: its answer there, which
          // that round certified, is still one.
          scatter_bodies(s.problem.M, s.parts, k,
                         gather_bodies(s.problem.M, s.parts, k, s.near.nu, s.part_near.nu),
                         s.solution.nu);
          for (int q = 0; q < count; ++q) {
            s.solution.z[rows[q]] = s.near.z[rows[q]];
            s.active[rows[q]] = s.basis[s.columns[rows[q]]];
          }
          s.part_solved[k] = s.solved[s.columns[rows[0]]];
          continue;
        }
        part_problem(s.problem, s.parts, k, s.part);
        const bool from = warm(rows, count);
        if (s.rounds > 1) {
          s.part_from.resize(count);
          s.part_guess.resize(count);
          for (int q = 0; q < count; ++q) {
            s.part_from[q] = s.from[rows[q]];
            s.part_guess[q] = s.guess[rows[q]];
          }
        }
        if (near) {
          s.part_near.z.resize(count);
          for (int q = 0; q < count; ++q) s.part_near.z[q] = s.near.z[rows[q]];
          gather_bodies(s.problem.M, s.parts, k, s.near.nu, s.part_near.nu);
        }
        if (rescue_here) {
          s.part_last.z.resize(count);
          for (int q = 0; q < count; ++q) s.part_last.z[q] = s.last.z[rows[q]];
          gather_bodies(s.problem.M, s.parts, k, s.last.nu, s.part_last.nu);
        }
        const auto solve = [&] {
          return solve_part(s.part, sub, from ? &s.part_from : nullptr,
                            from ? &s.part_guess : nullptr, near ? &s.part_near : nullptr,
                            rescue_here ? &s.part_last : nullptr, lemke_pivots_per_unknown,
                            s.part_scratch, lemke, s.part_solution, s.part_active, pivots,
                            iterations);
        };
        s.part_solved[k] = solve_within_bounds(solve, s.part_solution, rows, count);
        scatter_bodies(s.problem.M, s.parts, k, s.part_solution.nu, s.solution.nu);
        for (int q = 0; q < count; ++q) {
          s.solution.z[rows[q]] = s.part_solution.z[q];
          s.active[rows[q]] = s.part_active[q];
        }
        const bool ok = s.part_solution.certificate.ok();
        if (!ok && failed < 0) failed = k;
        if (failed == k || (failed < 0 && count > largest)) {
          s.solution.certificate = s.part_solution.certificate;
          largest = count;
        }
      }
    }
    s.solved.assign(m, 0);
    for (int q = 0; q < n; ++q)
      s.solved[s.columns[q]] = s.part_solved[parts <= 1 ? 0 : s.parts.part_of_row[q]];
    adopt(s.active);
    if (!s.solution.certificate.ok() || s.rounds == kMaxRounds) break;
    const int added = add_rejected(layout, out.w, tol, margin, s) +
                      add_slacks(layout, out.z, out.w, tol * sub.impulse_scale, s);
    if (added == 0) break;
  }
}

}  // namespace exactsim
