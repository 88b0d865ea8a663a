#!/usr/bin/python3
"""Located PLUS impacts in the time stepper (docs/impacts.md): accuracy against closed forms,
the cost of a step with an impact, the bounce-height figure and the cradle figure.

usage: bench/impacts.py [--exactsim build/apps/exactsim] [--out bench/results/2core-debian/impacts]

Writes OUT/tables.md (the tables docs/impacts.md quotes), OUT/bounce-height.svg and
OUT/cradle.svg; the runs' folders go to a temporary folder (--runs DIR keeps them). Every number comes from `exactsim run`
on a scene written here. Step times are the fastest of three runs of each pour.
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

G = 9.81


def cube_drop(h, e, duration, drop=1.0, restitution_capture=0.01):
    return {
        "format": "exactsim-scene", "version": 1, "name": "cube-drop", "dimension": 3,
        "time": {"step": h, "duration": duration},
        "contact": {"model": "peg", "friction": 0.3,
                    "impact": {"model": "plus", "restitution": e,
                               "capture_velocity": restitution_capture}},
        "bodies": [
            {"name": "floor", "static": True, "shape": {"box": [4, 4, 1]},
             "position": [0, 0, -0.5]},
            {"name": "cube", "shape": {"box": [0.2, 0.2, 0.2]}, "density": 500,
             "position": [0, 0, 0.1 + drop]}]}


def run(exe, out, scene=None, args=()):
    os.makedirs(out, exist_ok=True)
    cmd = [exe, "run"]
    if scene is not None:
        path = os.path.join(out, "input.json")
        with open(path, "w") as f:
            json.dump(scene, f)
        cmd.append(path)
    cmd += list(args) + ["--out", out, "--quiet", "--contacts", "off"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"impacts.py: {' '.join(cmd)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    with open(os.path.join(out, "summary.json")) as f:
        return json.load(f)


def rows_of(out, body):
    with open(os.path.join(out, "trajectory.csv"), newline="") as f:
        return [r for r in csv.DictReader(f) if r["body"] == body]


def apexes(rows, floor_z):
    """Apex heights above the floor: from the row before each apex along its parabola."""
    z = [float(r["z"]) for r in rows]
    v = [float(r["vz"]) for r in rows]
    return [z[i - 1] + v[i - 1] ** 2 / (2 * G) - floor_z
            for i in range(1, len(z)) if v[i - 1] > 0 and v[i] <= 0]


def accuracy(exe, out):
    lines = ["| h (s) | apex 1 rel. error | apex 2 rel. error | apex 3 rel. error | spin (rad/s) |",
             "|---|---|---|---|---|"]
    first = []
    for h in (1e-2, 1e-3, 1e-4):
        folder = os.path.join(out, f"drop-e0.5-h{h:g}")
        run(exe, folder, cube_drop(h, 0.5, 1.4))
        rows = rows_of(folder, "cube")
        a = apexes(rows, 0.1)
        errors = [abs(a[n] / 0.25 ** (n + 1) - 1) for n in range(3)]
        spin = max(math.hypot(float(r["wx"]), float(r["wy"])) for r in rows)
        first.append(errors[0])
        lines.append(f"| {h:g} | " + " | ".join(f"{x:.2e}" for x in errors) + f" | {spin:.1e} |")
    lines.append("")
    worst = max(first)
    if worst > 1e-9:
        order = math.log10(first[0] / first[2]) / 2
        lines.append(f"Order of convergence of apex 1 over h = 1e-2 … 1e-4: {order:.2f}.")
    else:
        lines.append(f"Apex 1 is at round-off at every h (largest error {worst:.1e}): no order "
                     "of convergence to measure.")
    folder = os.path.join(out, "drop-e1-h0.001")
    run(exe, folder, cube_drop(1e-3, 1.0, 32.5, drop=0.5))
    a = apexes(rows_of(folder, "cube"), 0.1)
    drift = max(abs(x / 0.5 - 1) for x in a[:50])
    lines.append(f"e = 1, h = 1 ms: {min(len(a), 50)} bounces, largest apex drift {drift:.2e} "
                 f"relative (apex 50: {a[49] if len(a) >= 50 else float('nan'):.9f} m of 0.5 m).")
    return lines


def cost(exe, out):
    lines = ["| scene | mean step (ms), none | mean step (ms), plus e = 0.5 | ratio |"
             " impacts resolved | left inelastic: unfinished / steps past the cap |"
             " energy change (J) | failed solves (none / plus) |",
             "|---|---|---|---|---|---|---|---|"]
    for name, scenario in (("2D pour, 20 bodies", ["--scenario", "pour2d-random", "--bodies", "20"]),
                           ("3D pour, 20 bodies", ["--scenario", "pour3d-random", "--bodies", "20"])):
        common = scenario + ["--dt", "0.005", "--duration", "3", "--continue-on-failure"]
        folder = os.path.join(out, name.replace(" ", "-").replace(",", ""))
        none = [run(exe, folder + "-none", args=common + ["--impact", "none"]) for _ in range(3)]
        plus = [run(exe, folder + "-plus", args=common + ["--impact", "plus", "--restitution", "0.5"])
                for _ in range(3)]
        ms_none = min(1000 * r["wall_seconds"] / max(1, r["steps_done"]) for r in none)
        ms_plus = min(1000 * r["wall_seconds"] / max(1, r["steps_done"]) for r in plus)
        none, plus = none[0], plus[0]
        lines.append(f"| {name} | {ms_none:.3f} | {ms_plus:.3f} | {ms_plus / ms_none:.2f} |"
                     f" {plus['impacts']} |"
                     f" {plus['impact_fallbacks']} / {plus['impact_capped_steps']} |"
                     f" {plus['impact_energy_change']:.3g} |"
                     f" {none['solver_failures']} / {plus['solver_failures']} |")
    return lines


def figure(exe, out):
    """Bounce height against time: the flat cube (e = 0.5) and scenes/die-bounce-3d.json."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 3.5))
    folder = os.path.join(out, "drop-e0.5-h0.001")
    rows = rows_of(folder, "cube")
    ax.plot([float(r["time"]) for r in rows], [float(r["z"]) - 0.1 for r in rows],
            label="cube 0.2 m, e = 0.5 (bottom face height)")
    # The closed form: the drop, then parabolas of launch speed e^n V0 until the capture speed.
    v0 = math.sqrt(2 * G)
    ts = [i * 1e-3 for i in range(1400)]
    z = []
    t_impact, speed = v0 / G, v0  # the last impact before t and the speed it struck at
    for x in ts:
        while x > t_impact + speed / G and 0.5 * speed > 0.01:  # next impact: flight 2 e V / g
            t_impact += speed / G
            speed *= 0.5
        if x < v0 / G:
            z.append(1 - 0.5 * G * x * x)
        else:
            dt = x - t_impact
            z.append(max(0.0, 0.5 * speed * dt - 0.5 * G * dt * dt))
    ax.plot(ts, z, "k:", lw=1, label="closed form e²ⁿ h₀")
    die = os.path.join(out, "die-bounce")
    run(exe, die, args=[os.path.join(os.path.dirname(__file__), "..", "scenes", "die-bounce-3d.json")])
    rows = rows_of(die, "die")
    ax.plot([float(r["time"]) for r in rows], [float(r["z"]) - 0.05 for r in rows],
            label="die 0.1 m thrown with spin, e = 0.5, μ = 0.3 (centre − 5 cm)")
    ax.set_xlabel("t (s)")
    ax.set_ylabel("height (m)")
    ax.set_xlim(0, 2.0)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def cradle(induced):
    """Newton's cradle of five 1 m cubes (PLUS paper Example 3 as cubes): four touching in a row,
    the fifth striking them at 2 m/s from 0.5 m away; e = 1, frictionless, no gravity."""
    bodies = [{"name": f"cube{i}", "shape": {"box": [1, 1, 1]}, "density": 1,
               "position": [-float(i), 0, 0]} for i in range(4)]
    bodies.insert(0, {"name": "striker", "shape": {"box": [1, 1, 1]}, "density": 1,
                      "position": [1.5, 0, 0], "velocity": [-2, 0, 0]})
    return {
        "format": "exactsim-scene", "version": 1, "name": f"cradle-{induced}", "dimension": 3,
        "gravity": [0, 0, 0], "time": {"step": 1e-3, "duration": 1.5},
        "contact": {"model": "peg", "friction": 0,
                    "impact": {"model": "plus", "restitution": 1, "induced": induced}},
        "bodies": bodies}


