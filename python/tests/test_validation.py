"""One validation path (docs/input-validation.md): the same input gets the same error, in the
same words, from the command line (a scene file), Scene.from_dict and the builder (Scene,
add_body, Simulation); hostile dicts are refused without crashing the interpreter."""
import copy
import json
import math
import os
import re
import subprocess

import numpy as np
import pytest

import exactsim


def base(dimension=2):
    if dimension == 2:
        bodies = [{"name": "floor", "static": True, "shape": {"box": [4, 1]},
                   "position": [0, -0.5]},
                  {"name": "box", "shape": {"box": [0.2, 0.2]}, "density": 100,
                   "position": [0, 0.1]}]
    else:
        bodies = [{"name": "floor", "static": True, "shape": {"box": [4, 4, 1]},
                   "position": [0, 0, -0.5]},
                  {"name": "box", "shape": {"box": [0.2, 0.2, 0.2]}, "density": 100,
                   "position": [0, 0, 0.1]}]
    return {"format": "exactsim-scene", "version": 1, "dimension": dimension,
            "time": {"step": 0.01, "duration": 0.05}, "bodies": bodies}


def build(dimension=2, scene_kw=None, box_kw=None):
    """The base scene through the builder: its error, or None."""
    box = {"density": 100, "position": (0, 0.1) if dimension == 2 else (0, 0, 0.1), "name": "box"}
    box.update(box_kw or {})
    if "mass" in box:
        del box["density"]
    kw = {"step": 0.01, "duration": 0.05}
    kw.update(scene_kw or {})
    try:
        scene = exactsim.Scene(dimension=dimension, **kw)
        if dimension == 2:
            scene.add_body(exactsim.box(4, 1), static=True, position=(0, -0.5), name="floor")
            scene.add_body(exactsim.box(0.2, 0.2), **box)
        else:
            scene.add_body(exactsim.box(4, 4, 1), static=True, position=(0, 0, -0.5),
                           name="floor")
            scene.add_body(exactsim.box(0.2, 0.2, 0.2), **box)
        exactsim.Simulation(scene)
    except exactsim.InputError as e:
        return str(e)
    return None


def located(message, origin=None):
    """The message from the field on: without the file or dict it came from, and without the
    body's name that the builder adds to its index ("bodies[1] (box).density" ->
    "bodies[1].density")."""
    if origin is not None:
        assert message.startswith(origin + ": "), message
        message = message[len(origin) + 2:]
    return re.sub(r"^(bodies\[\d+\]) \(.*?\)(?=[.:])", r"\1", message, flags=re.S)


