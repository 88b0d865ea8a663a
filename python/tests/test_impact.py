"""The PLUS impact solver and the event-driven simulation from Python."""
import json
import math
import pickle
import subprocess

import pytest

import exactsim


def ball_problem(mu=0.5, e=0.5, v=(0.5, 0.0, -2.0)):
    m, r = 1.0, 0.1
    a_t = 1 / m + r**2 / (0.4 * m * r**2)
    return {"format": "exactsim-impact", "version": 1,
            "contacts": [{"friction": mu, "restitution": {"e": e}}],
            "delassus": [[a_t, 0, 0], [0, a_t, 0], [0, 0, 1 / m]], "velocity": list(v)}


def test_ball_impact_closed_form():
    res = exactsim.impact(ball_problem())
    assert res["converged"]
    # Poisson: normal impulse (1 + e) m |v_N|; friction stops the slip (0.5/3.5 < mu m 2)
    assert res["impulse"][2] == pytest.approx(1.5 * 2.0, rel=1e-9)
    assert res["velocity"][2] == pytest.approx(1.0, rel=1e-9)
    assert res["velocity"][0] == pytest.approx(0.0, abs=1e-9)
    assert res["impulse"][0] == pytest.approx(-0.5 / 3.5, rel=1e-9)
    assert res["log"] == []
    assert len(exactsim.impact(ball_problem(), log=True)["log"]) == res["rounds"]


def test_frictionless_ball_keeps_its_slip():
    res = exactsim.impact(ball_problem(mu=0.0))
    assert res["velocity"][0] == pytest.approx(0.5, rel=1e-12)


def test_impact_matches_cli_and_file(cli, source_dir):
    path = source_dir / "scenes/plus/example1_mu0.125.json"
    out = subprocess.run([cli, "impact", str(path), "--no-log", "--indent", "-1"], check=True,
                         capture_output=True, text=True).stdout
    assert exactsim.impact(str(path)) == json.loads(out)
    assert exactsim.impact(json.loads(path.read_text())) == json.loads(out)


def test_impact_errors_carry_the_path():
    bad = ball_problem()
    bad["contacts"][0]["restitution"] = {"e": 1.5}
    with pytest.raises(exactsim.InputError, match=r"^contacts\[0\]\.restitution\.e: "):
        exactsim.impact(bad)


def test_bouncing_ball_events(source_dir):
    sim = exactsim.EventSimulation(str(source_dir / "scenes/plus/events_bouncing_ball.json"))
    assert sim.body_names == ["ball", "ground"]
    sim.advance(0.6)
    assert sim.time == pytest.approx(0.6)
    impacts = sim.impacts
    assert len(impacts) == 1
    t_hit = math.sqrt(2 * 1.0 / 9.81)  # falls 1 m
    assert impacts[0]["time"] == pytest.approx(t_hit, rel=1e-6)
    assert impacts[0]["converged"]
    # e = 0.8: the rebound speed is 0.8 of the impact speed
    v_hit = 9.81 * t_hit
    assert sim.velocities[0][2] == pytest.approx(0.8 * v_hit - 9.81 * (0.6 - t_hit), rel=1e-6)
    with pytest.raises(exactsim.InputError):
        sim.advance(0.1)


def test_event_scene_from_dict_equals_file(source_dir):
    path = source_dir / "scenes/plus/events_bouncing_ball.json"
    a = exactsim.EventSimulation(str(path))
    b = exactsim.EventSimulation(json.loads(path.read_text()))
    a.advance(2.0)  # impacts at 0.45 s and 1.9 s
    b.advance(2.0)
    assert a.impacts == b.impacts and len(a.impacts) >= 2
    assert (a.positions == b.positions).all()
    assert b.mechanical_energy() < a.mechanical_energy() + 1e-12


def test_simulation_runs_an_event_scene(source_dir):
    """One Simulation for either kind of scene (docs/python.md "Event-driven scenes"): the
    event-driven bouncing ball stepped by Simulation equals EventSimulation advanced to the same
    times, and its impacts are listed and reported."""
    path = source_dir / "scenes/plus/events_bouncing_ball.json"
    for source in (str(path), json.loads(path.read_text())):
        sim = exactsim.Simulation(source)
        # The world's bodies: the ball, then its ground half-space (docs/plus.md "Scene files").
        assert sim.event_driven and sim.dimension == 3 and sim.body_names == ["ball", "ground"]
        ref = exactsim.EventSimulation(str(path))
        counted = 0
        for k in range(600):
            report = sim.step()
            ref.advance((k + 1) * sim.step_size)
            counted += report["impacts"]["count"] if "impacts" in report else 0
        assert sim.time == ref.time
        assert (sim.positions == ref.positions).all()
        assert (sim.velocities == ref.velocities).all()
        assert sim.impacts == ref.impacts and len(sim.impacts) == 1
        assert counted == 1
        with pytest.raises(exactsim.InputError, match="event-driven scene takes no applied forces"):
            sim.apply_force("ball", [0, 0, 1])
    with pytest.raises(exactsim.InputError, match="does not pickle"):
        pickle.dumps(sim)
    with pytest.raises(exactsim.InputError, match="^run_scene: an event-driven scene"):
        exactsim.run_scene(str(path))


