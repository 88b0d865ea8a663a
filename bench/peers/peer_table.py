#!/usr/bin/env python3
"""The peer benchmark's table (docs/peers.md "Measured"): peer_metrics JSON files in, one Markdown
table per scene out, a row per engine and step size.

usage: peer_table.py METRICS.json..."""
import json
import sys
from collections import defaultdict

runs = []
for path in sys.argv[1:]:
    with open(path) as f:
        runs.extend(json.load(f))

by_scene = defaultdict(list)
for r in runs:
    by_scene[r["scene"]].append(r)

ORDER = {"exactsim": 0, "bullet": 1, "ode": 2, "mujoco": 3}


def volume(x, d):
    unit = "m³" if d == 3 else "m²"
    return f"{x:.3g} {unit}" if x else "0"


for scene, rows in sorted(by_scene.items()):
    d = rows[0]["dimension"]
    print(f"\n**{scene}**\n")
    print("| engine | h (s) | steps | overlap median | overlap Q3 | overlap max | max depth (mm) "
          "| left container | blow-up | ms / simulated s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in sorted(rows, key=lambda r: (ORDER.get(r["engine"], 9), r["step"])):
        steps = f"{r['steps_done']}/{r['steps_planned']}"
        if r.get("stopped"):
            steps += " (stopped)"
        blow = f"step {r['blow_up_step']}" if r["blew_up"] else "no"
        print(f"| {r['engine']} {r['version']} | {r['step']:g} | {steps} "
              f"| {volume(r['overlap_median'], d)} | {volume(r['overlap_q3'], d)} "
              f"| {volume(r['overlap_max'], d)} | {1e3 * r['max_penetration']:.3g} "
              f"| {r['bodies_left']} | {blow} | {r['ms_per_simulated_second']:.4g} |")
