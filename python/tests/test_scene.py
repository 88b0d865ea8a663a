"""Scenes: files, dicts and the builder agree; errors carry the path and the reason."""
import json

import numpy as np
import pytest

import exactsim


def test_version_is_the_project_version(source_dir):
    cmake = (source_dir / "CMakeLists.txt").read_text()
    assert f"project(exactsim VERSION {exactsim.__version__} " in cmake


def test_builder_matches_scene_file(source_dir):
    scene = exactsim.Scene(dimension=2, step=0.01, duration=2.0, model="standard", friction=0.4)
    scene.add_body(exactsim.box(4, 1), static=True, position=(0, -0.5), name="floor")
    scene.add_body(exactsim.box(0.2, 0.2), density=100, position=(0, 0.3), angle=0.3,
                   velocity=(1.0, 0), name="box")
    from_file = exactsim.Scene.from_file(str(source_dir / "scenes/box-on-floor-2d.json"))
    a = scene.to_dict()
    b = from_file.to_dict()
    a.pop("name"), b.pop("name")
    assert a == b
    assert scene.masses == [0.0, pytest.approx(4.0, rel=1e-15)]


def test_dict_and_file_give_the_same_scene(source_dir):
    path = source_dir / "scenes/cube-drop-3d.json"
    doc = json.loads(path.read_text())
    assert exactsim.Scene.from_dict(doc).to_dict() == exactsim.Scene.from_file(str(path)).to_dict()


def test_to_dict_round_trips():
    scene = exactsim.Scene(dimension=3, step=0.01)
    scene.add_body(exactsim.icosahedron(0.3), mass=2.0, position=(0, 0, 1),
                   orientation=(0.9, 0.1, 0.2, 0.3), angular_velocity=(0, 1, 0))
    again = exactsim.Scene.from_dict(scene.to_dict())
    assert again.to_dict() == scene.to_dict()
    assert again.masses == [2.0]


def test_shapes():
    assert exactsim.box(1, 2).dimension == 2
    assert exactsim.box(1, 2, 3).vertices.shape == (8, 3)
    assert exactsim.regular_polygon(6, 0.5).vertices.shape == (6, 2)
    square = exactsim.polygon(np.array([[0, 0], [1, 0], [1, 1], [0, 1]]))
    assert square.vertices.shape == (4, 2)
    tetra = exactsim.hull([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [0.1, 0.1, 0.1]])
    assert tetra.vertices.shape == (4, 3)  # the interior point is dropped
    with pytest.raises(exactsim.InputError, match="box: give 2 side lengths"):
        exactsim.box(1)
    with pytest.raises(exactsim.InputError, match="not convex"):
        exactsim.polygon([[0, 0], [1, 0], [0.2, 0.2], [0, 1]])


def test_builder_errors_name_body_and_field():
    scene = exactsim.Scene(dimension=2, step=0.01)
    scene.add_body(exactsim.box(4, 1), static=True, name="floor")
    with pytest.raises(exactsim.InputError) as e:
        scene.add_body(exactsim.box(1, 1), density=-1, name="box")
    assert str(e.value) == "bodies[1] (box).density: must be > 0, got -1.0"
    with pytest.raises(ValueError, match=r"^bodies\[1\] \(box\)\.position: expected 2 numbers"):
        scene.add_body(exactsim.box(1, 1), density=1, position=(0, 0, 0), name="box")
    with pytest.raises(exactsim.InputError, match="a 2D scene needs a polygon"):
        scene.add_body(exactsim.box(1, 1, 1), density=1)
    assert scene.body_count == 1


def test_file_and_dict_errors_carry_path_and_reason(tmp_path):
    doc = {"format": "exactsim-scene", "version": 1, "dimension": 2,
           "time": {"step": 0.01, "duration": 1},
           "bodies": [{"name": "a", "shape": {"polygon": [[0, 0], [1, 0]]}, "density": 1,
                       "position": [0, 0]}]}
    with pytest.raises(exactsim.InputError) as e:
        exactsim.Simulation(doc)
    assert "bodies[0].shape.polygon: 2 points given, a polygon needs at least 3" in str(e.value)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(exactsim.InputError) as e:
        exactsim.Simulation(str(path))
    assert str(e.value).startswith(str(path) + ": bodies[0].shape.polygon: 2 points given")
    with pytest.raises(exactsim.InputError, match="unknown contact model 'magic'"):
        exactsim.Scene(dimension=2, step=0.01, model="magic")


def described(obj):
    """The docstring without pybind11's signature line."""
    doc = (getattr(obj, "__doc__", "") or "").strip()
    if callable(obj) and not isinstance(obj, type) and "(" in doc.split("\n", 1)[0]:
        doc = doc.split("\n", 1)[1] if "\n" in doc else ""
    return doc.strip()