# (what, dimension, change to the scene dict, builder's scene keywords, builder's box keywords,
#  the error from the field on)
CASES = [
    ("box inside the floor", 2,
     lambda d: d["bodies"][1].update(position=[0, -0.5]), None, {"position": (0, -0.5)},
     'bodies[1]: starts deeply inside bodies[0] "floor": their intersection is 100% of the '
     "smaller body's area. Bodies present at t = 0 may overlap by at most 50% "
     "(docs/input-validation.md)"),
    ("newline in a name", 2, lambda d: d["bodies"][1].update(name="a\nb"), None, {"name": "a\nb"},
     "bodies[1].name: character 1 is a control character (code 10); names may not contain "
     "control characters"),
    ("comma in a name", 2, lambda d: d["bodies"][1].update(name="a,b"), None, {"name": "a,b"},
     "bodies[1].name: character 1 is ','; names may not contain , \" ' or \\ (they are written "
     "unquoted to CSV files)"),
    ("a million friction directions", 3,
     lambda d: d.update(contact={"friction_directions": 10**6}),
     {"friction_directions": 10**6}, None,
     "contact.friction_directions: must be between 3 and 64, got 1000000"),
    ("density too small", 2, lambda d: d["bodies"][1].update(density=1e-9), None,
     {"density": 1e-9},
     "bodies[1].density: must lie in [0.001, 1e6] kg/m^2, got 1e-09 (docs/input-validation.md)"),
    ("friction too large", 2, lambda d: d["bodies"][1].update(friction=1000), None,
     {"friction": 1000},
     "bodies[1].friction: must lie in [0, 100], got 1000.0 (docs/input-validation.md)"),
    ("negative spawn time", 2, lambda d: d["bodies"][1].update(spawn_time=-1), None,
     {"spawn_time": -1}, "bodies[1].spawn_time: must be >= 0, got -1.0"),
    ("too fast", 2, lambda d: d["bodies"][1].update(velocity=[1e6, 0]), None,
     {"velocity": (1e6, 0)},
     "bodies[1].velocity: speed 1e6 m/s exceeds the accepted maximum of 100000 m/s "
     "(docs/input-validation.md)"),
    ("angle too large", 2, lambda d: d["bodies"][1].update(angle=1e5), None, {"angle": 1e5},
     "bodies[1].angle: must lie in [-10000, 10000] rad, got 100000.0 "
     "(docs/input-validation.md)"),
    ("gravity too strong", 2, lambda d: d.update(gravity=[0, -1e5]), {"gravity": (0, -1e5)},
     None, "gravity: magnitude 100000 m/s^2 exceeds the accepted maximum of 10000 m/s^2 "
     "(docs/input-validation.md)"),
    ("step too long", 2, lambda d: d.update(time={"step": 100, "duration": 200}),
     {"step": 100, "duration": 200}, None,
     "time.step: must lie in [1e-9, 10] s, got 100.0 (docs/input-validation.md)"),
    ("inertia breaking the triangle inequality", 3,
     lambda d: (d["bodies"][1].pop("density"),
                d["bodies"][1].update(mass=1, inertia=[[0.004, 0, 0], [0, 0.004, 0],
                                                       [0, 0, 0.009]])),
     None, {"mass": 1, "inertia": np.diag([0.004, 0.004, 0.009])},
     "bodies[1].inertia: the principal moments 0.004, 0.004, 0.009 kg m^2 break the triangle "
     "inequality (the largest exceeds the sum of the other two): no rigid body has this inertia "
     "(docs/input-validation.md)"),
]


@pytest.mark.parametrize("what,dimension,change,scene_kw,box_kw,expected", CASES,
                         ids=[c[0] for c in CASES])
def test_every_front_end_gives_the_same_error(what, dimension, change, scene_kw, box_kw,
                                               expected, tmp_path):
    doc = base(dimension)
    change(doc)
    message = build(dimension, scene_kw, box_kw)
    assert message is not None and located(message) == expected
    with pytest.raises(exactsim.InputError) as e:
        exactsim.Scene.from_dict(copy.deepcopy(doc))
    assert located(str(e.value), "<dict>") == expected
    cli = os.environ.get("EXACTSIM_CLI")
    if cli:  # set by ctest (python/CMakeLists.txt)
        path = tmp_path / "scene.json"
        path.write_text(json.dumps(doc))
        done = subprocess.run([cli, "run", str(path), "--out", str(tmp_path / "out"), "--quiet"],
                              capture_output=True, text=True)
        assert done.returncode == 2
        prefix = "exactsim run: error: "
        assert done.stderr.startswith(prefix)
        assert located(done.stderr[len(prefix):].rstrip("\n"), str(path)) == expected


def test_nan_is_a_value_with_its_reason_not_a_missing_density():
    doc = base()
    doc["bodies"][1]["density"] = math.nan
    with pytest.raises(exactsim.InputError) as e:
        exactsim.Scene.from_dict(doc)
    expected = "bodies[1].density: must be finite, got nan"
    assert located(str(e.value), "<dict>") == expected
    assert located(build(box_kw={"density": math.nan})) == expected


def test_names_that_would_corrupt_the_csv_never_reach_it(tmp_path):
    scene = exactsim.Scene(dimension=2, step=0.01)
    with pytest.raises(exactsim.InputError, match="names may not contain"):
        scene.add_body(exactsim.box(1, 1), density=1, name="a,b")
    with pytest.raises(exactsim.InputError, match=r"^name: character 1 is a control"):
        exactsim.Scene(dimension=2, step=0.01, name="a\nb")
    assert scene.body_count == 0


