#!/usr/bin/env python3
"""scripts/verdict.py, the last line of `make run`, on made-up run folders: the numbers in the
verdict are the files' (failed solves from summary.json, the slider's speed drop and upward
kick from trajectory.csv), and a missing file is an error (exit 2) naming it.

usage: verdict_test.py SOURCE_DIR WORK_DIR
"""
import json
import os
import subprocess
import sys

from expectations import Expectations


def make_run(folder, model, failures, slider, flown_free=0):
    """slider: [(vx, vy)] per row, the initial state first."""
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "summary.json"), "w") as f:
        json.dump({"model": model, "solver_failures": failures, "steps_done": len(slider) - 1,
                   "steps_planned": len(slider) - 1, "step": 0.01,
                   "islands_flown_free": flown_free}, f)
    with open(os.path.join(folder, "trajectory.csv"), "w") as f:
        f.write("step,time,body,x,y,theta,vx,vy,omega\n")
        for k, (vx, vy) in enumerate(slider):
            f.write(f"{k - 1},{0.01 * k},apex,0,0,0,0,0,0\n")
            f.write(f"{k - 1},{0.01 * k},slider,0,0,0,{vx},{vy},0\n")


def main():
    source, work = sys.argv[1:3]
    script = os.path.join(source, "scripts/verdict.py")
    check = Expectations()
    expect = check.expect

    d = {name: os.path.join(work, name) for name in ("trap-peg", "trap-std", "pour-peg", "pour-std")}
    make_run(d["trap-peg"], "peg", 0, [(3, 0), (3, -0.05), (3.01, -0.1), (3.02, -0.2)])
    make_run(d["trap-std"], "standard", 0, [(3, 0), (3, -0.05), (2.0, 0.8), (2.0, 0.7)])
    make_run(d["pour-peg"], "peg", 0, [(0, 0), (0, 0)])
    make_run(d["pour-std"], "standard", 7, [(0, 0), (0, 0)])
    args = ["/usr/bin/python3", script, "--trap", d["trap-peg"], d["trap-std"],
            "--pour", d["pour-peg"], d["pour-std"]]
    p = subprocess.run(args, capture_output=True, text=True)
    lines = p.stdout.splitlines()
    expect(p.returncode == 0, f"exit {p.returncode}: {p.stderr!r}")
    verdict = lines[-1] if lines else ""
    # vx 3 -> 2: 33 % in one step; kicked up at 0.8 m/s. PEG's speed grows (falling): kept.
    want = ("verdict: PEG: 0 failed solves in the pour, slider keeps 3.00 m/s; standard model: "
            "7 failed solves in the pour, slider loses 33% of its speed in one step and is "
            "kicked up.")
    expect(verdict == want, f"verdict\n  {verdict!r}\nexpected\n  {want!r}")
    expect(len(lines) == 5, f"expected one line per run and the verdict: {lines!r}")
    trap_std = [line for line in lines if "trap-std" in line]
    expect(len(trap_std) == 1 and "(vx 3.00 -> 2.00 m/s)" in trap_std[0]
           and "(vy +0.80 m/s)" in trap_std[0], f"the trap's numbers: {trap_std!r}")
    pour_std = [line for line in lines if "pour-std" in line]
    expect(len(pour_std) == 1 and "7 failed solves" in pour_std[0], f"the pour: {pour_std!r}")

    # The numbers follow the files: PEG with a failure, the standard model without a kick.
    make_run(d["pour-peg"], "peg", 1, [(0, 0), (0, 0)])
    make_run(d["trap-std"], "standard", 0, [(3, 0), (2.7, 0), (2.7, -0.01)])
    p = subprocess.run(args, capture_output=True, text=True)
    verdict = p.stdout.splitlines()[-1] if p.stdout else ""
    expect("PEG: 1 failed solve in the pour," in verdict, f"PEG's failure: {verdict!r}")
    expect(verdict.endswith("standard model: 7 failed solves in the pour, slider loses 10% of "
                            "its speed in one step."), f"standard without a kick: {verdict!r}")

    # Failed solves that no regularised recovery answered are named, in the run's line and the
    # verdict.
    make_run(d["pour-std"], "standard", 7, [(0, 0), (0, 0)], flown_free=2)
    p = subprocess.run(args, capture_output=True, text=True)
    lines = p.stdout.splitlines()
    verdict = lines[-1] if lines else ""
    expect("standard model: 7 failed solves (2 islands flown free) in the pour," in verdict,
           f"flown free in the verdict: {verdict!r}")
    pour_std = [line for line in lines if "pour-std" in line]
    expect(len(pour_std) == 1 and "7 failed solves (2 islands flown free);" in pour_std[0],
           f"flown free in the pour's line: {pour_std!r}")

    # Runs of different models in one column, and a missing file, are errors.
    p = subprocess.run(["/usr/bin/python3", script, "--trap", d["trap-peg"], d["trap-std"],
                        "--pour", d["pour-std"], d["pour-peg"]], capture_output=True, text=True)
    expect(p.returncode == 2 and "different models" in p.stderr, f"swapped: {p.stderr!r}")
    os.remove(os.path.join(d["trap-std"], "trajectory.csv"))
    p = subprocess.run(args, capture_output=True, text=True)
    expect(p.returncode == 2 and "trap-std/trajectory.csv" in p.stderr,
           f"missing trajectory: exit {p.returncode}, {p.stderr!r}")

    return check.report()


if __name__ == "__main__":
    sys.exit(main())
