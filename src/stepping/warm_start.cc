#include "exactsim/stepping/warm_start.h"

#include <algorithm>

namespace exactsim {
namespace {

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {  // splitmix64 of the running name
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebULL;
  return h ^ (h >> 31);
}

enum Role : std::uint64_t { kUnilateral = 1, kIntercontact, kSlack, kFriction, kSigma, kJoint };

}  // namespace

std::uint64_t contact_name(const Contact& c) {
  std::uint64_t h = mix(0, static_cast<std::uint64_t>(c.collider_a()));
  h = mix(h, static_cast<std::uint64_t>(c.collider_b()));
  h = mix(h, static_cast<std::uint64_t>(c.type));
  h = mix(h, static_cast<std::uint64_t>(c.feature_a));
  return mix(h, static_cast<std::uint64_t>(c.feature_b));
}

bool guess_active_set(const ConstraintSet& set, const MlcpLayout& layout,
                      const std::vector<WarmStart::Row>& previous, WarmStart& warm) {
  const int m = layout.size();
  warm.names.resize(m);
  for (int j = 0; j < layout.n_unilateral; ++j)
    warm.names[layout.p_begin() + j] =
        mix(contact_name(set.contacts[set.unilateral[j]]), kUnilateral);
  for (int j = 0, slack = layout.slack_begin(); j < layout.n_intercontact; ++j) {
    const IntercontactConstraint& ic = set.intercontacts[j];
    const std::uint64_t primary = contact_name(set.contacts[ic.primary]);
    warm.names[layout.pi_begin() + j] = mix(primary, kIntercontact);
    for (int s = 0; s < ic.secondary_count; ++s, ++slack)
      warm.names[slack] =
          mix(mix(primary, contact_name(set.contacts[set.secondaries[ic.first_secondary + s]])),
              kSlack);
  }
  const int k = layout.friction_directions;
  for (int f = 0; f < layout.n_friction_contacts; ++f) {
    const std::uint64_t c = contact_name(set.contacts[layout.friction_contact[f]]);
    for (int r = 0; r < k; ++r)
      warm.names[layout.beta_begin() + f * k + r] =
          mix(mix(c, kFriction), static_cast<std::uint64_t>(r));
    warm.names[layout.sigma_begin() + f] = mix(c, kSigma);
  }
  // Joint rows (free: the solve leaves them out of the basis) by their joints and order.
  const std::uint64_t joints = set.joints.empty() ? 0 : static_cast<std::uint64_t>(set.joints[0]);
  for (int r = 0; r < layout.n_bilateral; ++r)
    warm.names[layout.bilateral_begin() + r] =
        mix(mix(joints, kJoint), static_cast<std::uint64_t>(r));
  warm.guess.assign(m, false);
  warm.z.setZero(m);
  bool found = false;
  for (int i = 0; i < m; ++i) {
    const auto it =
        std::lower_bound(previous.begin(), previous.end(), WarmStart::Row{warm.names[i], false, 0});
    if (it != previous.end() && it->name == warm.names[i]) {
      warm.guess[i] = it->basic;
      warm.z[i] = it->z;
      found = true;
    }
  }
  return found;
}

void remember_active_set(const VecX& z, const VecX& w, const std::vector<bool>* basis,
                         WarmStart& warm) {
  if (basis != nullptr && static_cast<Eigen::Index>(basis->size()) == z.size())
    warm.active = *basis;
  else
    active_set(z, w, warm.active);
  for (std::size_t i = 0; i < warm.names.size() && i < warm.active.size(); ++i)
    warm.current.push_back({warm.names[i], warm.active[i], z[static_cast<Eigen::Index>(i)]});
}

void end_warm_start_step(WarmStart& warm) {
  warm.previous.swap(warm.current);
  warm.current.clear();
  std::sort(warm.previous.begin(), warm.previous.end());
}

}  // namespace exactsim
