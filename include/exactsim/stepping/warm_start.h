// Warm start across steps (docs/stepping.md "Warm start"): every unknown of a step's MLCP is
// named by its contact (bodies, contact type, features) and its role (p_U, p_I, slack, β_r, σ);
// the complementary basis a certified solve ended on is remembered under those names, and the
// next step's solve starts from the basis it maps to (solve_mlcp's active guess: first the
// guessed basis alone, one LU, then Lemke from it, then cold). A guess only saves work: the
// answer is verified like any other.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "exactsim/contact/constraint_set.h"
#include "exactsim/solvers/mlcp.h"
#include "exactsim/stepping/stewart_trinkle.h"

namespace exactsim {

struct WarmStart {
  struct Row {
    std::uint64_t name;
    bool basic;  // in the complementary basis of the solve
    Real z;      // its value
    bool operator<(const Row& o) const { return name < o.name; }
  };
  std::vector<Row> previous;         // last step's rows, sorted by name
  std::vector<Row> current;          // this step's, as islands solve
  std::vector<std::uint64_t> names;  // rows of the island being solved
  std::vector<bool> guess, active;
  VecX z;  // last step's z by row of the island (0 where new)
};

// A contact's name across steps: a hash of its bodies, type and features.
std::uint64_t contact_name(const Contact& c);

// The first row of `rows` (sorted by name) named `name`, or nullptr.
const WarmStart::Row* find_row(const std::vector<WarmStart::Row>& rows, std::uint64_t name);

// Names the rows of an island's MLCP (layout order) into warm.names; fills warm.guess and warm.z
// from the previous step's rows (`previous`: the step's WarmStart::previous, which may be another
// lane's) and returns whether any row was found there (otherwise a cold start is better).
bool guess_active_set(const ConstraintSet& island, const MlcpLayout& layout,
                      const std::vector<WarmStart::Row>& previous, WarmStart& warm);

// Remembers the basis of a certified solution of the island just named: the solver's own final
// complementary basis when it has one (`basis`, size m: Lemke's, degenerate basics included, so it
// is nonsingular and the next step's guess can be solved directly), else the active set of
// (z, the unreduced w).
void remember_active_set(const VecX& z, const VecX& w, const std::vector<bool>* basis,
                         WarmStart& warm);

// The step is over: this step's bases become the previous ones.
void end_warm_start_step(WarmStart& warm);

}  // namespace exactsim
