// bench_basis_cost: what the factorisations of a sparse, body-space, active-set solve of a large
// island would cost, measured on the random-hull piles of bench_scaling (scaling_scene.h) before
// any such solver exists (docs/performance.md "The large-island solve: what the factorisations
// cost").
//
// Each pile is stepped with advance() as bench_scaling steps it. At every `--every`-th step the
// largest island's MLCP (M ν = G z + c, w = Hᵀν + D z + r) is assembled again from the step's start
// (extract_island, assemble_stewart_trinkle: the step's own problem) and the complementary basis B
// of its certified solution read back from the warm start's memory (Lemke's final basis, or the
// verified guess), completed where the remembered set is not one (complete_basis). When
// the step's dense problem exceeds the memory budget the stepping stops, and the island's MLCP as
// assembled is taken with the projected Gauss–Seidel estimate of its active set as B (a guess, not
// a certified basis; the output says which). For each such (MLCP, B):
//   K_B = [M  −G_B; H_Bᵀ  D_BB + δI]   (saddle point, n_v + |B| unknowns): UMFPACK, KLU;
//   A_B = M + G_B (D_BB + δI)⁻¹ H_Bᵀ   (body space, n_v unknowns): UMFPACK, KLU;
//   S_B, symmetric positive definite with the pattern of A_B + A_Bᵀ: CHOLMOD supernodal;
//   the same three forms with every candidate row in B's place (no lazy rows);
//   the dense path: the reduction's N = HᵀWG + D (reduce_mlcp) and the LU of N_BB
//   (solve_active_block).
// Over every step it also records how often the previous step's basis verified as it was, the
// candidate rows per body and how many are ever active, and what merging near-coplanar hull faces
// would remove.
#include <CLI/CLI.hpp>
#include <Eigen/CholmodSupport>
#include <Eigen/KLUSupport>
#include <Eigen/UmfPackSupport>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include <sys/resource.h>

#include "exactsim/io/scene_json.h"
#include "exactsim/stepping/adaptive_step.h"
#include "scaling_scene.h"
#include "solvers/lcp_scratch.h"

