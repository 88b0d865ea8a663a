"""Joints from Python (docs/joints.md, docs/python.md "Joints"): Scene.add_joint places a joint
where the bodies are, the pendulum it makes keeps its length and swings with the closed-form
small-angle period, the scene's dict keeps the joints, and bad joints raise InputError naming the
joint and the field.

Closed form: a physical pendulum (a square bob of side a at distance L from the pin) has period
T = 2 pi sqrt(I_p / (m g L)), I_p = m a^2 / 6 + m L^2, to O(theta0^2).
"""
import math

import pytest

import exactsim

G = 9.81


def pendulum(length=1.0, theta0=0.02, side=0.1):
    scene = exactsim.Scene(dimension=2, step=0.001, model="standard")
    scene.add_body(exactsim.box(side, side), density=1000, name="bob",
                   position=(length * math.sin(theta0), 1 - length * math.cos(theta0)),
                   angle=theta0)
    scene.add_joint("revolute", ["bob"], (0, 1), name="pivot")
    return scene


def test_a_hanging_pin_reports_the_weight_as_its_force():
    # At rest under its pin the bob (0.1 m square, 1000 kg/m^2: 10 kg) is held by m g upward and
    # no torque (docs/joints.md "Reactions").
    sim = exactsim.Simulation(pendulum(theta0=0.0))
    assert sim.joints() == []
    sim.step()
    (pivot,) = sim.joints()
    assert pivot["name"] == "pivot" and pivot["body_a"] == 0 and pivot["body_b"] is None
    assert pivot["anchor"] == pytest.approx([0, 1], abs=1e-12)
    assert pivot["force"] == pytest.approx([0, 10 * G], rel=1e-12, abs=1e-9)
    assert pivot["impulse"] == pytest.approx([0, 10 * G * 0.001], rel=1e-12, abs=1e-12)
    assert pivot["torque"] == pytest.approx(0, abs=1e-9)


def test_pendulum_keeps_its_length_and_swings_with_the_closed_form_period():
    length, side = 1.0, 0.1
    sim = exactsim.Simulation(pendulum(length, side=side))
    period = 2 * math.pi * math.sqrt((side ** 2 / 6 + length ** 2) / (G * length))
    crossings, previous = [], None
    while len(crossings) < 3:
        assert sim.step()["status"] == "ok"
        x, y = sim.positions[0]
        assert math.hypot(x, y - 1) == pytest.approx(length, abs=1e-5)
        if previous is not None and previous < 0 <= x:
            crossings.append(sim.time)
        previous = x
        assert sim.time < 10 * period
    measured = (crossings[-1] - crossings[0]) / 2
    assert measured == pytest.approx(period, rel=1e-3)


def test_the_scene_dict_keeps_the_joints():
    d = pendulum().to_dict()
    assert d["joints"] == [{"name": "pivot", "type": "revolute", "bodies": ["bob"],
                            "anchor": [0.0, 1.0]}]
    assert exactsim.Scene.from_dict(d).to_dict() == d


def test_bad_joints_name_the_joint_and_the_field():
    scene = pendulum()
    with pytest.raises(exactsim.InputError, match=r"^joints\[1\] \(joint 1\)\.body_a: no body is "
                                                  r"named 'nobody'"):
        scene.add_joint("revolute", ["nobody"], (0, 1))
    with pytest.raises(exactsim.InputError, match=r"^joints\[1\]\.type: expected \"revolute\""):
        scene.add_joint("hinge", ["bob"], (0, 1))
    with pytest.raises(exactsim.InputError, match=r"a ball joint is 3D only"):
        scene.add_joint("ball", ["bob"], (0, 1))
    with pytest.raises(exactsim.InputError, match=r"axis: only a 3D revolute joint has an axis"):
        scene.add_joint("revolute", ["bob"], (0, 1), axis=(0, 0, 1))
    assert len(scene.to_dict()["joints"]) == 1  # a failed call adds nothing
