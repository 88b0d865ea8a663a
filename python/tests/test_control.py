"""Driving a Simulation (docs/python.md "Driving the bodies", "Saving and restoring"): forces
against the closed form of a box sliding under Coulomb friction, setters, read-only arrays,
sleeping, and save -> step -> restore -> step repeating bit for bit, also through pickle.

Closed form: a box of mass m at rest on a level floor, pushed by F > mu m g, slides with
a = (F - mu m g) / m; the semi-implicit step gives after n steps of h exactly v_n = n h a and
x_n - x_0 = h^2 a n (n + 1) / 2.
"""
import copy
import pickle

import numpy as np
import pytest

import exactsim

G = 9.81


def floor_and_box(dimension, mu=0.4, sleep=False):
    if dimension == 2:
        scene = exactsim.Scene(dimension=2, step=0.01, model="standard", friction=mu)
        scene.add_body(exactsim.box(40, 1), static=True, position=(0, -0.5), name="floor")
        scene.add_body(exactsim.box(0.2, 0.2), density=100, position=(0, 0.1), name="box")
    else:
        scene = exactsim.Scene(dimension=3, step=0.01, model="standard", friction=mu,
                               friction_directions=8)
        scene.add_body(exactsim.box(40, 40, 1), static=True, position=(0, 0, -0.5), name="floor")
        scene.add_body(exactsim.box(0.2, 0.2, 0.2), density=500, position=(0, 0, 0.1),
                       name="box")
    scene.sleep = sleep
    return exactsim.Simulation(scene)


@pytest.mark.parametrize("dimension", [2, 3])
def test_applied_force_slides_box_as_coulomb_friction_says(dimension):
    mu = 0.4
    sim = floor_and_box(dimension, mu)
    m, h = sim.masses[1], sim.step_size
    force, n = 2 * mu * m * G, 50
    a = (force - mu * m * G) / m
    x0 = sim.positions[1][0]
    push = np.zeros(dimension)
    push[0] = force
    for _ in range(n):
        sim.apply_force("box", push)  # a lasting push: applied before every step
        assert sim.step()["status"] == "ok"
    assert sim.velocities[1][0] == pytest.approx(n * h * a, rel=1e-9)
    assert sim.positions[1][0] - x0 == pytest.approx(h * h * a * n * (n + 1) / 2, abs=1e-9)
    assert np.abs(sim.velocities[1][1:]).max() < 1e-9
    v = sim.velocities[1][0]
    sim.step()  # the force was for one step: friction alone decelerates now
    assert sim.velocities[1][0] == pytest.approx(v - h * mu * G, abs=1e-9)


def test_force_below_static_friction_leaves_box_at_rest():
    sim = floor_and_box(2, 0.5)
    for _ in range(30):
        sim.apply_force(1, (0.9 * 0.5 * sim.masses[1] * G, 0))
        sim.step()
    assert np.abs(sim.velocities[1]).max() < 1e-12


def test_setters_take_effect():
    sim = floor_and_box(2)
    sim.set_pose("box", (3, 2), angle=0.25)
    assert list(sim.positions[1]) == [3, 2] and sim.orientations[1] == 0.25
    sim.set_velocity("box", (1, -2), 3.0)
    assert list(sim.velocities[1]) == [1, -2] and sim.angular_velocities[1] == 3
    sim.set_velocity("box", angular=0.5)  # what is not given is kept
    assert list(sim.velocities[1]) == [1, -2] and sim.angular_velocities[1] == 0.5
    sim.step()
    assert sim.velocities[1][1] == pytest.approx(-2 - 0.01 * G, abs=1e-15)
    assert sim.positions[1][0] == pytest.approx(3.01, abs=1e-15)
    sim3 = floor_and_box(3)
    sim3.set_pose(1, (1, 2, 3), orientation=(2, 0, 0, 0))  # normalised
    assert list(sim3.positions[1]) == [1, 2, 3] and list(sim3.orientations[1]) == [1, 0, 0, 0]
    sim3.set_velocity(1, (0, 0, 1), (0, 0, 2))
    assert list(sim3.angular_velocities[1]) == [0, 0, 2]
    sim3.apply_torque(1, (0, 0, 1))
    sim3.apply_force(1, (0, 1, 0), point=(1, 2, 3))
    with pytest.raises(exactsim.InputError, match=r"^bodies\[0\] \(floor\)\.velocity: a static "):
        sim.set_velocity("floor", (1, 0))
    with pytest.raises(exactsim.InputError, match=r"position\[0\]: must lie in \[-1e6, 1e6\] m"):
        sim.set_pose(1, (2e6, 0))
    with pytest.raises(exactsim.InputError, match="no body is named 'lid'"):
        sim.apply_force("lid", (1, 0))
    with pytest.raises(exactsim.InputError, match=r"force: expected 2 numbers, got 3"):
        sim.apply_force(1, (1, 0, 0))


