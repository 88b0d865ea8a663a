#!/usr/bin/env python3
"""The peer benchmark's accuracy–cost plot (docs/peers.md "Measured"): per scene (a row of
panels), ms per simulated second against max depth and against median overlap, log–log, one
curve per engine through its step sizes (labelled by h). Runs that lost a body or blew up are
drawn hollow; an overlap of exactly 0 is drawn at the panel's floor (marked "0").

usage: peer_plot.py --out PLOT.png LABEL=DIR[,DIR...]..."""
import argparse

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from peer_results import ENGINES, parse_scenes  # noqa: E402

COLORS = {"exactsim": "C3", "bullet": "C0", "ode": "C2", "mujoco": "C1"}
MARKERS = {"exactsim": "o", "bullet": "s", "ode": "^", "mujoco": "D"}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenes", nargs="+", help="LABEL=DIR[,DIR...]: a scene's sweep folders")
    ap.add_argument("--out", required=True)
    ap.add_argument("--title", default="")
    a = ap.parse_args()
    scenes = parse_scenes(a.scenes)
    fig, axes = plt.subplots(len(scenes), 2, figsize=(10, 3.2 * len(scenes)), squeeze=False)
    for row, (label, rows) in enumerate(scenes.items()):
        # the incline's variants (frictions) would mix two scenes: the first one only
        variants = sorted({tuple(v for k, v in r["axes"].items()
                                 if k not in ("engine", "time.step")) for r in rows})
        shown = [r for r in rows if tuple(v for k, v in r["axes"].items()
                                          if k not in ("engine", "time.step")) == variants[0]]
        suffix = f" ({', '.join(variants[0])})" if variants[0] else ""
        for col, (metric, what) in enumerate([("max_penetration", "max depth (m)"),
                                              ("overlap_median", "median overlap")]):
            ax = axes[row][col]
            positive = [r[metric] for r in shown if r[metric]]
            floor = min(positive) / 10 if positive else 1e-12
            for e in [e for e in ENGINES if any(r["engine"] == e for r in shown)]:
                runs = sorted((r for r in shown if r["engine"] == e and r[metric] is not None
                               and r["ms_per_simulated_second"]), key=lambda r: r["h"])
                if not runs:
                    continue
                xs = [r[metric] if r[metric] > 0 else floor for r in runs]
                ys = [r["ms_per_simulated_second"] for r in runs]
                ax.plot(xs, ys, "-", color=COLORS.get(e), alpha=0.6)
                for r, x, y in zip(runs, xs, ys):
                    ok = not r["bodies_left"] and not r["blew_up"] and not r["failed"]
                    ax.plot(x, y, MARKERS.get(e, "o"), color=COLORS.get(e),
                            mfc=COLORS.get(e) if ok else "none",
                            label=e if r is runs[0] else None)
                    ax.annotate(f"{r['h']:g}" + ("" if r[metric] > 0 else " (0)"), (x, y),
                                fontsize=6, xytext=(3, 2), textcoords="offset points")
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel(what)
            ax.set_ylabel("ms per simulated s")
            ax.set_title(label + suffix, fontsize=9)
            ax.grid(True, which="major", alpha=0.3)
            if row == 0 and col == 0:
                ax.legend(fontsize=7)
    if a.title:
        fig.suptitle(a.title, fontsize=10)
    fig.tight_layout()
    fig.savefig(a.out, dpi=110)


if __name__ == "__main__":
    main()
