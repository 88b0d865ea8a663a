// PEG constraint generation in 3D (docs/peg3d.md "Algorithm" with its tests and primary
// heuristics; the defects of docs/peg.md "Defects not replicated" items 1, 6, 7, 8 fixed). Each
// vertex near the other body of its pair is put in exactly one configuration by its nearest feature
// of that body (docs/peg3d.md).
#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "exactsim/collision/closest_points.h"
#include "exactsim/collision/edge_edge.h"
#include "exactsim/collision/vertex_face.h"
#include "exactsim/contact/peg.h"
#include "exactsim/contact/peg_applicability_3d.h"
#include "exactsim/contact/peg_feasibility_3d.h"
#include "exactsim/contact/peg_primary_3d.h"
#include "exactsim/math/error.h"

namespace exactsim {
namespace {

using ContactKey = PegContactKey3d;
using Configuration = PegVertexConfiguration;
using Near = PegNearFeature;

ContactKey key_of(const Contact& c) {
  return {static_cast<int>(c.type), c.body_a, c.feature_a, c.body_b, c.feature_b};
}

// Inserts x into the sorted vector v unless present; true when inserted.
template <class T>
bool insert_sorted(std::vector<T>& v, const T& x) {
  const auto it = std::lower_bound(v.begin(), v.end(), x);
  if (it != v.end() && *it == x) return false;
  v.insert(it, x);
  return true;
}

class Generator3d {
 public:
  Generator3d(std::span<const ConvexPolyhedron* const> shapes,
              std::span<const WorldPolyhedron> placed, std::span<const std::uint8_t> is_static,
              const PegOptions& options, ConstraintSet& set, PegScratch3d& scratch,
              std::span<const Real> reach)
      : shapes_(shapes),
        placed_(placed),
        is_static_(is_static),
        reach_(reach),
        o_(options.spatial),
        cross_impulse_(options.cross == CrossRealisation::kImpulseCarrying),
        set_(set),
        index_(scratch.index),
        configurations_(scratch.configurations),
        todo_(scratch.todo),
        done_(scratch.done),
        fresh_(scratch.fresh),
        merged_(scratch.merged),
        unilateral_(scratch.unilateral),
        scratch_(scratch.faces),
        faces_copy_(scratch.faces_copy),
        crosses_(scratch.crosses),
        in_intercontact_(scratch.in_intercontact) {
    index_.clear();
    configurations_.clear();
    todo_.clear();
    done_.clear();
    crosses_.clear();
    unilateral_.clear();
    scratch_.clear();
    faces_copy_.clear();
    detected_ = static_cast<int>(set.contacts.size());
    for (int i = 0; i < detected_; ++i) {
      validate(set.contacts[i], i);
      index_.push_back(i);
    }
    std::sort(index_.begin(), index_.end(), by_key());
  }

  void run() {
    emit_patches();
    classify_vertices();
    for (const Configuration& c : configurations_) {
      switch (c.near) {
        case Near::kVertex:
          emit_vertex_vertex(c);
          break;
        case Near::kEdge:
          emit_vertex_edge(c);
          break;
        case Near::kFace:
          emit_vertex_faces(c);
          break;
      }
    }
    emit_edge_edge();
    cover_overlaps();
    finish();
  }

 private:
  const ConvexPolyhedron& shape(int b) const { return *shapes_[b]; }
  const Vec3& vertex(int b, int v) const { return placed_[b].vertices[v]; }
  bool both_static(int a, int b) const {
    return !is_static_.empty() && is_static_[a] && is_static_[b];
  }
  // How far bodies a and b may close over the step (the detection's widening): FEAS_vf accepts a
  // vertex that far beyond ρ in front of a face it is heading for.
  Real pair_reach(int a, int b) const { return reach_.empty() ? 0 : reach_[a] + reach_[b]; }

