"""Simulation: stepping, time, state arrays, reports, contacts with their impulses."""
import numpy as np
import pytest

import exactsim

G = 9.81


def box_on_floor(dimension, model="peg", friction=0.4):
    if dimension == 2:
        scene = exactsim.Scene(dimension=2, step=0.01, model=model, friction=friction)
        scene.add_body(exactsim.box(4, 1), static=True, position=(0, -0.5), name="floor")
        scene.add_body(exactsim.box(0.2, 0.2), density=100, position=(0, 0.1), name="box")
    else:
        scene = exactsim.Scene(dimension=3, step=0.005, model=model, friction=friction)
        scene.add_body(exactsim.box(2, 2, 0.2), static=True, position=(0, 0, -0.1), name="floor")
        scene.add_body(exactsim.box(0.2, 0.3, 0.1), mass=2.0, position=(0, 0, 0.05), name="box")
    return exactsim.Simulation(scene)


def force_on(sim, body):
    """Sum of the contact forces (N) on `body` in the last step."""
    f = np.zeros(sim.dimension)
    for c in sim.contacts():
        on_b = c["normal_force"] * c["normal"] + c["friction_force"]
        if c["body_b"] == body:
            f += on_b
        if c["body_a"] == body:
            f -= on_b
    return f


@pytest.mark.parametrize("dimension,model", [(2, "peg"), (2, "standard"), (3, "standard")])
def test_box_on_floor_normal_force_is_mg(dimension, model):
    sim = box_on_floor(dimension, model)
    report = sim.run(0.5)
    assert report["status"] == "ok"
    m = sim.masses[1]
    f = force_on(sim, 1)
    assert f[-1] == pytest.approx(m * G, rel=1e-6)
    assert np.abs(f[:-1]).max() < 1e-8
    contacts = sim.contacts()
    assert len(contacts) >= 2
    for c in contacts:
        assert abs(c["normal"][-1]) == pytest.approx(1.0, abs=1e-12)
        assert (c["normal"][-1] > 0) == (c["body_b"] == 1)  # normal from A to B
        assert c["name_a"] in ("floor", "box") and c["role"] == "unilateral"
        assert c["normal_impulse"] == pytest.approx(c["normal_force"] * sim.step_size)


def test_time_and_state_arrays():
    sim = box_on_floor(2)
    assert sim.time == 0 and sim.report is None and sim.contacts() == []
    assert not sim.present.any()
    r = sim.step()
    assert r["step"] == 0 and r["time"] == pytest.approx(0.01)
    assert sim.present.all()
    sim.step()
    assert sim.time == pytest.approx(0.02) and sim.steps_taken == 2
    assert sim.q.shape == (2, 3) and sim.v.shape == (2, 3)
    assert sim.positions.shape == (2, 2) and sim.orientations.shape == (2,)
    assert sim.velocities.shape == (2, 2) and sim.angular_velocities.shape == (2,)
    np.testing.assert_array_equal(sim.q[:, :2], sim.positions)
    sim3 = box_on_floor(3)
    sim3.step()
    assert sim3.q.shape == (2, 7) and sim3.orientations.shape == (2, 4)
    assert sim3.v.shape == (2, 6) and sim3.angular_velocities.shape == (2, 3)
    assert np.linalg.norm(sim3.orientations, axis=1) == pytest.approx([1, 1])


def test_free_fall_and_energies():
    scene = exactsim.Scene(dimension=2, step=0.01)
    scene.add_body(exactsim.regular_polygon(5, 0.1), mass=2.0, velocity=(1, 0), name="p")
    sim = exactsim.Simulation(scene)
    e0 = None

    def check(s):
        nonlocal e0
        e = s.kinetic_energy() + s.potential_energy()
        e0 = e if e0 is None else e0
        return True

    sim.run(0.5, callback=check)
    assert sim.time == pytest.approx(0.5)
    assert sim.velocities[0] == pytest.approx([1.0, -G * 0.5], rel=1e-12)
    assert sim.kinetic_energy() == pytest.approx(0.5 * 2.0 * (1 + (G * 0.5) ** 2), rel=1e-12)
    assert sim.overlap() == 0.0


def test_callback_can_stop_and_sees_reports():
    sim = box_on_floor(2)
    seen = []
    sim.run(1.0, callback=lambda s: seen.append(s.report["step"]) or len(seen) < 7)
    assert seen == list(range(7)) and sim.steps_taken == 7


def test_report_dict_fields():
    sim = box_on_floor(2, "peg")
    r = sim.run(0.2)
    for key in ("step", "time", "status", "contacts", "U", "I", "X", "overlap",
                "kinetic_energy", "potential_energy", "seconds", "solver"):
        assert key in r
    assert r["solver"]["status"] == "solved"
    assert r["overlap"] >= 0


