#!/usr/bin/env python3
"""`exactsim sweep` end to end (docs/sweeps.md): the same table from --jobs 1 and --jobs 2, from a
sweep killed (SIGKILL) after some runs finished and then resumed, from two --part folders
merged, and from `mpirun -n 3` when the MPI runner is built (also with a run that crashes, and with
a worker rank killed); runs ended by --run-timeout; trajectories bit-identical between the runners; malformed sweep files exit 2 naming the file, the JSON path and the reason.

usage: cli_sweep_test.py EXACTSIM_CLI SOURCE_DIR WORK_DIR [--mpi]
"""
import csv
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time

# 12 runs of a 2D pour (20 random polygons, 4 s), each 0.05-0.3 s of wall time in Release.
SWEEP = {
    "format": "exactsim-sweep",
    "version": 1,
    "name": "pour-test",
    "scenario": {"name": "pour2d-random"},
    "set": {"time.duration": 4},
    "axes": [
        {"path": "scenario.seed", "range": {"from": 1, "to": 3, "step": 1}, "pool": True},
        {"path": "time.step", "values": [0.01, 0.005]},
        {"path": "contact.model", "values": ["peg", "standard"]},
    ],
    "record": {
        "summary": ["max_overlap", "max_penetration", "steps_done", "solver_failures",
                    "wall_seconds"],
        "series": ["overlap", "contacts"],
        "trajectory": True,
    },
}
RUNS = 12
TIMINGS = ("wall_seconds", "solver_seconds", "peak_memory_mb")

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def stage(name):
    """Names the part of the test that starts, so that a log cut short says where it was."""
    print("--", name, flush=True)


def finish(p, what, timeout):
    """The output of the process p once it ends. One still running after `timeout` s is killed
    with everything it started (mpirun's ranks) and counted as a failure, so that a hang is
    reported by name within the test's own time limit."""
    try:
        return p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        for q in children_of(p.pid):
            try:
                os.kill(q, signal.SIGKILL)
            except ProcessLookupError:
                pass
        p.kill()
        stdout, stderr = p.communicate()
        check(False, f"{what}: still running after {timeout} s, killed: {stdout} {stderr}")
        return stdout, stderr


def sweep(cli, *args, timeout=120):
    p = subprocess.run([cli, "sweep", *args], capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def table(out):
    """table.csv without the timing columns."""
    with open(os.path.join(out, "table.csv")) as f:
        rows = list(csv.reader(f))
    keep = [i for i, h in enumerate(rows[0]) if not h.startswith(TIMINGS)]
    return [[r[i] for i in keep] for r in rows]


def results(out):
    """Each run's result without timings."""
    found = {}
    folder = os.path.join(out, "results")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".json"):
            with open(os.path.join(folder, name)) as f:
                r = json.load(f)["result"]
            for t in TIMINGS:
                r.get("summary", {}).pop(t, None)
            found[name] = r
    return found


def trajectories(out):
    runs = os.path.join(out, "runs")
    found = {}
    for name in sorted(os.listdir(runs)):
        with open(os.path.join(runs, name, "trajectory.csv"), "rb") as f:
            found[name] = f.read()
    return found


def same_as_reference(out, reference, what):
    check(table(out) == table(reference), what + ": table.csv differs from --jobs 1's")
    check(results(out) == results(reference), what + ": results differ from --jobs 1's")
    check(trajectories(out) == trajectories(reference),
          what + ": trajectories differ from --jobs 1's")


def processes():
    """{pid: (parent pid, command name, state)} of the running processes."""
    found = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                text = f.read()
        except OSError:
            continue
        name = text[text.index("(") + 1:text.rindex(")")]
        state, ppid = text[text.rindex(")") + 2:].split()[:2]
        found[int(pid)] = (int(ppid), name, state)
    return found


def signal_during(p, cli, sig, rank):
    """Sends `sig` to a run's process of the MPI sweep `p` (rank=False) or to the worker rank
    running it (rank=True), once one is running; True when it was sent."""
    name_of_cli = os.path.basename(cli)[:15]  # (the kernel's process name)
    deadline = time.monotonic() + 60
    while p.poll() is None and time.monotonic() < deadline:
        procs = processes()
        for pid, (ppid, name, state) in procs.items():
            # A run's process: the command's, whose parent (a worker rank) is the command's too.
            if name == name_of_cli and state not in "ZX" and procs.get(ppid, ("", ""))[1] == \
                    name_of_cli:
                try:
                    os.kill(ppid if rank else pid, sig)
                    return True
                except ProcessLookupError:
                    break
        time.sleep(0.01)
    return False


