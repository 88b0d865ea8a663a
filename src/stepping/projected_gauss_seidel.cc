// Projected Gauss–Seidel on the Stewart–Trinkle MLCP in body space (docs/stepping.md "Iterate,
// then certify"). Row i of w = Hᵀ ν + D z + r with ν = W (G z + c) costs O(nonzeros of column i).
#include "exactsim/stepping/projected_gauss_seidel.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace exactsim {
namespace {

constexpr Real kSaturated = 1e-9;  // Σβ within this fraction of μ p: the cone is saturated

struct Rows {
  const Mlcp& mlcp;
  const MlcpScratch& r;
  const VecX& diagonal;  // N_ii
  GaussSeidelScratch& s;

  // Hᵀ_i ν + Σ_j D_ij z_j + r_i.
  Real value(int i) const {
    Real w = mlcp.r[i];
    for (int e = r.h.begin[i]; e < r.h.begin[i + 1]; ++e) {
      const int k = r.h.block[e], nb = static_cast<int>(r.W.blocks[k].rows());
      w += r.h.values[e].head(nb).dot(s.nu.segment(r.W.offsets[k], nb));
    }
    for (int e = s.d_begin[i]; e < s.d_begin[i + 1]; ++e) w += s.d_value[e] * s.z[s.d_col[e]];
    return w;
  }
  // ν += W G_i · delta.
  void add_column(int i, Real delta) {
    for (int e = r.g.begin[i]; e < r.g.begin[i + 1]; ++e) {
      const int k = r.g.block[e], nb = static_cast<int>(r.W.blocks[k].rows());
      s.nu.segment(r.W.offsets[k], nb) += delta * r.WG.col(i).segment(r.W.offsets[k], nb);
    }
  }
  // σ of cone f (rows from `first`, `k` directions, bound `cone` = μ p): its sliding speed
  // max_r(−G_rᵀν) when the cone is saturated (a cone with p = 0 is, by Σβ = 0), else 0, so that the
  // directions that do not oppose the sliding read w_r = G_rᵀν + σ > 0 and give up their share.
  // Returns the fastest direction's row, −1 when σ = 0.
  int set_sigma(int sigma, int first, int k, Real cone) {
    s.z[sigma] = 0;
    Real used = 0, slide = 0;
    int fastest = -1;
    for (int r = 0; r < k; ++r) {
      used += s.z[first + r];
      if (const Real v = -value(first + r); v > slide) {
        slide = v;
        fastest = first + r;
      }
    }
    if (used < cone * (1 - kSaturated)) return -1;
    s.z[sigma] = slide;
    return fastest;
  }
  // One projected update of row i onto [0, upper]; returns |Δz_i| N_ii.
  Real update(int i, Real upper) {
    const Real d = diagonal[i];
    if (!(d > 0)) return 0;
    const Real next = std::clamp(s.z[i] - value(i) / d, Real(0), std::max<Real>(0, upper));
    const Real delta = next - s.z[i];
    if (delta == 0) return 0;
    s.z[i] = next;
    add_column(i, delta);
    return std::abs(delta) * d;
  }
};

}  // namespace

GaussSeidelResult projected_gauss_seidel(const Mlcp& mlcp, const MlcpLayout& layout,
                                         const MlcpScratch& reduced, const VecX* start,
                                         int max_sweeps, Real tolerance, GaussSeidelScratch& s) {
  s.diagonal = reduced.reduced.M.diagonal();  // (like z: no allocation once warmed up at this m)
  return projected_gauss_seidel(mlcp, layout, reduced, s.diagonal, start, max_sweeps, tolerance, s);
}

GaussSeidelResult projected_gauss_seidel(const Mlcp& mlcp, const MlcpLayout& layout,
                                         const MlcpScratch& reduced, const VecX& diagonal,
                                         const VecX* start, int max_sweeps, Real tolerance,
                                         GaussSeidelScratch& s) {
  const int m = layout.size();
  s.d_begin.assign(1, 0);
  s.d_col.clear();
  s.d_value.clear();
  for (int i = 0; i < m; ++i) {
    for (SparseRowMatX::InnerIterator e(mlcp.D, i); e; ++e)
      if (e.value() != 0) {
        s.d_col.push_back(static_cast<int>(e.col()));
        s.d_value.push_back(e.value());
      }
    s.d_begin.push_back(static_cast<int>(s.d_col.size()));
  }
  const int k = layout.friction_directions;
  const int beta0 = layout.beta_begin(), sigma0 = layout.sigma_begin();
  s.z.setZero(m);
  s.nu = reduced.Wc;
  Rows rows{mlcp, reduced, diagonal, s};
  if (start != nullptr && start->size() == m)
    for (int i = 0; i < sigma0; ++i)
      if ((*start)[i] > 0) {
        s.z[i] = (*start)[i];
        rows.add_column(i, s.z[i]);
      }

  constexpr Real kUnbounded = std::numeric_limits<Real>::infinity();
  GaussSeidelResult result;
  for (int sweep = 0; sweep < max_sweeps; ++sweep) {
    Real change = 0;
    for (int i = 0; i < beta0; ++i) change = std::max(change, rows.update(i, kUnbounded));
    for (int f = 0; f < layout.n_friction_contacts; ++f) {
      const Real cone = layout.friction_mu[f] * s.z[layout.friction_impulse[f]];
      const int first = beta0 + f * k;
      rows.set_sigma(sigma0 + f, first, k, cone);
      for (int r = 0; r < k; ++r) {
        Real others = 0;
        for (int t = 0; t < k; ++t)
          if (t != r) others += s.z[first + t];
        change = std::max(change, rows.update(first + r, cone - others));
      }
    }
    result.sweeps = sweep + 1;
    result.last_change = change;
    if (change <= tolerance) break;
  }

  // σ_f again from the final ν.
  s.guess.assign(m, false);
  s.priority.resize(m);
  for (int i = 0; i < m; ++i) s.priority[i] = s.z[i] * diagonal[i];
  for (int f = 0; f < layout.n_friction_contacts; ++f) {
    const int sigma = sigma0 + f;
    const int fastest = rows.set_sigma(sigma, beta0 + f * k, k,
                                       layout.friction_mu[f] * s.z[layout.friction_impulse[f]]);
    if (fastest < 0) continue;
    // σ basic needs a β row to pair with (w_β = G_βᵀν + σ = 0 along the fastest direction, even
    // at β = 0): without it the basis is singular.
    s.guess[sigma] = s.guess[fastest] = true;
    s.priority[sigma] = s.priority[fastest] = std::max(s.priority[fastest], s.z[sigma]);
  }
  // The guess: z_i "above" w_i in velocity units (z_i N_ii > w_i).
  for (int i = 0; i < sigma0; ++i)
    if (s.z[i] > 0 && s.priority[i] > rows.value(i)) s.guess[i] = true;
  return result;
}

}  // namespace exactsim
