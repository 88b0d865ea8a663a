#!/usr/bin/python3
"""Plot of the PEG paper's 3D pouring experiment (Fig. 24 style) from `exactsim reproduce peg3d`.

Usage: /usr/bin/python3 scripts/plot_peg3d.py DIR
DIR is the folder `exactsim reproduce peg3d --out OUT` wrote (OUT/peg3d or OUT/peg3d-quick); writes
  fig24_overlap_vs_h.png  median total overlap volume per step against h, log y, error bars from
                          the authors' Q1 to Q3 (median of halves), one series per model and
                          protocol (icosahedra: solid, random polyhedra pooled over the seeds:
                          dashed); the archived icosahedron numbers (docs/reproductions/peg3d.md) grey
Zero overlaps cannot be drawn on a log axis: values below FLOOR are drawn at FLOOR.
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FLOOR = 1e-20
DPI = 100
COLOURS = {"peg": "tab:blue", "standard": "tab:red", "corrective": "tab:green"}
H_ARCHIVE = [0.001 * k for k in range(1, 17)]
# The authors' archive (single icosahedron runs, docs/reproductions/peg3d.md): medians; None = run failed.
ARCHIVE = {
    "PEG (archive)": [0, 3.2e-21, 1.8e-19, 1.7e-25, 1.4e-18, 2.5e-16, 9.0e-18, 8.0e-18,
                      2.8e-23, 0, 0, 6.0e-15, 4.4e-18, 1.6e-17, 0, 7.6e-14],
    "Corrective (archive)": [5.9e-15, 5.7e-13, 9.1e-12, None, 2.9e-09, 6.8e-09, 8.9e-09, 6.4e-08,
                             2.9e-08, 3.3e-07, 5.8e-07, 1.9e-06, 5.6e-06, 5.7e-06, 6.8e-06,
                             1.3e-05],
}


def read_results(path):
    series = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if not row["median"]:
                continue
            key = (row["model"], row["protocol"])
            s = series.setdefault(key, {"h": [], "med": [], "q1": [], "q3": []})
            s["h"].append(float(row["h"]))
            s["med"].append(float(row["median"]))
            s["q1"].append(float(row["q1_halves"]))
            s["q3"].append(float(row["q3_halves"]))
    return series


def fig24(series, out):
    fig, ax = plt.subplots(figsize=(9.0, 4.6))
    clip = lambda xs: [max(x, FLOOR) for x in xs]  # noqa: E731
    for i, ((model, protocol), s) in enumerate(sorted(series.items())):
        med = clip(s["med"])
        lo = [m - max(q, FLOOR) for m, q in zip(med, s["q1"])]
        hi = [max(q, FLOOR) - m for m, q in zip(med, s["q3"])]
        shift = 1 + 0.03 * (i - 2)  # small horizontal offsets keep the error bars apart
        ax.errorbar([h * shift for h in s["h"]], med, yerr=[lo, hi], marker="o", ms=4, capsize=3,
                    color=COLOURS.get(model), ls="-" if protocol == "ico" else "--",
                    label="%s, %s" % (model, "icosahedra" if protocol == "ico" else "random"))
    for (name, med), style in zip(ARCHIVE.items(), (":", "-.")):
        pts = [(h, max(m, FLOOR)) for h, m in zip(H_ARCHIVE, med) if m is not None]
        ax.plot([p[0] for p in pts], [p[1] for p in pts], style, color="grey", lw=1.2,
                label=name + ", median")
    ax.set_yscale("log")
    ax.text(0.01, 0.01, "values < %g drawn at %g" % (FLOOR, FLOOR), transform=ax.transAxes,
            fontsize=7, color="grey")
    ax.set_xlabel("time step h (s)")
    ax.set_ylabel("total overlap volume per step (m³)")
    ax.set_title("3D pouring: median and Q1–Q3 (median of halves)")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    fig.savefig(out, dpi=DPI)
    plt.close(fig)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    fig24(read_results(os.path.join(d, "results.csv")), os.path.join(d, "fig24_overlap_vs_h.png"))


if __name__ == "__main__":
    main()