def mpi_crash(cli, mpirun, sweep_file, out, ref):
    """A run that crashes under MPI (its process gets SIGSEGV) is reported and the sweep goes on;
    the next invocation redoes it."""
    p = subprocess.Popen([mpirun, "--allow-run-as-root", "--oversubscribe", "-n", "3", cli,
                          "sweep", sweep_file, "--out", out, "--quiet"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    crashed = signal_during(p, cli, signal.SIGSEGV, rank=False)
    stdout, stderr = finish(p, "mpirun with a crashing run", 90)
    check(crashed, "mpirun: found a run's process to crash")
    check(p.returncode == 1 and "the run crashed (signal 11" in stderr and
          f"{RUNS - 1} with a result" in stdout,
          f"mpirun with a crashing run: status {p.returncode}: {stdout} {stderr}")
    with open(os.path.join(out, "table.md")) as f:
        check("the run crashed (signal 11" in f.read(), "table.md lists the crashed run")
    status, stdout, stderr = sweep(cli, sweep_file, "--out", out, "--quiet")
    check(status == 0 and f"1 ran, {RUNS - 1} done earlier" in stdout,
          "the crashed run is redone: " + stdout + stderr)
    same_as_reference(out, ref, "mpirun with a crashed run, then resumed")


def mpi_lost_rank(cli, mpirun, sweep_file, out, ref):
    """A worker rank that is killed (SIGKILL, as a lost node) under mpirun --enable-recovery is
    reported after --rank-timeout with its run left without a result, the other worker finishes
    the sweep, and the next invocation redoes that run."""
    p = subprocess.Popen([mpirun, "--allow-run-as-root", "--oversubscribe", "--enable-recovery",
                          "-n", "3", cli, "sweep", sweep_file, "--out", out, "--quiet",
                          "--rank-timeout", "2"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    killed = signal_during(p, cli, signal.SIGKILL, rank=True)
    stdout, stderr = finish(p, "mpirun with a lost rank", 90)
    check(killed, "mpirun: found a worker rank to kill")
    # (Under --enable-recovery, OpenMPI 4.1's mpirun exits 0 whatever rank 0 returns: the
    # summary line and table.md say what is missing.)
    check(p.returncode in (0, 1) and "was lost (no word from it for 2 s)" in stderr and
          f"{RUNS - 1} with a result" in stdout,
          f"mpirun with a lost rank: status {p.returncode}: {stdout} {stderr}")
    status, stdout, stderr = sweep(cli, sweep_file, "--out", out, "--quiet")
    check(status == 0 and f"1 ran, {RUNS - 1} done earlier" in stdout,
          "the lost rank's run is redone: " + stdout + stderr)
    same_as_reference(out, ref, "mpirun with a lost rank, then resumed")


# A run of a few steps and one that takes minutes: --run-timeout ends the second.
HANG = {
    "format": "exactsim-sweep",
    "version": 1,
    "name": "hang-test",
    "scenario": {"name": "pour3d-random"},
    "set": {"time.step": 0.01},
    "axes": [{"path": "time.duration", "values": [0.5, 600]}],
    "record": {"summary": ["steps_done"]},
}


def children_of(pid):
    """The processes whose ancestry leads to `pid`."""
    procs = processes()
    found = []
    for p in procs:
        q = procs[p][0]
        while q > 1 and q != pid:
            q = procs.get(q, (0,))[0]
        if q == pid:
            found.append(p)
    return found


def run_timeouts(cli, mpi, mpirun, work):
    """`--run-timeout`: a run still going after it ends without a result (the next invocation
    runs it again), under threads, under MPI (its process killed) and as a peer driver that
    hangs (killed); the other runs are unaffected and nothing is left running."""
    hang_file = os.path.join(work, "hang.json")
    with open(hang_file, "w") as f:
        json.dump(HANG, f)
    expected = "duration=600: the run did not finish within 1 s (--run-timeout)"
    out = os.path.join(work, "hang-threads")
    status, stdout, stderr = sweep(cli, hang_file, "--out", out, "--jobs", "2", "--quiet",
                                   "--run-timeout", "1", timeout=60)
    check(status == 1 and "1 with a result (0 failed), 1 without" in stdout and
          expected in stderr, f"--run-timeout (threads): {status}: {stdout} {stderr}")
    check(os.listdir(os.path.join(out, "results")) == ["duration=0.5.json"],
          "--run-timeout (threads): only the finished run has a result file")
    if mpi and mpirun:
        out = os.path.join(work, "hang-mpi")
        p = subprocess.Popen([mpirun, "--allow-run-as-root", "--oversubscribe", "-n", "3", mpi,
                              "sweep", hang_file, "--out", out, "--quiet", "--run-timeout", "1"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        stdout, stderr = finish(p, "--run-timeout (MPI)", 60)
        check(p.returncode == 1 and "1 with a result (0 failed), 1 without" in stdout and
              expected in stderr, f"--run-timeout (MPI): {p.returncode}: {stdout} {stderr}")
        check(os.listdir(os.path.join(out, "results")) == ["duration=0.5.json"],
              "--run-timeout (MPI): only the finished run has a result file")
    # A peer driver that never ends.
    peers = os.path.join(work, "hung-peers")
    os.makedirs(peers)
    with open(os.path.join(peers, "peer_bullet"), "w") as f:
        f.write("#!/bin/sh\nexec sleep 600\n")
    os.chmod(os.path.join(peers, "peer_bullet"), 0o755)
    engines = {**HANG, "name": "hang-peer", "set": {"time.duration": 1, "time.step": 0.01},
               "axes": [{"path": "engine", "values": ["exactsim", "bullet"]}]}
    with open(hang_file, "w") as f:
        json.dump(engines, f)
    out = os.path.join(work, "hang-peer")
    p = subprocess.Popen([cli, "sweep", hang_file, "--out", out, "--quiet", "--peers", peers,
                          "--run-timeout", "1"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)
    started = children_of(p.pid)
    stdout, stderr = finish(p, "--run-timeout (a hung peer driver)", 60)
    check(p.returncode == 1 and "engine=bullet: peer_bullet: the run did not finish within 1 s "
          "(--run-timeout); killed" in stderr and "1 with a result" in stdout,
          f"--run-timeout (a hung peer driver): {p.returncode}: {stdout} {stderr}")
    left = [q for q in started if q in processes() and processes()[q][2] not in "ZX"]
    check(started and not left, f"--run-timeout: the hung driver was killed ({started}, {left})")


def main():
    cli, source, work = sys.argv[1:4]
    # --mpi PATH: exactsim-mpi, the command with the MPI runner.
    extra = sys.argv[4:]
    mpi = extra[extra.index("--mpi") + 1] if "--mpi" in extra else None
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    sweep_file = os.path.join(work, "pour.json")
    with open(sweep_file, "w") as f:
        json.dump(SWEEP, f)

    # The reference: one thread.
    stage("--jobs 1")
    ref = os.path.join(work, "jobs1")
    status, out, err = sweep(cli, sweep_file, "--out", ref, "--jobs", "1")
    check(status == 0, f"--jobs 1: status {status}: {err}")
    check(f"{RUNS} runs, {RUNS} with a result" in out, "--jobs 1: summary line: " + out)
    check(len(table(ref)) == 1 + 4, "table: a header and 4 rows (step x model; seeds pooled)")
    check(table(ref)[0][:5] == ["time.step", "contact.model", "runs", "failed", "stopped"],
          "table header: " + str(table(ref)[0][:5]))
    check(all(r[2] == "3" for r in table(ref)[1:]), "each row pools the 3 seeds")
    check("remaining" in err and "left" in err, "progress on stderr: " + err[:200])
    # A second invocation runs nothing.
    status, out, _ = sweep(cli, sweep_file, "--out", ref, "--jobs", "1", "--quiet")
    check(status == 0 and f"0 ran, {RUNS} done earlier" in out, "re-run skips: " + out)

    # Two threads.
    stage("--jobs 2")
    two = os.path.join(work, "jobs2")
    status, _, err = sweep(cli, sweep_file, "--out", two, "--jobs", "2", "--quiet")
    check(status == 0, f"--jobs 2: status {status}: {err}")
    same_as_reference(two, ref, "--jobs 2")

    # Killed after some runs finished, then resumed.
    stage("killed, then resumed")
    killed = os.path.join(work, "killed")
    p = subprocess.Popen([cli, "sweep", sweep_file, "--out", killed, "--jobs", "1", "--quiet"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    folder = os.path.join(killed, "results")
    deadline = time.monotonic() + 60
    finished = 0
    while p.poll() is None and time.monotonic() < deadline:
        finished = len([n for n in os.listdir(folder) if n.endswith(".json")]) \
            if os.path.isdir(folder) else 0
        if finished >= 3:
            break
        time.sleep(0.005)
    p.send_signal(signal.SIGKILL)
    p.wait()
    kept = len([n for n in os.listdir(folder) if n.endswith(".json")])
    print(f"killed after {kept} of {RUNS} runs", flush=True)
    check(3 <= kept < RUNS, f"SIGKILL after some runs: {kept} of {RUNS} results kept")
    status, out, err = sweep(cli, sweep_file, "--out", killed, "--jobs", "2", "--quiet")
    check(status == 0 and f"{RUNS - kept} ran, {kept} done earlier" in out,
          f"resume redoes only the {RUNS - kept} unfinished runs: " + out + err)
    same_as_reference(killed, ref, "killed and resumed")

    # Two parts in two folders, merged.
    stage("--part and --merge")
    parts = []
    for k in (1, 2):
        part = os.path.join(work, f"part{k}")
        status, out, err = sweep(cli, sweep_file, "--out", part, "--part", f"{k}/2", "--quiet")
        check(status == 0 and "6 with a result" in out, f"--part {k}/2: " + out + err)
        parts.append(part)
    merged = os.path.join(work, "merged")
    status, out, err = sweep(cli, sweep_file, "--merge", *parts, "--out", merged)
    check(status == 0 and f"{RUNS} with a result" in out, "--merge: " + out + err)
    same_as_reference(merged, ref, "--part 1/2 and 2/2 merged")

    # MPI: rank 0 schedules, two workers.
    mpirun = shutil.which("mpirun")
    if mpi and mpirun:
        out_mpi = os.path.join(work, "mpi")
        stage("mpirun -n 3")
        p = subprocess.Popen([mpirun, "--allow-run-as-root", "--oversubscribe", "-n", "3", mpi,
                              "sweep", sweep_file, "--out", out_mpi, "--quiet"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        stdout, stderr = finish(p, "mpirun -n 3", 90)
        check(p.returncode == 0 and "MPI, 2 workers" in stdout,
              f"mpirun -n 3: status {p.returncode}: {stdout} {stderr}")
        same_as_reference(out_mpi, ref, "mpirun -n 3")
        stage("mpirun with a crashing run")
        mpi_crash(mpi, mpirun, sweep_file, os.path.join(work, "mpi-crash"), ref)
        stage("mpirun with a lost rank")
        mpi_lost_rank(mpi, mpirun, sweep_file, os.path.join(work, "mpi-lost-rank"), ref)
    else:
        print("MPI runner not built or mpirun missing: the MPI comparison is skipped")

    stage("--run-timeout")
    run_timeouts(cli, mpi, mpirun, work)

    stage("sweep_plot.py and malformed files")
    # The plot script draws a metric against one axis, one curve per value of another.
    png = os.path.join(work, "plot.png")
    plot = ["/usr/bin/python3", os.path.join(source, "scripts", "sweep_plot.py"), os.path.join(ref, "table.csv")]
    p = subprocess.run(plot + ["--metric", "max_overlap", "--x", "time.step", "--group",
                               "contact.model", "--logy", "--out", png],
                       capture_output=True, text=True, timeout=120)
    check(p.returncode == 0 and os.path.getsize(png) > 10000, "sweep_plot.py: " + p.stderr)
    p = subprocess.run(plot + ["--metric", "max_overlap", "--x", "time.stp"],
                       capture_output=True, text=True, timeout=120)
    check(p.returncode == 2 and "--x: 'time.stp' is not an axis" in p.stderr,
          "sweep_plot.py with a wrong axis: " + p.stderr)

    # Malformed files: exit 2, the message names the file, the path and the reason.
    bad = [
        ({**SWEEP, "axes": []}, "axes: no axes"),
        ({**SWEEP, "axes": [{"path": "contact.frction", "values": [0.1]}]},
         "axes[0]: the scene does not accept contact.frction = 0.1"),
        ({**SWEEP, "axes": [{"path": "time.step", "values": []}]},
         "axes[0].values: the axis is empty"),
        ({**SWEEP, "axes": [{"path": "time.step", "values": [0.01]},
                            {"path": "time.step", "values": [0.02]}]},
         "axes[1].path: duplicate axis 'time.step'"),
        ({**SWEEP, "axes": [{"path": "time.step",
                             "range": {"from": 1e-6, "to": 1, "step": 1e-9}}]},
         "axes[0].range: gives"),
        ({**SWEEP, "record": {"summary": "max_overlap"}},
         "record.summary: expected an array"),
        ({**SWEEP, "axis": []}, "axis: unknown field"),
    ]
    for doc, expected in bad:
        path = os.path.join(work, "bad.json")
        with open(path, "w") as f:
            json.dump(doc, f)
        status, _, err = sweep(cli, path, "--out", os.path.join(work, "bad"), timeout=30)
        check(status == 2 and f"{path}: {expected}" in err,
              f"malformed ({expected}): status {status}: {err.strip()}")
    check(not os.path.exists(os.path.join(work, "bad")), "a malformed file runs nothing")

    print("cli_sweep_test:", "FAILED" if failures else "passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
