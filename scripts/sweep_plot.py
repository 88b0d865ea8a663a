#!/usr/bin/env python3
"""Plot a metric of a sweep's table against one axis, one curve per value of another
(docs/sweeps.md "Plotting").

  sweep_plot.py DIR/table.csv --metric max_overlap --x time.step [--group contact.friction]
                [--where contact.model=peg ...] [--stat median|q1|q3|max] [--logx] [--logy]
                [--out plot.png]

Each curve is the metric's median (or --stat) over the runs of each axis point, with a band from
the first to the third quartile. Every axis other than --x and --group must be fixed by --where
(or have one value). Exit 2 on bad input, with a message naming the column or value.
"""
import argparse
import csv
import sys

STATS = ("median", "q1", "q3", "max")


def fail(message):
    print(f"sweep_plot.py: error: {message}", file=sys.stderr)
    sys.exit(2)


def number(text):
    try:
        return float(text)
    except ValueError:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("table", help="a sweep's table.csv")
    ap.add_argument("--metric", required=True, help="a recorded metric (a column METRIC.median)")
    ap.add_argument("--x", required=True, help="the axis along the horizontal")
    ap.add_argument("--group", help="one curve per value of this axis")
    ap.add_argument("--where", action="append", default=[], help="PATH=VALUE: keep these rows")
    ap.add_argument("--stat", default="median", choices=STATS)
    ap.add_argument("--logx", action="store_true")
    ap.add_argument("--logy", action="store_true")
    ap.add_argument("--out", default="sweep.png", help="PNG file (default sweep.png)")
    a = ap.parse_args()

    try:
        with open(a.table, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail(f"{a.table}: cannot read ({e.strerror})")
    if not rows:
        fail(f"{a.table}: no rows")
    columns = list(rows[0].keys())
    axes = columns[: columns.index("runs")]
    for name, what in ((a.x, "--x"), (a.group, "--group")):
        if name is not None and name not in axes:
            fail(f"{what}: '{name}' is not an axis of {a.table} (axes: {', '.join(axes)})")
    if f"{a.metric}.{a.stat}" not in columns:
        metrics = sorted({c.rsplit(".", 1)[0] for c in columns if c.endswith(".median")})
        fail(f"--metric: '{a.metric}' is not in {a.table} (metrics: {', '.join(metrics)})")
    for w in a.where:
        path, _, value = w.partition("=")
        if path not in axes or not _:
            fail(f"--where: '{w}' is not PATH=VALUE with PATH an axis ({', '.join(axes)})")
        rows = [r for r in rows if r[path] == value]
        if not rows:
            fail(f"--where: no row has {path} = {value}")
    free = [p for p in axes if p not in (a.x, a.group) and len({r[p] for r in rows}) > 1]
    if free:
        fail("these axes have several values; fix them with --where PATH=VALUE: " +
             ", ".join(free))

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = {}
    for r in rows:
        groups.setdefault(r[a.group] if a.group else "", []).append(r)
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    numeric_x = all(number(r[a.x]) is not None for r in rows)
    for label, members in groups.items():
        members.sort(key=lambda r: number(r[a.x]) if numeric_x else r[a.x])
        kept = [r for r in members if r[f"{a.metric}.{a.stat}"] != ""]
        xs = [number(r[a.x]) if numeric_x else r[a.x] for r in kept]
        ys = [float(r[f"{a.metric}.{a.stat}"]) for r in kept]
        name = f"{a.group} = {label}" if a.group else a.metric
        line, = ax.plot(xs, ys, marker="o", label=name)
        if a.stat == "median":
            ax.fill_between(xs, [float(r[f"{a.metric}.q1"]) for r in kept],
                            [float(r[f"{a.metric}.q3"]) for r in kept], color=line.get_color(),
                            alpha=0.2, linewidth=0)
    if a.logx and numeric_x:
        ax.set_xscale("log")
    if a.logy:
        ax.set_yscale("log")
    ax.set_xlabel(a.x)
    ax.set_ylabel(f"{a.metric} ({a.stat}" + (", band q1-q3)" if a.stat == "median" else ")"))
    title = ", ".join(a.where)
    if title:
        ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(a.out, dpi=120)
    print(f"written: {a.out}")


if __name__ == "__main__":
    main()