def test_every_function_has_a_docstring():
    missing = []
    checked = 0
    for name in dir(exactsim):
        obj = getattr(exactsim, name)
        if name.startswith("_") or name == "InputError":
            continue
        checked += 1
        if not described(obj):
            missing.append(name)
        if isinstance(obj, type):
            for attr, member in vars(obj).items():
                if attr.startswith("_"):
                    continue
                checked += 1
                if not described(member):
                    missing.append(f"{name}.{attr}")
    assert missing == []
    assert checked > 40


def test_a_half_space_builds_like_its_scene_file_and_holds_a_rolling_ball():
    # The ball of the test below on the ground {z <= 0}: it ends rolling at 5/7 of its push, and
    # the builder, the dict and the scene file describe the same plane.
    scene = exactsim.Scene(dimension=3, step=0.001, duration=0.5, model="peg", friction=0.5)
    scene.add_body(exactsim.half_space((0, 0, 2)), static=True, name="ground")
    scene.add_body(exactsim.sphere(0.1), density=1000, position=(0, 0, 0.1), velocity=(1, 0, 0),
                   name="ball")
    doc = scene.to_dict()
    assert doc["bodies"][0]["shape"] == {"half_space": {"normal": [0, 0, 1], "offset": 0}}
    assert exactsim.Scene.from_dict(doc).to_dict() == doc
    sim = exactsim.Simulation(scene)
    sim.run(0.5)
    assert sim.velocities[1][0] == pytest.approx(5 / 7, rel=1e-9)
    assert sim.positions[1][2] == pytest.approx(0.1, abs=1e-12)
    with pytest.raises(exactsim.InputError, match="a half-space body must be static"):
        scene.add_body(exactsim.half_space(), density=1, name="loose")
    with pytest.raises(exactsim.InputError, match="zero length"):
        scene.add_body(exactsim.half_space((0, 0, 0)), static=True, name="flat")


def test_a_sphere_builds_like_its_scene_file_and_rolls():
    # A ball on a floor, pushed at 1 m/s with no spin: friction (mu = 0.5) brakes the slide until
    # it rolls at 5/7 of the push (v = 5/7 v0, the closed form of a sliding ball), and the builder,
    # the dict and the scene file describe the same ball.
    scene = exactsim.Scene(dimension=3, step=0.001, duration=0.5, model="peg", friction=0.5)
    scene.add_body(exactsim.box(4, 4, 1), static=True, position=(0, 0, -0.5), name="floor")
    scene.add_body(exactsim.sphere(0.1), density=1000, position=(0, 0, 0.1), velocity=(1, 0, 0),
                   name="ball")
    assert exactsim.sphere(0.1).radius == 0.1 and exactsim.sphere(0.1).dimension == 3
    doc = scene.to_dict()
    assert doc["bodies"][1]["shape"] == {"sphere": {"radius": 0.1}}
    assert exactsim.Scene.from_dict(doc).to_dict() == doc
    assert scene.masses[1] == pytest.approx(4 / 3 * np.pi * 0.1**3 * 1000, rel=1e-15)
    sim = exactsim.Simulation(scene)
    sim.run(0.5)
    assert sim.velocities[1][0] == pytest.approx(5 / 7, rel=1e-9)
    assert sim.angular_velocities[1][1] == pytest.approx(5 / 7 / 0.1, rel=1e-9)
    with pytest.raises(exactsim.InputError, match="parts 0 and 1 overlap"):
        scene.add_body(exactsim.compound([exactsim.sphere(0.1), exactsim.box(1, 1, 1)]), density=1)
    pair = exactsim.compound([exactsim.sphere(0.1, center=(-0.1, 0, 0)),
                              exactsim.sphere(0.1, center=(0.1, 0, 0))])
    scene.add_body(pair, density=1000, position=(0, 1, 0.1), name="clump")
    assert scene.to_dict()["bodies"][2]["shape"] == {"compound": [
        {"sphere": {"radius": 0.1, "center": [-0.1, 0, 0]}},
        {"sphere": {"radius": 0.1, "center": [0.1, 0, 0]}}]}
    assert scene.masses[2] == pytest.approx(2 * 4 / 3 * np.pi * 0.1**3 * 1000, rel=1e-15)
    flat = exactsim.Scene(dimension=2, step=0.01)
    with pytest.raises(exactsim.InputError, match="a 2D scene needs a polygon"):
        flat.add_body(exactsim.sphere(0.1), density=1)
    with pytest.raises(exactsim.InputError, match=r"bodies\[3\] \(b\)\.shape"):
        scene.add_body(exactsim.sphere(-1), density=1, name="b")
