#!/usr/bin/python3
"""The verdict of `make run`: PEG against the standard model, computed from the runs' files.

usage: verdict.py --trap PEG_DIR STANDARD_DIR --pour PEG_DIR STANDARD_DIR [--body slider]

--trap: two `exactsim run --out` folders of the corner trap (scenes/corner-trap-2d.json), PEG
and the standard model, run while the slider crosses the apex. From trajectory.csv: the body's
sliding speed |vx| at the start, its largest drop in one step, and its largest upward velocity
vy. --pour: two folders of the same pour, PEG and the standard model; from summary.json, the
failed solves, and the islands among them that no regularised recovery answered and so flew free.
Prints one line per run, then the verdict (the failed solves it gives are the pour's, and the
trap's when it has any).
Exit status 2 when a folder or file is missing or malformed.
"""
import argparse
import csv
import json
import os
import sys

# A one-step loss of sliding speed, or an upward velocity, smaller than this fraction of the
# starting speed counts as none.
KEPT_FRACTION = 0.01


def fail(message):
    print(f"verdict.py: error: {message}", file=sys.stderr)
    sys.exit(2)


def read_summary(folder):
    path = os.path.join(folder, "summary.json")
    try:
        with open(path) as f:
            summary = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path}: cannot read the run's summary ({e})")
    for key in ("model", "solver_failures", "steps_done", "steps_planned", "step"):
        if key not in summary:
            fail(f"{path}: no field '{key}'")
    return summary


def read_speeds(folder, body):
    """(time, vx, vy) of `body` at every row of trajectory.csv, the initial state first."""
    path = os.path.join(folder, "trajectory.csv")
    rows = []
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            if reader.fieldnames is None or not {"body", "time", "vx", "vy"} <= set(reader.fieldnames):
                fail(f"{path}: expected the columns body, time, vx, vy (a 2D run)")
            for row in reader:
                if row["body"] == body:
                    rows.append((float(row["time"]), float(row["vx"]), float(row["vy"])))
    except OSError as e:
        fail(f"{path}: cannot read the trajectory ({e})")
    except ValueError as e:
        fail(f"{path}: a number could not be read ({e})")
    if len(rows) < 2:
        fail(f"{path}: fewer than two rows of body '{body}' (--body names the moving body)")
    return rows


def trap_result(folder, body):
    rows = read_speeds(folder, body)
    speeds = [abs(vx) for _, vx, _ in rows]
    start = speeds[0]
    drop, before, after = 0.0, start, start
    for a, b in zip(speeds, speeds[1:]):
        if a - b > drop:
            drop, before, after = a - b, a, b
    up = max(vy for _, _, vy in rows[1:])
    return {"start": start, "drop": drop, "before": before, "after": after, "up": up,
            "end": speeds[-1]}


def trap_words(t, numbers):
    """The slider's fate in words; `numbers` adds the speeds."""
    lost = t["drop"] > KEPT_FRACTION * t["start"]
    if lost:
        words = f"slider loses {100 * t['drop'] / t['before']:.0f}% of its speed in one step"
        if numbers:
            words += f" (vx {t['before']:.2f} -> {t['after']:.2f} m/s)"
    else:
        words = f"slider keeps {t['start']:.2f} m/s"
    if t["up"] > KEPT_FRACTION * t["start"]:
        words += f"{' and' if lost else ','} is kicked up"
        if numbers:
            words += f" (vy +{t['up']:.2f} m/s)"
    return words


def failure_words(summary):
    n, free = summary["solver_failures"], summary.get("islands_flown_free", 0)
    words = f"{n} failed solve{'' if n == 1 else 's'}"
    if free:
        words += f" ({free} island{'' if free == 1 else 's'} flown free)"
    return words


def run_line(folder, summary, extra):
    return (f"  {os.path.basename(os.path.normpath(folder)):<22} {summary['steps_done']:>5} steps, "
            f"{failure_words(summary)}; {extra}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trap", nargs=2, required=True, metavar=("PEG_DIR", "STANDARD_DIR"))
    parser.add_argument("--pour", nargs=2, required=True, metavar=("PEG_DIR", "STANDARD_DIR"))
    parser.add_argument("--body", default="slider", help="the moving body of the trap")
    args = parser.parse_args()

    runs = []
    for trap_dir, pour_dir in zip(args.trap, args.pour):
        trap_summary, pour_summary = read_summary(trap_dir), read_summary(pour_dir)
        if trap_summary["model"] != pour_summary["model"]:
            fail(f"{trap_dir} and {pour_dir} ran different models "
                 f"({trap_summary['model']}, {pour_summary['model']})")
        runs.append((trap_dir, trap_summary, trap_result(trap_dir, args.body), pour_dir,
                     pour_summary))
    for trap_dir, trap_summary, trap, _, _ in runs:
        print(run_line(trap_dir, trap_summary, trap_words(trap, numbers=True)))
    for _, _, _, pour_dir, pour_summary in runs:
        unit = "m^2" if pour_summary.get("dimension", 2) == 2 else "m^3"
        print(run_line(pour_dir, pour_summary,
                       f"median overlap {pour_summary.get('median_overlap', float('nan')):.2e} "
                       f"{unit}, {pour_summary.get('wall_seconds', float('nan')):.1f} s"))
    parts = []
    for _, trap_summary, trap, _, pour_summary in runs:
        name = "PEG" if pour_summary["model"] == "peg" else f"{pour_summary['model']} model"
        failures = failure_words(pour_summary) + " in the pour"
        if trap_summary["solver_failures"]:
            failures += f" and {trap_summary['solver_failures']} in the trap"
        parts.append(f"{name}: {failures}, {trap_words(trap, numbers=False)}")
    print("verdict: " + "; ".join(parts) + ".")


if __name__ == "__main__":
    main()
