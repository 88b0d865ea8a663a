#!/usr/bin/env python3
"""`exactsim run` stopped by a signal, then `--resume`d (docs/robustness.md "Interrupted runs"):
SIGINT and SIGTERM finish the step, write summary.json ("failed": true, "failure": "interrupted")
and a checkpoint, print one line and exit 130 / 143; SIGKILL leaves the last checkpoint; a second
SIGINT ends the process at once. Each `--resume` gives the files of a run never interrupted
(timings aside). A new run removes an earlier run's replay.html and final.svg; bad resumes are
refused with status 2.

usage: cli_interrupt_test.py EXACTSIM_CLI SOURCE_DIR WORK_DIR
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

# A 2D pour of 1200 steps (about 0.3 s of wall time in Release).
SCENARIO = ["--scenario", "pour2d-random", "--seed", "1", "--duration", "6"]


def run(cli, *args):
    p = subprocess.run([cli, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def last_step(path):
    """The step of the last complete row of trajectory.csv (None before the first step)."""
    try:
        with open(path, "rb") as f:
            f.seek(max(0, os.path.getsize(path) - 4096))
            lines = f.read().split(b"\n")[:-1]  # the last piece is an unfinished row
    except OSError:
        return None
    return int(lines[-1].split(b",")[0]) if lines and lines[-1][:1] in b"-0123456789" else None


def start_and_signal(cli, args, at_step, *signals):
    """Starts `exactsim run ARGS`, sends `signals` once its trajectory has passed `at_step`;
    returns (status, stdout, stderr)."""
    p = subprocess.Popen([cli, "run", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    out = args[args.index("--out") + 1] if "--out" in args else args[args.index("--resume") + 1]
    deadline = time.monotonic() + 60
    while p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.002)
        # The run removes the summary of the folder's earlier run once it has removed (or cut
        # back) that run's trajectory.
        if os.path.exists(os.path.join(out, "summary.json")):
            continue
        step = last_step(os.path.join(out, "trajectory.csv"))
        if step is not None and step >= at_step:
            break
    for s in signals:
        p.send_signal(s)
    stdout, stderr = p.communicate(timeout=60)
    return p.returncode, stdout, stderr


def reports(d):
    out = []
    with open(os.path.join(d, "steps.jsonl")) as f:
        for line in f:
            r = json.loads(line)
            r.pop("seconds")
            out.append(r)
    return out


def summary(d):
    with open(os.path.join(d, "summary.json")) as f:
        s = json.load(f)
    for key in ("wall_seconds", "solver_seconds", "peak_memory_mb"):
        s.pop(key)
    return s


def read(path, mode="r"):
    with open(path, mode) as f:
        return f.read()


def main():
    cli, _, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    failures = []

    def expect(cond, what):
        if not cond:
            failures.append(what)
        return cond

    ref = os.path.join(work, "ref")
    code, _, err = run(cli, "run", *SCENARIO, "--out", ref, "--quiet")
    expect(code == 0, f"uninterrupted run: exit {code} ({err!r})")
    rows = read(os.path.join(ref, "trajectory.csv")).splitlines()
    expect(rows[1].startswith("-1,0,"), f"the first row is the initial state: {rows[1]!r}")
    expect(not os.path.exists(os.path.join(ref, "checkpoint.bin")),
           "a finished run leaves no checkpoint")

    def same_as_ref(d, label):
        expect(read(os.path.join(d, "trajectory.csv"), "rb")
               == read(os.path.join(ref, "trajectory.csv"), "rb"),
               f"{label}: trajectory.csv differs from the uninterrupted run's")
        expect(reports(d) == reports(ref), f"{label}: steps.jsonl differs")
        expect(summary(d) == summary(ref), f"{label}: summary.json differs")

    # SIGINT, into the folder of an earlier run of another scene: its files are gone at once.
    d = os.path.join(work, "sigint")
    code, _, err = run(cli, "run", os.path.join(sys.argv[2], "scenes", "cube-drop-3d.json"),
                       "--out", d, "--quiet")
    expect(code == 0 and os.path.exists(os.path.join(d, "replay.html")),
           f"earlier run: exit {code} ({err!r})")
    code, out, err = start_and_signal(cli, [*SCENARIO, "--out", d, "--quiet"], 300, signal.SIGINT)
    expect(code == 130, f"SIGINT: exit {code}, expected 130 ({err!r})")
    expect(err.count("\n") == 1 and "interrupted (SIGINT) after step" in err
           and f"resume with: exactsim run --resume {d}" in err, f"SIGINT: message {err!r}")
    expect(out == "", f"SIGINT: nothing on stdout ({out!r})")
    s = json.loads(read(os.path.join(d, "summary.json")))
    expect(s["failed"] is True and s["failure"] == "interrupted", f"SIGINT: summary {s}")
    expect(0 < s["steps_done"] < 1200, f"SIGINT: steps_done {s['steps_done']}")
    text = read(os.path.join(d, "trajectory.csv"))
    expect(text.endswith("\n") and text.splitlines()[-1].startswith(f"{s['steps_done'] - 1},"),
           "SIGINT: trajectory.csv ends with the complete rows of the last step")
    for stale in ("replay.html", "final.svg"):
        expect(not os.path.exists(os.path.join(d, stale)), f"SIGINT: the earlier run's {stale} "
               "stands beside the new run")
    code, _, err = run(cli, "run", "--resume", d, "--quiet")
    expect(code == 0, f"resume after SIGINT: exit {code} ({err!r})")
    same_as_ref(d, "SIGINT + resume")

    # SIGTERM, then SIGKILL of the resumed run: the second resume starts from the checkpoint of
    # the SIGTERM and writes again what the killed run wrote after it.
    d = os.path.join(work, "sigterm-sigkill")
    code, _, err = start_and_signal(cli, [*SCENARIO, "--out", d, "--quiet"], 300, signal.SIGTERM)
    expect(code == 143, f"SIGTERM: exit {code}, expected 143 ({err!r})")
    expect("interrupted (SIGTERM)" in err, f"SIGTERM: message {err!r}")
    stopped = json.loads(read(os.path.join(d, "summary.json")))["steps_done"]
    code, _, err = start_and_signal(cli, ["--resume", d, "--quiet"], stopped + 300,
                                    signal.SIGKILL)
    expect(code == -signal.SIGKILL, f"SIGKILL: exit {code}")
    expect(last_step(os.path.join(d, "trajectory.csv")) > stopped,
           "SIGKILL: the killed run wrote rows after the checkpoint")
    code, _, err = run(cli, "run", "--resume", d, "--quiet")
    expect(code == 0, f"resume after SIGKILL: exit {code} ({err!r})")
    same_as_ref(d, "SIGTERM + SIGKILL + resume")

    # Two SIGINTs: the second ends the process at once; the checkpoint before it still serves.
    d = os.path.join(work, "twice")
    code, _, err = start_and_signal(cli, [*SCENARIO, "--out", d, "--quiet"], 100, signal.SIGINT,
                                    signal.SIGINT)
    expect(code in (130, -signal.SIGINT), f"two SIGINTs: exit {code} ({err!r})")
    code, _, err = run(cli, "run", "--resume", d, "--quiet")
    expect(code == 0, f"resume after two SIGINTs: exit {code} ({err!r})")
    same_as_ref(d, "two SIGINTs + resume")

    # Resumes refused with status 2, naming the file or option and the reason.
    code, _, err = run(cli, "run", "--resume", ref)
    expect(code == 2 and "checkpoint.bin: no checkpoint to resume from: its run ended after all "
           "its steps" in err, f"resume of a finished run: exit {code} ({err!r})")
    code, _, err = run(cli, "run", "--resume", d, "--dt", "0.001")
    expect(code == 2 and "--resume: --dt cannot be given" in err,
           f"--resume with --dt: exit {code} ({err!r})")
    code, _, err = run(cli, "run", "scenes/box.json", "--resume", d)
    expect(code == 2 and "--resume: a scene file cannot be given" in err,
           f"--resume with a scene: exit {code} ({err!r})")
    code, _, err = run(cli, "run", "--resume", os.path.join(work, "missing"))
    expect(code == 2 and "no such results folder" in err, f"resume of no folder: {code} {err!r}")

    if failures:
        print("\n".join("FAIL: " + f for f in failures))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
