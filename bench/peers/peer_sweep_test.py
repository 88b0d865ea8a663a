#!/usr/bin/env python3
"""exactsim sweep over engines (docs/peers.md "The benchmark as a sweep"): a resting box run by
exactsim and a peer driver at two steps; each run's recorded score must be what peer_metrics
gives on the same folder (one metric code for every engine), and the table must hold it. Then the
errors: an unknown engine and a missing driver (exit 2, naming the file, the field and the
reason), and a driver that crashes (a failed run in the table; the sweep goes on).

usage: peer_sweep_test.py EXACTSIM PEERS_DIR PEER_METRICS WORKDIR"""
import csv
import json
import os
import shutil
import stat
import subprocess
import sys

exactsim, peers, metrics, work = sys.argv[1:5]
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
engine = next((e for e in ("bullet", "ode", "mujoco")
               if os.access(os.path.join(peers, "peer_" + e), os.X_OK)), None)
if engine is None:
    sys.exit(f"no peer driver in {peers}")

SCENE = {"format": "exactsim-scene", "version": 1, "name": "resting-box", "dimension": 3,
         "time": {"step": 0.01, "duration": 0.3},
         "contact": {"model": "peg", "friction": 0.5},
         "bodies": [{"name": "floor", "static": True, "shape": {"box": [2, 2, 1]},
                     "position": [0, 0, -0.5]},
                    {"name": "box", "shape": {"box": [0.2, 0.2, 0.2]}, "density": 500,
                     "position": [0, 0, 0.1]}]}
with open(os.path.join(work, "box.json"), "w") as f:
    json.dump(SCENE, f)


def sweep_file(name, engines, **extra):
    doc = {"format": "exactsim-sweep", "version": 1, "scene": "box.json",
           "set": {"repeat": 2},
           "axes": [{"path": "engine", "values": engines},
                    {"path": "time.step", "values": [0.01, 0.005]}],
           "record": {"trajectory": True}}
    doc.update(extra)
    path = os.path.join(work, name + ".json")
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def run(*args):
    return subprocess.run([exactsim, "sweep", *args, "--quiet"], capture_output=True, text=True)


# The sweep: 2 engines x 2 steps.
out = os.path.join(work, "out")
p = run(sweep_file("two", ["exactsim", engine]), "--out", out, "--peers", peers, "--jobs", "2")
check(p.returncode == 0, f"the sweep runs (exit {p.returncode}: {p.stderr.strip()})")
FIELDS = ["overlap_median", "overlap_q3", "overlap_max", "max_penetration", "bodies_left",
          "blew_up", "steps_done", "ms_per_simulated_second"]
with open(os.path.join(out, "table.csv")) as f:
    table = {(r["engine"], float(r["time.step"])): r for r in csv.DictReader(f)}
check(len(table) == 4, f"the table has a row per engine and step ({len(table)})")
for eng in ("exactsim", engine):
    for h in (0.01, 0.005):
        name = f"engine={eng},step={h:g}"
        with open(os.path.join(out, "results", name + ".json")) as f:
            recorded = json.load(f)["result"]["summary"]
        folder = os.path.join(out, "runs", name)
        scored = json.loads(subprocess.run([metrics, folder], capture_output=True, text=True,
                                           check=True).stdout)[0]
        check(scored["engine"] == eng, f"{name}: the folder was run by {scored['engine']}")
        check(scored["steps_done"] == round(0.3 / h) and not recorded["failed"],
              f"{name}: {scored['steps_done']} steps, the whole run")
        for k in FIELDS:
            check(recorded[k] == scored[k],
                  f"{name}: {k} recorded {recorded[k]} = peer_metrics {scored[k]}")
        # The table's median of one run is that run's value (6 significant digits).
        row = table[(eng, h)]
        for k in ("overlap_max", "max_penetration", "ms_per_simulated_second"):
            v = float(row[k + ".median"])
            check(abs(v - scored[k]) <= 1e-5 * abs(scored[k]) + 1e-300,
                  f"{name}: table {k} {v:g} = {scored[k]:g}")
        check(int(row["failed"]) == 0 and int(row["runs"]) == 1, f"{name}: one run, not failed")
        # The stepping was timed `repeat` times.
        if eng == "exactsim":
            with open(os.path.join(folder, "wall_seconds.json")) as f:
                check(len(json.load(f)["wall_seconds"]) == 2, f"{name}: timed twice")
        else:
            with open(os.path.join(folder, "peer.json")) as f:
                check(len(json.load(f)["step_seconds"]) == 2, f"{name}: timed twice")
        # A resting box: it neither sinks far nor leaves (a sanity bound: 5 cm).
        check(scored["max_penetration"] < 0.05 and scored["bodies_left"] == 0,
              f"{name}: depth {scored['max_penetration']:.3g} m, no body left")
# Resumed: nothing runs again.
p = run(sweep_file("two", ["exactsim", engine]), "--out", out, "--peers", peers)
check(p.returncode == 0 and "0 ran, 4 done earlier" in p.stdout, f"resumed: {p.stdout.strip()}")

# An unknown engine: nothing runs.
bad = sweep_file("unknown", ["exactsim", "havok"])
p = run(bad, "--out", os.path.join(work, "bad"), "--peers", peers)
check(p.returncode == 2 and f"{bad}: axes[0].values[1]: unknown engine 'havok'" in p.stderr,
      f"unknown engine: exit {p.returncode}, {p.stderr.strip()}")
check(not os.path.exists(os.path.join(work, "bad", "results")), "unknown engine: nothing ran")

# A missing driver: the engine and where the sweep looked.
empty = os.path.join(work, "no-drivers")
os.makedirs(empty)
p = run(sweep_file("two", ["exactsim", engine]), "--out", os.path.join(work, "bad2"),
        "--peers", empty)
check(p.returncode == 2 and f"engine '{engine}': no driver {empty}/peer_{engine}" in p.stderr
      and "axes[0]" in p.stderr, f"missing driver: exit {p.returncode}, {p.stderr.strip()}")

# A driver that crashes: its runs fail, the others are scored, the sweep ends.
crashing = os.path.join(work, "crashing")
os.makedirs(crashing)
fake = os.path.join(crashing, "peer_ode")
with open(fake, "w") as f:
    f.write("#!/bin/sh\necho about to crash >&2\nkill -SEGV $$\n")
os.chmod(fake, os.stat(fake).st_mode | stat.S_IXUSR)
out3 = os.path.join(work, "out3")
p = run(sweep_file("crash", ["exactsim", "ode"]), "--out", out3, "--peers", crashing)
check(p.returncode == 0, f"a crashing driver does not stop the sweep (exit {p.returncode})")
with open(os.path.join(out3, "results", "engine=ode,step=0.01.json")) as f:
    err = json.load(f)["result"].get("error", "")
check("peer_ode crashed (signal 11" in err and "about to crash" in err, f"recorded: {err}")
with open(os.path.join(out3, "table.csv")) as f:
    rows = {r["engine"]: r for r in csv.DictReader(f)}
check(rows["ode"]["failed"] == "1" and rows["exactsim"]["failed"] == "0"
      and rows["exactsim"]["max_penetration.median"] != "",
      "table: the crashed runs failed, exactsim's scored")
with open(os.path.join(out3, "table.md")) as f:
    check("peer_ode crashed" in f.read(), "table.md lists the crash")

print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