def test_arrays_are_read_only():
    sim = floor_and_box(2)
    sim.step()
    arrays = [sim.q, sim.v, sim.positions, sim.orientations, sim.velocities,
              sim.angular_velocities, sim.present, sim.contact_array(),
              sim.contacts()[0]["point"], sim.get_state().q, exactsim.box(1, 1).vertices]
    for a in arrays:
        with pytest.raises(ValueError, match="read-only"):
            a[0] = a[0]
    before = sim.velocities.copy()
    with pytest.raises(ValueError):
        sim.velocities[1] = (1, 0)  # a write to a copy would be lost without a word
    with pytest.raises(ValueError):
        sim.v[1, 0] = 1
    assert (sim.velocities == before).all()


def test_contact_array_matches_contacts():
    sim = floor_and_box(3)
    sim.run(0.2)
    listed, a = sim.contacts(), sim.contact_array()
    assert len(a) == len(listed) >= 4
    for row, c in zip(a, listed):
        assert row["body_a"] == c["body_a"] and row["body_b"] == c["body_b"]
        assert row["role"] == c["role"] and row["gap"] == c["gap"]
        assert (row["point"] == c["point"]).all() and (row["normal"] == c["normal"]).all()
        assert row["normal_impulse"] == c["normal_impulse"]
        assert (row["friction_impulse"] == c["friction_impulse"]).all()
    assert a["normal_impulse"].sum() / sim.step_size == pytest.approx(sim.masses[1] * G, rel=1e-9)


def test_setting_a_velocity_or_pushing_wakes_a_sleeping_body():
    sim = floor_and_box(2, sleep=True)
    assert sim.step(150)["bodies_asleep"] == 1
    sim.set_velocity("box", (1, 0))
    assert sim.step().get("bodies_asleep", 0) == 0
    assert sim.velocities[1][0] > 0.9
    assert sim.step(150)["bodies_asleep"] == 1
    x = sim.positions[1][0]
    sim.apply_force("box", (10 * sim.masses[1] * G, 0))
    sim.step()
    assert sim.positions[1][0] > x


def test_step_n_returns_the_last_report():
    sim = floor_and_box(2)
    assert sim.step(7)["step"] == 6 and sim.steps_taken == 7
    assert sim.step(0)["step"] == 6


def pile():
    scene = exactsim.Scene(dimension=2, step=0.005, friction=0.3)
    scene.sleep = True
    scene.add_body(exactsim.box(3, 0.5), static=True, position=(0, -0.25), name="floor")
    for i in range(6):
        scene.add_body(exactsim.regular_polygon(3 + i % 4, 0.12), density=200,
                       position=(0.05 * (i % 3) - 0.05, 0.15 + 0.26 * i), angle=0.3 * i)
    return scene


def test_save_step_restore_step_is_bit_identical_also_through_pickle():
    sim = exactsim.Simulation(pile())
    sim.step(60)
    sim.apply_force(1, (1, 0))  # a pending force is part of the state
    saved = sim.get_state()
    pickled_sim = pickle.dumps(sim)
    copied = copy.deepcopy(sim)
    trajectory = []
    for _ in range(100):
        sim.step()
        trajectory.append((sim.q, sim.v))
    t = sim.time

    def replay(other):
        assert other.time == saved.time and other.steps_taken == 60
        for k in range(100):
            other.step()
            assert (other.q == trajectory[k][0]).all() and (other.v == trajectory[k][1]).all(), k
        assert other.time == t

    sim.set_state(saved)
    assert sim.contacts() == []
    replay(sim)
    sim.set_state(pickle.loads(pickle.dumps(saved)))
    replay(sim)
    replay(pickle.loads(pickled_sim))
    replay(copied)
    fresh = exactsim.Simulation(pile())
    fresh.set_state(copy.deepcopy(saved))
    replay(fresh)


def test_set_state_of_another_scene_is_refused():
    with pytest.raises(exactsim.InputError, match="state.present: 7 flags for 2 bodies"):
        floor_and_box(2).set_state(exactsim.Simulation(pile()).get_state())
    state = exactsim.SimulationState.__new__(exactsim.SimulationState)
    with pytest.raises(exactsim.InputError, match="saved state: not a saved exactsim state"):
        state.__setstate__(b"exactsim-checkpoint\n")
