// The contact record shared by the narrow phase, the constraint generators and the stepper
// (docs/collision.md "Conventions"). One struct for both dimensions: planar contacts have z = 0.
#pragma once

#include <cstdint>

#include "exactsim/math/types.h"

namespace exactsim {

enum class ContactType : std::uint8_t {
  kVertexEdge,  // 2D: vertex feature_a of A against edge feature_b of B
  kVertexFace,  // 3D: vertex feature_a of A against face feature_b of B
  kEdgeEdge,    // 3D: edge feature_a of A against edge feature_b of B
  kSphere,  // 3D: sphere A's closest point to B (feature_a 0; feature_b the face of a polyhedron B
            // carrying the closest point, −1 for a sphere B; collision/sphere_contact.h)
};

// C = {A, B, p_a, n̂, ψ} plus features. The point on B is p_b = p_a + ψ n̂.
// Swapping roles ({B, A, p_b, −n̂, ψ}) describes the same constraint.
struct Contact {
  int body_a = -1;  // caller's body index; n̂ points from A to B
  int body_b = -1;
  // The colliders (stepping/world.h) whose features these are. Detection and the constraint
  // generators put collider indices in body_a/body_b; map_contacts_to_bodies (stepping/detect.h)
  // then moves them here and puts the colliders' bodies in body_a/body_b (a body of one shape is
  // collider i = body i).
  int part_a = -1;
  int part_b = -1;
  ContactType type = ContactType::kVertexEdge;
  int feature_a = -1;           // vertex (ve, vf) or edge (ee) index on A
  int feature_b = -1;           // edge (ve, ee) or face (vf) index on B
  Vec3 point_a = Vec3::Zero();  // p_a, world frame, on A (2D: z = 0)
  Vec3 normal = Vec3::UnitX();  // n̂, unit, world frame, A → B (2D: z = 0)
  Real gap = 0;                 // ψ, signed, > 0 separated: to B's edge line / face plane for
                                // ve/vf, n̂·(p_b − p_a) of the segments' closest points for ee
  Real distance = 0;            // Euclidean distance between the two features (point–segment,
                                // point–face polygon, segment–segment): the proximity value
  bool patch = false;           // a vertex of a face–face contact patch (collision/face_patch.h)

  // The colliders, where part_a/part_b are not set yet: the body indices.
  int collider_a() const { return part_a >= 0 ? part_a : body_a; }
  int collider_b() const { return part_b >= 0 ? part_b : body_b; }

  // p_b = p_a + ψ n̂.
  Vec3 point_b() const { return point_a + gap * normal; }
};

}  // namespace exactsim
