#!/usr/bin/python3
"""Where a pile's solve time goes, by the size of the step's largest island.

Reads the steps.jsonl of one or more `exactsim run` outputs and prints, per bin of the largest
island's LCP size k: the steps, Lemke pivots per step (summed over the step's islands), the
solve stage per step, the solve time per pivot, and the other stages per step (detection,
constraints, assembly, integration, metrics). docs/performance.md "Why a pile costs more than in Bullet".

  bench/solve_cost.py OUT1/steps.jsonl [OUT2/steps.jsonl ...]
"""
import json
import sys

BINS = [(1, 100), (100, 300), (300, 1000), (1000, 2000), (2000, 4000), (4000, 10**9)]
OTHER = ["detect", "constraints", "assemble", "integrate", "metrics"]


def steps_of(paths):
    for path in paths:
        with open(path) as f:
            for number, line in enumerate(f, 1):
                try:
                    step = json.loads(line)
                except json.JSONDecodeError as e:
                    sys.exit(f"{path}:{number}: not a JSON line ({e.msg})")
                if step.get("lcp_size", 0) > 0:
                    yield step


def main(paths):
    if not paths:
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    steps = list(steps_of(paths))
    print("| largest island k | steps | mean k | pivots / step | solve (ms / step) "
          "| solve per pivot (ms) | other stages (ms / step) |")
    print("|---|---|---|---|---|---|---|")
    for lo, hi in BINS:
        sel = [s for s in steps if lo <= s["largest_island_lcp"] < hi]
        if not sel:
            continue
        n = len(sel)
        k = sum(s["largest_island_lcp"] for s in sel) / n
        pivots = sum(s["solver"]["pivots"] for s in sel) / n
        solve = sum(s["seconds"]["solve"] for s in sel) / n * 1e3
        other = sum(sum(s["seconds"][o] for o in OTHER) for s in sel) / n * 1e3
        per_pivot = f"{solve / pivots:.3f}" if pivots > 0 else "–"
        label = f"{lo}–{hi - 1}" if hi < 10**9 else f"≥ {lo}"
        print(f"| {label} | {n} | {k:.0f} | {pivots:.0f} | {solve:.1f} | {per_pivot} "
              f"| {other:.2f} |")


if __name__ == "__main__":
    main(sys.argv[1:])