namespace exactsim::bench {
namespace {

using Clock = std::chrono::steady_clock;
using SpMat = Eigen::SparseMatrix<double, Eigen::ColMajor, int>;
using Triplet = Eigen::Triplet<double, int>;
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

struct Options {
  std::vector<int> n = {100, 300, 1000};
  std::vector<std::string> scenes;  // scene files instead of --n
  int steps = 100;                  // 1 s at h = 0.01
  int every = 20;                   // a dump at every this-th step (1-based: 20, 40, …)
  int reps = 3;                     // repetitions of each factorisation (median)
  double memory_budget_gib = 4;     // StepOptions::memory_budget_bytes (the library's default)
  double delta = 1e-8;              // δ relative to max_i N_ii
  double max_factor_gib = 4;        // skip a factorisation whose memory estimate is larger
  double max_flops = 2e12;          // ... or whose flop estimate is larger
  double dense_max_gib = 2;         // the dense path only where its matrices fit in this
  double max_memory_gib = 14;       // RLIMIT_AS of the process (this machine is shared)
  std::vector<double> merge_angles = {1e-3, 1e-2, 0.1};  // rad
  int pile_bodies = 20;  // the means also over the steps whose largest island has this many
  std::string out;
};

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

double median(std::vector<double> v) {
  if (v.empty()) return kNan;
  std::sort(v.begin(), v.end());
  const std::size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

// ---- Rows of the MLCP ---------------------------------------------------------------------------

// z = (p_U | p_I | c_I | β | σ): normal impulses (U and I), I slacks, friction, cone slacks.
enum Role { kPU, kPI, kCI, kBeta, kSigma, kRoles };
constexpr std::array<const char*, kRoles> kRoleNames = {"p_U", "p_I", "c_I", "beta", "sigma"};

Role role(const MlcpLayout& l, int i) {
  if (i < l.pi_begin()) return kPU;
  if (i < l.slack_begin()) return kPI;
  if (i < l.beta_begin()) return kCI;
  if (i < l.sigma_begin()) return kBeta;
  return kSigma;
}

using RowCounts = std::array<long, kRoles>;

long total(const RowCounts& c) { return std::accumulate(c.begin(), c.end(), 0L); }
// Three groups: normal (p_U, p_I), slack (c_I, σ), friction (β).
long normal_rows(const RowCounts& c) { return c[kPU] + c[kPI]; }
long slack_rows(const RowCounts& c) { return c[kCI] + c[kSigma]; }
long friction_rows(const RowCounts& c) { return c[kBeta]; }

RowCounts count_rows(const MlcpLayout& l, const std::vector<bool>* select = nullptr,
                     const VecX* positive = nullptr) {
  RowCounts c{};
  for (int i = 0; i < l.size(); ++i) {
    if (select && !(*select)[i]) continue;
    if (positive && !((*positive)[i] > 0)) continue;
    ++c[role(l, i)];
  }
  return c;
}

nlohmann::json to_json(const RowCounts& c) {
  nlohmann::json j;
  for (int r = 0; r < kRoles; ++r) j[kRoleNames[r]] = c[r];
  j["normal"] = normal_rows(c);
  j["slack"] = slack_rows(c);
  j["friction"] = friction_rows(c);
  j["total"] = total(c);
  return j;
}

// ---- Near-coplanar face merging -----------------------------------------------------------------

// One hull with the faces whose normals are within `angle` across an edge merged (union–find):
// which vertices stay corners (on >= 3 merged faces) and which edges end inside a merged face.
struct MergedHull {
  std::vector<int> face_group;
  std::vector<bool> corner, interior_edge;
  int faces = 0, edges = 0, vertices = 0;  // after the merge (edges by Euler: V − E + F = 2)
};

MergedHull merge_faces(const ConvexPolyhedron& p, double angle) {
  MergedHull m;
  std::vector<int> parent(p.num_faces());
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int f) {
    while (parent[f] != f) f = parent[f] = parent[parent[f]];
    return f;
  };
  const double cos_angle = std::cos(angle);
  for (const PolyhedronEdge& e : p.edges)
    if (p.faces[e.face1].normal.dot(p.faces[e.face2].normal) > cos_angle)
      parent[find(e.face1)] = find(e.face2);
  m.face_group.resize(p.num_faces());
  for (int f = 0; f < p.num_faces(); ++f) {
    m.face_group[f] = find(f);
    m.faces += m.face_group[f] == f;
  }
  m.interior_edge.resize(p.num_edges());
  for (int e = 0; e < p.num_edges(); ++e)
    m.interior_edge[e] = m.face_group[p.edges[e].face1] == m.face_group[p.edges[e].face2];
  m.corner.resize(p.num_vertices());
  for (int v = 0; v < p.num_vertices(); ++v) {
    std::vector<int> groups;
    for (int f : p.vertex_faces[v]) groups.push_back(m.face_group[f]);
    std::sort(groups.begin(), groups.end());
    m.corner[v] = std::unique(groups.begin(), groups.end()) - groups.begin() >= 3;
    m.vertices += m.corner[v];
  }
  m.edges = m.vertices + m.faces - 2;
  return m;
}

struct HullStats {
  double angle = 0;                                          // rad; 0: the hulls as built
  double faces = 0, edges = 0, vertices = 0, triangles = 0;  // means over the dynamic hulls
  int hulls = 0, changed = 0;                                // hulls the merge changed
};

// merged[s][a]: shape s merged at merge_angles[a] (static shapes too: contacts name their
// features).
std::vector<std::vector<MergedHull>> merge_all(const World& w, const std::vector<double>& angles) {
  std::vector<std::vector<MergedHull>> merged(w.polyhedra.size());
  for (std::size_t s = 0; s < w.polyhedra.size(); ++s)
    for (double a : angles) merged[s].push_back(merge_faces(w.polyhedra[s], a));
  return merged;
}

std::vector<HullStats> hull_stats(const World& w, const std::vector<double>& angles,
                                  const std::vector<std::vector<MergedHull>>& merged) {
  std::vector<HullStats> out(angles.size() + 1);
  for (std::size_t a = 0; a <= angles.size(); ++a) out[a].angle = a == 0 ? 0 : angles[a - 1];
  for (const Body& b : w.bodies) {
    if (b.is_static) continue;
    const ConvexPolyhedron& p = w.polyhedra[b.shape];
    for (std::size_t a = 0; a <= angles.size(); ++a) {
      HullStats& h = out[a];
      ++h.hulls;
      if (a == 0) {
        h.faces += p.num_faces();
        h.edges += p.num_edges();
        h.vertices += p.num_vertices();
        for (const PolyhedronFace& f : p.faces) h.triangles += f.vertices.size() == 3;
        continue;
      }
      const MergedHull& m = merged[b.shape][a - 1];
      h.faces += m.faces;
      h.edges += m.edges;
      h.vertices += m.vertices;
      h.changed += m.faces != p.num_faces();
    }
  }
  for (HullStats& h : out)
    if (h.hulls > 0) {
      h.triangles /= h.faces;  // fraction of the faces
      h.faces /= h.hulls;
      h.edges /= h.hulls;
      h.vertices /= h.hulls;
    }
  return out;
}

// The candidate rows of the island that name a contact the merge at angle a would remove (a
// vertex–face contact from a vertex that is no longer a corner, an edge–edge contact on an edge
// inside a merged face) or join (a second contact of the same vertex with the same merged face).
long rows_removed_by_merge(const World& w, const ConstraintSet& set, const MlcpLayout& l,
                           const std::vector<std::vector<MergedHull>>& merged, std::size_t a) {
  std::vector<long> rows(set.contacts.size(), 0);
  for (int c : set.unilateral) ++rows[c];
  for (const IntercontactConstraint& ic : set.intercontacts) {
    ++rows[ic.primary];
    for (int s = 0; s < ic.secondary_count; ++s) ++rows[set.secondaries[ic.first_secondary + s]];
  }
  for (int c : l.friction_contact) rows[c] += l.friction_directions + 1;
  std::set<std::array<int, 4>> vertex_face;  // (A, B, vertex of A, merged face of B)
  long removed = 0;
  for (std::size_t c = 0; c < set.contacts.size(); ++c) {
    const Contact& k = set.contacts[c];
    const MergedHull& ma = merged[w.bodies[k.body_a].shape][a];
    const MergedHull& mb = merged[w.bodies[k.body_b].shape][a];
    bool gone = false;
    if (k.type == ContactType::kVertexFace) {
      gone = !ma.corner[k.feature_a];
      const std::array<int, 4> key = {k.body_a, k.body_b, k.feature_a, mb.face_group[k.feature_b]};
      gone = gone || !vertex_face.insert(key).second;
    } else if (k.type == ContactType::kEdgeEdge) {
      gone = ma.interior_edge[k.feature_a] || mb.interior_edge[k.feature_b];
    }
    if (gone) removed += rows[c];
  }
  return removed;
}

// ---- The basis systems --------------------------------------------------------------------------

// M or W, sparse.
SpMat block_diagonal(const BlockDiagonal& d) {
  std::vector<Triplet> t;
  for (std::size_t k = 0; k < d.blocks.size(); ++k) {
    const MatX& b = d.blocks[k];
    const int o = d.offsets[k];
    for (int j = 0; j < b.cols(); ++j)
      for (int i = 0; i < b.rows(); ++i)
        if (b(i, j) != 0) t.emplace_back(o + i, o + j, b(i, j));
  }
  SpMat m(d.size(), d.size());
  m.setFromTriplets(t.begin(), t.end());
  return m;
}

// The columns `cols` of a dense G or H (n_v × m), sparse.
SpMat columns(const MatX& a, const std::vector<int>& cols) {
  std::vector<Triplet> t;
  for (std::size_t j = 0; j < cols.size(); ++j)
    for (Eigen::Index i = 0; i < a.rows(); ++i)
      if (a(i, cols[j]) != 0)
        t.emplace_back(static_cast<int>(i), static_cast<int>(j), a(i, cols[j]));
  SpMat s(a.rows(), static_cast<int>(cols.size()));
  s.setFromTriplets(t.begin(), t.end());
  return s;
}

// D_BB (+ δ I): rows and columns in `cols`.
SpMat d_block(const SparseRowMatX& d, const std::vector<int>& cols, int m, double delta) {
  std::vector<int> local(m, -1);
  for (std::size_t j = 0; j < cols.size(); ++j) local[cols[j]] = static_cast<int>(j);
  std::vector<Triplet> t;
  for (std::size_t j = 0; j < cols.size(); ++j) {
    if (delta != 0) t.emplace_back(static_cast<int>(j), static_cast<int>(j), delta);
    for (SparseRowMatX::InnerIterator e(d, cols[j]); e; ++e)
      if (local[e.col()] >= 0 && e.value() != 0)
        t.emplace_back(static_cast<int>(j), local[e.col()], e.value());
  }
  const int b = static_cast<int>(cols.size());
  SpMat s(b, b);
  s.setFromTriplets(t.begin(), t.end());
  return s;
}

// The inverse of a matrix whose connected components (of its pattern) are small: block by block.
SpMat block_inverse(const SpMat& d) {
  const int n = static_cast<int>(d.rows());
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (int j = 0; j < n; ++j)
    for (SpMat::InnerIterator e(d, j); e; ++e) parent[find(static_cast<int>(e.row()))] = find(j);
  std::vector<std::vector<int>> members(n);
  for (int i = 0; i < n; ++i) members[find(i)].push_back(i);
  std::vector<Triplet> t;
  for (const std::vector<int>& c : members) {
    if (c.empty()) continue;
    const int k = static_cast<int>(c.size());
    MatX block = MatX::Zero(k, k);
    for (int b = 0; b < k; ++b)
      for (SpMat::InnerIterator e(d, c[b]); e; ++e)
        block(std::find(c.begin(), c.end(), static_cast<int>(e.row())) - c.begin(), b) = e.value();
    const MatX inv = block.partialPivLu().inverse();
    for (int b = 0; b < k; ++b)
      for (int a = 0; a < k; ++a)
        if (inv(a, b) != 0) t.emplace_back(c[a], c[b], inv(a, b));
  }
  SpMat s(n, n);
  s.setFromTriplets(t.begin(), t.end());
  return s;
}

// [M  −G_B; H_Bᵀ  D̃_BB].
SpMat saddle_point(const SpMat& m, const SpMat& gb, const SpMat& hb, const SpMat& dbb) {
  const int nv = static_cast<int>(m.rows()), b = static_cast<int>(gb.cols());
  std::vector<Triplet> t;
  auto add = [&t](const SpMat& a, int r0, int c0, double s) {
    for (int j = 0; j < a.outerSize(); ++j)
      for (SpMat::InnerIterator e(a, j); e; ++e)
        t.emplace_back(r0 + static_cast<int>(e.row()), c0 + j, s * e.value());
  };
  add(m, 0, 0, 1);
  add(gb, 0, nv, -1);
  add(SpMat(hb.transpose()), nv, 0, 1);
  add(dbb, nv, nv, 1);
  SpMat k(nv + b, nv + b);
  k.setFromTriplets(t.begin(), t.end());
  return k;
}

// Symmetric positive definite with the pattern of a + aᵀ (off-diagonal |a_ij| + |a_ji|, strictly
// diagonally dominant): its Cholesky factor costs what a symmetric form of `a` would.
SpMat spd_with_pattern(const SpMat& a) {
  SpMat s = SpMat(a.cwiseAbs()) + SpMat(SpMat(a.transpose()).cwiseAbs());
  VecX diag = VecX::Ones(a.rows());
  for (int j = 0; j < s.outerSize(); ++j)
    for (SpMat::InnerIterator e(s, j); e; ++e)
      if (e.row() != j) diag[j] += e.value();
  for (int j = 0; j < s.outerSize(); ++j) s.coeffRef(j, j) = diag[j];
  s.makeCompressed();
  return s;
}

// ---- Factorisations -----------------------------------------------------------------------------

struct Factorisation {
  std::string system, solver;
  int size = 0;
  long nnz = 0;
  double analyse = kNan, factor = kNan;  // s, medians
  double factor_nnz = kNan;              // nnz(L + U) (LU: L's unit diagonal once), nnz(L) (LLᵀ)
  double flops = kNan;                   // as the library reports them
  double rcond = kNan;
  int reps = 0;
  std::string note;
};

// Eigen's wrappers keep the library's statistics in protected members.
class Umfpack : public Eigen::UmfPackLU<SpMat> {
 public:
  double info(int i) const { return m_umfpackInfo[i]; }
};
class Klu : public Eigen::KLU<SpMat> {
 public:
  const klu_symbolic* symbolic() const { return m_symbolic; }
  klu_numeric* numeric() const { return m_numeric; }
  klu_common& common() { return m_common; }
};
class Cholmod : public Eigen::CholmodSupernodalLLT<SpMat, Eigen::Lower> {
 public:
  explicit Cholmod(int ordering) {
    cholmod().nmethods = 1;
    cholmod().method[0].ordering = ordering;
    cholmod().postorder = 1;
  }
};

// o.reps repetitions (fewer once one took over 10 s) of: a fresh solver from make(),
// analyzePattern, analysed(solver, f) (false: no factorize, f.note says why), factorize,
// factored(solver, f) (the statistics; false: stop); the median times.
template <class Make, class Analysed, class Factored>
Factorisation factorise(const Options& o, const std::string& system, const std::string& solver,
                        const SpMat& a, Make make, Analysed analysed, Factored factored) {
  Factorisation f;
  f.system = system;
  f.solver = solver;
  f.size = static_cast<int>(a.rows());
  f.nnz = a.nonZeros();
  std::vector<double> ta, tf;
  for (int r = 0; r < o.reps; ++r) {
    const auto s = make();
    auto t0 = Clock::now();
    s->analyzePattern(a);
    ta.push_back(seconds_since(t0));
    if (!analysed(*s, f)) break;
    t0 = Clock::now();
    s->factorize(a);
    tf.push_back(seconds_since(t0));
    if (!factored(*s, f) || ta.back() + tf.back() > 10) break;
  }
  f.analyse = median(ta);
  f.factor = median(tf);
  f.reps = static_cast<int>(tf.size());
  return f;
}

std::string estimate_note(double bytes, double flops) {
  char b[96];
  std::snprintf(b, sizeof b, "skipped: estimated %.3g GiB, %.3g flops", bytes / kGiB, flops);
  return b;
}

Factorisation factor_umfpack(const Options& o, const std::string& system, const SpMat& a,
                             int ordering, const char* name) {
  const double n = static_cast<double>(a.rows());
  auto make = [ordering] {
    auto s = std::make_unique<Umfpack>();
    s->umfpackControl()(UMFPACK_ORDERING) = ordering;
    return s;
  };
  auto analysed = [&o, n](const Umfpack& s, Factorisation& f) {
    const double bytes = s.info(UMFPACK_PEAK_MEMORY_ESTIMATE) * s.info(UMFPACK_SIZE_OF_UNIT);
    const double flops = s.info(UMFPACK_FLOPS_ESTIMATE);
    if (bytes <= o.max_factor_gib * kGiB && flops <= o.max_flops) return true;
    f.note = estimate_note(bytes, flops);
    f.factor_nnz = s.info(UMFPACK_LNZ_ESTIMATE) + s.info(UMFPACK_UNZ_ESTIMATE) - n;
    f.flops = flops;
    return false;
  };
  auto factored = [n](const Umfpack& s, Factorisation& f) {
    f.factor_nnz = s.info(UMFPACK_LNZ) + s.info(UMFPACK_UNZ) - n;
    f.flops = s.info(UMFPACK_FLOPS);
    f.rcond = s.info(UMFPACK_RCOND);
    if (s.info(UMFPACK_STATUS) == UMFPACK_OK)
      f.note = s.info(UMFPACK_STRATEGY_USED) == UMFPACK_STRATEGY_SYMMETRIC ? "symmetric strategy"
                                                                           : "unsymmetric strategy";
    else
      f.note = s.info(UMFPACK_STATUS) == UMFPACK_WARNING_singular_matrix ? "singular" : "failed";
    return true;
  };
  return factorise(o, system, name, a, make, analysed, factored);
}

Factorisation factor_klu(const Options& o, const std::string& system, const SpMat& a) {
  const double n = static_cast<double>(a.rows());
  auto make = [] { return std::make_unique<Klu>(); };
  auto analysed = [&o](const Klu& s, Factorisation& f) {
    if (s.symbolic() == nullptr) {
      f.note = "analysis failed";
      return false;
    }
    // AMD's estimate, without pivoting: a lower bound (12 bytes per entry).
    const double bytes = 12 * (s.symbolic()->lnz + s.symbolic()->unz);
    if (bytes <= o.max_factor_gib * kGiB && s.symbolic()->est_flops <= o.max_flops) return true;
    f.note = estimate_note(bytes, s.symbolic()->est_flops);
    return false;
  };
  auto factored = [n](Klu& s, Factorisation& f) {
    klu_numeric* numeric = s.numeric();
    if (numeric == nullptr) {
      f.note = s.common().status == KLU_SINGULAR ? "singular" : "failed";
      return false;
    }
    f.factor_nnz = static_cast<double>(numeric->lnz) + numeric->unz - n + numeric->nzoff;
    klu_symbolic* symbolic = const_cast<klu_symbolic*>(s.symbolic());
    klu_flops(symbolic, numeric, &s.common());
    f.flops = s.common().flops;
    klu_rcond(symbolic, numeric, &s.common());
    f.rcond = s.common().rcond;
    return true;
  };
  return factorise(o, system, "KLU", a, make, analysed, factored);
}

Factorisation factor_cholmod(const Options& o, const std::string& system, const SpMat& a,
                             int ordering, const char* name) {
  auto make = [ordering] { return std::make_unique<Cholmod>(ordering); };
  auto analysed = [&o](Cholmod& s, Factorisation& f) {
    f.factor_nnz = s.cholmod().lnz;
    f.flops = s.cholmod().fl;
    if (12 * f.factor_nnz <= o.max_factor_gib * kGiB && f.flops <= o.max_flops) return true;
    f.note = estimate_note(12 * f.factor_nnz, f.flops);
    return false;
  };
  auto factored = [](const Cholmod& s, Factorisation& f) {
    if (s.info() != Eigen::Success) f.note = "not positive definite";
    return true;
  };
  return factorise(o, system, name, a, make, analysed, factored);
}

// ---- One island and one basis -------------------------------------------------------------------

struct Dump {
  long step = 0;
  std::string basis;  // where B came from
  int bodies = 0, n_v = 0, m = 0;
  RowCounts candidates{}, basic{}, active{};
  long completed = 0;                 // rows complete_basis added to the remembered basis
  double delta = 0;                   // δ of D̃_BB = D_BB + δI
  long nnz_g = 0, nnz_h = 0;          // of G_B, H_B
  long nnz_a = 0, nnz_a_pattern = 0;  // of A_B, of A_B + A_Bᵀ
  double asymmetry = 0;               // max |A − Aᵀ| / max |A|
  std::vector<Factorisation> factorisations;
  // The basis solved (UMFPACK on K_B without δ): |z_B − z| / max(1, |z|∞) against the certified z,
  // and rows where z_B < −tol or w_N < −tol; the δ-regularised body-space solve's z error.
  double rcond = kNan;  // UMFPACK's estimate for K_B (δ = 0); 0: singular
  double z_error = kNan, z_error_regularised = kNan;
  long wrong_signs = -1;
  // The Gauss–Seidel estimate of this island next to B: its size, |B Δ estimate|.
  long gauss_seidel_basic = -1, gauss_seidel_differs = -1;
  int gauss_seidel_sweeps = 0;
  double gauss_seidel_seconds = kNan;
  // The step's warm-start guess (last step's basis by contact identity) against B.
  long warm_known = -1, warm_differs = -1;
  // The dense path: the reduction (N, m × m) and solve_active_block on N_BB (|B| × |B|).
  double dense_reduce = kNan, dense_basis_lu = kNan;
  std::string dense_note;
};

// W, W G, W c, the block columns of G and H (all that projected_gauss_seidel reads besides N_ii)
// and N_ii = H_iᵀ W G_i + D_ii, without forming N.
void reduce_without_n(const Mlcp& mlcp, MlcpScratch& s, VecX& diagonal) {
  invert_spd(mlcp.M, s.W);
  s.W.apply(mlcp.G, s.WG);
  s.W.apply(mlcp.c, s.Wc);
  s.g.from_dense(mlcp.G, s.W);
  s.h.from_dense(mlcp.H, s.W);
  const Eigen::Index m = mlcp.G.cols();
  diagonal.resize(m);
  for (Eigen::Index i = 0; i < m; ++i)
    diagonal[i] = mlcp.H.col(i).dot(s.WG.col(i)) + mlcp.D.coeff(i, i);
}

// The certificate's tolerance for w (m/s): options.tolerance · max(1, ‖Hᵀ W c + r‖∞).
Real certificate_tolerance(const World& world, const Mlcp& mlcp) {
  BlockDiagonal w_inv;
  invert_spd(mlcp.M, w_inv);
  VecX wc;
  w_inv.apply(mlcp.c, wc);
  const VecX b = mlcp.H.transpose() * wc + mlcp.r;
  return world.solver.tolerance * std::max<Real>(1, b.lpNorm<Eigen::Infinity>());
}

// The Gauss–Seidel estimate of the island's active set, as solve_island_mlcp makes it (from the
// warm start's z): guess, sweeps.
int gauss_seidel_guess(const World& w, const Mlcp& mlcp, const MlcpLayout& l, const VecX* start,
                       std::vector<bool>& guess, double& seconds) {
  const auto t0 = Clock::now();
  MlcpScratch s;
  VecX diagonal;
  reduce_without_n(mlcp, s, diagonal);
  GaussSeidelScratch g;
  const GaussSeidelResult r =
      projected_gauss_seidel(mlcp, l, s, diagonal, start, w.stepping.gauss_seidel_sweeps,
                             certificate_tolerance(w, mlcp), g);
  guess = g.guess;
  seconds = seconds_since(t0);
  return r.sweeps;
}

std::vector<int> basic_columns(const std::vector<bool>& basis) {
  std::vector<int> b;
  for (std::size_t i = 0; i < basis.size(); ++i)
    if (basis[i]) b.push_back(static_cast<int>(i));
  return b;
}

// B solved exactly: K_B (δ = 0) by UMFPACK, z and w of the whole island. Returns UMFPACK's
// reciprocal condition estimate, 0 when K_B is singular (z and w then untouched).
double solve_basis(const Mlcp& mlcp, const std::vector<bool>& basis, VecX& z, VecX& w) {
  const std::vector<int> cols = basic_columns(basis);
  const int nv = mlcp.M.size();
  const SpMat k = saddle_point(block_diagonal(mlcp.M), columns(mlcp.G, cols), columns(mlcp.H, cols),
                               d_block(mlcp.D, cols, static_cast<int>(mlcp.G.cols()), 0));
  Umfpack s;
  s.compute(k);
  if (s.info(UMFPACK_STATUS) != UMFPACK_OK) return 0;
  VecX rhs(k.rows());
  rhs.head(nv) = mlcp.c;
  for (std::size_t j = 0; j < cols.size(); ++j) rhs[nv + static_cast<int>(j)] = -mlcp.r[cols[j]];
  const VecX x = s.solve(rhs);
  z.setZero(mlcp.G.cols());
  for (std::size_t j = 0; j < cols.size(); ++j) z[cols[j]] = x[nv + static_cast<int>(j)];
  w = mlcp.H.transpose() * x.head(nv) + mlcp.D * z + mlcp.r;
  return s.info(UMFPACK_RCOND);
}

// The dense path of today's solver on this island, where it fits in o.dense_max_gib: N by
// reduce_mlcp, and the LU of N_BB with solve_active_block (the warm start's basis solve).
void dense_path(const Options& o, const Mlcp& mlcp, const std::vector<int>& cols, const SpMat& gb,
                const SpMat& hb, const SpMat& dbb, Dump& d) {
  const double m = static_cast<double>(mlcp.G.cols()), b = static_cast<double>(cols.size());
  if (8 * m * m <= o.dense_max_gib * kGiB) {
    std::vector<double> t;
    for (int r = 0; r < o.reps; ++r) {
      MlcpScratch s;
      const auto t0 = Clock::now();
      reduce_mlcp(mlcp, s);
      t.push_back(seconds_since(t0));
    }
    d.dense_reduce = median(t);
  } else {
    d.dense_note = "N (" + std::to_string(static_cast<long>(m)) + "², " +
                   std::to_string(8 * m * m / kGiB).substr(0, 4) + " GiB) not formed";
  }
  if (16 * b * b > o.dense_max_gib * kGiB) {
    d.dense_note += std::string(d.dense_note.empty() ? "" : "; ") + "N_BB not factored";
    return;
  }
  // N_BB = H_Bᵀ W G_B + D_BB, b_B = H_Bᵀ W c + r_B.
  BlockDiagonal w_inv;
  invert_spd(mlcp.M, w_inv);
  const SpMat w = block_diagonal(w_inv);
  Lcp block;
  block.M = MatX(SpMat(SpMat(hb.transpose()) * w * gb) + dbb);
  block.q.resize(static_cast<Eigen::Index>(cols.size()));
  const VecX wc = w * mlcp.c;
  for (std::size_t j = 0; j < cols.size(); ++j)
    block.q[j] = mlcp.H.col(cols[j]).dot(wc) + mlcp.r[cols[j]];
  const std::vector<bool> all(cols.size(), true);
  std::vector<double> t;
  for (int r = 0; r < o.reps; ++r) {
    LcpScratch scratch;
    VecX z;
    const auto t0 = Clock::now();
    solve_active_block(block, all, scratch, z, 0);
    t.push_back(seconds_since(t0));
    if (t.back() > 10) break;
  }
  d.dense_basis_lu = median(t);
}

// Rows of the island (names in warm.names, guess_active_set) that `previous` knows.
std::vector<bool> known_rows(const WarmStart& warm, const std::vector<WarmStart::Row>& previous) {
  std::vector<bool> known(warm.names.size());
  for (std::size_t i = 0; i < known.size(); ++i)
    known[i] = std::binary_search(previous.begin(), previous.end(),
                                  WarmStart::Row{warm.names[i], false, 0});
  return known;
}

long count_differences(const std::vector<bool>& a, const std::vector<bool>& b) {
  long n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) n += a[i] != b[i];
  return n;
}

// The remembered basis made a complementary basis of the certified z where it is not one: every
// z_i > 0 outside it joins (an island solved with friction on demand remembers the sub-problem's
// basis, without the left-out cones, whose completed σ is the sliding speed,
// complete_left_out_cones), and every σ in it whose cone has no β in it is joined by the cone's
// fastest direction (least w; w = 0 when σ is the sliding speed), without which σ's column of K_B
// is zero (a Lemke run that ended on a ray or a cycle at a point that verifies remembers that
// point's active set, solve_lcp). Returns the number of rows added.
long complete_basis(const Mlcp& mlcp, const MlcpLayout& l, const VecX& z,
                    std::vector<bool>& basis) {
  long added = 0;
  for (int i = 0; i < l.size(); ++i)
    if (z[i] > 0 && !basis[i]) {
      ++added;
      basis[i] = true;
    }
  BlockDiagonal w_inv;
  invert_spd(mlcp.M, w_inv);
  VecX nu;
  w_inv.apply(VecX(mlcp.G * z + mlcp.c), nu);
  const VecX w = mlcp.H.transpose() * nu + mlcp.D * z + mlcp.r;
  const int k = l.friction_directions;
  for (int f = 0; f < l.n_friction_contacts; ++f) {
    const int first = l.beta_begin() + f * k;
    if (!basis[l.sigma_begin() + f]) continue;
    int fastest = first;
    bool any = false;
    for (int r = 0; r < k; ++r) {
      any = any || basis[first + r];
      if (w[first + r] < w[fastest]) fastest = first + r;
    }
    if (any) continue;
    basis[fastest] = true;
    ++added;
  }
  return added;
}

// What a dump knows besides the island's MLCP and B.
struct DumpInputs {
  long step = 0;
  std::string source;                                     // where B came from
  const VecX* z = nullptr;                                // the certified z (null for a guessed B)
  long completed = 0;                                     // rows complete_basis added
  const WarmStart* warm = nullptr;                        // the step's warm-start guess
  const std::vector<WarmStart::Row>* previous = nullptr;  // the rows it was mapped from
  const std::vector<bool>* estimate = nullptr;            // the Gauss–Seidel estimate
  int sweeps = 0;
  double estimate_seconds = kNan;
  bool every_row = true;  // also factor the forms with every candidate row
};

// Rows of the wrong sign of B's exact solution (z_B < −tol, w_N < −tol).
long wrong_signs(const std::vector<bool>& basis, const VecX& z, const VecX& w, Real tol) {
  long n = 0;
  for (std::size_t i = 0; i < basis.size(); ++i) n += basis[i] ? z[i] < -tol : w[i] < -tol;
  return n;
}

Dump measure_basis(const Options& o, const World& world, const Mlcp& mlcp, const MlcpLayout& l,
                   const std::vector<bool>& basis, const DumpInputs& in) {
  Dump d;
  d.step = in.step;
  d.basis = in.source;
  d.bodies = static_cast<int>(l.active_bodies.size());
  d.n_v = mlcp.M.size();
  d.m = l.size();
  d.candidates = count_rows(l);
  d.basic = count_rows(l, &basis);
  d.completed = in.completed;
  if (in.z) d.active = count_rows(l, nullptr, in.z);
  const std::vector<int> cols = basic_columns(basis);

  // δ = o.delta · max_i N_ii (1/kg, the units of D).
  MlcpScratch reduced;
  VecX diagonal;
  reduce_without_n(mlcp, reduced, diagonal);
  d.delta = o.delta * diagonal.maxCoeff();

  const SpMat m = block_diagonal(mlcp.M), gb = columns(mlcp.G, cols), hb = columns(mlcp.H, cols);
  const SpMat dbb = d_block(mlcp.D, cols, d.m, 0), dbb_reg = d_block(mlcp.D, cols, d.m, d.delta);
  const SpMat dbb_inv = block_inverse(dbb_reg);
  d.nnz_g = gb.nonZeros();
  d.nnz_h = hb.nonZeros();
  const SpMat k_reg = saddle_point(m, gb, hb, dbb_reg);
  const SpMat a = m + SpMat(gb * dbb_inv * SpMat(hb.transpose()));
  const SpMat s = spd_with_pattern(a);
  d.nnz_a = a.nonZeros();
  d.nnz_a_pattern = s.nonZeros();
  d.asymmetry = SpMat(a - SpMat(a.transpose())).coeffs().cwiseAbs().maxCoeff() /
                a.coeffs().cwiseAbs().maxCoeff();

  const std::string kkt = "K_B saddle point", body = "A_B body space", spd = "S_B symmetric";
  auto& f = d.factorisations;
  f.push_back(factor_umfpack(o, kkt, k_reg, UMFPACK_ORDERING_AMD, "UMFPACK (AMD/COLAMD)"));
  f.push_back(factor_umfpack(o, kkt, k_reg, UMFPACK_ORDERING_METIS, "UMFPACK (METIS)"));
  f.push_back(factor_klu(o, kkt, k_reg));
  f.push_back(factor_umfpack(o, body, a, UMFPACK_ORDERING_AMD, "UMFPACK (AMD/COLAMD)"));
  f.push_back(factor_umfpack(o, body, a, UMFPACK_ORDERING_METIS, "UMFPACK (METIS)"));
  f.push_back(factor_klu(o, body, a));
  f.push_back(factor_cholmod(o, spd, s, CHOLMOD_METIS, "CHOLMOD supernodal (METIS)"));
  f.push_back(factor_cholmod(o, spd, s, CHOLMOD_AMD, "CHOLMOD supernodal (AMD)"));
  if (in.every_row) {
    // Every candidate row in B's place (no lazy rows): what the working set saves.
    std::vector<int> every(static_cast<std::size_t>(d.m));
    std::iota(every.begin(), every.end(), 0);
    const SpMat ga = columns(mlcp.G, every), ha = columns(mlcp.H, every);
    const SpMat da = d_block(mlcp.D, every, d.m, d.delta);
    const SpMat k_all = saddle_point(m, ga, ha, da);
    const SpMat a_all = m + SpMat(ga * block_inverse(da) * SpMat(ha.transpose()));
    const std::string kkt_all = "K every row", body_all = "A every row", spd_all = "S every row";
    f.push_back(factor_umfpack(o, kkt_all, k_all, UMFPACK_ORDERING_AMD, "UMFPACK (AMD/COLAMD)"));
    f.push_back(factor_klu(o, kkt_all, k_all));
    f.push_back(factor_klu(o, body_all, a_all));
    f.push_back(factor_cholmod(o, spd_all, spd_with_pattern(a_all), CHOLMOD_AMD,
                               "CHOLMOD supernodal (AMD)"));
  }

  // B solved exactly (K_B with δ = 0): the signs, and z against the certified one ...
  const bool kkt_fits = f[0].note.rfind("skipped", 0) != 0;
  VecX z, w;
  if (kkt_fits) d.rcond = solve_basis(mlcp, basis, z, w);
  if (d.rcond > 0) {
    d.wrong_signs = wrong_signs(basis, z, w, certificate_tolerance(world, mlcp));
    if (in.z)
      d.z_error = (z - *in.z).lpNorm<Eigen::Infinity>() /
                  std::max<Real>(1, in.z->lpNorm<Eigen::Infinity>());
  }
  // ... and through the δ-regularised body-space form: A_B ν = c − G_B D̃⁻¹ r_B,
  // z_B = −D̃⁻¹ (H_Bᵀ ν + r_B).
  if (in.z) {
    Umfpack lu;
    lu.compute(a);
    VecX r_b(static_cast<Eigen::Index>(cols.size()));
    for (std::size_t j = 0; j < cols.size(); ++j) r_b[j] = mlcp.r[cols[j]];
    const VecX nu = lu.solve(VecX(mlcp.c - gb * (dbb_inv * r_b)));
    const VecX z_b = -(dbb_inv * VecX(hb.transpose() * nu + r_b));
    VecX z_full = VecX::Zero(d.m);
    for (std::size_t j = 0; j < cols.size(); ++j) z_full[cols[j]] = z_b[j];
    d.z_error_regularised = (z_full - *in.z).lpNorm<Eigen::Infinity>() /
                            std::max<Real>(1, in.z->lpNorm<Eigen::Infinity>());
  }
  // The step's warm-start guess and the Gauss–Seidel estimate against B.
  const std::vector<bool> known = known_rows(*in.warm, *in.previous);
  d.warm_known = std::count(known.begin(), known.end(), true);
  d.warm_differs = count_differences(in.warm->guess, basis);
  d.gauss_seidel_basic = std::count(in.estimate->begin(), in.estimate->end(), true);
  d.gauss_seidel_differs = count_differences(*in.estimate, basis);
  d.gauss_seidel_sweeps = in.sweeps;
  d.gauss_seidel_seconds = in.estimate_seconds;
  dense_path(o, mlcp, cols, gb, hb, dbb, d);
  return d;
}

// ---- The stepping -------------------------------------------------------------------------------

struct StepRecord {
  long step = 0;
  double wall = 0;  // s, advance()
  int substeps = 1, islands = 0, contacts = 0, lcp = 0;
  std::string status;
  bool solver_called = false;
  bool all_warm = false;  // every solved island's certificate: kWarmStart
  bool warm = false;      // the largest island's certificate: kWarmStart
  // The largest island (measured: re-assembled, and its basis read back).
  bool measured = false;
  int bodies = 0;
  RowCounts candidates{}, active{};
  long basic = 0, completed = 0;  // |B|; rows complete_basis added to the remembered basis
  std::string method;
  int pivots = 0;
  long warm_known = 0, warm_differs = 0;  // rows the last step knew; guess ≠ final basis
  long completed_differs = -1;   // the same from the last step's completed basis (−1: none)
  double rcond = kNan;           // UMFPACK's estimate for K_B (δ = 0) of B; 0: singular
  long wrong_signs = -1;         // rows of the wrong sign of B's exact solution (−1: singular)
  std::vector<long> merge_rows;  // candidate rows a face merge would remove, per angle
};

struct SceneResult {
  std::string name;
  int bodies = 0;
  double h = 0;
  std::vector<StepRecord> steps;
  std::vector<Dump> dumps;
  std::vector<HullStats> hulls;
  RowCounts ever_candidate{}, ever_active{};  // by name over the run's measured islands
  std::string stop = "completed";
  double seconds = 0;
};

// The island with the most LCP unknowns among those the step solved (−1: none).
int largest_solved_island(const Workspace& ws) {
  int best = -1;
  for (int k = 0; k < ws.islands.count; ++k) {
    const StepReport& r = ws.island_reports[k];
    if (r.islands_asleep == 0 && r.solver_called &&
        (best < 0 || r.lcp_size > ws.island_reports[best].lcp_size))
      best = k;
  }
  return best;
}

// The island with the most constraints (before any was solved).
int largest_island(const IslandPartition& p) {
  int best = -1, size = -1;
  for (int k = 0; k < p.count; ++k) {
    const int s = p.u_begin[k + 1] - p.u_begin[k] + p.i_begin[k + 1] - p.i_begin[k];
    if (s > size) best = k, size = s;
  }
  return best;
}

struct Island {
  ConstraintSet set;
  std::vector<int> contact_of;
  MlcpLayout layout;
  Mlcp mlcp;
};

// Island k of the step's constraints, assembled from the step's start as the step assembled it.
void assemble_island(const World& w, const Workspace& ws, int k, const State& start, Real h,
                     const std::vector<FrictionDirection>& friction, Island& out) {
  std::vector<int> local(ws.constraints.contacts.size(), -1);
  extract_island(ws.constraints, ws.islands, k, out.set, out.contact_of, local);
  assemble_stewart_trinkle(w, start, out.set, h, out.layout, out.mlcp, friction);
}

SceneResult run_scene(const Options& o, const Scene& scene) {
  SceneResult res;
  res.name = scene.name;
  res.h = scene.step;
  World w = scene.world;
  for (const Body& b : w.bodies) res.bodies += !b.is_static;
  // As bench_scaling steps the piles; one thread, so that the islands are solved in order.
  w.stepping.measure_overlap = false;
  w.stepping.continue_on_solver_failure = true;
  w.stepping.threads = 1;
  w.stepping.memory_budget_bytes = memory_budget_from_gib(o.memory_budget_gib);
  const std::vector<std::vector<MergedHull>> merged = merge_all(w, o.merge_angles);
  res.hulls = hull_stats(w, o.merge_angles, merged);
  std::unordered_map<std::uint64_t, std::pair<Role, bool>> seen;  // name → role, ever active

  const auto t_run = Clock::now();
  State state = scene.initial;
  Workspace ws;
  Island island;
  bool dump_due = false;
  std::vector<WarmStart::Row> last_basis;  // the last measured island's completed basis
  for (long k = 0; k < o.steps; ++k) {
    const State start = state;
    const std::vector<FrictionDirection> friction = ws.friction_previous;
    const std::vector<WarmStart::Row> previous = ws.warm.previous;
    StepRecord rec;
    rec.step = k;
    StepReport r;
    const auto t0 = Clock::now();
    try {
      r = advance(w, state, ws, res.h, k);
    } catch (const MemoryBudgetError& e) {
      res.stop = "memory budget at step " + std::to_string(k + 1) + ": " + e.what();
      // The step again from its start, unsplit, so that ws holds its constraints and islands.
      state = start;
      try {
        step(w, state, ws, res.h, k);
      } catch (const MemoryBudgetError&) {
      }
      World unlimited = w;  // (the process's address-space limit still holds)
      unlimited.stepping.memory_budget_bytes = std::numeric_limits<std::uint64_t>::max();
      assemble_island(unlimited, ws, largest_island(ws.islands), start, res.h, friction, island);
      WarmStart warm;
      const bool found = guess_active_set(island.set, island.layout, previous, warm);
      std::vector<bool> estimate;
      DumpInputs in{k,
                    "projected Gauss-Seidel estimate (not certified): the step's dense problem "
                    "exceeds the memory budget"};
      in.warm = &warm;
      in.previous = &previous;
      in.estimate = &estimate;
      in.sweeps = gauss_seidel_guess(w, island.mlcp, island.layout, found ? &warm.z : nullptr,
                                     estimate, in.estimate_seconds);
      std::fprintf(stderr, "  %s: step %ld over the memory budget; island of %zu bodies, %d rows\n",
                   res.name.c_str(), k + 1, island.layout.active_bodies.size(),
                   island.layout.size());
      res.dumps.push_back(measure_basis(o, w, island.mlcp, island.layout, estimate, in));
      break;
    }
    rec.wall = seconds_since(t0);
    rec.substeps = r.substeps;
    rec.status = to_string(r.status);
    rec.islands = r.islands;
    rec.contacts = r.potential_contacts;
    rec.lcp = r.lcp_size;
    rec.solver_called = r.solver_called;
    rec.all_warm = r.solver_called;
    for (int i = 0; i < ws.islands.count; ++i) {
      const StepReport& ir = ws.island_reports[i];
      if (ir.islands_asleep == 0 && ir.solver_called)
        rec.all_warm = rec.all_warm && ir.solver.method == SolveMethod::kWarmStart;
    }
    dump_due = dump_due || (k + 1) % o.every == 0;
    const int big = largest_solved_island(ws);
    // A split step's islands are its last sub-step's: not the step's start, not measured.
    if (big >= 0 && r.substeps == 1) {
      const StepReport& ir = ws.island_reports[big];
      assemble_island(w, ws, big, start, res.h, friction, island);
      const MlcpLayout& l = island.layout;
      if (l.size() != ir.lcp_size)
        throw std::runtime_error("the re-assembled island differs from the step's");
      rec.method = to_string(ir.solver.method);
      rec.warm = ir.solver.method == SolveMethod::kWarmStart;
      rec.pivots = ir.solver.pivots;
      rec.bodies = static_cast<int>(l.active_bodies.size());
      rec.candidates = count_rows(l);
      for (std::size_t a = 0; a < o.merge_angles.size(); ++a)
        rec.merge_rows.push_back(rows_removed_by_merge(w, island.set, l, merged, a));
      WarmStart before, after;  // the step's guess; the basis it ended on (its remembered rows)
      const bool found = guess_active_set(island.set, l, previous, before);
      const std::vector<bool> known = known_rows(before, previous);
      rec.warm_known = std::count(known.begin(), known.end(), true);
      if (ir.status == StepStatus::kOk) {
        guess_active_set(island.set, l, ws.warm.previous, after);
        rec.measured = true;
        rec.active = count_rows(l, nullptr, &after.z);
        std::vector<bool> basis = after.guess;
        rec.completed = complete_basis(island.mlcp, l, after.z, basis);
        rec.basic = std::count(basis.begin(), basis.end(), true);
        VecX z, w_basis;
        rec.rcond = solve_basis(island.mlcp, basis, z, w_basis);
        if (rec.rcond > 0)
          rec.wrong_signs = wrong_signs(basis, z, w_basis, certificate_tolerance(w, island.mlcp));
        rec.warm_differs = count_differences(before.guess, basis);
        if (!last_basis.empty()) {
          WarmStart from_completed;
          guess_active_set(island.set, l, last_basis, from_completed);
          rec.completed_differs = count_differences(from_completed.guess, basis);
        }
        last_basis.clear();
        for (int i = 0; i < l.size(); ++i) last_basis.push_back({after.names[i], basis[i], 0});
        std::sort(last_basis.begin(), last_basis.end());
        for (int i = 0; i < l.size(); ++i) {
          auto [it, added] = seen.try_emplace(after.names[i], role(l, i), false);
          it->second.second = it->second.second || after.z[i] > 0;
        }
        if (dump_due && rec.bodies > 1) {
          dump_due = false;
          std::fprintf(stderr, "  %s: step %ld, island of %d bodies, %d rows\n", res.name.c_str(),
                       k + 1, rec.bodies, l.size());
          std::vector<bool> estimate;
          DumpInputs in{k, "certified: the step's remembered basis, completed"};
          in.z = &after.z;
          in.completed = rec.completed;
          in.warm = &before;
          in.previous = &previous;
          in.estimate = &estimate;
          in.sweeps = gauss_seidel_guess(w, island.mlcp, l, found ? &before.z : nullptr, estimate,
                                         in.estimate_seconds);
          res.dumps.push_back(measure_basis(o, w, island.mlcp, l, basis, in));
          // The same island with the estimate as B: what the larger piles' dumps measure.
          in.source = "projected Gauss-Seidel estimate of the same island (not certified)";
          in.z = nullptr;
          in.completed = 0;
          in.every_row = false;
          res.dumps.push_back(measure_basis(o, w, island.mlcp, l, estimate, in));
        }
      }
    }
    res.steps.push_back(rec);
    if (r.status == StepStatus::kDiverged) {
      res.stop = "diverged at step " + std::to_string(k + 1);
      break;
    }
  }
  for (const auto& [name, v] : seen) {
    ++res.ever_candidate[v.first];
    res.ever_active[v.first] += v.second;
  }
  res.seconds = seconds_since(t_run);
  return res;
}

// ---- Output -------------------------------------------------------------------------------------

std::string fmt(double x, const char* f = "%.3g") {
  if (std::isnan(x)) return "–";
  char b[48];
  std::snprintf(b, sizeof b, f, x);
  return b;
}
std::string ms(double seconds) { return fmt(1e3 * seconds, seconds >= 0.1 ? "%.0f" : "%.3g"); }
std::string pct(double part, double whole) {
  return whole > 0 ? fmt(100 * part / whole, "%.1f") : "–";
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}

struct Reuse {
  long steps = 0, contact_steps = 0, largest_warm = 0, all_warm = 0, measured = 0;
  double rows = 0, normal = 0, slack = 0, friction = 0;  // candidates per island body, means
  double active = 0, active_normal = 0, active_slack = 0, active_friction = 0;  // fractions
  double differs = 0, known = 0;        // rows: warm guess ≠ final basis; known to the last step
  double completed_differs = 0;         // the same from the last step's completed basis
  long compared = 0;                    // steps with a last completed basis
  long singular = 0, wrong = 0;         // steps whose B is singular; solves B with wrong signs
  std::map<std::string, long> methods;  // the largest island's certificate method, steps
  long split = 0, failed = 0;           // steps advance() split; steps whose solve failed
  std::vector<double> merge;            // candidate rows a face merge removes, per angle (fraction)
};

// Over all steps; the means over the measured steps whose largest island has at least
// `min_bodies` bodies.
Reuse summarise(const SceneResult& r, int min_bodies = 0) {
  Reuse u;
  for (const StepRecord& s : r.steps) {
    ++u.steps;
    u.contact_steps += s.solver_called;
    u.largest_warm += s.warm;
    if (!s.method.empty()) ++u.methods[s.method];
    u.all_warm += s.all_warm;
    u.split += s.substeps > 1;
    u.failed += s.status == "solver_failed" || s.status == "energy_gain";
    if (!s.measured || s.bodies < min_bodies) continue;
    ++u.measured;
    const double b = s.bodies;
    const RowCounts& c = s.candidates;
    u.rows += total(c) / b;
    u.normal += normal_rows(c) / b;
    u.slack += slack_rows(c) / b;
    u.friction += friction_rows(c) / b;
    const RowCounts& a = s.active;
    u.active += static_cast<double>(total(a)) / std::max(1L, total(c));
    u.active_normal += static_cast<double>(normal_rows(a)) / std::max(1L, normal_rows(c));
    u.active_slack += static_cast<double>(slack_rows(a)) / std::max(1L, slack_rows(c));
    u.active_friction += static_cast<double>(friction_rows(a)) / std::max(1L, friction_rows(c));
    u.differs += static_cast<double>(s.warm_differs) / std::max(1L, total(c));
    u.known += static_cast<double>(s.warm_known) / std::max(1L, total(c));
    for (std::size_t a = 0; a < s.merge_rows.size(); ++a) {
      u.merge.resize(s.merge_rows.size());
      u.merge[a] += static_cast<double>(s.merge_rows[a]) / std::max(1L, total(c));
    }
    u.singular += s.rcond == 0;
    u.wrong += s.wrong_signs > 0;
    if (s.completed_differs >= 0) {
      u.completed_differs += static_cast<double>(s.completed_differs) / std::max(1L, total(c));
      ++u.compared;
    }
  }
  if (u.compared > 0) u.completed_differs /= static_cast<double>(u.compared);
  if (u.measured > 0)
    for (double* x : {&u.rows, &u.normal, &u.slack, &u.friction, &u.active, &u.active_normal,
                      &u.active_slack, &u.active_friction, &u.differs, &u.known})
      *x /= static_cast<double>(u.measured);
  for (double& x : u.merge) x /= static_cast<double>(u.measured);
  return u;
}

void print_means(const Reuse& u, const char* over, const Options& o) {
  std::printf(
      "\nMeans over the %ld %s: rows/body %.1f (normal %.1f, slack %.1f, friction %.1f); active "
      "%.1f %% (normal %.1f %%, slack %.1f %%, friction %.1f %%); warm guess known %.1f %%, "
      "differing from the final basis in %.2f %% of the rows (from the last step's completed "
      "basis: %.2f %%); candidate rows a face merge would remove:",
      u.measured, over, u.rows, u.normal, u.slack, u.friction, 100 * u.active,
      100 * u.active_normal, 100 * u.active_slack, 100 * u.active_friction, 100 * u.known,
      100 * u.differs, 100 * u.completed_differs);
  for (std::size_t a = 0; a < u.merge.size(); ++a)
    std::printf(" %.2f %% at %g rad%s", 100 * u.merge[a], o.merge_angles[a],
                a + 1 < u.merge.size() ? "," : ".\n");
  if (u.merge.empty()) std::printf(" –.\n");
}

void print_scene(const SceneResult& r, const Options& o) {
  const Reuse u = summarise(r);
  std::printf(
      "\n== %s: %d bodies, h = %g s, %zu steps (%s), %.0f s; steps with a failed solve %ld, split "
      "steps %ld, steps whose largest island was measured %ld\n",
      r.name.c_str(), r.bodies, r.h, r.steps.size(), r.stop.c_str(), r.seconds, u.failed, u.split,
      u.measured);

  std::printf(
      "\nDynamic hulls (mean per hull) as built and with faces merged across edges whose "
      "normals are within the angle:\n\n");
  std::printf(
      "| merge angle (rad) | faces | edges | vertices | triangular faces (%%) | hulls "
      "changed |\n|---|---|---|---|---|---|\n");
  for (const HullStats& h : r.hulls)
    std::printf("| %s | %.2f | %.2f | %.2f | %s | %d of %d |\n",
                h.angle == 0 ? "as built" : fmt(h.angle, "%g").c_str(), h.faces, h.edges,
                h.vertices, h.angle == 0 ? fmt(100 * h.triangles, "%.1f").c_str() : "", h.changed,
                h.hulls);

  std::printf(
      "\nBasis reuse: the previous step's basis verified as it was (the largest island's "
      "certificate method kWarmStart) in %ld of %ld steps (%s %%) and %ld of %ld steps with a "
      "solve (%s %%); every island of the step kWarmStart: %ld steps (%s %% of steps with a "
      "solve).\n",
      u.largest_warm, u.steps, pct(u.largest_warm, u.steps).c_str(), u.largest_warm,
      u.contact_steps, pct(u.largest_warm, u.contact_steps).c_str(), u.all_warm,
      pct(u.all_warm, u.contact_steps).c_str());
  std::printf("The largest island's certificate method, steps:");
  for (const auto& [method, steps] : u.methods) std::printf(" %s %ld", method.c_str(), steps);
  std::printf(".\n");

  std::printf(
      "\nThe largest island, every %d steps and at the factorisation dumps (rows: candidate LCP "
      "unknowns per island body; active: z > 0 in the certified solution; basic: |B| (rows "
      "complete_basis added); warm: rows the last step knew, and rows whose guessed status "
      "differs from B (from the last step's completed B); merge: candidate rows naming a "
      "contact a face merge at",
      o.every);
  for (double a : o.merge_angles) std::printf(" %g", a);
  std::printf(" rad would remove):\n\n");
  std::printf(
      "| step | bodies | rows/body | normal | slack | friction | active %% | normal %% "
      "| slack %% | friction %% | basic (added) | K_B rcond | warm known %% | warm differs "
      "(completed) | method | pivots | merge rows "
      "|\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const StepRecord& s : r.steps) {
    const bool dumped = std::any_of(r.dumps.begin(), r.dumps.end(),
                                    [&s](const Dump& d) { return d.step == s.step; });
    if (!s.measured || ((s.step + 1) % o.every != 0 && !dumped)) continue;
    const RowCounts &c = s.candidates, &a = s.active;
    const double b = s.bodies;
    std::string merge;
    for (long m : s.merge_rows) merge += (merge.empty() ? "" : " / ") + std::to_string(m);
    std::printf(
        "| %ld | %d | %.1f | %.1f | %.1f | %.1f | %s | %s | %s | %s | %ld (%ld) | %s | %s "
        "| %ld (%ld) | %s | %d | %s |\n",
        s.step + 1, s.bodies, total(c) / b, normal_rows(c) / b, slack_rows(c) / b,
        friction_rows(c) / b, pct(total(a), total(c)).c_str(),
        pct(normal_rows(a), normal_rows(c)).c_str(), pct(slack_rows(a), slack_rows(c)).c_str(),
        pct(friction_rows(a), friction_rows(c)).c_str(), s.basic, s.completed,
        fmt(s.rcond, "%.1g").c_str(), pct(s.warm_known, total(c)).c_str(), s.warm_differs,
        s.completed_differs, s.method.c_str(), s.pivots, merge.c_str());
  }
  print_means(u, "measured steps", o);
  print_means(
      summarise(r, o.pile_bodies),
      ("measured steps whose largest island has >= " + std::to_string(o.pile_bodies) + " bodies")
          .c_str(),
      o);
  std::printf(
      "The certified solution's basis B (the remembered basis, completed): K_B singular in %ld of "
      "the %ld measured steps (the certified z is not a basic solution there); B's exact solution "
      "with rows of the wrong sign in %ld.\n",
      u.singular, u.measured, u.wrong);
  const RowCounts &ec = r.ever_candidate, &ea = r.ever_active;
  std::printf(
      "Over the run, rows (by contact identity) of the largest islands ever active: %ld "
      "of %ld (%s %%); normal %s %%, slack %s %%, friction %s %%.\n",
      total(ea), total(ec), pct(total(ea), total(ec)).c_str(),
      pct(normal_rows(ea), normal_rows(ec)).c_str(), pct(slack_rows(ea), slack_rows(ec)).c_str(),
      pct(friction_rows(ea), friction_rows(ec)).c_str());

  for (const Dump& d : r.dumps) {
    std::printf("\n-- step %ld, B: %s\n", d.step + 1, d.basis.c_str());
    std::printf(
        "island: %d bodies, n_v = %d, m = %d candidate rows (p_U %ld, p_I %ld, c_I %ld, beta %ld, "
        "sigma %ld); |B| = %ld (p_U %ld, p_I %ld, c_I %ld, beta %ld, sigma %ld; %ld added to the "
        "remembered basis); z > 0: %s\n",
        d.bodies, d.n_v, d.m, d.candidates[kPU], d.candidates[kPI], d.candidates[kCI],
        d.candidates[kBeta], d.candidates[kSigma], total(d.basic), d.basic[kPU], d.basic[kPI],
        d.basic[kCI], d.basic[kBeta], d.basic[kSigma], d.completed,
        total(d.active) > 0 ? std::to_string(total(d.active)).c_str() : "–");
    std::printf(
        "delta = %.3g; nnz(G_B) %ld, nnz(H_B) %ld; A_B: nnz %ld, of A_B + A_B^T %ld, max|A - "
        "A^T| / max|A| = %.2g\n",
        d.delta, d.nnz_g, d.nnz_h, d.nnz_a, d.nnz_a_pattern, d.asymmetry);
    std::printf(
        "B solved (K_B, delta = 0): rcond %s, %ld rows of the wrong sign, z error %s; through A_B "
        "(delta): z "
        "error %s. Warm guess: %ld rows known, %ld differ from B. Gauss-Seidel estimate: %ld "
        "basic, %ld differ from B, %d sweeps, %s ms\n",
        fmt(d.rcond, "%.2g").c_str(), d.wrong_signs, fmt(d.z_error, "%.2g").c_str(),
        fmt(d.z_error_regularised, "%.2g").c_str(), d.warm_known, d.warm_differs,
        d.gauss_seidel_basic, d.gauss_seidel_differs, d.gauss_seidel_sweeps,
        ms(d.gauss_seidel_seconds).c_str());
    std::printf(
        "\n| system | solver | n | nnz | nnz(factor) | fill | flops | analyse (ms) | factor "
        "(ms) | reps | note |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (const Factorisation& f : d.factorisations)
      std::printf("| %s | %s | %d | %ld | %s | %s | %s | %s | %s | %d | %s |\n", f.system.c_str(),
                  f.solver.c_str(), f.size, f.nnz, fmt(f.factor_nnz).c_str(),
                  fmt(f.factor_nnz / static_cast<double>(f.nnz), "%.1f").c_str(),
                  fmt(f.flops).c_str(), ms(f.analyse).c_str(), ms(f.factor).c_str(), f.reps,
                  f.note.c_str());
    std::printf("| dense N = HᵀWG + D | reduce_mlcp | %d | | | | | | %s | | %s |\n", d.m,
                ms(d.dense_reduce).c_str(), d.dense_note.c_str());
    std::printf("| dense N_BB | solve_active_block (LU) | %ld | | | | | | %s | | |\n",
                total(d.basic), ms(d.dense_basis_lu).c_str());
  }
}

nlohmann::json num(double x) { return std::isnan(x) ? nlohmann::json() : nlohmann::json(x); }

nlohmann::json means_json(const Reuse& u) {
  return {{"measured_steps", u.measured},
          {"rows_per_body", u.rows},
          {"normal_per_body", u.normal},
          {"slack_per_body", u.slack},
          {"friction_per_body", u.friction},
          {"active", u.active},
          {"active_normal", u.active_normal},
          {"active_slack", u.active_slack},
          {"active_friction", u.active_friction},
          {"warm_known", u.known},
          {"warm_differs", u.differs},
          {"completed_differs", u.completed_differs},
          {"merge_rows_fraction", u.merge}};
}

nlohmann::json to_json(const SceneResult& r, int pile_bodies) {
  nlohmann::json j = {{"scene", r.name},
                      {"bodies", r.bodies},
                      {"h", r.h},
                      {"stop", r.stop},
                      {"seconds", r.seconds},
                      {"hulls", nlohmann::json::array()},
                      {"steps", nlohmann::json::array()},
                      {"dumps", nlohmann::json::array()}};
  for (const HullStats& h : r.hulls)
    j["hulls"].push_back({{"merge_angle", h.angle},
                          {"faces", h.faces},
                          {"edges", h.edges},
                          {"vertices", h.vertices},
                          {"triangular_faces", h.angle == 0 ? num(h.triangles) : num(kNan)},
                          {"hulls_changed", h.changed},
                          {"hulls", h.hulls}});
  const Reuse u = summarise(r);
  j["basis_reuse"] = {{"steps", u.steps},
                      {"contact_steps", u.contact_steps},
                      {"largest_island_warm_start", u.largest_warm},
                      {"every_island_warm_start", u.all_warm},
                      {"largest_island_methods", u.methods}};
  j["certified_bases"] = {{"singular", u.singular}, {"wrong_signs", u.wrong}};
  j["failed_steps"] = u.failed;
  j["split_steps"] = u.split;
  j["means"] = means_json(u);
  j["pile_means"] = means_json(summarise(r, pile_bodies));
  j["pile_bodies"] = pile_bodies;
  j["ever_candidate"] = to_json(r.ever_candidate);
  j["ever_active"] = to_json(r.ever_active);
  for (const StepRecord& s : r.steps) {
    nlohmann::json x = {{"step", s.step},         {"wall_seconds", s.wall},
                        {"substeps", s.substeps}, {"status", s.status},
                        {"islands", s.islands},   {"contacts", s.contacts},
                        {"lcp", s.lcp},           {"all_warm_start", s.all_warm},
                        {"warm_start", s.warm},   {"measured", s.measured}};
    if (!s.method.empty()) {
      x["largest_island"] = {{"bodies", s.bodies},         {"candidates", to_json(s.candidates)},
                             {"method", s.method},         {"pivots", s.pivots},
                             {"warm_known", s.warm_known}, {"merge_rows", s.merge_rows}};
      if (s.measured) {
        x["largest_island"]["active"] = to_json(s.active);
        x["largest_island"]["basic"] = s.basic;
        x["largest_island"]["basis_completed"] = s.completed;
        x["largest_island"]["warm_differs"] = s.warm_differs;
        x["largest_island"]["completed_differs"] = s.completed_differs;
        x["largest_island"]["rcond"] = num(s.rcond);
        x["largest_island"]["wrong_signs"] = s.wrong_signs;
      }
    }
    j["steps"].push_back(x);
  }
  for (const Dump& d : r.dumps) {
    nlohmann::json x = {{"step", d.step},
                        {"basis", d.basis},
                        {"bodies", d.bodies},
                        {"n_v", d.n_v},
                        {"m", d.m},
                        {"candidates", to_json(d.candidates)},
                        {"basic", to_json(d.basic)},
                        {"basis_completed", d.completed},
                        {"active", to_json(d.active)},
                        {"delta", d.delta},
                        {"nnz_g_b", d.nnz_g},
                        {"nnz_h_b", d.nnz_h},
                        {"nnz_a_b", d.nnz_a},
                        {"nnz_a_b_plus_transpose", d.nnz_a_pattern},
                        {"asymmetry", d.asymmetry},
                        {"z_error", num(d.z_error)},
                        {"z_error_regularised", num(d.z_error_regularised)},
                        {"rcond", num(d.rcond)},
                        {"wrong_signs", d.wrong_signs},
                        {"warm_known", d.warm_known},
                        {"warm_differs", d.warm_differs},
                        {"gauss_seidel_basic", d.gauss_seidel_basic},
                        {"gauss_seidel_differs", d.gauss_seidel_differs},
                        {"gauss_seidel_sweeps", d.gauss_seidel_sweeps},
                        {"gauss_seidel_seconds", num(d.gauss_seidel_seconds)},
                        {"dense_reduce_seconds", num(d.dense_reduce)},
                        {"dense_basis_lu_seconds", num(d.dense_basis_lu)},
                        {"dense_note", d.dense_note},
                        {"factorisations", nlohmann::json::array()}};
    for (const Factorisation& f : d.factorisations)
      x["factorisations"].push_back({{"system", f.system},
                                     {"solver", f.solver},
                                     {"n", f.size},
                                     {"nnz", f.nnz},
                                     {"factor_nnz", num(f.factor_nnz)},
                                     {"flops", num(f.flops)},
                                     {"rcond", num(f.rcond)},
                                     {"analyse_seconds", num(f.analyse)},
                                     {"factor_seconds", num(f.factor)},
                                     {"reps", f.reps},
                                     {"note", f.note}});
    j["dumps"].push_back(x);
  }
  return j;
}

void write_out(const std::vector<SceneResult>& all, const Options& o) {
  std::ofstream out(o.out);
  if (!out) throw std::runtime_error(o.out + ": cannot write");
  if (o.out.size() >= 4 && o.out.compare(o.out.size() - 4, 4, ".csv") == 0) {
    // One row per factorisation of every dump.
    out << "scene,step,basis_certified,bodies,n_v,m,basic,system,solver,n,nnz,factor_nnz,flops,"
           "analyse_s,factor_s,reps,note\n";
    for (const SceneResult& r : all)
      for (const Dump& d : r.dumps)
        for (const Factorisation& f : d.factorisations) {
          std::string note = f.note;
          std::replace(note.begin(), note.end(), ',', ';');
          out << r.name << ',' << d.step + 1 << ',' << (d.basis.rfind("certified", 0) == 0) << ','
              << d.bodies << ',' << d.n_v << ',' << d.m << ',' << total(d.basic) << ',' << f.system
              << ',' << f.solver << ',' << f.size << ',' << f.nnz << ',' << f.factor_nnz << ','
              << f.flops << ',' << f.analyse << ',' << f.factor << ',' << f.reps << ',' << note
              << '\n';
        }
    return;
  }
  nlohmann::json j = {{"cpu", cpu_model()},
                      {"threads", std::thread::hardware_concurrency()},
                      {"every", o.every},
                      {"reps", o.reps},
                      {"delta_relative", o.delta},
                      {"memory_budget_gib", o.memory_budget_gib},
                      {"merge_angles", o.merge_angles},
                      {"scenes", nlohmann::json::array()}};
  for (const SceneResult& r : all) j["scenes"].push_back(to_json(r, o.pile_bodies));
  out << j.dump(1) << '\n';
}

}  // namespace
}  // namespace exactsim::bench

