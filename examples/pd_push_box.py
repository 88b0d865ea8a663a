"""A PD controller pushes a box across a floor to a target: each step it reads the box's position
and velocity and applies a force (docs/python.md "Driving the bodies")."""
import numpy as np

import exactsim

scene = exactsim.Scene(dimension=3, step=0.01, friction=0.2)  # h = 10 ms: a 100 Hz controller
scene.add_body(exactsim.box(4, 4, 0.2), static=True, position=(0, 0, -0.1), name="floor")
box = scene.add_body(exactsim.box(0.2, 0.2, 0.2), density=500, position=(0, 0, 0.1), name="box")
sim = exactsim.Simulation(scene)
target, kp, kd = np.array([1.0, 0.5]), 2000.0, 180.0  # m; N/m; N s/m (critically damped)
for _ in range(300):  # 3 s
    x, v = sim.positions[box][:2], sim.velocities[box][:2]
    fx, fy = kp * (target - x) - kd * v  # the control law
    sim.apply_force(box, (fx, fy, 0))  # for the next step; applied again every step
    sim.step()
error = np.linalg.norm(target - sim.positions[box][:2])
print(f"t = {sim.time:.2f} s: box at ({sim.positions[box][0]:.4f}, {sim.positions[box][1]:.4f})"
      f" m, speed {np.linalg.norm(sim.velocities[box]):.4f} m/s")
print(f"{error * 1000:.2f} mm short of the target, where kp |e| = {kp * error:.2f} N no longer "
      f"beats friction mu m g = {0.2 * sim.masses[box] * 9.81:.2f} N")
