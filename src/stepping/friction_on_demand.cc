#include "exactsim/stepping/friction_on_demand.h"

#include <algorithm>

namespace exactsim {
namespace {

// A contact whose gap rate ψ/h is at most this (m/s) touches or nearly touches: resting contacts
// of a pile, which carry load although the free flight does not close them (both bodies fall
// alike). Measured on the 30-hull pile of bench_scaling (100 steps): without this rule 66 % of
// the islands solved this way needed a second round, with it 15 %; 0.3 and 1 m/s only keep more
// idle cones.
constexpr Real kTouchingGapRate = 0.1;

}  // namespace

void choose_friction_cones(const MlcpLayout& full, const Mlcp& mlcp, const VecX* previous_z,
                           FrictionOnDemand& f) {
  invert_spd(mlcp.M, f.W);
  f.W.apply(mlcp.c, f.nu_free);
  const int cones = full.n_friction_contacts;
  f.keep.assign(cones, false);
  for (int c = 0; c < cones; ++c) {
    const int row = full.friction_impulse[c];
    const bool loaded =
        previous_z != nullptr && previous_z->size() == full.size() && (*previous_z)[row] > 0;
    const bool closing = mlcp.H.col(row).dot(f.nu_free) + mlcp.r[row] <= 0;
    const bool touching = mlcp.r[row] <= kTouchingGapRate;
    f.keep[c] = loaded || closing || touching;
  }
}

void select_friction_cones(const MlcpLayout& full, const Mlcp& mlcp, FrictionOnDemand& f) {
  MlcpLayout& sub = f.layout;
  sub.active_bodies = full.active_bodies;
  sub.block_of_body = full.block_of_body;
  sub.n_unilateral = full.n_unilateral;
  sub.n_intercontact = full.n_intercontact;
  sub.n_slack = full.n_slack;
  sub.friction_directions = full.friction_directions;
  sub.friction_contact.clear();
  sub.friction_impulse.clear();
  sub.friction_mu.clear();
  for (int c = 0; c < full.n_friction_contacts; ++c) {
    if (!f.keep[c]) continue;
    sub.friction_contact.push_back(full.friction_contact[c]);
    sub.friction_impulse.push_back(full.friction_impulse[c]);  // normal rows keep their index
    sub.friction_mu.push_back(full.friction_mu[c]);
  }
  sub.n_friction_contacts = static_cast<int>(sub.friction_contact.size());
  // Columns: the normal and slack rows, then β of the kept cones, then their σ (layout order).
  const int k = full.friction_directions;
  f.columns.clear();
  for (int j = 0; j < full.beta_begin(); ++j) f.columns.push_back(j);
  for (int c = 0; c < full.n_friction_contacts; ++c)
    if (f.keep[c])
      for (int r = 0; r < k; ++r) f.columns.push_back(full.beta_begin() + c * k + r);
  for (int c = 0; c < full.n_friction_contacts; ++c)
    if (f.keep[c]) f.columns.push_back(full.sigma_begin() + c);
  const Eigen::Index m = static_cast<Eigen::Index>(f.columns.size());
  Mlcp& s = f.mlcp;
  s.M = mlcp.M;
  s.c = mlcp.c;
  s.G.resize(mlcp.G.rows(), m);
  s.H.resize(mlcp.H.rows(), m);
  s.r.resize(m);
  f.sub_of.assign(static_cast<std::size_t>(mlcp.D.cols()), -1);
  for (Eigen::Index j = 0; j < m; ++j) {
    const int col = f.columns[j];
    s.G.col(j) = mlcp.G.col(col);
    s.H.col(j) = mlcp.H.col(col);
    s.r[j] = mlcp.r[col];
    f.sub_of[col] = static_cast<int>(j);
  }
  // D's entries in the kept rows and columns, row by row; f.columns ascends, so each row's
  // columns stay in order.
  s.D.resize(m, m);
  s.D.reserve(mlcp.D.nonZeros());
  for (Eigen::Index i = 0; i < m; ++i) {
    s.D.startVec(i);
    for (SparseRowMatX::InnerIterator e(mlcp.D, f.columns[i]); e; ++e)
      if (f.sub_of[e.col()] >= 0) s.D.insertBack(i, f.sub_of[e.col()]) = e.value();
  }
  s.D.finalize();
}

void scatter_to_full(const std::vector<int>& columns, const VecX& sub, Eigen::Index full_size,
                     VecX& full) {
  full.setZero(full_size);
  for (std::size_t i = 0; i < columns.size(); ++i) full[columns[i]] = sub[i];
}

int add_loaded_cones(const MlcpLayout& full, const VecX& z, FrictionOnDemand& f) {
  int added = 0;
  for (int c = 0; c < full.n_friction_contacts; ++c)
    if (!f.keep[c] && z[full.friction_impulse[c]] > 0) {
      f.keep[c] = true;
      ++added;
    }
  return added;
}

void complete_left_out_cones(const MlcpLayout& full, const Mlcp& mlcp, const FrictionOnDemand& f,
                             const VecX& nu, VecX& z) {
  const int k = full.friction_directions;
  for (int c = 0; c < full.n_friction_contacts; ++c) {
    if (f.keep[c]) continue;
    Real sigma = 0;
    for (int r = 0; r < k; ++r)
      sigma = std::max(sigma, -(mlcp.H.col(full.beta_begin() + c * k + r).dot(nu) +
                                mlcp.r[full.beta_begin() + c * k + r]));
    z[full.sigma_begin() + c] = sigma;
  }
}

}  // namespace exactsim
