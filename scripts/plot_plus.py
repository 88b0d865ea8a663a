#!/usr/bin/python3
"""Plots of the PLUS paper's Examples 1-2 from `exactsim reproduce plus` output.

Usage: /usr/bin/python3 scripts/plot_plus.py OUT_DIR
Reads the CSVs `exactsim reproduce plus --out DIR` writes to DIR/plus and writes there:
  fig8_slip_paths.png    tangential velocity of the contact point in the tangent plane,
                         mu = 0.125, 0.225, 0.325 at theta_max = 0.01 (paper Fig. 8)
  fig9_impulses.png      accumulated tangential impulses against accumulated normal impulse,
                         one panel per mu (paper Fig. 9)
  fig10_theta_max.png    mu = 0.325 at theta_max = 0.01, 0.15, 0.25 (paper Fig. 10)
  fig12_four_points.png  Example 2, accumulated impulses per point (paper Fig. 12)
Markers follow the paper: star = end of compression, triangle = sliding-to-rolling transition,
circle = total impulse (end of impact). Only the PLUS curves are drawn (the paper's solid compliant-contact
curves are not reproduced).
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

V_TRANSITION = 0.1  # m/s, ImpactOptions default (Table A1)
MUS = ("0.125", "0.225", "0.325")
THETAS = ("0.01", "0.15", "0.25")
DPI = 100
MU_NOTE = {"0.125": "slides throughout",
           "0.225": "rolls in expansion",
           "0.325": "rolls in compression"}


def read_path(path, contact=0):
    """Rows of one contact from an `*_path*.csv` interval log (row 0 = pre-impact state)."""
    with open(path) as f:
        return [r for r in csv.DictReader(f) if int(r["contact"]) == contact]


def col(rows, key):
    return [float(r[key]) for r in rows]


def compression_end(rows):
    """Index of the last row of round 1 (end of the first compression), or None."""
    idx = [i for i, r in enumerate(rows) if r["round"] == "1"]
    return idx[-1] if idx else None


def rolling_transition(rows):
    """Index of the row that ends the interval in which sliding turns to rolling, or None.

    The solver logs the limiting event of each interval; a transition taken at the start of an
    interval (slip already inside the disc) shows up as the first `rolling` row instead.
    """
    for i, r in enumerate(rows):
        if r["limit"] == "rolling_transition":
            return i
    for i, r in enumerate(rows):
        if r["friction"] in ("rolling", "impending"):
            return i - 1
    return None


def mark_events(ax, rows, xkey, ykeys, color="k"):
    """Star at the end of compression, triangle at rolling, circle at the total."""
    for i, marker, size in ((compression_end(rows), "*", 11),
                            (rolling_transition(rows), "^", 7),
                            (len(rows) - 1, "o", 6)):
        if i is None:
            continue
        for key in ykeys:
            ax.plot(float(rows[i][xkey]), float(rows[i][key]), marker, color=color, ms=size,
                    mec="k", zorder=5)


def event_legend_handles(last="total impulse"):
    style = dict(color="w", mec="k", mfc="k", ls="none")
    return [plt.Line2D([], [], marker="*", ms=11, label="end of compression", **style),
            plt.Line2D([], [], marker="^", ms=7, label="sliding → rolling", **style),
            plt.Line2D([], [], marker="o", ms=6, label=last, **style)]


def slip_axes(ax):
    ax.add_patch(plt.Circle((0, 0), V_TRANSITION, color="k", fill=False, lw=1.2))
    ax.set_aspect("equal")
    ax.set_xlabel(r"contact-point slip velocity $v_x$ (m/s)")
    ax.set_ylabel(r"$v_y$ (m/s)")
    ax.grid(True, alpha=0.3)


def zoom_panel(ax):
    """Second panel, around the origin: where the paths meet the v_transition circle."""
    ax.add_patch(plt.Circle((0, 0), V_TRANSITION, color="k", fill=False, lw=1.2))
    ax.set_xlim(-0.45, 0.2)
    ax.set_ylim(-0.15, 0.55)
    ax.set_aspect("equal")
    ax.grid(True, alpha=0.3)
    ax.set_xlabel(r"$v_x$ (m/s)")
    ax.set_title(r"zoom near the origin; circle: $v_{\rm transition}$ = 0.1 m/s", fontsize=9)


def slip_figure():
    return plt.subplots(1, 2, figsize=(11, 4.6), gridspec_kw={"width_ratios": [2.3, 1]})


def fig8(out):
    fig, (ax, zoom) = slip_figure()
    for k, mu in enumerate(MUS):
        rows = read_path(os.path.join(out, f"example1_path_mu{mu}_theta0.01.csv"))
        for a in (ax, zoom):
            a.plot(col(rows, "v_t1"), col(rows, "v_t2"), "--", color=f"C{k}",
                   label=rf"$\mu$ = {mu} ({MU_NOTE[mu]})")
            mark_events(a, rows, "v_t1", ["v_t2"], color=f"C{k}")
    slip_axes(ax)
    zoom_panel(zoom)
    ax.set_title(r"Example 1: slip path of the contact point (PLUS, "
                 r"$\theta_{\rm max}$ = 0.01 rad)", fontsize=10)
    handles, _ = ax.get_legend_handles_labels()
    ax.legend(handles=handles + event_legend_handles("end of impact"), fontsize=8, loc="upper left")
    fig.suptitle("Fig. 8 — tangential velocity of the contact point in the tangent plane",
                 fontsize=11)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "fig8_slip_paths.png"), dpi=DPI)
    plt.close(fig)


def fig9(out):
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.2), sharey=True)
    for ax, mu, tag in zip(axes, MUS, "abc"):
        rows = read_path(os.path.join(out, f"example1_path_mu{mu}_theta0.01.csv"))
        pn = col(rows, "p_n")
        ax.plot(pn, col(rows, "p_t1"), "--", color="C0", label=r"$p_x$ (tangential, x)")
        ax.plot(pn, col(rows, "p_t2"), "--", color="C3", label=r"$p_y$ (tangential, y)")
        mark_events(ax, rows, "p_n", ["p_t1", "p_t2"])
        ax.set_xlabel(r"accumulated normal impulse $p_n$ (N s)")
        ax.set_title(rf"({tag}) $\mu$ = {mu}: {MU_NOTE[mu]}", fontsize=10)
        ax.grid(True, alpha=0.3)
    axes[0].set_ylabel("accumulated tangential impulse (N s)")
    handles, _ = axes[0].get_legend_handles_labels()
    axes[0].legend(handles=handles + event_legend_handles(), fontsize=8, loc="lower left")
    fig.suptitle(r"Fig. 9 — Example 1: impulses accumulated by PLUS ($\theta_{\rm max}$ = 0.01 rad)",
                 fontsize=11)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "fig9_impulses.png"), dpi=DPI)
    plt.close(fig)


def fig10(out):
    fig, (ax, zoom) = slip_figure()
    for k, theta in enumerate(THETAS):
        path = os.path.join(out, f"example1_path_mu0.325_theta{theta}.csv")
        if not os.path.exists(path):
            continue
        rows = read_path(path)
        n = len(rows) - 1  # row 0 is the pre-impact state
        for a in (ax, zoom):
            a.plot(col(rows, "v_t1"), col(rows, "v_t2"), ".--", color=f"C{k}", ms=4,
                   label=rf"$\theta_{{\rm max}}$ = {theta} rad: {n} intervals")
            mark_events(a, rows, "v_t1", ["v_t2"], color=f"C{k}")
    slip_axes(ax)
    zoom_panel(zoom)
    ax.set_title(r"Example 1, $\mu$ = 0.325 (dots: ends of intervals)", fontsize=10)
    handles, _ = ax.get_legend_handles_labels()
    ax.legend(handles=handles + event_legend_handles("end of impact"), fontsize=8, loc="upper left")
    ax.set_ylim(-0.3, 2.3)
    fig.suptitle(r"Fig. 10 — effect of the maximum sliding-direction change $\theta_{\rm max}$",
                 fontsize=11)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "fig10_theta_max.png"), dpi=DPI)
    plt.close(fig)


def fig12(out):
    path = os.path.join(out, "example2_path.csv")
    with open(os.path.join(out, "example2.csv")) as f:
        summary = list(csv.DictReader(f))
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.4), sharey=True, sharex=True)
    sides = ((axes[0], "(a) x = −0.2 m: leading edge (brick slides toward −x)",
              [r for r in summary if float(r["x"]) < 0]),
             (axes[1], "(b) x = +0.2 m: trailing edge",
              [r for r in summary if float(r["x"]) > 0]))
    for ax, title, points in sides:
        # The two points on a side are mirror images (y = ±0.3): the second is drawn dotted on
        # top of the first, so a visible gap would be a symmetry defect.
        for j, p in enumerate(points):
            rows = read_path(path, int(p["contact"]))
            pn = col(rows, "p_n")
            where = f"point {p['contact']} (y = {float(p['y']):+.1f} m)"
            if j == 0:
                ax.plot(pn, col(rows, "p_t1"), "--", color="C0", lw=2.4, label=rf"{where}: $p_x$")
                ax.plot(pn, col(rows, "p_t2"), "--", color="C3", lw=2.4, label=rf"{where}: $p_y$")
            else:
                ax.plot(pn, col(rows, "p_t1"), ":", color="k", lw=1.2,
                        label=rf"{where}: $p_x$, $p_y$ (mirror)")
                ax.plot(pn, col(rows, "p_t2"), ":", color="k", lw=1.2)
            mark_events(ax, rows, "p_n", ["p_t1"])
        ax.set_title(title, fontsize=10)
        ax.set_xlabel(r"accumulated normal impulse $p_n$ (N s)")
        ax.grid(True, alpha=0.3)
        handles, _ = ax.get_legend_handles_labels()
        ax.legend(handles=handles + event_legend_handles(), fontsize=8, loc="upper left")
    axes[0].set_ylabel("accumulated tangential impulse (N s)")
    fig.suptitle(r"Fig. 12 — Example 2: four brick vertices hit at once ($\mu$ = 0.2, "
                 r"$e_{\rm min}$ = 0.414, axis-aligned brick)", fontsize=11)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "fig12_four_points.png"), dpi=DPI)
    plt.close(fig)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    fig8(out)
    fig9(out)
    fig10(out)
    fig12(out)
    print(f"plots written to {out}")


if __name__ == "__main__":
    main()
