#include "exactsim/stepping/warm_start.h"

#include <algorithm>
#include <cmath>

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

// Names are splitmix64 hashes, uniform over 64 bits, so the search starts where the name's
// fraction of 2⁶⁴ falls in the rows and widens from there (a few probes instead of a binary
// search's log₂ of a pile's rows).
const WarmStart::Row* find_row(const std::vector<WarmStart::Row>& rows, std::uint64_t name) {
  const std::size_t n = rows.size();
  if (n == 0) return nullptr;
  std::size_t lo =
      std::min(n - 1, static_cast<std::size_t>(std::ldexp(static_cast<double>(name), -64) *
                                               static_cast<double>(n)));
  std::size_t hi = lo + 1, width = 1;
  while (lo > 0 && rows[lo].name >= name) {  // widen down until rows[lo].name < name
    lo = lo > width ? lo - width : 0;
    width *= 2;
  }
  width = 1;
  while (hi < n && rows[hi - 1].name < name) {  // widen up until rows[hi - 1].name >= name
    hi = std::min(n, hi + width);
    width *= 2;
  }
  const auto it = std::lower_bound(rows.begin() + static_cast<std::ptrdiff_t>(lo),
                                   rows.begin() + static_cast<std::ptrdiff_t>(hi),
                                   WarmStart::Row{name, false, 0});
  return it != rows.end() && it->name == name ? &*it : nullptr;
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
    if (const WarmStart::Row* it = find_row(previous, warm.names[i])) {
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