def cradle_figure(exe, out):
    """The cubes' positions against time in the two induced-impact models."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.2), sharey=True)
    for ax, induced in zip(axes, ("sequential", "simultaneous")):
        folder = os.path.join(out, f"cradle-{induced}")
        run(exe, folder, cradle(induced))
        for name in ["striker"] + [f"cube{i}" for i in range(4)]:
            rows = rows_of(folder, name)
            ax.plot([float(r["time"]) for r in rows], [float(r["x"]) for r in rows], label=name)
        ax.set_title(f"induced: {induced}", fontsize=9)
        ax.set_xlabel("t (s)")
    axes[0].set_ylabel("x of the centre (m)")
    axes[1].legend(fontsize=7)
    fig.tight_layout()
    return fig


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--exactsim", default="build/apps/exactsim")
    p.add_argument("--out", default="bench/results/2core-debian/impacts")
    p.add_argument("--runs", help="keep the runs' folders here (default: a temporary folder)")
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    runs = a.runs or tempfile.mkdtemp(prefix="exactsim-impacts-")
    lines = ["## Accuracy: a 0.2 m cube dropped flat from 1 m", ""] + accuracy(a.exactsim, runs)
    lines += ["", "## Cost: the random pours, 3 s at h = 5 ms, with and without impacts", ""]
    lines += cost(a.exactsim, runs)
    figure(a.exactsim, runs).savefig(os.path.join(a.out, "bounce-height.svg"))
    cradle_figure(a.exactsim, runs).savefig(os.path.join(a.out, "cradle.svg"))
    text = "\n".join(lines) + "\n"
    with open(os.path.join(a.out, "tables.md"), "w") as f:
        f.write(text)
    print(text, end="")


if __name__ == "__main__":
    main()