def test_hostile_dicts_are_refused_without_a_crash():
    deep = inner = {}
    for _ in range(30000):
        inner["a"] = {}
        inner = inner["a"]
    with pytest.raises(exactsim.InputError, match=r"^<dict>: a\.a\.a.*: nested deeper than 64"):
        exactsim.Scene.from_dict(deep)
    looped = base()
    looped["bodies"][1]["shape"]["self"] = looped
    with pytest.raises(exactsim.InputError,
                       match=r"^<dict>: bodies\[1\]\.shape\.self: the dict contains itself$"):
        exactsim.Scene.from_dict(looped)
    looped_list = base()
    looped_list["bodies"].append(looped_list["bodies"])
    with pytest.raises(exactsim.InputError, match=r"bodies\[2\]: the list contains itself"):
        exactsim.Simulation(looped_list)
    with pytest.raises(exactsim.InputError, match=r"^<dict>: \(top level\): keys must be str"):
        exactsim.Scene.from_dict({1: 2})
    with pytest.raises(exactsim.InputError, match=r"^<dict>: time\.step: cannot convert"):
        exactsim.Scene.from_dict({"time": {"step": object()}})


def test_builder_arguments_of_the_wrong_type_say_which():
    with pytest.raises(exactsim.InputError, match=r"^box\[0\]: expected a number, got 'a'$"):
        exactsim.box("a", 1, 1)
    scene = exactsim.Scene(dimension=2, step=0.01)
    with pytest.raises(exactsim.InputError,
                       match=r"^bodies\[0\] \(body0\)\.mass: expected a number, got '1'$"):
        scene.add_body(exactsim.box(1, 1), mass="1")


def test_limits_of_counts():
    scene = exactsim.Scene(dimension=2, step=0.01)
    for i in range(100000):
        scene.add_body(exactsim.box(0.1, 0.1), static=True, position=(i % 1000, i // 1000))
    with pytest.raises(exactsim.InputError, match=r"^bodies: too many bodies \(limit 100000\)$"):
        scene.add_body(exactsim.box(0.1, 0.1), density=1)
    circle = [(math.cos(t), math.sin(t)) for t in np.linspace(0, 2 * math.pi, 10001,
                                                                endpoint=False)]
    small = exactsim.Scene(dimension=2, step=0.01)
    with pytest.raises(exactsim.InputError,
                       match=r"shape: too many points \(10001; the limit is 10000\)"):
        small.add_body(exactsim.polygon(circle), density=1)


def mesh_scene(mesh_name):
    doc = base(3)
    doc["bodies"][1]["shape"] = {"mesh": mesh_name}
    return doc


def test_mesh_loads_what_a_scene_file_loads_with_the_same_errors(tmp_path):
    cube = tmp_path / "cube.obj"
    cube.write_text("".join(f"v {x} {y} {z}\n" for x in (0, 0.2) for y in (0, 0.2)
                            for z in (0, 0.2)))
    shape = exactsim.mesh(cube)
    assert shape.dimension == 3 and shape.vertices.shape == (8, 3)
    scene = exactsim.Scene.from_dict(mesh_scene("cube.obj"), str(tmp_path / "scene.json"))
    built = exactsim.Scene(dimension=3, step=0.01, duration=0.05)
    built.add_body(exactsim.box(4, 4, 1), static=True, position=(0, 0, -0.5), name="floor")
    built.add_body(shape, density=100, position=(0, 0, 0.1), name="box")
    assert built.to_dict()["bodies"] == scene.to_dict()["bodies"]
    dent = tmp_path / "dent.obj"
    dent.write_text(cube.read_text() + "v 0.1 0.1 0.19\n")  # inside the hull: not convex
    with pytest.raises(exactsim.InputError) as from_python:
        exactsim.mesh(str(dent))
    with pytest.raises(exactsim.InputError) as from_file:
        exactsim.Scene.from_dict(mesh_scene("dent.obj"), str(tmp_path / "scene.json"))
    assert str(from_python.value).startswith(str(dent) + ": ")
    assert str(from_file.value) == (str(tmp_path / "scene.json") + ": bodies[1].shape.mesh: " +
                                    str(from_python.value))
    with pytest.raises(exactsim.InputError, match="missing.stl: cannot open the mesh file"):
        exactsim.mesh(tmp_path / "missing.stl")
