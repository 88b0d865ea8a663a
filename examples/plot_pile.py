"""A small 2D pile built in code; plots its kinetic energy and overlap over time (PNG).

Usage: python3 plot_pile.py [OUT.png]
"""
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt
import numpy as np

import exactsim

out = sys.argv[1] if len(sys.argv) > 1 else "pile.png"
scene = exactsim.Scene(dimension=2, step=0.005, duration=2.0, model="peg", friction=0.4)
scene.add_body(exactsim.box(1.4, 0.2), static=True, position=(0, -0.1), name="floor")
scene.add_body(exactsim.box(0.2, 1.5), static=True, position=(-0.6, 0.75), name="left")
scene.add_body(exactsim.box(0.2, 1.5), static=True, position=(0.6, 0.75), name="right")
for i in range(12):
    scene.add_body(exactsim.regular_polygon(3 + i % 4, 0.08), density=500,
                   position=(-0.3 + 0.2 * (i % 4), 0.15 + 0.2 * (i // 4)), angle=0.4 * i)

sim = exactsim.Simulation(scene)
t, kinetic, overlap = [], [], []


def record(s):
    r = s.report
    t.append(r["time"])
    kinetic.append(r["kinetic_energy"])
    overlap.append(r["overlap"])


sim.run(callback=record)

fig, (ax1, ax2) = plt.subplots(2, 1, sharex=True, figsize=(6, 5))
ax1.plot(t, kinetic)
ax1.set_ylabel("kinetic energy (J)")
ax2.semilogy(t, np.maximum(overlap, 1e-20))
ax2.set_ylabel("overlap (m²)")
ax2.set_xlabel("time (s)")
fig.suptitle(f"12 polygons, PEG, h = {sim.step_size} s")
fig.savefig(out, dpi=80)
print(f"{len(t)} steps to t = {sim.time:.2f} s; final kinetic energy {kinetic[-1]:.3g} J, "
      f"max overlap {max(overlap):.3g} m^2")
print(f"wrote {out}")
