"""Kinematic bodies (docs/python.md "Kinematic bodies"): a plate moving at a set velocity carries a
box resting on it at its speed once the box sticks, keeps its velocity exactly, and is driven by
set_velocity; forces on it are refused.

Closed form: under Coulomb friction mu the box, at rest on a plate moving at V, gains mu g h per
step (semi-implicit Euler) until that would pass V, then moves at V.
"""
import numpy as np
import pytest

import exactsim

G = 9.81


def plate_and_box(speed, mu=0.5):
    scene = exactsim.Scene(dimension=2, step=0.01, model="standard", friction=mu)
    scene.add_body(exactsim.box(10, 0.1), kinematic=True, position=(0, -0.05),
                   velocity=(speed, 0), name="plate")
    scene.add_body(exactsim.box(0.2, 0.2), density=100, position=(0, 0.1), name="box")
    return scene


def test_plate_carries_box_at_its_speed():
    mu, speed = 0.5, 0.5
    sim = exactsim.Simulation(plate_and_box(speed, mu))
    h = sim.step_size
    x0 = sim.positions[0][0]
    v = 0.0
    for k in range(40):
        assert sim.step()["status"] == "ok"
        v = min(v + h * mu * G, speed)
        assert sim.velocities[1][0] == pytest.approx(v, abs=1e-9)
        assert tuple(sim.velocities[0]) == (speed, 0.0)
        assert sim.positions[0][0] - x0 == pytest.approx((k + 1) * h * speed, abs=1e-12)
    assert v == speed


def test_set_velocity_drives_a_kinematic_body_and_forces_are_refused():
    sim = exactsim.Simulation(plate_and_box(0.0))
    x0 = sim.positions[0].copy()
    sim.step(5)
    assert tuple(sim.positions[0]) == tuple(x0)  # gravity does not act on it
    sim.set_velocity("plate", linear=(0.2, 0.1))
    sim.step(5)
    assert tuple(sim.velocities[0]) == (0.2, 0.1)
    assert np.allclose(sim.positions[0] - x0, (0.01, 0.005), rtol=0, atol=1e-12)
    assert sim.velocities[1][1] == pytest.approx(0.1, abs=1e-9)  # the box rode up with it
    with pytest.raises(exactsim.InputError, match="forces do not act on it"):
        sim.apply_force("plate", (1.0, 0.0))


def test_kinematic_flag_round_trips_and_is_checked():
    scene = plate_and_box(0.5)
    d = scene.to_dict()
    assert d["bodies"][0]["kinematic"] is True
    assert "static" not in d["bodies"][0]
    again = exactsim.Scene.from_dict(d)
    assert again.to_dict() == d
    with pytest.raises(exactsim.InputError, match="static or kinematic, not both"):
        scene.add_body(exactsim.box(1, 1), static=True, kinematic=True, name="both")
