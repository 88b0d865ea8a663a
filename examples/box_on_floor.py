"""A box dropped on a floor comes to rest; the contact forces carry its weight m g."""
import exactsim

scene = exactsim.Scene(dimension=3, step=0.005, friction=0.5)  # h = 5 ms, gravity along -z, PEG
scene.add_body(exactsim.box(2, 2, 0.2), static=True, position=(0, 0, -0.1), name="floor")
box = scene.add_body(exactsim.box(0.2, 0.2, 0.2), density=500, position=(0, 0, 0.2), name="box")
sim = exactsim.Simulation(scene)
sim.run(1.0)
total = 0.0
for c in sim.contacts():
    print(f"contact at {c['point'].round(3)} m: {c['normal_force']:.4f} N")
    total += abs(c["normal"][2]) * c["normal_force"]
print(f"t = {sim.time:.2f} s: contact force {total:.4f} N, m g = {sim.masses[box] * 9.81:.4f} N")
