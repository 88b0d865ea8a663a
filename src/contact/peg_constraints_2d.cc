// PEG constraint generation in 2D (docs/peg.md "Algorithm": applicability, configuration cases and
// the primary heuristic), as the authors' PEG_constraints_from_contacts + PEG2 ran it, without the
// defect of docs/peg.md "Defects not replicated" item 5 and with non-contiguous edge runs handled
// ("Tricky cases" item 8).
#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "exactsim/collision/vertex_edge.h"
#include "exactsim/contact/peg.h"
#include "exactsim/contact/peg_applicability.h"
#include "exactsim/contact/peg_primary.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

using FeatureKey = PegFeatureKey;

// The four contacts of a vertex–vertex configuration (PEG paper Fig. 5): C1 = (v_a, e_in(v_b)),
// C2 = (v_a, e_out(v_b)), C3 = (v_b, e_in(v_a)), C4 = (v_b, e_out(v_a)).
using VertexVertex = std::array<int, 4>;

class Generator {
 public:
  Generator(std::span<const WorldPolygon> polygons, std::span<const std::uint8_t> is_static,
            const PegOptions& options, ConstraintSet& set, PegScratch2d& scratch)
      : polygons_(polygons),
        is_static_(is_static),
        options_(options),
        set_(set),
        appl_(scratch.applicability),
        keys_(scratch.keys),
        group_(scratch.group),
        run_(scratch.run),
        unilateral_(scratch.unilateral),
        vertex_vertex_(scratch.vertex_vertex),
        seen_(scratch.seen),
        in_intercontact_(scratch.in_intercontact) {
    vertex_edge_applicability(polygons, set.contacts, appl_);
    keys_.clear();
    unilateral_.clear();
    vertex_vertex_.clear();
    seen_.clear();
    for (int i = 0; i < static_cast<int>(set.contacts.size()); ++i) {
      const Contact& c = set.contacts[i];
      keys_.push_back({c.body_a, c.feature_a, c.body_b, c.feature_b, i});
    }
    std::sort(keys_.begin(), keys_.end());
  }

  void run() {
    for (std::size_t g = 0; g < keys_.size();) {
      std::size_t end = g;
      group_.clear();  // contact indices of one group, edges ascending, duplicates dropped
      for (; end < keys_.size() && keys_[end].same_group(keys_[g]); ++end)
        if (end == g || keys_[end].edge != keys_[end - 1].edge) group_.push_back(keys_[end].index);
      if (!both_static(keys_[g])) add_group();
      g = end;
    }
    emit();
  }

 private:
  bool applicable(int c) const { return appl_[c] > options_.epsilon_theta; }
  bool both_static(const FeatureKey& k) const {
    return !is_static_.empty() && is_static_[k.vertex_body] && is_static_[k.edge_body];
  }

  int find(int vertex_body, int vertex, int edge_body, int edge) const {
    const FeatureKey probe{vertex_body, vertex, edge_body, edge, -1};
    const auto it = std::lower_bound(keys_.begin(), keys_.end(), probe);
    if (it == keys_.end() || !it->same_group(probe) || it->edge != edge) return -1;
    return it->index;
  }

  // One vertex against the edges of one body: split into runs of cyclically consecutive edges
  // (docs/peg.md "Tricky cases" item 8: each contiguous run on its own), then classify each run.
  // The walk starts at a run boundary so that a run wrapping from edge n−1 to edge 0 stays whole.
  void add_group() {
    const int n_edges =
        static_cast<int>(polygons_[set_.contacts[group_.front()].body_b].vertices.size());
    const int g = static_cast<int>(group_.size());
    auto edge = [&](int i) { return set_.contacts[group_[i % g]].feature_b; };
    auto continues = [&](int i) { return (edge(i + g - 1) + 1) % n_edges == edge(i); };
    int start = 0;
    while (start < g && continues(start)) ++start;
    if (start == g) start = 0;  // every edge of B: one closed run
    run_.clear();
    for (int k = 0; k < g; ++k) {
      if (k > 0 && !continues(start + k)) {
        add_run();
        run_.clear();
      }
      run_.push_back(group_[(start + k) % g]);
    }
    add_run();
  }