  void validate(const Contact& c, int i) const {
    // (the message is built only on failure: this runs for every contact of every step)
    const auto which = [i] { return "build_peg_constraints_3d: contact " + std::to_string(i); };
    const int nb = static_cast<int>(std::min(shapes_.size(), placed_.size()));
    for (int b : {c.body_a, c.body_b}) {
      if (b < 0 || b >= nb || shapes_[b] == nullptr ||
          placed_[b].vertices.size() != shapes_[b]->vertices.size() ||
          placed_[b].edge_orientation.size() != shapes_[b]->edges.size())
        throw InputError(which() + " names body " + std::to_string(b) +
                         " without a placed polyhedron");
    }
    const ConvexPolyhedron& a = shape(c.body_a);
    const ConvexPolyhedron& b = shape(c.body_b);
    bool ok = false;
    if (c.type == ContactType::kVertexFace)
      ok = c.feature_a >= 0 && c.feature_a < a.num_vertices() && c.feature_b >= 0 &&
           c.feature_b < b.num_faces();
    else if (c.type == ContactType::kEdgeEdge)
      ok = c.feature_a >= 0 && c.feature_a < a.num_edges() && c.feature_b >= 0 &&
           c.feature_b < b.num_edges();
    else
      throw InputError(which() + " is vertex-edge (2D) in a 3D constraint set");
    if (!ok) throw InputError(which() + " names a feature outside its polyhedron");
  }

  // The contacts in index_ order: by key, then by index. The index holds contact indices, not
  // keys: a contact built now is inserted into it, and moving 4 bytes an entry instead of 24 keeps
  // the insertions' copies small on a pile of 1,000 hulls (docs/performance.md "PEG's constraints
  // on the pour of 1,000 hulls").
  struct ByKey {
    const std::vector<Contact>& contacts;
    bool operator()(int a, int b) const {
      const ContactKey ka = key_of(contacts[a]), kb = key_of(contacts[b]);
      return ka < kb || (ka == kb && a < b);
    }
    bool operator()(int a, const ContactKey& k) const { return key_of(contacts[a]) < k; }
  };
  ByKey by_key() const { return {set_.contacts}; }
  ContactKey key_at(std::vector<int>::const_iterator it) const {
    return key_of(set_.contacts[*it]);
  }
  // The first entry of index_ whose key is at least k.
  std::vector<int>::const_iterator first_at_least(const ContactKey& k) const {
    return std::lower_bound(index_.cbegin(), index_.cend(), k, by_key());
  }

  int find(const ContactKey& k) const {
    const auto it = first_at_least(k);
    return it != index_.end() && key_at(it) == k ? *it : -1;
  }

  int add_contact(const Contact& c) {
    const int i = static_cast<int>(set_.contacts.size());
    set_.contacts.push_back(c);
    index_.insert(std::lower_bound(index_.begin(), index_.end(), i, by_key()), i);
    return i;
  }

  // C(v, f): vertex v of `body` against face f of `other`, detected or built now.
  int vertex_face(int body, int v, int other, int f) {
    const int i = find({static_cast<int>(ContactType::kVertexFace), body, v, other, f});
    if (i >= 0) return i;
    return add_contact(
        vertex_face_contact(vertex(body, v), body, v, shape(other), placed_[other], other, f));
  }

  // C(e, e'): edge e of `body` against edge e' of `other` (either order), detected or built
  // now; −1 when no ee contact exists (parallel or flat edges, docs/peg.md
  // "Tricky cases" item 4; a detected crossing of a flat edge is left to steps 6–7).
  int edge_edge(int body, int e, int other, int e_other) {
    if (shape(body).edges[e].nearly_flat || shape(other).edges[e_other].nearly_flat) return -1;
    const int ee = static_cast<int>(ContactType::kEdgeEdge);
    if (const int i = find({ee, body, e, other, e_other}); i >= 0) return i;
    if (const int i = find({ee, other, e_other, body, e}); i >= 0) return i;
    Contact c;
    if (!edge_edge_contact(shape(body), placed_[body], body, e, shape(other), placed_[other], other,
                           e_other, kParallelSine, c))
      return -1;
    return add_contact(c);
  }

  // APPL_ee of an ee contact (docs/collision.md; symmetric in the two edges).
  Real edge_edge_applicability(int c) const {
    const Contact& k = set_.contacts[c];
    const WorldPolyhedron& a = placed_[k.body_a];
    const WorldPolyhedron& b = placed_[k.body_b];
    const PolyhedronEdge& ea = shape(k.body_a).edges[k.feature_a];
    const PolyhedronEdge& eb = shape(k.body_b).edges[k.feature_b];
    return edge_edge_normal(a.vertices[ea.head] - a.vertices[ea.tail], a.edge_t1[k.feature_a],
                            a.edge_t2[k.feature_a], b.vertices[eb.head] - b.vertices[eb.tail],
                            b.edge_t1[k.feature_b], b.edge_t2[k.feature_b], kParallelSine)
        .applicability;
  }