def test_an_event_scene_time_stepped_bounces_as_the_event_driven_one(source_dir):
    """Scene.from_event_file (docs/plus.md "Time-stepping an event-driven scene"): the bouncing
    ball time-stepped with located PLUS impacts over its ground half-space ends 1 s later where
    the event-driven simulation does, after the same impacts."""
    path = str(source_dir / "scenes/plus/events_bouncing_ball.json")
    scene = exactsim.Scene.from_event_file(path)
    assert scene.to_dict()["bodies"][0]["shape"] == {
        "half_space": {"normal": [0, 0, 1], "offset": 0}}
    stepped, events = exactsim.Simulation(scene), exactsim.Simulation(path)
    assert not stepped.event_driven and events.event_driven
    stepped.run(1.0)
    events.run(1.0)
    assert stepped.positions[1] == pytest.approx(events.positions[0], abs=1e-9)
    assert stepped.velocities[1] == pytest.approx(events.velocities[0], abs=1e-8)


def test_located_impacts_in_the_time_step():
    """contact.impact (docs/impacts.md): a cube dropped flat from 1 m with e = 0.5 rebounds to
    e² h0 = 0.25 m; each step's report counts its impacts."""
    doc = {"format": "exactsim-scene", "version": 1, "dimension": 3,
           "time": {"step": 0.001, "duration": 1.2},
           "contact": {"model": "peg", "impact": {"model": "plus", "restitution": 0.5}},
           "bodies": [{"name": "floor", "static": True, "shape": {"box": [4, 4, 1]},
                       "position": [0, 0, -0.5]},
                      {"name": "cube", "shape": {"box": [0.2, 0.2, 0.2]}, "density": 500,
                       "position": [0, 0, 1.1]}]}
    scene = exactsim.Scene.from_dict(doc)
    assert scene.to_dict()["contact"]["impact"]["restitution"] == 0.5
    sim = exactsim.Simulation(scene)
    impacts, top = 0, 0.0
    while sim.time < 0.9:
        report = sim.step()
        assert report["status"] == "ok"
        impacts += report.get("impacts", {}).get("count", 0)
        if impacts == 1:
            top = max(top, sim.positions[1][2] - 0.1)
    assert impacts == 1
    assert top == pytest.approx(0.25, rel=1e-3)


def test_the_scene_builder_takes_impacts():
    """Scene(..., impact=...) and scene.impact give contact.impact as a scene file does: the same
    rebound, the fields read back, the same rules and messages."""
    scene = exactsim.Scene(3, 0.001, duration=1.2,
                           impact={"model": "plus", "restitution": 0.5})
    scene.add_body(exactsim.box(4, 4, 1), static=True, position=(0, 0, -0.5), name="floor")
    scene.add_body(exactsim.box(0.2, 0.2, 0.2), density=500, position=(0, 0, 1.1), name="cube")
    assert scene.impact["model"] == "plus"
    assert scene.impact["restitution"] == 0.5
    assert scene.impact["induced"] == "sequential"  # every field, defaults included
    assert scene.to_dict()["contact"]["impact"] == scene.impact
    sim = exactsim.Simulation(scene)
    impacts, top = 0, 0.0
    while sim.time < 0.9:
        impacts += sim.step().get("impacts", {}).get("count", 0)
        if impacts == 1:
            top = max(top, sim.positions[1][2] - 0.1)
    assert impacts == 1
    assert top == pytest.approx(0.25, rel=1e-3)

    scene.impact = None
    assert scene.impact is None and "impact" not in scene.to_dict()["contact"]
    with pytest.raises(exactsim.InputError, match=r"^contact\.impact\.restitution: "):
        scene.impact = {"model": "plus", "restitution": 1.5}
    with pytest.raises(exactsim.InputError, match=r"^contact\.impact\.modle: unknown field"):
        scene.impact = {"modle": "plus"}
    with pytest.raises(exactsim.InputError, match=r"^contact\.impact\.mixed_rounds: "):
        scene.impact = {"model": "plus", "induced": "mixed", "mixed_rounds": 0}
    scene.impact = {"model": "plus", "induced": "mixed", "mixed_rounds": 2}
    assert scene.impact["induced"] == "mixed" and scene.impact["mixed_rounds"] == 2
    scene.impact = None
    scene.model = "corrective"
    with pytest.raises(exactsim.InputError, match="impacts need the \"peg\" or \"standard\""):
        scene.impact = {"model": "plus"}
    scene.model = "peg"
    scene.impact = {"model": "plus"}
    with pytest.raises(exactsim.InputError, match="impacts need the \"peg\" or \"standard\""):
        scene.model = "corrective"
