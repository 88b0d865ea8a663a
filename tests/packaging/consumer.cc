// Builds against the installed exactsim with find_package(exactsim) and does real work.
#include <exactsim/math/rotation.h>

#include <cstdio>

int main() {
  const exactsim::Quat q =
      exactsim::integrate_exponential(exactsim::Quat::Identity(), exactsim::Vec3(0, 0, 1), 0.5);
  std::printf("exactsim consumer: rotated angle %.6f rad\n", 2.0 * std::acos(q.w()));
  return q.norm() > 0.999 ? 0 : 1;
}
