#include "exactsim/io/trajectory_csv.h"

#include "exactsim/stepping/step.h"

namespace exactsim {

void write_trajectory_header(std::ostream& out, int dimension) {
  if (dimension == 2)
    out << "step,time,body,x,y,theta,vx,vy,omega\n";
  else
    out << "step,time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n";
}

void write_trajectory_rows(std::ostream& out, long step, Real time, const State& state,
                           const std::vector<std::uint8_t>& present,
                           const std::vector<std::string>& names) {
  out.precision(17);
  for (int i = 0; i < state.body_count(); ++i) {
    if (!present[i]) continue;
    out << step << ',' << time << ',' << names[i];
    for (Eigen::Index k = 0; k < state.q_of(i).size(); ++k) out << ',' << state.q_of(i)[k];
    for (Eigen::Index k = 0; k < state.v_of(i).size(); ++k) out << ',' << state.v_of(i)[k];
    out << '\n';
  }
}

std::vector<std::uint8_t> initially_present(const Scene& scene, const State& initial) {
  std::vector<std::uint8_t> present = initial.present;
  for (int i = 0; i < scene.world.body_count(); ++i)
    present[i] = present[i] || has_spawned(scene.world.bodies[i], initial.time, scene.step);
  return present;
}

}  // namespace exactsim
