// trajectory.csv, the long-format state file of a run (docs/scene-format.md "trajectory.csv"):
// its header and its rows, shared by `exactsim run` (RunRecorder) and anything else that writes a
// trajectory other tools read (the peer engines' drivers, bench/peers/).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "exactsim/stepping/world.h"

namespace exactsim {

// "step,time,body,x,y,theta,vx,vy,omega" (2D) or
// "step,time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz" (3D), and a newline.
void write_trajectory_header(std::ostream& out, int dimension);

// One row per body i with present[i]: step, time, names[i], then state.q_of(i) and
// state.v_of(i), every number with 17 significant digits (read back exactly).
void write_trajectory_rows(std::ostream& out, long step, Real time, const State& state,
                           const std::vector<std::uint8_t>& present,
                           const std::vector<std::string>& names);

// The bodies of the initial rows (step −1) of a run of `scene` from `initial`: those present and
// those that join at the first step.
std::vector<std::uint8_t> initially_present(const Scene& scene, const State& initial);

}  // namespace exactsim