  // docs/peg.md "Algorithm" steps 4–5 for one contiguous run of edges of B around vertex v_a of A.
  void add_run() {
    const std::vector<int>& run = run_;
    if (run.size() == 1) {  // vertex–edge case
      if (applicable(run[0])) unilateral_.push_back(run[0]);
      return;
    }
    // Trim so that at most one inapplicable contact remains at each end, keeping ≥ 2.
    std::size_t lo = 0, hi = run.size() - 1;
    while (hi - lo + 1 > 2 && !applicable(run[lo]) && !applicable(run[lo + 1])) ++lo;
    while (hi - lo + 1 > 2 && !applicable(run[hi]) && !applicable(run[hi - 1])) --hi;
    for (std::size_t k = lo; k < hi; ++k) {
      const int c1 = run[k], c2 = run[k + 1];
      const Contact& a_side = set_.contacts[c1];
      const int body_a = a_side.body_a, v_a = a_side.feature_a, body_b = a_side.body_b;
      const int v_b = set_.contacts[c2].feature_b;  // e_in(v_b) = run[k] ends where run[k+1] starts
      const int n_a = static_cast<int>(polygons_[body_a].vertices.size());
      const int c3 = find(body_b, v_b, body_a, v_a == 0 ? n_a - 1 : v_a - 1);
      const int c4 = find(body_b, v_b, body_a, v_a);
      if (c3 < 0 || c4 < 0) {
        // The distance tests are not symmetric: fall back to U's ("Algorithm" step 5).
        unilateral_.push_back(appl_[c2] > appl_[c1] ? c2 : c1);
        if (c3 >= 0)
          unilateral_.push_back(c3);
        else if (c4 >= 0)
          unilateral_.push_back(c4);
        continue;
      }
      // Once per unordered vertex pair: it is met again from v_b's group with roles swapped.
      std::array<int, 4> pair = {body_a, v_a, body_b, v_b};
      if (body_b < body_a) pair = {body_b, v_b, body_a, v_a};
      if (std::find(seen_.begin(), seen_.end(), pair) != seen_.end()) continue;
      seen_.push_back(pair);
      vertex_vertex_.push_back({c1, c2, c3, c4});
    }
  }

  // Appends a k = 1 constraint (first, other) after the primary swap ("Algorithm" step 6).
  void add_intercontact(int first, int other, bool cross) {
    if (swap_primary_2d(set_.contacts[first], set_.contacts[other], options_.primary_tolerance))
      std::swap(first, other);
    IntercontactConstraint ic;
    ic.primary = first;
    ic.first_secondary = static_cast<int>(set_.secondaries.size());
    ic.secondary_count = 1;
    ic.is_cross = cross;
    ic.carries_impulse = !cross || options_.cross == CrossRealisation::kImpulseCarrying;
    ic.iota_count = applicable(first) && applicable(other) ? 2 : 1;  // Cι (docs/peg.md)
    set_.intercontacts.push_back(ic);
    set_.secondaries.push_back(other);
  }

  // I(Cι, Cκ) over one vertex's two contacts: the first applicable one leads ("Algorithm" step 6);
  // false if neither is applicable (Cι empty: the I is dropped).
  bool iota_order(int c_in, int c_out, int& first, int& other) const {
    if (applicable(c_in))
      first = c_in, other = c_out;
    else if (applicable(c_out))
      first = c_out, other = c_in;
    else
      return false;
    return true;
  }

  void add_cross(int ca, int cb) {
    if (options_.cross == CrossRealisation::kImpulseCarrying &&
        !(appl_[ca] > options_.cross_keep_threshold && appl_[cb] > options_.cross_keep_threshold))
      return;  // X-code drops X's on poorly applicable contacts
    if (options_.canonical_cross_order && set_.contacts[cb].gap > set_.contacts[ca].gap)
      std::swap(ca, cb);
    add_intercontact(ca, cb, true);
  }

