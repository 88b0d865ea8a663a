#!/usr/bin/python3
"""Plots of PLUS against the compliant model from `exactsim reproduce plus-vs-compliant`.

Usage: /usr/bin/python3 scripts/plot_compliant.py DIR
DIR is the folder the command wrote (e.g. results/plus-vs-compliant). Writes there:
  example1_mu{0.125,0.225,0.325}.png  Example 1, one figure per mu (paper Figs. 8-9 style):
                       left, tangential velocity of the contact point; right, accumulated
                       tangential impulses against the accumulated normal impulse.
                       Solid = compliant (RK-Merson 1e-5), dashed with dots = PLUS intervals.
  example1_theta_max.png  mu = 0.325, PLUS at theta_max = 0.01, 0.15, 0.25 against compliant
                       (paper Fig. 10).
  example2_impulses.png   Example 2, accumulated impulses per point (paper Fig. 12).
  example2_penetration.png compliant penetration depth of each point against time (Fig. 13).
  example4_cpu.png     Example 4, CPU time of the impact against stiffness, log-log (Fig. 15b).
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

DPI = 100


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def col(rs, key):
    return [float(r[key]) for r in rs]


def compliant(path, sphere=None):
    rs = rows(path)
    if sphere is not None:
        rs = [r for r in rs if int(r["sphere"]) == sphere]
    return rs


def example1(d):
    for mu in ("0.125", "0.225", "0.325"):
        c = compliant(os.path.join(d, f"example1_compliant_mu{mu}.csv"))
        p = rows(os.path.join(d, f"example1_plus_mu{mu}_theta0.01.csv"))
        fig, ax = plt.subplots(1, 2, figsize=(11, 4.5))
        ax[0].plot(col(c, "v_t1"), col(c, "v_t2"), "-", lw=5, alpha=0.35, label="compliant")
        ax[0].plot(col(p, "v_t1"), col(p, "v_t2"), "--.", ms=3, label="PLUS (θ_max 0.01)")
        ax[0].set_xlabel("v_t1 [m/s]")
        ax[0].set_ylabel("v_t2 [m/s]")
        ax[0].set_title(f"μ = {mu}: tangential velocity of the contact point")
        ax[0].axis("equal")
        ax[0].legend()
        for key in ("p_t1", "p_t2"):
            line = ax[1].plot(col(c, "p_n"), col(c, key), "-", lw=5, alpha=0.35,
                              label=f"compliant {key}")
            ax[1].plot(col(p, "p_n"), col(p, key), "--.", ms=3, color=line[0].get_color(),
                       label=f"PLUS {key}")
        ax[1].set_xlabel("accumulated normal impulse [N s]")
        ax[1].set_ylabel("accumulated tangential impulse [N s]")
        ax[1].set_title("accumulated impulses")
        ax[1].legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(os.path.join(d, f"example1_mu{mu}.png"), dpi=DPI)
        plt.close(fig)
    c = compliant(os.path.join(d, "example1_compliant_mu0.325.csv"))
    fig, ax = plt.subplots(figsize=(6, 5))
    ax.plot(col(c, "v_t1"), col(c, "v_t2"), "k-", lw=5, alpha=0.3, label="compliant")
    for theta in ("0.01", "0.15", "0.25"):
        p = rows(os.path.join(d, f"example1_plus_mu0.325_theta{theta}.csv"))
        ax.plot(col(p, "v_t1"), col(p, "v_t2"), "--.", ms=3,
                label=f"PLUS θ_max {theta} ({len(p) - 1} intervals)")
    ax.set_xlabel("v_t1 [m/s]")
    ax.set_ylabel("v_t2 [m/s]")
    ax.set_title("μ = 0.325: sliding path against θ_max")
    ax.axis("equal")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(d, "example1_theta_max.png"), dpi=DPI)
    plt.close(fig)


def example2(d):
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    fig2, ax2 = plt.subplots(1, 2, figsize=(11, 4.2))
    for j, face in enumerate(("ry", "identity")):
        c_all = rows(os.path.join(d, f"example2_compliant_{face}.csv"))
        spheres = sorted({int(r["sphere"]) for r in c_all})
        for k, s in enumerate(spheres):
            c = [r for r in c_all if int(r["sphere"]) == s]
            path = os.path.join(d, f"example2_plus_{face}_point{k}.csv")
            line = axes[j].plot(col(c, "p_n"), col(c, "p_t1"), "-", lw=5, alpha=0.35,
                                label=f"compliant point {k}")
            if os.path.exists(path):
                p = rows(path)
                axes[j].plot(col(p, "p_n"), col(p, "p_t1"), "--.", color=line[0].get_color(),
                             label=f"PLUS point {k}")
            ax2[j].plot([1e3 * t for t in col(c, "t")], [1e6 * x for x in col(c, "depth")],
                        label=f"point {k} (sphere {s})")
        title = "R_y(π/2)" if face == "ry" else "identity"
        axes[j].set_title(f"face {title}: accumulated impulses per point")
        axes[j].set_xlabel("normal impulse [N s]")
        axes[j].set_ylabel("tangential impulse t1 [N s]")
        axes[j].legend(fontsize=7)
        ax2[j].set_title(f"face {title}: compliant penetration")
        ax2[j].set_xlabel("time since first touch [ms]")
        ax2[j].set_ylabel("depth [µm]")
        ax2[j].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(d, "example2_impulses.png"), dpi=DPI)
    fig2.tight_layout()
    fig2.savefig(os.path.join(d, "example2_penetration.png"), dpi=DPI)
    plt.close(fig)
    plt.close(fig2)


def example4(d):
    rs = rows(os.path.join(d, "example4.csv"))
    fig, ax = plt.subplots(figsize=(6.5, 5))
    for model in ("plus", "rk-merson", "explicit-euler", "semi-explicit-euler", "implicit-euler"):
        pts = [(float(r["stiffness"]), float(r["cpu_seconds"])) for r in rs
               if r["model"] == model and r["cpu_seconds"]]
        if pts:
            ax.loglog([p[0] for p in pts], [p[1] for p in pts], "o-" if model != "plus" else "k--s",
                      label=model)
    ax.set_xlabel("stiffness E [Pa]")
    ax.set_ylabel("CPU time of the impact [s]")
    ax.set_title("Example 4: triple pendulum impact")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(d, "example4_cpu.png"), dpi=DPI)
    plt.close(fig)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    example1(d)
    example2(d)
    example4(d)
    print(f"plots written to {d}")


if __name__ == "__main__":
    main()