def test_pile_contacts_respect_coulomb_and_roles():
    scene = exactsim.Scene(dimension=2, step=0.005, friction=0.3)
    scene.add_body(exactsim.box(3, 0.5), static=True, position=(0, -0.25), name="floor")
    for i in range(6):
        scene.add_body(exactsim.regular_polygon(3 + i % 4, 0.12), density=200,
                       position=(0.05 * (i % 3) - 0.05, 0.15 + 0.26 * i), angle=0.3 * i)
    sim = exactsim.Simulation(scene)
    roles = set()

    def check(s):
        for c in s.contacts():
            roles.add(c["role"])
            assert c["normal_impulse"] >= -1e-12
            assert np.linalg.norm(c["friction_impulse"]) <= 0.3 * c["normal_impulse"] + 1e-9
            if c["role"] in ("secondary", "unused"):
                assert c["normal_impulse"] == 0
        return True

    sim.run(2.5, callback=check)
    assert {"unilateral", "primary", "secondary"} <= roles  # PEG formed I constraints
    assert sim.kinetic_energy() < 1e-6  # settled


def test_validation_errors_are_input_errors():
    scene = exactsim.Scene(dimension=2, step=0.01)
    with pytest.raises(exactsim.InputError, match="^bodies: at least one body is required$"):
        exactsim.Simulation(scene)
    with pytest.raises(TypeError):
        exactsim.Simulation(42)
    sim = box_on_floor(2)
    with pytest.raises(exactsim.InputError, match="duration must be >= 0"):
        sim.run(-1)


def test_a_step_over_the_memory_budget_raises_memory_budget_error():
    bodies = [{"name": "floor", "static": True, "shape": {"box": [14, 1]}, "position": [6, -0.5]}]
    for i in range(12):
        bodies.append({"name": f"b{i}", "shape": {"box": [1, 1]}, "density": 100,
                       "position": [1.001 * i + 0.5, 0.5]})
    doc = {"format": "exactsim-scene", "version": 1, "dimension": 2,
           "time": {"step": 0.005, "duration": 0.05},
           "contact": {"model": "standard", "friction": 0.5},
           "stepping": {"memory_budget_gib": 0.001, "dense_max_unknowns": 2000}, "bodies": bodies}
    sim = exactsim.Simulation(doc)
    with pytest.raises(exactsim.MemoryBudgetError,
                       match=r"contact problem \(\d+ unknowns, 12 bodies in contact\) needs an "
                             r"estimated .* more than the memory budget of 1.02 MiB"):
        sim.step()
    assert issubclass(exactsim.MemoryBudgetError, MemoryError)
    doc["stepping"]["memory_budget_gib"] = 1
    assert exactsim.Simulation(doc).step()["lcp_size"] > 100


def test_callback_exceptions_propagate():
    sim = box_on_floor(2)

    def boom(s):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        sim.run(0.1, callback=boom)
    assert sim.steps_taken == 1


def test_a_box_at_rest_falls_asleep_and_leaves_the_solve():
    scene = exactsim.Scene(dimension=3, step=0.005, friction=0.4)
    scene.add_body(exactsim.box(2, 2, 0.2), static=True, position=(0, 0, -0.1), name="floor")
    scene.add_body(exactsim.box(0.2, 0.3, 0.1), mass=2.0, position=(0, 0, 0.051), name="box")
    assert not scene.sleep
    scene.sleep = True
    sim = exactsim.Simulation(scene)
    r = sim.run(1.0)
    assert r["status"] == "ok"
    assert r["bodies_asleep"] == 1 and r["islands_asleep"] == 1 and r["lcp_size"] == 0
    assert sim.velocities[1].tolist() == [0.0] * 3
    assert sim.angular_velocities[1].tolist() == [0.0] * 3


def test_two_threads_step_bit_for_bit_as_one():
    def run(threads):
        scene = exactsim.Scene(dimension=3, step=0.005, friction=0.4)
        scene.add_body(exactsim.box(4, 4, 0.2), static=True, position=(0, 0, -0.1), name="floor")
        for k in range(4):  # four boxes landing apart: four islands
            scene.add_body(exactsim.box(0.2, 0.3, 0.1), mass=2.0, position=(k - 1.5, 0, 0.2 + 0.05 * k),
                           angular_velocity=(0.5 * k, 0.3, 0))
        scene.threads = threads
        sim = exactsim.Simulation(scene)
        sim.run(0.5)
        return sim.q.copy(), sim.v.copy()
    q1, v1 = run(1)
    q2, v2 = run(2)
    assert q1.tobytes() == q2.tobytes() and v1.tobytes() == v2.tobytes()
    with pytest.raises(exactsim.InputError):
        exactsim.Scene(dimension=2, step=0.01).threads = -1