  VertexFaceFeasibility feasibility(int body, int v, int other, int f) const {
    return vertex_face_feasibility(vertex(body, v), shape(other), placed_[other], f, o_.proximity,
                                   o_.feasibility_angle, o_.feasibility_depth,
                                   pair_reach(body, other));
  }

  // The nearest vertex of `other` within the proximity, else its nearest non-flat edge, else
  // none (the vertex is near faces only). Ties keep the lowest index.
  Configuration classify(int body, int v, int other) const {
    Configuration c{body, v, other};
    const Vec3& p = vertex(body, v);
    const ConvexPolyhedron& s = shape(other);
    const WorldPolyhedron& w = placed_[other];
    Real best = o_.proximity;
    for (int u = 0; u < s.num_vertices(); ++u)
      if (const Real d = (w.vertices[u] - p).norm(); d <= best && (c.feature < 0 || d < best))
        best = d, c.feature = u, c.near = Near::kVertex;
    if (c.near == Near::kVertex) return c;
    best = o_.proximity;
    for (int e = 0; e < s.num_edges(); ++e) {
      const PolyhedronEdge& edge = s.edges[e];
      if (edge.nearly_flat) continue;  // face interior (docs/geometry3d.md)
      const Real d = point_segment_distance(p, w.vertices[edge.tail], w.vertices[edge.head]);
      if (d <= best && (c.feature < 0 || d < best)) best = d, c.feature = e, c.near = Near::kEdge;
    }
    return c;
  }

  // docs/peg3d.md "Algorithm" step 1: a face–face patch's contacts (collision/face_patch.h) are
  // U's as they are: over a planar patch the free space is the half-space of the face, with no
  // corner for I or X constraints to model.
  void emit_patches() {
    for (int i = 0; i < detected_; ++i)
      if (set_.contacts[i].patch && !both_static(set_.contacts[i].body_a, set_.contacts[i].body_b))
        unilateral_.push_back(i);
  }

  // Every vertex that has a contact with the other body of its pair (a vertex–face contact or
  // an endpoint of an edge–edge contact), plus the partners of vertex–vertex configurations;
  // not the vertices of a face–face patch.
  void classify_vertices() {
    for (int i = 0; i < detected_; ++i) {
      const Contact& c = set_.contacts[i];
      if (both_static(c.body_a, c.body_b) || c.patch) continue;
      if (c.type == ContactType::kVertexFace) {
        todo_.push_back({c.body_a, c.feature_a, c.body_b});
      } else {
        const PolyhedronEdge& ea = shape(c.body_a).edges[c.feature_a];
        const PolyhedronEdge& eb = shape(c.body_b).edges[c.feature_b];
        todo_.push_back({c.body_a, ea.tail, c.body_b});
        todo_.push_back({c.body_a, ea.head, c.body_b});
        todo_.push_back({c.body_b, eb.tail, c.body_a});
        todo_.push_back({c.body_b, eb.head, c.body_a});
      }
    }
    // Each (body, vertex, other) once, in rounds (a vertex–vertex configuration adds its partner's
    // to the next): a round's new ones sorted and merged into done_, O(n log n) where inserting
    // each into the sorted done_ took O(n) (docs/performance.md "PEG's constraints on the pour of
    // 1,000 hulls"). classify() depends on its vertex alone: any order gives these configurations.
    while (!todo_.empty()) {
      std::sort(todo_.begin(), todo_.end());
      todo_.erase(std::unique(todo_.begin(), todo_.end()), todo_.end());
      fresh_.clear();
      std::set_difference(todo_.begin(), todo_.end(), done_.begin(), done_.end(),
                          std::back_inserter(fresh_));
      merged_.clear();
      std::merge(done_.begin(), done_.end(), fresh_.begin(), fresh_.end(),
                 std::back_inserter(merged_));
      done_.swap(merged_);
      todo_.clear();
      for (const auto& [body, v, other] : fresh_) {
        const Configuration c = classify(body, v, other);
        configurations_.push_back(c);
        if (c.near == Near::kVertex) todo_.push_back({other, c.feature, body});
      }
    }
    std::sort(configurations_.begin(), configurations_.end());  // deterministic emission order
  }