int main(int argc, char** argv) {
  using namespace exactsim;
  using namespace exactsim::bench;
  Options o;
  CLI::App app{
      "bench_basis_cost: the sparse factorisations of the large-island basis systems, basis "
      "reuse and rows per body on bench_scaling's 3D random-hull piles"};
  app.add_option("--n", o.n, "numbers of bodies of the 3D piles (seed 1, mu = 0.3, h = 0.01)")
      ->delimiter(',')
      ->check(CLI::PositiveNumber);
  app.add_option("--scene", o.scenes,
                 "scene files to step instead (e.g. bench_scaling "
                 "--write-scenes); repeatable");
  app.add_option("--steps", o.steps, "steps per scene at most")->check(CLI::PositiveNumber);
  app.add_option("--every", o.every, "measure the factorisations every this many steps")
      ->check(CLI::PositiveNumber);
  app.add_option("--reps", o.reps, "repetitions of each factorisation (median)")
      ->check(CLI::PositiveNumber);
  app.add_option("--memory-budget-gib", o.memory_budget_gib,
                 "the step's memory budget (stepping.memory_budget_gib); beyond it the stepping "
                 "stops and the island is measured with a Gauss-Seidel estimate of its basis");
  app.add_option("--delta", o.delta, "delta of D_BB + delta I, relative to max_i N_ii");
  app.add_option("--max-factor-gib", o.max_factor_gib,
                 "skip a factorisation whose estimated memory is larger");
  app.add_option("--max-flops", o.max_flops, "skip a factorisation whose flop estimate is larger");
  app.add_option("--dense-max-gib", o.dense_max_gib,
                 "time the dense path only where its matrices fit in this");
  app.add_option("--max-memory-gib", o.max_memory_gib,
                 "address-space limit of the process (0: none)");
  app.add_option("--merge-angles", o.merge_angles, "face-merge angles, rad")->delimiter(',');
  app.add_option("--pile-bodies", o.pile_bodies,
                 "the means also over the steps whose largest island has this many bodies");
  app.add_option("--out", o.out,
                 "write the results as JSON (CSV of the factorisations if the "
                 "name ends in .csv)");
  CLI11_PARSE(app, argc, argv);

  if (o.max_memory_gib > 0) {
    const auto bytes = static_cast<rlim_t>(o.max_memory_gib * kGiB);
    const rlimit lim{bytes, bytes};
    ::setrlimit(RLIMIT_AS, &lim);
  }
  std::printf(
      "bench_basis_cost: %s, %u threads; every %d steps, %d repetitions (median); delta = %g max "
      "N_ii; memory budget %g GiB\n",
      cpu_model().c_str(), std::thread::hardware_concurrency(), o.every, o.reps, o.delta,
      o.memory_budget_gib);
  std::vector<SceneResult> all;
  try {
    std::vector<Scene> scenes;
    for (const std::string& path : o.scenes) scenes.push_back(read_scene_file(path));
    if (o.scenes.empty())
      for (int n : o.n) {
        ScalingSceneOptions so;
        so.bodies = n;
        scenes.push_back(scaling_scene(so));
      }
    for (const Scene& scene : scenes) {
      std::fprintf(stderr, "%s\n", scene.name.c_str());
      all.push_back(run_scene(o, scene));
      print_scene(all.back(), o);
      std::fflush(stdout);
    }
    if (!o.out.empty()) write_out(all, o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_basis_cost: %s\n", e.what());
    return 1;
  }
  return 0;
}
