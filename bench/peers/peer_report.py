#!/usr/bin/env python3
"""The peer benchmark's report (docs/peers.md "Measured"), generated from the engine sweeps'
tables: per scene, engines as rows and h as columns; the accuracy-matched table (for each
engine the cheapest run reaching a max depth with no body lost, and exactsim's time ratio there);
the largest h at which each engine loses no body; and, for the incline, each run's error against
the analytic stick/slip motion.

usage: peer_report.py [--incline LABEL] LABEL=DIR[,DIR...]...   (Markdown on stdout)"""
import argparse
import csv
import json
import math
import os

from peer_results import ENGINES, parse_scenes, run_name, sound

DEPTHS = [0.001, 0.005]  # m: the accuracy-matched table's thresholds


def num(x, digits=3):
    return "0" if x == 0 else f"{x:.{digits}g}"


def variant(r):
    """The run's axes other than engine and step (the incline's friction), as text."""
    return ", ".join(f"{k.split('.')[-1]} = {v}" for k, v in r["axes"].items()
                     if k not in ("engine", "time.step"))


def engine_order(rows):
    return sorted({r["engine"] for r in rows}, key=lambda e: (ENGINES + [e]).index(e))


def cell(r):
    if r["runs"] == 0 or r["max_penetration"] is None:
        return "failed" if r["failed"] else "—"
    text = (f"{num(1e3 * r['max_penetration'])} mm · {num(r['overlap_median'])} · "
            f"{num(r['ms_per_simulated_second'])} ms")
    if r["bodies_left"]:
        text += f" · **{int(r['bodies_left'])} lost**"
    if r["blew_up"]:
        text += " · **blew up**"
    if r["failed"]:
        text += " · stopped"
    return text


def scene_table(label, rows, dim_unit):
    hs = sorted({r["h"] for r in rows})
    out = [f"\n**{label}**: max depth · median overlap ({dim_unit}) · ms per simulated second\n",
           "| engine | " + " | ".join(f"h = {h:g}" for h in hs) + " |",
           "|---|" + "---|" * len(hs)]
    keys = []
    for e in engine_order(rows):
        for v in sorted({variant(r) for r in rows if r["engine"] == e}):
            keys.append((e, v))
    for e, v in keys:
        by_h = {r["h"]: r for r in rows if r["engine"] == e and variant(r) == v}
        name = e + (f" ({v})" if v else "")
        out.append(f"| {name} | " + " | ".join(cell(by_h[h]) if h in by_h else "not run"
                                               for h in hs) + " |")
    return out


def cheapest(rows, depth):
    ok = [r for r in rows if sound(r) and r["max_penetration"] <= depth]
    return min(ok, key=lambda r: r["ms_per_simulated_second"]) if ok else None


def matched_table(scenes):
    engines = engine_order([r for rows in scenes.values() for r in rows])
    out = ["\n| scene | max depth | " + " | ".join(engines) + " |",
           "|---|---|" + "---|" * len(engines)]
    for label, rows in scenes.items():
        for v in sorted({variant(r) for r in rows}):
            group = [r for r in rows if variant(r) == v]
            name = label + (f" ({v})" if v else "")
            for depth in DEPTHS:
                best = {e: cheapest([r for r in group if r["engine"] == e], depth) for e in engines}
                own = best.get("exactsim")
                cells = []
                for e in engines:
                    b = best[e]
                    runs = [r for r in group if r["engine"] == e]
                    if not runs:
                        cells.append("not run")
                    elif b is None:
                        depths = [r["max_penetration"] for r in runs if sound(r)]
                        cells.append("none" + (f" (≥ {num(1e3 * min(depths), 2)} mm)"
                                               if depths else " (every run lost a body)"))
                    else:
                        text = f"h = {b['h']:g}: {num(b['ms_per_simulated_second'])}"
                        if e != "exactsim" and own is not None:
                            text += (f" ({num(own['ms_per_simulated_second'] / b['ms_per_simulated_second'], 2)})")
                        cells.append(text)
                out.append(f"| {name} | ≤ {num(1e3 * depth)} mm | " + " | ".join(cells) + " |")
    return out