  const Configuration* configuration(int body, int v, int other) const {
    const Configuration probe{body, v, other};
    const auto it = std::lower_bound(configurations_.begin(), configurations_.end(), probe);
    return it != configurations_.end() && it->key() == probe.key() ? &*it : nullptr;
  }

  void add_intercontact(int primary, std::span<const int> secondaries, bool cross) {
    IntercontactConstraint ic;
    ic.primary = primary;
    ic.first_secondary = static_cast<int>(set_.secondaries.size());
    ic.secondary_count = static_cast<int>(secondaries.size());
    ic.is_cross = cross;
    ic.carries_impulse = !cross || cross_impulse_;
    set_.intercontacts.push_back(ic);
    set_.secondaries.insert(set_.secondaries.end(), secondaries.begin(), secondaries.end());
  }

  // X(first, second) (docs/peg.md "Constraint types"), once per ordered pair; realised as an
  // impulse-carrying I
  // ("X-code") or without impulse ("X-paper") by PegOptions::cross.
  void add_cross(int first, int second) {
    if (!insert_sorted(crosses_, {first, second})) return;
    const int secondary[1] = {second};
    add_intercontact(first, secondary, true);
  }

  // One vertex against a set of faces (U for one, I with the vertex-against-faces
  // primary for several).
  void add_vertex_faces(std::vector<int>& faces) {
    if (faces.empty()) return;
    if (faces.size() == 1) {
      unilateral_.push_back(faces[0]);
      return;
    }
    const int p = primary_vertex_faces(set_.contacts, faces, o_.primary_tolerance_faces);
    const int primary = faces[p];
    faces.erase(faces.begin() + p);
    add_intercontact(primary, faces, false);
  }

  // docs/peg3d.md "Algorithm" step 3, vertex–vertex: v_a against the faces of B at v_b that pass
  // FEAS_vf and APPL_vf > ε_θ (v_b against A's faces is v_b's own configuration); the ≈ Eq. 38 X's
  // behind vertex_vertex_cross. When no face at v_b passes, v_a is a vertex near faces (step 5):
  // v_b is only the nearest vertex within ρ, and v_a may touch a face of B not at v_b.
  void emit_vertex_vertex(const Configuration& c) {
    const ConvexPolyhedron& other = shape(c.other);
    scratch_.clear();
    for (int f : other.vertex_faces[c.feature]) {
      if (!feasibility(c.body, c.vertex, c.other, f).feasible) continue;
      if (!(vertex_face_applicability(shape(c.body), placed_[c.body], c.vertex,
                                      placed_[c.other].face_normals[f]) > o_.epsilon_theta))
        continue;
      scratch_.push_back(vertex_face(c.body, c.vertex, c.other, f));
    }
    if (scratch_.empty()) {  // no face at w holds v: as a vertex near faces (docs/peg3d.md step 3)
      emit_vertex_faces(c);
      return;
    }
    faces_copy_.assign(scratch_.begin(), scratch_.end());
    add_vertex_faces(scratch_);
    if (!o_.vertex_vertex_cross) return;
    for (int cvf : faces_copy_) {
      const PolyhedronFace& fb = other.faces[set_.contacts[cvf].feature_b];
      const int k = static_cast<int>(fb.vertices.size());
      const int at = static_cast<int>(std::find(fb.vertices.begin(), fb.vertices.end(), c.feature) -
                                      fb.vertices.begin());
      for (int eb : {fb.edges[at], fb.edges[(at + k - 1) % k]})
        for (int ea : shape(c.body).vertex_edges[c.vertex]) {
          const int cee = edge_edge(c.body, ea, c.other, eb);
          if (cee < 0 || set_.contacts[cee].distance > o_.proximity ||
              !(edge_edge_applicability(cee) > o_.epsilon_theta_edge_partner))
            continue;
          add_cross(cvf, cee);
        }
    }
  }

