#include "inertia_json.h"

#include <Eigen/Eigenvalues>

#include "exactsim/io/scene_limits.h"

namespace exactsim::io {

void check_inertia_ratio(const JsonCursor& c, Real moment, Real mass, Real r, const char* reach) {
  const Real ref = mass * r * r;
  const Real lo = limits::kMinInertiaRatio * ref, hi = limits::kMaxInertiaRatio * ref;
  if (!(moment >= lo && moment <= hi))
    c.fail("inertia " + format_number(moment) + " kg m^2 is outside [" +
           format_number(limits::kMinInertiaRatio) + ", " +
           format_number(limits::kMaxInertiaRatio) + "] x m r^2 = [" + format_number(lo) + ", " +
           format_number(hi) + "] (m = " + format_number(mass) + " kg, r = " + format_number(r) +
           " m, " + reach + "; docs/input-validation.md)");
}

Mat3 read_inertia3(const JsonCursor& c, Real mass, Real r, const char* reach) {
  c.expect_array();
  if (c.size() != 3) c.fail("expected a 3x3 matrix (3 rows of 3 numbers)");
  Mat3 m;
  for (int r = 0; r < 3; ++r) m.row(r) = c.at(r).vec3().transpose();
  if ((m - m.transpose()).cwiseAbs().maxCoeff() > 1e-12 * m.cwiseAbs().maxCoeff())
    c.fail("the inertia matrix must be symmetric");
  Eigen::SelfAdjointEigenSolver<Mat3> eig(m);
  if (!(eig.eigenvalues().minCoeff() > 0)) c.fail("the inertia matrix must be positive definite");
  check_inertia_ratio(c, eig.eigenvalues().minCoeff(), mass, r, reach);
  check_inertia_ratio(c, eig.eigenvalues().maxCoeff(), mass, r, reach);
  return m;
}

}  // namespace exactsim::io
