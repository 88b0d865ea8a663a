#!/usr/bin/env python3
"""The CLI's exit statuses for hostile input and absurd scenes (docs/input-validation.md):
a run over its memory budget ends with status 4 and one clear line, a bad --memory-budget is
status 2, and the 200-coincident-box reproducer is refused at load (status 2) in well under a
second.

usage: cli_memory_budget_test.py EXACTSIM_CLI SOURCE_DIR WORK_DIR
"""
import json
import os
import subprocess
import sys
import time

from expectations import Expectations


def row_of_boxes(n):
    bodies = [{"name": "floor", "static": True, "shape": {"box": [1.01 * n + 2, 1]},
               "position": [0.505 * n, -0.5]}]
    for i in range(n):
        bodies.append({"name": f"b{i}", "shape": {"box": [1, 1]}, "density": 100,
                       "position": [1.001 * i + 0.5, 0.5]})
    # One island of about 30n unknowns, on the dense path (whose memory the budget bounds).
    return {"format": "exactsim-scene", "version": 1, "dimension": 2,
            "time": {"step": 0.005, "duration": 0.05},
            "contact": {"model": "standard", "friction": 0.5},
            "stepping": {"dense_max_unknowns": 2000}, "bodies": bodies}


def run(cli, *args):
    t0 = time.monotonic()
    p = subprocess.run([cli, *args], capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr, time.monotonic() - t0


def main():
    cli, source, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    check = Expectations()
    expect = check.expect

    scene = os.path.join(work, "row10.json")
    with open(scene, "w") as f:
        json.dump(row_of_boxes(10), f)

    # Over the budget: status 4, the message names the step, the problem and both sizes.
    out = os.path.join(work, "row10-small")
    code, _, err, _ = run(cli, "run", scene, "--memory-budget", "0.001", "--quiet", "--out", out)
    expect(code == 4, f"--memory-budget 0.001: exit {code}, expected 4 ({err!r})")
    expect(err.startswith("exactsim run: memory budget exceeded: the step's contact problem ("),
           f"--memory-budget 0.001: message {err!r}")
    expect("more than the memory budget of 1.02 MiB" in err, f"budget not named: {err!r}")
    expect(err.count("\n") == 1, f"more than one line: {err!r}")
    with open(os.path.join(out, "summary.json")) as f:
        summary = json.load(f)
    expect(summary["failed"] is True and summary["failure"].startswith("step 0: the step's"),
           f"summary: {summary['failure']!r}")

    # Within the default budget the same scene runs.
    code, _, err, _ = run(cli, "run", scene, "--quiet")
    expect(code == 0, f"default budget: exit {code} ({err!r})")

    # The scene's own field, and the option overriding it.
    with open(scene) as f:
        doc = json.load(f)
    doc["stepping"]["memory_budget_gib"] = 0.001
    small = os.path.join(work, "row10-field.json")
    with open(small, "w") as f:
        json.dump(doc, f)
    code, _, err, _ = run(cli, "run", small, "--quiet")
    expect(code == 4, f"stepping.memory_budget_gib 0.001: exit {code} ({err!r})")
    code, _, err, _ = run(cli, "run", small, "--quiet", "--memory-budget", "1")
    expect(code == 0, f"--memory-budget 1 over the field: exit {code} ({err!r})")

    # A budget outside its range is bad input.
    code, _, err, _ = run(cli, "run", scene, "--memory-budget", "0", "--quiet")
    expect(code == 2 and "--memory-budget: must lie in [0.001, 1e6] GiB, got 0" in err,
           f"--memory-budget 0: exit {code} ({err!r})")

    # The 200 coincident boxes of the reproducer set: refused at load, at once.
    code, _, err, seconds = run(
        cli, "run", os.path.join(source, "tests/io/data/coincident2d-200.json"), "--quiet")
    expect(code == 2 and "starts deeply inside" in err, f"coincident2d-200: exit {code} ({err!r})")
    expect(seconds < 5, f"coincident2d-200 took {seconds:.1f} s")

    return check.report()


if __name__ == "__main__":
    sys.exit(main())