  // docs/peg3d.md "Algorithm" step 4, flush support: v_a on a corner of A that sits edge to edge
  // under B's face `support` (A's faces at v_a antiparallel to it and parallel to B's `side`
  // face, within flush_support_cosine), `side` inapplicable, v_a feasible against `support` and
  // at most flush_support_overhang beyond it. Then the vertex–edge configuration is a U on
  // `support` (returns true), without the I and its X's.
  bool flush_support(const Configuration& c, int support, const VertexFaceFeasibility& feas,
                     int side) {
    if (!o_.flush_support || !feas.feasible || feas.outside > o_.flush_support_overhang)
      return false;
    const WorldPolyhedron& a = placed_[c.body];
    const WorldPolyhedron& b = placed_[c.other];
    const ConvexPolyhedron& own = shape(c.body);
    if (!(vertex_face_applicability(own, a, c.vertex, b.face_normals[support]) >
          o_.epsilon_theta) ||
        vertex_face_applicability(own, a, c.vertex, b.face_normals[side]) > o_.epsilon_theta)
      return false;
    bool under = false, beside = false;
    for (int f : own.vertex_faces[c.vertex]) {
      under |= a.face_normals[f].dot(b.face_normals[support]) < -o_.flush_support_cosine;
      beside |= a.face_normals[f].dot(b.face_normals[side]) > o_.flush_support_cosine;
    }
    if (!under || !beside) return false;
    unilateral_.push_back(vertex_face(c.body, c.vertex, c.other, support));
    return true;
  }

  // docs/peg3d.md "Algorithm" step 4, vertex–edge (PEG paper Fig. 18, ≈ eq. 36).
  void emit_vertex_edge(const Configuration& c) {
    const PolyhedronEdge& e = shape(c.other).edges[c.feature];
    const VertexFaceFeasibility f1 = feasibility(c.body, c.vertex, c.other, e.face1);
    const VertexFaceFeasibility f2 = feasibility(c.body, c.vertex, c.other, e.face2);
    const bool feas1 = f1.feasible, feas2 = f2.feasible;
    if (!feas1 && !feas2) return;
    if (flush_support(c, e.face1, f1, e.face2) || flush_support(c, e.face2, f2, e.face1)) return;
    const int c1 = vertex_face(c.body, c.vertex, c.other, e.face1);
    const int c2 = vertex_face(c.body, c.vertex, c.other, e.face2);
    const bool first = vertex_edge_primary_is_first(set_.contacts[c1], set_.contacts[c2],
                                                    o_.primary_tolerance_vertex_edge);
    const int secondary[1] = {first ? c2 : c1};
    add_intercontact(first ? c1 : c2, secondary, false);
    // A's edges at v_a: one pointing to the f_1 side must clear e_b when v_a passes on the f_2
    // side, and the other way round.
    const Vec3& o_e = placed_[c.other].edge_orientation[c.feature];
    const ConvexPolyhedron& own = shape(c.body);
    for (std::size_t k = 0; k < own.vertex_edges[c.vertex].size(); ++k) {
      const int ea = own.vertex_edges[c.vertex][k];
      if (own.edges[ea].nearly_flat) continue;
      const Vec3 u = vertex(c.body, own.vertex_neighbours[c.vertex][k]) - vertex(c.body, c.vertex);
      const Real orientation = o_e.dot(u);
      if (orientation == 0) continue;
      const int cee = edge_edge(c.body, ea, c.other, c.feature);
      if (cee < 0 || !(edge_edge_applicability(cee) > o_.epsilon_theta_edge_partner)) continue;
      const int side = orientation > 0 ? c1 : c2;
      const bool side_feasible = orientation > 0 ? feas1 : feas2;
      if (side_feasible)
        add_cross(side, cee);
      else if (set_.contacts[cee].distance <= o_.proximity)  // FEAS_ee
        add_cross(cee, side);
    }
  }

  // A vertex near faces only: U on one face (FEAS_vf, APPL_vf > ε_θ(lone), primary rule).
  void emit_vertex_faces(const Configuration& c) {
    scratch_.clear();
    const int vf = static_cast<int>(ContactType::kVertexFace);
    for (auto it = first_at_least({vf, c.body, c.vertex, c.other, -1}); it != index_.end(); ++it) {
      const ContactKey k = key_at(it);
      if (k.type != vf || k.body_a != c.body || k.feature_a != c.vertex || k.body_b != c.other)
        break;
      const int f = k.feature_b;
      if (!feasibility(c.body, c.vertex, c.other, f).feasible) continue;
      if (!(vertex_face_applicability(shape(c.body), placed_[c.body], c.vertex,
                                      placed_[c.other].face_normals[f]) >
            o_.epsilon_theta_lone_vertex))
        continue;
      scratch_.push_back(*it);
    }
    if (scratch_.empty()) return;
    unilateral_.push_back(
        scratch_[primary_vertex_faces(set_.contacts, scratch_, o_.primary_tolerance_faces)]);
  }

