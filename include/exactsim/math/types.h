// Scalar and Eigen aliases shared by every layer.
#pragma once

#include <Eigen/Dense>

namespace exactsim {

using Real = double;
using Vec2 = Eigen::Vector2d;
using Vec3 = Eigen::Vector3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat2 = Eigen::Matrix2d;
using Mat3 = Eigen::Matrix3d;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Quat = Eigen::Quaterniond;  // unit quaternion, (w, x, y, z) = (a, b, c, d) in the spec
using VecX = Eigen::VectorXd;
using MatX = Eigen::MatrixXd;

// 2D cross product a ×₂ b = a_x b_y − a_y b_x (docs/collision.md "Conventions").
inline Real cross2(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

// Counter-clockwise perpendicular (−y, x).
inline Vec2 perp(const Vec2& a) { return Vec2(-a.y(), a.x()); }

}  // namespace exactsim