  void emit() {
    for (const VertexVertex& vv : vertex_vertex_) {
      int f1 = -1, o1 = -1, f2 = -1, o2 = -1;
      const bool i1 = iota_order(vv[0], vv[1], f1, o1);
      const bool i2 = iota_order(vv[2], vv[3], f2, o2);
      if (i1) add_intercontact(f1, o1, false);
      if (i2) add_intercontact(f2, o2, false);
      if (!i1 || !i2) continue;  // an X needs both I's ("Algorithm" step 6)
      add_cross(vv[0], vv[3]);   // X(C1, C4), PEG paper eq. 16
      add_cross(vv[1], vv[2]);   // X(C2, C3)
    }
    cover_overlaps();
    set_.append_unilaterals(unilateral_, in_intercontact_);  // "Algorithm" step 8
  }

  // docs/peg.md "Algorithm" step 7, overlap cover: whatever steps 4–6 decided, a vertex
  // strictly inside the other body with none of its contacts against that body in a constraint
  // gets a U on its exit edge (built if not detected), so that the velocity step stops it and the
  // projection pushes it out. Such a pair really overlaps: a U on it cannot be an SM trap.
  void cover_overlaps() {
    std::vector<std::uint8_t>& used = in_intercontact_;
    used.assign(set_.contacts.size(), 0);
    for (const IntercontactConstraint& ic : set_.intercontacts) used[ic.primary] = 1;
    for (int c : set_.secondaries) used[c] = 1;
    for (int c : unilateral_) used[c] = 1;
    for (std::size_t g = 0; g < keys_.size();) {
      const FeatureKey k = keys_[g];
      bool constrained = false;
      for (; g < keys_.size() && keys_[g].same_group(k); ++g)
        constrained |= used[keys_[g].index] != 0;
      if (constrained || both_static(k)) continue;
      const WorldPolygon& other = polygons_[k.edge_body];
      const Vec2& v = polygons_[k.vertex_body].vertices[k.vertex];
      int exit = -1;
      const Real gap = deepest_edge(other, v, exit);
      if (!(gap < 0)) continue;
      int c = find(k.vertex_body, k.vertex, k.edge_body, exit);
      if (c < 0) {
        c = static_cast<int>(set_.contacts.size());
        set_.contacts.push_back(vertex_edge_contact(k.vertex_body, k.vertex, v, k.edge_body, exit,
                                                    other.vertices[exit], other.edge_normals[exit],
                                                    -gap));
      }
      unilateral_.push_back(c);
    }
  }

  std::span<const WorldPolygon> polygons_;
  std::span<const std::uint8_t> is_static_;
  const PegOptions& options_;
  ConstraintSet& set_;
  std::vector<Real>& appl_;
  std::vector<FeatureKey>& keys_;
  std::vector<int>&group_, &run_, &unilateral_;
  std::vector<VertexVertex>& vertex_vertex_;
  std::vector<std::array<int, 4>>& seen_;
  std::vector<std::uint8_t>& in_intercontact_;
};

void check_options(const PegOptions& o) {
  if (!std::isfinite(o.epsilon_theta) || !std::isfinite(o.cross_keep_threshold) ||
      !std::isfinite(o.primary_tolerance) || o.primary_tolerance < 0) {
    throw InputError(
        "PEG options: epsilon_theta and cross_keep_threshold must be finite and "
        "primary_tolerance finite and >= 0");
  }
}

}  // namespace

void build_peg_constraints_2d(std::span<const WorldPolygon> polygons,
                              std::span<const std::uint8_t> is_static, const PegOptions& options,
                              ConstraintSet& set) {
  PegScratch2d scratch;
  build_peg_constraints_2d(polygons, is_static, options, set, scratch);
}

void build_peg_constraints_2d(std::span<const WorldPolygon> polygons,
                              std::span<const std::uint8_t> is_static, const PegOptions& options,
                              ConstraintSet& set, PegScratch2d& scratch) {
  check_options(options);
  if (!is_static.empty() && is_static.size() != polygons.size())
    throw InputError("build_peg_constraints_2d: is_static has " + std::to_string(is_static.size()) +
                     " entries for " + std::to_string(polygons.size()) + " polygons");
  set.clear_constraints();
  if (set.contacts.empty()) return;
  Generator(polygons, is_static, options, set, scratch).run();
}

}  // namespace exactsim
