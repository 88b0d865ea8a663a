#include "exactsim/collision/sphere_contact.h"

#include <algorithm>

namespace exactsim {

void sphere_contact(const PlacedCollider3& a, int index_a, const PlacedCollider3& b, int index_b,
                    Real reach, std::vector<Contact>& out) {
  const bool swap = !a.is_sphere();
  const PlacedCollider3& s = swap ? b : a;
  const PlacedCollider3& o = swap ? a : b;
  const SphereProximity p = sphere_proximity(s, o);
  if (!(p.gap <= reach)) return;
  Contact c;
  c.body_a = swap ? index_b : index_a;
  c.body_b = swap ? index_a : index_b;
  c.type = ContactType::kSphere;
  c.feature_a = 0;
  c.feature_b = o.is_sphere() ? -1 : p.face;
  c.point_a = p.point_sphere;
  c.normal = p.normal;
  c.gap = p.gap;
  c.distance = std::max<Real>(p.gap, 0);
  out.push_back(c);
}

}  // namespace exactsim
