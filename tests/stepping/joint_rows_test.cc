// The joints' rows (docs/joints.md "Rows"): each row's Jacobian is the rate of its error, checked
// against a central difference of the error along the bodies' motion, for every joint type in 2D
// and 3D, near the placed pose and away from it.
#include <random>

#include <gtest/gtest.h>

#include "exactsim/dynamics/integrate.h"
#include "exactsim/stepping/joint.h"

namespace exactsim::joint_rows_test {
namespace {

State random_state(int dimension, std::mt19937& rng) {
  std::uniform_real_distribution<Real> u(-1, 1);
  State s;
  s.dimension = dimension;
  s.present.assign(2, 1);
  s.q.resize(2 * config_size(dimension));
  s.v.resize(2 * velocity_size(dimension));
  for (int i = 0; i < 2; ++i) {
    if (dimension == 2) {
      s.q_of(i) = Vec3(u(rng), u(rng), u(rng));
    } else {
      const Quat q = Quat(u(rng), u(rng), u(rng), u(rng)).normalized();
      s.q_of(i) << u(rng), u(rng), u(rng), q.w(), q.x(), q.y(), q.z();
    }
    for (int k = 0; k < velocity_size(dimension); ++k) s.v_of(i)[k] = u(rng);
  }
  return s;
}

// The errors of j's rows in s (in row order).
VecX errors(const Joint& j, const State& s) {
  std::vector<JointRow> rows;
  joint_rows(j, s, rows);
  VecX e(static_cast<Eigen::Index>(rows.size()));
  for (std::size_t k = 0; k < rows.size(); ++k) e[static_cast<Eigen::Index>(k)] = rows[k].error;
  return e;
}

State moved(State s, Real dt) {
  for (int i = 0; i < 2; ++i) integrate_position(s, i, dt, RotationUpdate::kExponential);
  return s;
}

TEST(JointRows, JacobianIsTheRateOfTheError) {
  std::mt19937 rng(11);
  for (int dimension : {2, 3})
    for (JointType type : {JointType::kRevolute, JointType::kBall, JointType::kFixed}) {
      if (dimension == 2 && type == JointType::kBall) continue;
      for (int world : {0, 1})
        for (int trial = 0; trial < 10; ++trial) {
          const State placed = random_state(dimension, rng);
          const Joint j = place_joint(placed, type, 0, world ? kWorldBody : 1, Vec3(0.3, -0.2, 0.1),
                                      Vec3(1, 2, -1));
          EXPECT_LT(errors(j, placed).lpNorm<Eigen::Infinity>(), 1e-14);
          // Away from the placed pose (trial > 0), rows are linearised where the error is not zero;
          // the rate is still exact at the point (errors of order 0.01 rad and m).
          const State s = trial == 0 ? placed : moved(placed, 0.01);
          std::vector<JointRow> rows;
          joint_rows(j, s, rows);
          ASSERT_EQ(static_cast<int>(rows.size()), joint_row_count(j, dimension));
          const Real dt = 1e-6;
          const VecX rate = (errors(j, moved(s, dt)) - errors(j, moved(s, -dt))) / (2 * dt);
          const int nb = velocity_size(dimension);
          for (std::size_t k = 0; k < rows.size(); ++k) {
            Real predicted = rows[k].g_a.head(nb).dot(s.v_of(0));
            if (!world) predicted += rows[k].g_b.head(nb).dot(s.v_of(1));
            const Real tol = trial == 0 ? 1e-8 : 0.05 * std::max<Real>(1, std::abs(predicted));
            EXPECT_NEAR(rate[static_cast<Eigen::Index>(k)], predicted, tol)
                << dimension << "D " << to_string(type) << (world ? " to the world" : "")
                << " trial " << trial << " row " << k;
          }
        }
    }
}

}  // namespace
}  // namespace exactsim::joint_rows_test