  // True when an endpoint of the contact's edge on `body` is in a vertex–edge configuration with
  // the other edge, or in a vertex–vertex configuration with one of that edge's endpoints, and is
  // not much farther from the other edge than the edges are apart (`distance`).
  // An end vertex whose own configuration replaces the edge–edge contact must be nearer the other
  // edge than the edges are to each other: where the edges' interiors are closer (by this factor),
  // they are what touches, and the vertex's constraints do not keep them from crossing.
  static constexpr Real kInteriorCloser = 0.5;

  bool replaced(int body, int edge, int other, int other_edge, Real distance) const {
    const PolyhedronEdge& e = shape(body).edges[edge];
    const PolyhedronEdge& f = shape(other).edges[other_edge];
    const Vec3& f0 = vertex(other, f.tail);
    const Vec3& f1 = vertex(other, f.head);
    for (int v : {e.tail, e.head}) {
      const Configuration* c = configuration(body, v, other);
      if (c == nullptr) continue;
      const bool replaces =
          (c->near == Near::kEdge && c->feature == other_edge) ||
          (c->near == Near::kVertex && (c->feature == f.tail || c->feature == f.head));
      if (replaces &&
          !(distance < kInteriorCloser * point_segment_distance(vertex(body, v), f0, f1)))
        return true;
    }
    return false;
  }

  SegmentClosestPoints closest_points(const Contact& c) const {
    const PolyhedronEdge& ea = shape(c.body_a).edges[c.feature_a];
    const PolyhedronEdge& eb = shape(c.body_b).edges[c.feature_b];
    return closest_points_segments(vertex(c.body_a, ea.tail), vertex(c.body_a, ea.head),
                                   vertex(c.body_b, eb.tail), vertex(c.body_b, eb.head));
  }

  static bool interior(const SegmentClosestPoints& cp) {
    return cp.s > 0 && cp.s < 1 && cp.t > 0 && cp.t < 1;
  }

  // max over the faces f of `body` of η̂_f·(p − v_f) (< 0: p strictly inside the body), and the
  // face attaining it (the lowest index on a tie): the face through which p leaves soonest.
  std::pair<Real, int> exit_face(int body, const Vec3& p) const {
    const ConvexPolyhedron& s = shape(body);
    const WorldPolyhedron& w = placed_[body];
    std::pair<Real, int> best{-std::numeric_limits<Real>::infinity(), -1};
    for (int f = 0; f < s.num_faces(); ++f) {
      const Real g = w.face_normals[f].dot(p - w.vertices[s.faces[f].vertices[0]]);
      if (g > best.first) best = {g, f};
    }
    return best;
  }

  // Whether the edges of ee contact i (closest points `cp`, interior to both segments) have passed
  // through each other: the closest points decide, each strictly inside the other body
  // (kCrossed), neither (kApart), one (kUnclear). The sign of ψ does not: even with APPL_ee >= 0
  // (n̂ in both edges' normal cones) ψ < 0 only says that the bodies' projections on n̂ overlap,
  // which they do for bodies apart across another axis. A crossing that lies within an end
  // vertex's own overlap (closer to that vertex than its depth inside the other body) is the
  // vertex's, not the edges' (kUnclear).
  enum class Crossing { kApart, kCrossed, kUnclear };
  Crossing crossing(int i, const SegmentClosestPoints& cp) const {
    const Contact& c = set_.contacts[i];
    const bool a_in = exit_face(c.body_b, cp.p_a).first < 0;
    const bool b_in = exit_face(c.body_a, cp.p_b).first < 0;
    if (!a_in && !b_in) return Crossing::kApart;
    if (!a_in || !b_in) return Crossing::kUnclear;
    const PolyhedronEdge& ea = shape(c.body_a).edges[c.feature_a];
    const PolyhedronEdge& eb = shape(c.body_b).edges[c.feature_b];
    for (const auto& [b, v, p, other] : {std::tuple{c.body_a, ea.tail, cp.p_a, c.body_b},
                                         {c.body_a, ea.head, cp.p_a, c.body_b},
                                         {c.body_b, eb.tail, cp.p_b, c.body_a},
                                         {c.body_b, eb.head, cp.p_b, c.body_a}})
      if ((p - vertex(b, v)).norm() <= -exit_face(other, vertex(b, v)).first)
        return Crossing::kUnclear;
    return Crossing::kCrossed;
  }

