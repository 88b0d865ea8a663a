#!/usr/bin/python3
"""Plots of the PEG paper's 2D pouring experiment from `exactsim reproduce peg2d` output.

Usage: /usr/bin/python3 scripts/plot_peg2d.py DIR [RUN]
DIR is the folder `exactsim reproduce peg2d --out OUT` wrote (OUT/peg2d or OUT/peg2d-quick); writes:
  fig21_overlap_vs_h.png  median total overlap area per step against h, log y, error bars from
                          the authors' Q1 to Q3 (median of halves), one series per model, pooled
                          over the sets; the archived numbers (docs/reproductions/peg2d.md) dashed
  fig22_sm_traps.png      potential contacts and I-constraints ("SM traps") per step of one run,
                          ticks at the steps whose solve failed
                          (RUN = file stem in DIR/results; default model=peg,step=0.005,set=b,
                          else model=standard,step=0.005,set=b)
Zero overlaps cannot be drawn on a log axis: values below FLOOR are drawn at FLOOR.
"""
import csv
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FLOOR = 1e-20
DPI = 100
COLOURS = {"peg": "tab:blue", "standard": "tab:red", "corrective": "tab:green"}
H_ARCHIVE = [0.001 * k for k in range(1, 17)]
# The authors' archive (docs/reproductions/peg2d.md), recomputed from the authors' .mat files: median, Q1, Q3 (halves).
ARCHIVE = {
    "PEG (archive, pooled)": (
        [1.6e-12, 1.4e-11, 1.2e-10, 3.2e-10, 2.9e-10, 1.0e-09, 2.7e-09, 6.0e-09,
         1.1e-08, 2.3e-08, 1.2e-08, 8.2e-09, 1.1e-07, 6.1e-09, 2.7e-08, 9.5e-08],
        [4e-19, 9e-19, 1e-18, 1e-18, 9e-19, 1e-18, 1e-18, 1e-18,
         2e-18, 1e-18, 2e-18, 8e-18, 4e-17, 1e-17, 3e-18, 3e-18],
        [1.1e-10, 1.3e-09, 1.5e-08, 2.9e-08, 5.1e-08, 1.4e-07, 2.2e-07, 4.2e-07,
         6.6e-07, 1.3e-06, 1.2e-06, 1.9e-06, 4.3e-06, 1.0e-06, 2.0e-06, 2.6e-06]),
    "Corrective (archive, set a)": (
        [4.9e-10, 5.0e-08, 1.0e-06, 2.2e-06, 1.0e-05, 2.2e-05, 5.4e-05, 5.1e-05,
         1.0e-04, 1.7e-04, 3.2e-04, 3.6e-04, 3.5e-04, 6.0e-04, 6.0e-04, 7.2e-04],
        None, None),
}


def read_results(path):
    series = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if not row["median"]:
                continue
            s = series.setdefault(row["model"], {"h": [], "med": [], "q1": [], "q3": []})
            s["h"].append(float(row["h"]))
            s["med"].append(float(row["median"]))
            s["q1"].append(float(row["q1_halves"]))
            s["q3"].append(float(row["q3_halves"]))
    return series


def fig21(series, out):
    fig, ax = plt.subplots(figsize=(8.6, 4.4))
    clip = lambda xs: [max(x, FLOOR) for x in xs]  # noqa: E731
    for i, (model, s) in enumerate(sorted(series.items())):
        med = clip(s["med"])
        lo = [m - max(q, FLOOR) for m, q in zip(med, s["q1"])]
        hi = [max(q, FLOOR) - m for m, q in zip(med, s["q3"])]
        shift = 1 + 0.04 * (i - 1)  # small horizontal offsets keep the error bars apart
        ax.errorbar([h * shift for h in s["h"]], med, yerr=[lo, hi], marker="o", ms=4, capsize=3,
                    color=COLOURS.get(model), label=model + " (this run)")
    for (name, (med, _, _)), style in zip(ARCHIVE.items(), (":", "--")):
        ax.plot(H_ARCHIVE, med, style, color="grey", lw=1.2, label=name + ", median")
    ax.set_yscale("log")
    ax.text(0.01, 0.01, "values < %g drawn at %g" % (FLOOR, FLOOR), transform=ax.transAxes, fontsize=7,
            color="grey")
    ax.set_xlabel("time step h (s)")
    ax.set_ylabel("total overlap area per step (m²)")
    ax.set_title("2D pouring: median and Q1–Q3 (median of halves)")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    fig.savefig(out, dpi=DPI)
    plt.close(fig)


def fig22(run_path, out):
    with open(run_path) as f:
        run = json.load(f)
    point, series = run["params"]["point"], run["result"]["series"]
    h = point["time.step"]
    contacts, intercontacts = series["contacts"], series["I"]
    t = [h * (k + 1) for k in range(len(contacts))]
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    ax.plot(t, contacts, lw=0.8, color="tab:blue", label="potential contacts")
    ax.plot(t, intercontacts, lw=0.8, color="tab:red", label="I-constraints (SM traps)")
    failed = [k for k, s in enumerate(series["status"]) if s == "solver_failed"]
    if failed:  # a run without continuation would have stopped at the first of these
        ax.plot([h * (k + 1) for k in failed], [-1.5] * len(failed), "|", color="black",
                ms=6, mew=0.5, label="failed solves (%d, continued)" % len(failed))
    ax.set_xlabel("time (s)")
    ax.set_ylabel("count per step")
    ax.set_title("%s, set %s, h = %g s" % (point["contact.model"], point["scenario.set"], h))
    ax.legend(fontsize=8)
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=DPI)
    plt.close(fig)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    d = sys.argv[1]
    fig21(read_results(os.path.join(d, "results.csv")), os.path.join(d, "fig21_overlap_vs_h.png"))
    runs = os.path.join(d, "results")
    names = [sys.argv[2]] if len(sys.argv) == 3 else [
        "model=peg,step=0.005,set=b", "model=standard,step=0.005,set=b"]
    for name in names:
        path = os.path.join(runs, name + ".json")
        if os.path.exists(path):
            fig22(path, os.path.join(d, "fig22_sm_traps.png"))
            break
    else:
        print("no run file among %s in %s: fig22 not drawn" % (names, runs), file=sys.stderr)


if __name__ == "__main__":
    main()
