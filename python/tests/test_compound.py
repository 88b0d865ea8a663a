"""Compound bodies (docs/python.md "Compound bodies"): convex parts welded in one frame.

Closed form: an L of two rectangles of uniform density has the mass of both, its centre of mass is
their mass-weighted mean, and its inertia the sum of each m (w^2 + h^2) / 12 moved to that centre
by m |d|^2. Resting foot down, its centre of mass is that height above the floor.
"""
import numpy as np
import pytest

import exactsim

FOOT = ((0.0, 0.0), (1.0, 0.2))  # lower-left and upper-right corners
ARM = ((0.0, 0.2), (0.2, 1.2))


def rectangle(corners):
    (x0, y0), (x1, y1) = corners
    return exactsim.polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])


def l_scene(y0=0.01):
    scene = exactsim.Scene(dimension=2, step=0.005, model="peg", friction=0.5)
    scene.add_body(exactsim.box(10, 1), static=True, position=(0, -0.5), name="floor")
    l_shape = exactsim.compound([rectangle(FOOT), rectangle(ARM)])
    scene.add_body(l_shape, density=100, position=(0, y0), name="L")
    return scene


def closed_form(rho=100.0):
    parts = []
    for (x0, y0), (x1, y1) in (FOOT, ARM):
        w, h = x1 - x0, y1 - y0
        parts.append((rho * w * h, np.array([(x0 + x1) / 2, (y0 + y1) / 2]), w, h))
    mass = sum(m for m, *_ in parts)
    centre = sum(m * c for m, c, *_ in parts) / mass
    inertia = sum(m * (w * w + h * h) / 12 + m * np.sum((c - centre) ** 2) for m, c, w, h in parts)
    return mass, centre, inertia


def test_compound_shape_lists_its_parts():
    l_shape = exactsim.compound([rectangle(FOOT), rectangle(ARM)])
    assert l_shape.dimension == 2
    assert len(l_shape.parts) == 2
    assert np.allclose(l_shape.parts[1].vertices.min(axis=0), ARM[0])
    with pytest.raises(exactsim.InputError, match="read .parts"):
        l_shape.vertices


def test_l_rests_on_its_foot_at_the_closed_form_height():
    mass, centre, inertia = closed_form()
    scene = l_scene()
    d = scene.to_dict()
    assert d["bodies"][1]["mass"] == pytest.approx(mass, rel=1e-12)
    assert d["bodies"][1]["inertia"] == pytest.approx(inertia, rel=1e-12)
    assert len(d["bodies"][1]["shape"]["compound"]) == 2
    assert exactsim.Scene.from_dict(d).to_dict() == d
    sim = exactsim.Simulation(scene)
    for _ in range(200):
        assert sim.step()["status"] == "ok"
        assert all(c["body_a"] != c["body_b"] for c in sim.contacts())
    x, y, angle = sim.q[1]
    assert y == pytest.approx(centre[1], abs=1e-6)
    assert angle == pytest.approx(0, abs=1e-9)


def test_overlapping_parts_are_refused():
    scene = exactsim.Scene(dimension=2, step=0.005)
    bad = exactsim.compound([rectangle(((0, 0), (1, 1))), rectangle(((0.5, 0), (1.5, 1)))])
    with pytest.raises(exactsim.InputError, match=r"parts 0 and 1 overlap \(50 % of the smaller\)"):
        scene.add_body(bad, density=1, name="bad")


def test_mesh_with_two_objects_is_a_compound(tmp_path):
    path = tmp_path / "l.obj"
    lines = []
    for lo, hi in (((0, -0.1, 0), (1, 0.1, 0.2)), ((0, -0.1, 0.2), (0.2, 0.1, 1.2))):
        lines.append("o part")
        for k in range(8):
            lines.append("v %g %g %g" % tuple(hi[i] if k >> i & 1 else lo[i] for i in range(3)))
    path.write_text("\n".join(lines) + "\n")
    shape = exactsim.mesh(path)
    assert len(shape.parts) == 2
    scene = exactsim.Scene(dimension=3, step=0.005)
    scene.add_body(shape, density=100, name="L")
    assert scene.to_dict()["bodies"][0]["mass"] == pytest.approx(100 * (0.04 + 0.04), rel=1e-12)
