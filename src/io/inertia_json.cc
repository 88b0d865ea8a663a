#include "inertia_json.h"

#include "exactsim/io/scene_rules.h"

namespace exactsim::io {

void check_inertia_ratio(const JsonCursor& c, Real moment, Real mass, Real r, const char* reach) {
  c.checked([&] { rules::inertia_ratio(moment, mass, r, reach); });
}

Mat3 read_inertia3(const JsonCursor& c, Real mass, Real r, const char* reach) {
  c.expect_array();
  if (c.size() != 3) c.fail("expected a 3x3 matrix (3 rows of 3 numbers)");
  Mat3 m;
  for (int r = 0; r < 3; ++r) m.row(r) = c.at(r).vec3().transpose();
  c.checked([&] { rules::inertia(m, mass, r, reach); });
  return m;
}

}  // namespace exactsim::io