  // docs/peg3d.md "Algorithm" step 6, edge–edge: U(C(e_a, e_b)) for the detected ee contacts with
  // APPL_ee > ε_θ, FEAS_ee and interior closest points that no vertex configuration replaced and
  // no X holds, n̂ oriented by whether the edges have crossed.
  void emit_edge_edge() {
    mark_used();
    for (int i = 0; i < detected_; ++i) {
      Contact& c = set_.contacts[i];
      if (c.type != ContactType::kEdgeEdge || both_static(c.body_a, c.body_b) || c.patch) continue;
      if (!(edge_edge_applicability(i) > o_.epsilon_theta)) continue;
      // FEAS_ee, and a true edge–edge configuration: closest points inside both segments. At a
      // clamped end ψ = n̂·(p_b − p_a) is not a distance (p_b − p_a is not along n̂; it can be
      // ≪ 0 with the bodies apart) and the end vertex's own configuration covers the pair.
      if (c.distance > o_.proximity) continue;
      const SegmentClosestPoints cp = closest_points(c);
      if (!interior(cp)) continue;
      if (replaced(c.body_a, c.feature_a, c.body_b, c.feature_b, c.distance) ||
          replaced(c.body_b, c.feature_b, c.body_a, c.feature_a, c.distance))
        continue;
      if (in_intercontact_[i]) continue;  // in an X (vertex–edge, Eq. 38): not a U
      // The sign of n̂ follows the geometry where it was a guess (APPL_ee < 0): ψ < 0 only for
      // edges that have passed through each other (docs/peg3d.md "Algorithm" step 6). With
      // APPL_ee >= 0, n̂ lies in both normal cones and is kept; a ψ < 0 between edges apart then
      // only keeps them from approaching, and the projection pushes no more than the pair's
      // overlap (position_projection.h).
      const Crossing x = crossing(i, cp);
      const bool guessed = edge_edge_applicability(i) < 0;
      if ((x == Crossing::kCrossed && c.gap > 0) || (x == Crossing::kApart && c.gap < 0 && guessed))
        c.normal = -c.normal, c.gap = -c.gap;
      unilateral_.push_back(i);
    }
  }

  // in_intercontact_[c]: contact c is in an I or X (unilateral_ candidates are added by callers).
  void mark_used() {
    in_intercontact_.assign(set_.contacts.size(), 0);
    for (const IntercontactConstraint& ic : set_.intercontacts) in_intercontact_[ic.primary] = 1;
    for (int c : set_.secondaries) in_intercontact_[c] = 1;
  }

  // docs/peg3d.md "Algorithm" step 7, overlap cover: whatever the configurations decided, a feature
  // pair that already overlaps gets a constraint, so that the velocity step stops it and the
  // position projection pushes it out. (a) A vertex strictly inside the other body with none of
  // its contacts against that body in a constraint: U on its exit face. (b) A detected ee contact
  // whose edges have passed through each other and that is in no constraint: U, n̂ oriented so
  // that ψ < 0 (B leaves along n̂).
  void cover_overlaps() {
    std::vector<std::uint8_t>& used = in_intercontact_;
    mark_used();
    for (int c : unilateral_) used[c] = 1;
    for (int i = 0; i < detected_; ++i) {
      Contact& c = set_.contacts[i];
      if (used[i] || c.type != ContactType::kEdgeEdge || both_static(c.body_a, c.body_b)) continue;
      const SegmentClosestPoints cp = closest_points(c);
      if (!interior(cp) || crossing(i, cp) != Crossing::kCrossed) continue;
      if (c.gap > 0) c.normal = -c.normal, c.gap = -c.gap;
      unilateral_.push_back(i);
      used[i] = 1;
    }
    for (const Configuration& k : configurations_) {
      const auto [margin, face] = exit_face(k.other, vertex(k.body, k.vertex));
      if (!(margin < 0)) continue;
      if (vertex_constrained(k.body, k.vertex, k.other, used)) continue;
      unilateral_.push_back(vertex_face(k.body, k.vertex, k.other, face));
    }
  }

