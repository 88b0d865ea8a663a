#!/usr/bin/env python3
"""peer_metrics on hand-built results folders whose metric is known (docs/peers.md "Tests"): two
unit cubes whose overlap is 1 m^2 times the shift, a body that leaves the container, one that
jumps too fast, and a folder without a trajectory.

With the exactsim command, also an exactsim run of each dimension: peer_metrics' overlap median and
max and its max depth are the run's own summary (the same code scores both).

usage: peer_metrics_test.py PEER_METRICS WORKDIR [EXACTSIM]"""
import json
import os
import subprocess
import sys

metrics, work = sys.argv[1], sys.argv[2]
exactsim = sys.argv[3] if len(sys.argv) > 3 else None
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


SCENE = {"format": "exactsim-scene", "version": 1, "name": "metric-test", "dimension": 3,
         "time": {"step": 0.1, "duration": 0.5},
         "bodies": [{"name": "floor", "static": True, "shape": {"box": [4, 4, 0.2]},
                     "position": [0, 0, -0.1]},
                    {"name": "a", "shape": {"box": [1, 1, 1]}, "density": 1000,
                     "position": [0, 0, 1]},
                    {"name": "b", "shape": {"box": [1, 1, 1]}, "density": 1000,
                     "position": [1.5, 0, 1]}]}


def folder(name, b_x, files=("scene.json", "trajectory.csv", "peer.json")):
    """States after steps 0..4 with cube b's x from b_x (a stays at the origin's column)."""
    d = os.path.join(work, name)
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):
        os.remove(os.path.join(d, f))
    if "scene.json" in files:
        with open(os.path.join(d, "scene.json"), "w") as f:
            json.dump(SCENE, f)
    if "trajectory.csv" in files:
        with open(os.path.join(d, "trajectory.csv"), "w") as f:
            f.write("step,time,body,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n")
            for step, x in enumerate([1.5] + b_x, start=-1):
                t = 0.1 * (step + 1)
                f.write(f"{step},{t},floor,0,0,-0.1,1,0,0,0,0,0,0,0,0,0\n")
                f.write(f"{step},{t},a,0,0,1,1,0,0,0,0,0,0,0,0,0\n")
                f.write(f"{step},{t},b,{x},0,1,1,0,0,0,0,0,0,0,0,0\n")
    if "peer.json" in files:
        with open(os.path.join(d, "peer.json"), "w") as f:
            json.dump({"engine": "hand", "version": "1", "steps_planned": 5, "steps_done": 5,
                       "stopped": "", "step_seconds_median": 0.25}, f)
    return d


def score(d, *extra):
    p = subprocess.run([metrics, d, *extra], capture_output=True, text=True)
    return p, (json.loads(p.stdout)[0] if p.returncode == 0 else None)


def near(a, b):
    return abs(a - b) <= 1e-12 * max(1.0, abs(b))


# Overlaps after the steps: 0.1, 0.05, 0.2, 0, 0 (m^3): median 0.05, Q3 (4th of 5) 0.1, max 0.2;
# depth 0.2; b ends at x = 2.4, beyond the floor's x = 2: one body left; at most 9 m/s.
p, m = score(folder("scored", [0.9, 0.95, 0.8, 1.5, 2.4]))
check(p.returncode == 0, f"scored: exit 0 ({p.returncode}: {p.stderr.strip()})")
if m:
    check(m["frames"] == 5, f"scored: 5 states after steps ({m['frames']})")
    check(near(m["overlap_median"], 0.05), f"scored: median overlap 0.05 ({m['overlap_median']})")
    check(near(m["overlap_q3"], 0.1), f"scored: Q3 overlap 0.1 ({m['overlap_q3']})")
    check(near(m["overlap_max"], 0.2), f"scored: max overlap 0.2 ({m['overlap_max']})")
    check(near(m["max_penetration"], 0.2), f"scored: max depth 0.2 ({m['max_penetration']})")
    check(m["bodies_left"] == 1, f"scored: one body left the container ({m['bodies_left']})")
    check(not m["blew_up"], f"scored: no blow-up ({m['blow_up']})")
    check(m["engine"] == "hand" and m["complete"], "scored: engine and completeness from peer.json")
    check(near(m["ms_per_simulated_second"], 500),
          f"scored: 0.25 s over 0.5 simulated s is 500 ms/s ({m['ms_per_simulated_second']})")

# The same, b jumping to x = 100 in the last step (985 m/s): a blow-up at step 4.
p, m = score(folder("blown", [0.9, 0.95, 0.8, 1.5, 100]))
check(m is not None and m["blew_up"] and m["blow_up_step"] == 4 and "'b'" in m["blow_up"],
      f"blown: blow-up of b at step 4 ({m and m['blow_up']})")
p, m = score(os.path.join(work, "blown"), "--speed-bound", "2000")
check(m is not None and not m["blew_up"], "blown: no blow-up under a 2000 m/s bound")

# Bad input: exit 2 naming what is missing.
p, _ = score(folder("no-trajectory", [0.9] * 5, files=("scene.json", "peer.json")))
check(p.returncode == 2 and "trajectory.csv" in p.stderr,
      f"no trajectory: exit 2 naming trajectory.csv ({p.returncode}: {p.stderr.strip()})")
p, _ = score(folder("no-engine", [0.9] * 5, files=("scene.json", "trajectory.csv")))
check(p.returncode == 2 and "peer.json" in p.stderr,
      f"no peer.json or summary.json: exit 2 naming them ({p.returncode}: {p.stderr.strip()})")

# exactsim's own runs: the metric is its summary's.
if exactsim:
    # The standard model at a large step, so that the bodies overlap (PEG keeps them apart to
    # round-off) and the comparison is of non-zero numbers.
    for scenario in ("pour3d", "pour2d"):
        d = os.path.join(work, "exactsim-" + scenario)
        subprocess.run([exactsim, "run", "--scenario", scenario, "--model", "standard", "--dt",
                        "0.02", "--duration", "3", "--out", d, "--quiet"], check=True,
                       capture_output=True)
        with open(os.path.join(d, "summary.json")) as f:
            summary = json.load(f)
        p, m = score(d)
        check(m is not None and m["engine"] == "exactsim" and m["complete"],
              f"{scenario}: an exactsim run is scored ({p.stderr.strip()})")
        if m:
            for mine, theirs in (("overlap_median", "median_overlap"),
                                 ("overlap_max", "max_overlap"),
                                 ("max_penetration", "max_penetration")):
                check(m[mine] == summary[theirs] and (mine == "overlap_median" or m[mine] > 0),
                      f"{scenario}: {mine} {m[mine]} is the run's {theirs} {summary[theirs]}")
        # Timed runs of the stepping (an engine sweep writes them) replace the summary's wall time.
        with open(os.path.join(d, "wall_seconds.json"), "w") as f:
            json.dump({"wall_seconds": [1, 3, 2]}, f)
        p, m = score(d)
        check(m is not None and m["wall_seconds"] == 2 and near(m["ms_per_simulated_second"],
                                                                2000 / 3),
              f"{scenario}: wall_seconds.json's median is the wall time "
              f"({m and m['ms_per_simulated_second']})")

if failures:
    print(f"{len(failures)} check(s) failed")
    sys.exit(1)
