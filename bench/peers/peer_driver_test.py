#!/usr/bin/env python3
"""A peer driver against closed forms (docs/peers.md "Tests"): a resting box stays put, a free
fall follows x0 + v0 t - g t^2 / 2 with the orientation kept, and a head-on collision ends at
the common velocity that the two masses give. A wrongly mapped scene (units, axes, orientation
convention, mass) fails one of them.

usage: peer_driver_test.py DRIVER ENGINE WORKDIR"""
import csv
import json
import math
import os
import subprocess
import sys

driver, engine, work = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(work, exist_ok=True)
G = 9.81
H = 0.005
# How far a resting box may sink into the floor (m): Bullet keeps a hull's 1 mm margin and lets
# contacts sit within it; ODE and MuJoCo are soft (ERP/CFM; solref's 0.02 s time constant).
# Debian's ODE collides convex pairs through libccd, one point per pair per step (docs/peers.md
# "ODE"): a hull on the floor rocks on alternating points and creeps, and sinks further.
SINK = {"bullet": 0.002, "ode": 0.003, "mujoco": 0.005}[engine]
# How far above its start it may rest: Bullet keeps hulls (2D prisms too) a 1 mm margin apart.
RISE = {"bullet": 0.0015, "ode": 0.001, "mujoco": 0.001}[engine]
# How far a box or hull at rest may slide in 1 s (m).
SLIDE = {"bullet": 0.001, "ode": 0.03, "mujoco": 0.001}[engine]
# Separation speed after a head-on hit with restitution 0, as a share of the approach speed:
# MuJoCo's contacts are springs with dampers (solref), which give some back; ODE's 2D prisms meet
# on libccd's one point, and ERP's push-out of the overlap it lets grow adds speed.
BOUNCE = {"bullet": 0.01, "ode": 0.4, "mujoco": 0.1}[engine]
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def run(name, scene):
    path = os.path.join(work, name + ".json")
    with open(path, "w") as f:
        json.dump(scene, f)
    out = os.path.join(work, name)
    p = subprocess.run([driver, path, "--out", out], capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"{name}: exit {p.returncode}: {p.stderr}")
    rows = {}
    with open(os.path.join(out, "trajectory.csv")) as f:
        reader = csv.DictReader(f)
        for r in reader:
            rows.setdefault(r["body"], []).append({k: float(v) for k, v in r.items() if k != "body"})
    return rows


def scene(dimension, bodies, gravity=None, friction=0.5, duration=1.0):
    s = {"format": "exactsim-scene", "version": 1, "name": "peer-test", "dimension": dimension,
         "time": {"step": H, "duration": duration}, "contact": {"friction": friction},
         "bodies": bodies}
    if gravity is not None:
        s["gravity"] = gravity
    return s


def quat_angle(a, b):
    dot = abs(sum(x * y for x, y in zip(a, b)))
    return 2 * math.acos(min(1.0, dot))


def resting(dimension, shape):
    """A box (3D: the engine's box; 2D: a prism) or a hull with a flat bottom on the floor."""
    tag = f"{dimension}d {shape}"
    if dimension == 3:
        body = ({"box": [0.3, 0.2, 0.1]} if shape == "box" else
                {"hull": [[0, 0, 0], [0.2, 0, 0], [0, 0.2, 0], [0, 0, 0.1], [0.2, 0, 0.1],
                          [0, 0.2, 0.1], [0.05, 0.05, 0.12]]})
        bodies = [{"name": "floor", "static": True, "shape": {"box": [4, 4, 0.2]},
                   "position": [0, 0, -0.1]},
                  {"name": "body", "shape": body, "density": 1000,
                   "position": [0.2, -0.1, 0.05 if shape == "box" else 0]}]
        up = "z"
    else:
        body = ({"box": [0.3, 0.1]} if shape == "box" else
                {"polygon": [[0, 0], [0.2, 0], [0.15, 0.1], [0.02, 0.08]]})
        bodies = [{"name": "floor", "static": True, "shape": {"box": [4, 0.2]},
                   "position": [0, -0.1]},
                  {"name": "body", "shape": body, "density": 1000,
                   "position": [0.2, 0.05 if shape == "box" else 0]}]
        up = "y"
    rows = run(f"resting-{dimension}d-{shape}", scene(dimension, bodies))["body"]
    first, last = rows[0], rows[-1]
    check(len(rows) == 201, f"resting {tag}: 200 steps and the initial state recorded ({len(rows)})")
    check(abs(last["time"] - 1.0) < 1e-9, f"resting {tag}: the last row at t = 1 ({last['time']})")
    sink = max(first[up] - r[up] for r in rows)
    check(sink <= SINK, f"resting {tag}: sinks at most {SINK} m ({sink:.2e})")
    rise = max(r[up] - first[up] for r in rows)
    check(rise <= RISE, f"resting {tag}: rises at most {RISE} m ({rise:.2e})")
    slide = abs(last["x"] - first["x"])
    check(slide <= SLIDE, f"resting {tag}: slides at most {SLIDE} m ({slide:.2e})")
    if dimension == 3:
        turn = quat_angle([first[k] for k in "qw qx qy qz".split()],
                          [last[k] for k in "qw qx qy qz".split()])
    else:
        turn = abs(last["theta"] - first["theta"])
    check(turn < 1e-2, f"resting {tag}: does not turn ({turn:.2e} rad)")