  // Some vertex–face contact of v (of `body`) against `other` that can push it out is in a
  // constraint.
  bool vertex_constrained(int body, int v, int other, const std::vector<std::uint8_t>& used) const {
    const int vf = static_cast<int>(ContactType::kVertexFace);
    for (auto it = first_at_least({vf, body, v, other, -1}); it != index_.end(); ++it) {
      const ContactKey k = key_at(it);
      if (k.type != vf || k.body_a != body || k.feature_a != v || k.body_b != other) break;
      if (*it < static_cast<int>(used.size()) && used[*it] && pushes_out(set_.contacts[*it]))
        return true;
    }
    return false;
  }

  // A vertex–face contact whose vertex projects into its face (distance = |ψ|): pushing it out
  // along n̂ by −ψ clears the vertex of that face. One beside its face (behind the plane, outside
  // the polygon) is no overlap by ψ, and the projection does not push it out (docs/robustness.md
  // "Stabilisation").
  static bool pushes_out(const Contact& c) { return !(c.distance > std::abs(c.gap) * (1 + 1e-9)); }

  void finish() { set_.append_unilaterals(unilateral_, in_intercontact_); }

  static constexpr Real kParallelSine = 1e-6;  // as PolyhedronContactOptions::parallel_sine

  std::span<const ConvexPolyhedron* const> shapes_;
  std::span<const WorldPolyhedron> placed_;
  std::span<const std::uint8_t> is_static_;
  std::span<const Real> reach_;
  const PegSpatialOptions& o_;
  bool cross_impulse_;
  ConstraintSet& set_;
  int detected_ = 0;
  std::vector<int>& index_;
  std::vector<Configuration>& configurations_;
  std::vector<std::array<int, 3>>&todo_, &done_, &fresh_, &merged_;
  std::vector<int>&unilateral_, &scratch_, &faces_copy_;
  std::vector<std::pair<int, int>>& crosses_;
  std::vector<std::uint8_t>& in_intercontact_;
};

void check_spatial_options(const PegOptions& options) {
  const PegSpatialOptions& o = options.spatial;
  for (Real x : {o.proximity, o.feasibility_angle, o.feasibility_depth, o.primary_tolerance_faces,
                 o.primary_tolerance_vertex_edge})
    if (!std::isfinite(x) || x < 0)
      throw InputError(
          "PEG 3D options: proximity, feasibility_angle, feasibility_depth and the primary "
          "tolerances must be finite and >= 0");
  for (Real x : {o.epsilon_theta, o.epsilon_theta_lone_vertex, o.epsilon_theta_edge_partner})
    if (!std::isfinite(x))
      throw InputError("PEG 3D options: the applicability thresholds must be finite");
  if (!(o.flush_support_cosine >= 0 && o.flush_support_cosine <= 1) ||
      !(o.flush_support_overhang >= 0 && std::isfinite(o.flush_support_overhang)))
    throw InputError(
        "PEG 3D options: flush_support_cosine must be in [0, 1] and flush_support_overhang "
        "finite and >= 0");
  if (options.general_form)
    throw InputError("PEG options: the general |C_iota| = 2 form (Eqs. 20-23) is not implemented");
}

}  // namespace

void build_peg_constraints_3d(std::span<const ConvexPolyhedron* const> shapes,
                              std::span<const WorldPolyhedron> placed,
                              std::span<const std::uint8_t> is_static, const PegOptions& options,
                              ConstraintSet& set, std::span<const Real> reach) {
  PegScratch3d scratch;
  build_peg_constraints_3d(shapes, placed, is_static, options, set, scratch, reach);
}

void build_peg_constraints_3d(std::span<const ConvexPolyhedron* const> shapes,
                              std::span<const WorldPolyhedron> placed,
                              std::span<const std::uint8_t> is_static, const PegOptions& options,
                              ConstraintSet& set, PegScratch3d& scratch,
                              std::span<const Real> reach) {
  check_spatial_options(options);
  if (!is_static.empty() && is_static.size() != shapes.size())
    throw InputError("build_peg_constraints_3d: is_static has " + std::to_string(is_static.size()) +
                     " entries for " + std::to_string(shapes.size()) + " bodies");
  if (!reach.empty() && reach.size() != shapes.size())
    throw InputError("build_peg_constraints_3d: reach has " + std::to_string(reach.size()) +
                     " entries for " + std::to_string(shapes.size()) + " bodies");
  set.clear_constraints();
  if (set.contacts.empty()) return;
  Generator3d(shapes, placed, is_static, options, set, scratch, reach).run();
}

}  // namespace exactsim