def largest_h_table(scenes):
    engines = engine_order([r for rows in scenes.values() for r in rows])
    out = ["\n| scene | " + " | ".join(engines) + " |", "|---|" + "---|" * len(engines)]
    for label, rows in scenes.items():
        cells = []
        for e in engines:
            runs = sorted((r for r in rows if r["engine"] == e), key=lambda r: r["h"])
            if not runs:
                cells.append("not run")
                continue
            # every variant (the incline's frictions) of a step must be sound
            hs = sorted({r["h"] for r in runs})
            good = [h for h in hs if all(sound(r) for r in runs if r["h"] == h)]
            text = f"{good[-1]:g}" if good else "none"
            worse = [r for r in runs if not sound(r) and (not good or r["h"] > good[-1])]
            if worse:
                w = min(worse, key=lambda r: r["h"])
                why = (f"{int(w['bodies_left'])} lost" if w["bodies_left"]
                       else "blew up" if w["blew_up"] else "failed")
                text += f" ({why} at {w['h']:g})"
            elif good and good[-1] == max(hs):
                text += " (the largest run)"
            cells.append(text)
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    return out


def incline_error(folder):
    """Max over the recorded states of |x(t) − x_analytic(t)| of the block along the slope (m),
    and the analytic and measured displacement at the end."""
    with open(os.path.join(folder, "scene.json")) as f:
        scene = json.load(f)
    g = scene["gravity"]
    gn = math.sqrt(sum(c * c for c in g))
    sin_t, cos_t = g[0] / gn, -g[2] / gn
    block = next(b for b in scene["bodies"] if not b.get("static"))
    mu = block.get("friction", scene.get("contact", {}).get("friction", 0))
    a = 0.0 if sin_t <= mu * cos_t else gn * (sin_t - mu * cos_t)
    x0 = None
    err, last = 0.0, (0.0, 0.0)
    with open(os.path.join(folder, "trajectory.csv")) as f:
        for r in csv.DictReader(f):
            if r["body"] != block["name"]:
                continue
            t, x = float(r["time"]), float(r["x"])
            if x0 is None:
                x0, t0 = x, t
            dx, exact = x - x0, 0.5 * a * (t - t0) ** 2
            err = max(err, abs(dx - exact))
            last = (exact, dx)
    return err, last[0], last[1], a > 0


def incline_table(rows):
    out = ["\n| engine | friction | motion | " + " | ".join(
        f"h = {h:g}" for h in sorted({r['h'] for r in rows})) + " |"]
    hs = sorted({r["h"] for r in rows})
    out.append("|---|---|---|" + "---|" * len(hs))
    for e in engine_order(rows):
        for v in sorted({variant(r) for r in rows if r["engine"] == e}):
            cells, motion = [], ""
            for h in hs:
                r = next((r for r in rows if r["engine"] == e and variant(r) == v and r["h"] == h),
                         None)
                d = os.path.join(r["folder"], "runs", run_name(r)) if r else None
                if not d or not os.path.exists(os.path.join(d, "trajectory.csv")):
                    cells.append("—")
                    continue
                err, exact, got, slips = incline_error(d)
                motion = f"slips {num(exact)} m" if slips else "sticks"
                cells.append(f"{num(1e3 * err)} mm (end: {num(got)} m)")
            out.append(f"| {e} | {v.split('= ')[-1]} | {motion} | " + " | ".join(cells) + " |")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenes", nargs="+", help="LABEL=DIR[,DIR...]: a scene's sweep folders")
    ap.add_argument("--incline", help="the label of the incline scene (its runs keep their "
                    "trajectories): its error against the analytic stick/slip motion")
    ap.add_argument("--units", default="", help="LABEL=m²,... the overlap unit of 2D scenes")
    a = ap.parse_args()
    scenes = parse_scenes(a.scenes)
    units = dict(u.split("=") for u in a.units.split(",") if u)
    lines = ["## Per scene"]
    for label, rows in scenes.items():
        lines += scene_table(label, rows, units.get(label, "m³"))
    lines += ["\n## The cheapest run that reaches a depth with no body lost",
              "\nms per simulated second; in brackets exactsim's time over the engine's "
              "(below 1: exactsim is cheaper).",
              *matched_table(scenes),
              "\n## The largest step with no body lost", *largest_h_table(scenes)]
    if a.incline:
        lines += ["\n## The incline against the analytic stick/slip motion",
                  "\nLargest |x(t) − x_exact(t)| of the block along the slope over the run, and "
                  "its displacement at the end.", *incline_table(scenes[a.incline])]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