def free_fall(dimension):
    tag = f"{dimension}d"
    if dimension == 3:
        # A hull with a non-diagonal inertia (its principal frame is not the body frame), turned.
        hull = [[0.1, 0, 0], [0, 0.05, 0], [0, 0, 0.08], [-0.06, -0.03, -0.02], [0.04, 0.05, 0.06]]
        q0 = [0.9, 0.3, -0.2, 0.1]
        n = math.sqrt(sum(x * x for x in q0))
        q0 = [x / n for x in q0]
        bodies = [{"name": "rock", "shape": {"hull": hull}, "density": 2000,
                   "position": [1, 2, 3], "orientation": q0, "velocity": [0.3, -0.2, 1.5]}]
        v0, x0, up = [0.3, -0.2, 1.5], [None, None, None], 2
    else:
        bodies = [{"name": "rock", "shape": {"polygon": [[0.1, 0], [0, 0.05], [-0.07, -0.02]]},
                   "density": 2000, "position": [1, 2], "angle": 0.4, "velocity": [0.3, 1.5]}]
        v0, up = [0.3, 1.5], 1
    rows = run("free-fall-" + tag, scene(dimension, bodies))["rock"]
    axes = "xyz"[:dimension]
    start = rows[0]
    worst = 0.0
    for r in rows:
        t = r["time"]
        for a, name in enumerate(axes):
            exact = start[name] + v0[a] * t - (0.5 * G * t * t if a == up else 0)
            # The engines' first-order integrators are off by at most g h t / 2 (semi-implicit
            # Euler); a wrong axis, sign or unit is off by metres.
            worst = max(worst, abs(r[name] - exact) - G * H * t)
    check(worst <= 1e-9, f"free fall {tag}: x0 + v0 t - g t^2/2 within g h t ({worst:.2e} over)")
    if dimension == 3:
        turn = max(quat_angle([start[k] for k in "qw qx qy qz".split()],
                              [r[k] for k in "qw qx qy qz".split()]) for r in rows)
    else:
        turn = max(abs(r["theta"] - start["theta"]) for r in rows)
    check(turn < 1e-6, f"free fall {tag}: keeps its orientation ({turn:.2e} rad)")


def collision(dimension):
    """Two equal boxes of densities 1000 and 3000 kg/m^3 meet head on at ±1 m/s without gravity or friction: with
    restitution 0 both end at (m1 - m2) / (m1 + m2) = -0.5 m/s."""
    tag = f"{dimension}d"
    if dimension == 3:
        box = {"box": [0.2, 0.2, 0.2]}
        a = {"name": "light", "shape": box, "density": 1000, "position": [-0.3, 0, 0],
             "velocity": [1, 0, 0]}
        b = {"name": "heavy", "shape": box, "density": 3000, "position": [0.3, 0, 0],
             "velocity": [-1, 0, 0]}
        g = [0, 0, 0]
    else:
        box = {"box": [0.2, 0.2]}
        a = {"name": "light", "shape": box, "density": 1000, "position": [-0.3, 0],
             "velocity": [1, 0]}
        b = {"name": "heavy", "shape": box, "density": 3000, "position": [0.3, 0],
             "velocity": [-1, 0]}
        g = [0, 0]
    rows = run("collision-" + tag, scene(dimension, [a, b], gravity=g, friction=0, duration=0.5))
    va, vb = rows["light"][-1]["vx"], rows["heavy"][-1]["vx"]
    momentum = 1 * va + 3 * vb  # per 1000 kg/m^3 of volume: the initial total is -2
    check(abs(momentum + 2) < 0.02, f"collision {tag}: momentum kept ({momentum:.4f}, -2 expected)")
    check(abs(vb - va) <= 2 * BOUNCE,
          f"collision {tag}: they part at most {BOUNCE:.0%} of the approach speed "
          f"({va:.4f}, {vb:.4f}; -0.5 each with none)")


for d in (3, 2):
    if d == 2:
        # A driver that does not take 2D scenes says so, by name.
        probe = os.path.join(work, "probe-2d")
        resting_2d = scene(2, [{"name": "b", "shape": {"box": [0.1, 0.1]}, "density": 1,
                                "position": [0, 0]}])
        with open(probe + ".json", "w") as f:
            json.dump(resting_2d, f)
        p = subprocess.run([driver, probe + ".json", "--out", probe], capture_output=True,
                           text=True)
        if p.returncode == 2 and "2D" in p.stderr:
            print("ok   2D scenes rejected with: " + p.stderr.strip())
            continue
        check(p.returncode == 0, f"2D probe runs ({p.returncode}: {p.stderr.strip()})")
    resting(d, "box")
    resting(d, "hull")
    free_fall(d)
    collision(d)

# Bad input: a missing scene file is exit status 2 with the file named.
p = subprocess.run([driver, os.path.join(work, "no-such.json"), "--out", os.path.join(work, "x")],
                   capture_output=True, text=True)
check(p.returncode == 2 and "no-such.json" in p.stderr,
      f"a missing scene file: exit 2 naming it ({p.returncode}: {p.stderr.strip()})")

p = subprocess.run([driver, os.path.join(work, "free-fall-3d.json"), "--out",
                    os.path.join(work, "x"), "--dt", "0"], capture_output=True, text=True)
check(p.returncode == 2 and "--dt: must be > 0, got 0" in p.stderr,
      f"--dt 0: exit 2 saying why ({p.returncode}: {p.stderr.strip()})")

if failures:
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
