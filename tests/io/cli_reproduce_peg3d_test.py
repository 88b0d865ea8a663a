#!/usr/bin/env python3
"""`exactsim reproduce peg3d --quick` end to end (docs/peg3d-experiment.md): its runs are those of
the sweep files data/sweeps/peg3d-ico.json and peg3d-random.json (the result files the sweep
command finds done), its table has a row per model, protocol group and h, and a second invocation
runs nothing and writes the same table apart from wall times.

usage: cli_reproduce_peg3d_test.py EXACTSIM_CLI SOURCE_DIR WORK_DIR
"""
import csv
import json
import os
import shutil
import subprocess
import sys

MODELS = ["peg", "standard", "corrective"]
STEPS = [0.01, 0.016]  # --quick
TIMINGS = ("wall_s_sum", "wall_s_per_run")

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def run(*args):
    p = subprocess.run(list(args), capture_output=True, text=True, timeout=240)
    return p.returncode, p.stdout, p.stderr


def table(path):
    """results.csv without the wall-time columns."""
    with open(path) as f:
        rows = list(csv.reader(f))
    keep = [i for i, h in enumerate(rows[0]) if h not in TIMINGS]
    return [[r[i] for i in keep] for r in rows]


def main():
    cli, source, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    out = os.path.join(work, "peg3d-quick")

    rc, stdout, stderr = run(cli, "reproduce", "peg3d", "--quick", "--jobs", "2", "--out", work)
    check(rc == 0, f"reproduce peg3d --quick: exit {rc}: {stdout}{stderr}")
    names = sorted(os.listdir(os.path.join(out, "results")))
    expected = sorted(f"model={m},step={h:g}{seed}.json" for m in MODELS for h in STEPS
                      for seed in ("", ",seed=1"))
    check(names == expected, f"result files: {names}")
    first = table(os.path.join(out, "results.csv"))
    header = first[0]
    check(len(first) == 1 + len(MODELS) * 2 * len(STEPS),
          f"results.csv: a row per model, protocol group and h: {len(first) - 1} rows")
    for row in first[1:]:
        r = dict(zip(header, row))
        check(r["runs"] == "1", f"{r['model']} {r['protocol']} {r['h']}: one run")
        check(0 < int(r["steps_done"]) <= int(r["steps_planned"]),
              f"{r['model']} {r['protocol']} {r['h']}: steps {r['steps_done']} / "
              f"{r['steps_planned']}")
        check(r["median"] != "", f"{r['model']} {r['protocol']} {r['h']}: a median overlap")
    for name in names:
        with open(os.path.join(out, "results", name)) as f:
            result = json.load(f)
        check(result["params"]["stop"] == {"max_solver_failures": 25, "max_lcp_unknowns": 500,
                                           "max_kinetic_energy_per_kg": 1000,
                                           "wall_seconds": 20},
              f"{name}: the sweep file's stop rules with --quick's budget: {result['params']}")
        check(len(result["result"]["series"]["lcp_size"]) ==
              result["result"]["summary"]["steps_done"], f"{name}: an LCP size per step")

    # The same runs as the sweep files, narrowed as --quick narrows them: nothing left to run.
    for group, runs in (("ico", 6), ("random", 6)):
        with open(os.path.join(source, "data", "sweeps", f"peg3d-{group}.json")) as f:
            doc = json.load(f)
        doc["axes"][1] = {"path": "time.step", "values": STEPS}
        if group == "random":
            doc["axes"][2]["range"]["to"] = 1
        doc["set"]["time.duration"] = 1.5
        doc["stop"]["wall_seconds"] = 20
        path = os.path.join(work, f"peg3d-{group}-quick.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        rc, stdout, stderr = run(cli, "sweep", path, "--out", out, "--quiet")
        check(rc == 0 and f"0 ran, {runs} done earlier" in stdout,
              f"exactsim sweep {group}: the wrapper's result files are the sweep's: {stdout}{stderr}")

    rc, stdout, stderr = run(cli, "reproduce", "peg3d", "--quick", "--jobs", "2", "--out", work)
    check(rc == 0 and "0 ran, 12 done earlier" in stdout, f"second invocation: {stdout}{stderr}")
    check(table(os.path.join(out, "results.csv")) == first,
          "second invocation: results.csv differs apart from wall times")

    if failures:
        print(f"{len(failures)} failure(s)")
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()
