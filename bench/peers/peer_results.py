"""The peer benchmark's results as the report and the plot read them (docs/peers.md "The
benchmark as a sweep"): the tables of engine sweeps (exactsim sweep's DIR/table.csv), one run per
row, grouped by scene.

A scene is given as LABEL=DIR[,DIR...]: the folders of the sweeps that ran it (the 100-hull pile's
peers and exactsim are two sweeps, exactsim's at fewer steps)."""
import csv
import os

ENGINES = ["exactsim", "bullet", "ode", "mujoco"]
METRICS = ["overlap_median", "overlap_q3", "overlap_max", "max_penetration", "bodies_left",
           "blew_up", "steps_done", "ms_per_simulated_second"]
# Over the runs a row pools (the random pours' seeds): the worst for these, the median for the rest.
WORST = {"max_penetration", "bodies_left", "blew_up"}


def read_table(folder):
    """The rows of one engine sweep's table.csv: engine, h, every axis value as written (in the
    sweep's order), runs, failed, and each metric's median, or its max for WORST (None where the
    runs have none)."""
    rows = []
    with open(os.path.join(folder, "table.csv")) as f:
        reader = csv.reader(f)
        header = next(reader)
        n_axes = header.index("runs")
        for cells in reader:
            r = dict(zip(header, cells))
            row = {"engine": r["engine"], "h": float(r["time.step"]), "folder": folder,
                   "runs": int(r["runs"]), "failed": int(r["failed"]),
                   "missing": int(r["missing"]), "axes": dict(zip(header[:n_axes], cells))}
            for m in METRICS:
                v = r.get(m + (".max" if m in WORST else ".median"), "")
                row[m] = float(v) if v else None
            rows.append(row)
    return rows


def parse_scenes(args):
    """LABEL=DIR[,DIR...] arguments to {label: [rows]} in the order given."""
    scenes = {}
    for a in args:
        label, _, dirs = a.partition("=")
        if not dirs:
            raise SystemExit(f"expected LABEL=DIR[,DIR...], got '{a}'")
        for d in dirs.split(","):
            scenes.setdefault(label, []).extend(read_table(d))
    return scenes


def sound(r):
    """A row whose runs all went to the end, lost no body and did not blow up."""
    return (r["runs"] >= 1 and r["failed"] == 0 and r["missing"] == 0 and r["bodies_left"] == 0
            and r["blew_up"] == 0 and r["max_penetration"] is not None)


def run_name(r):
    """The run's name in its sweep (its folder under runs/, its file under results/)."""
    return ",".join(f"{k.split('.')[-1]}={v}" for k, v in r["axes"].items())
