"""bench_scaling keeps what it measured when it is killed, and --resume goes on without measuring it again.

Usage: scaling_resume_test.py BENCH_SCALING WORK_DIR

docs/performance.md "Scaling": the --out file is rewritten after each (engine, N) run, whole or
not at all; --resume takes the finished runs of a file measured by the same build with the same
settings, and refuses another file, or one that is not a results file, naming the file and field;
the running exactsim run saves its state beside the file, and --resume goes on from it.
"""

import json
import os
import pathlib
import shutil
import signal
import subprocess
import sys
import time

BENCH = sys.argv[1]
WORK = pathlib.Path(sys.argv[2])
COMMON = ["--dims", "2", "--steps", "5", "--budget-seconds", "600", "--no-bullet"]
ENV = dict(os.environ, OPENBLAS_CORETYPE="Haswell")


def bench(out, *args):
    return subprocess.run([BENCH, *COMMON, "--out", str(out), *args], capture_output=True,
                          text=True, env=ENV, timeout=120)


def runs(path):
    return [(r["bodies"], r["stop"], len(r["step_samples"]))
            for r in json.loads(path.read_text())["runs"]]


def test_a_killed_run_keeps_its_finished_runs_and_resumes_without_them():
    out = WORK / "killed.json"
    slow = [BENCH, "--dims", "2", "--steps", "60", "--budget-seconds", "600", "--no-bullet",
            "--out", str(out)]
    # N = 3 takes milliseconds, N = 2,000 seconds (its first 40 steps alone take 1.8 s on the
    # 2-core machine): kill the whole process group once N = 3 is written.
    proc = subprocess.Popen(slow + ["--n", "3,2000"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env=ENV, start_new_session=True)
    deadline = time.time() + 60
    while time.time() < deadline and not (out.exists() and runs(out)):
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert runs(out) == [(3, "completed", 60)], runs(out)
    kept = json.loads(out.read_text())["runs"][0]

    again = subprocess.run(slow + ["--n", "3,4", "--resume"], capture_output=True, text=True,
                           env=ENV, timeout=120)
    assert again.returncode == 0, again.stderr
    assert "2D N=3: exactsim: finished in" in again.stderr, again.stderr
    assert "2D N=4: exactsim\n" in again.stderr, again.stderr
    after = json.loads(out.read_text())["runs"]
    assert [r["bodies"] for r in after] == [3, 4]
    assert after[0] == kept  # taken as it was, not measured again
    row = [l for l in again.stdout.splitlines() if l.startswith("| 2 | 3 | exactsim |")]
    assert len(row) == 1 and "60/60 (completed)" in row[0], again.stdout


def saved_steps(state):
    """The steps a state file (bench_scaling-state, a JSON line, the encoded state) holds."""
    if not state.exists():
        return 0
    try:
        return len(json.loads(state.read_bytes().split(b"\n")[1])["step_samples"])
    except (IndexError, ValueError):
        return 0  # written beside it and renamed, so never half; but the rename may be racing


def test_a_killed_run_goes_on_from_its_saved_state_as_it_would_have_gone_on():
    # The 2D pour of 100 polygons: 100 steps in about 1.5 s, with contacts from step ~30 on.
    args = ["--dims", "2", "--n", "100", "--steps", "100", "--budget-seconds", "600",
            "--no-bullet"]
    whole = WORK / "whole.json"
    assert subprocess.run([BENCH, *args, "--out", str(whole)], capture_output=True,
                          env=ENV, timeout=120).returncode == 0
    out = WORK / "going-on.json"
    state = WORK / "going-on.json.state"
    cmd = [BENCH, *args, "--out", str(out), "--state-every", "0"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV,
                            start_new_session=True)
    deadline = time.time() + 60
    while time.time() < deadline and saved_steps(state) < 50:
        time.sleep(0.005)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    saved = saved_steps(state)
    assert 50 <= saved < 100, saved  # killed in the middle of the run
    again = subprocess.run(cmd + ["--resume"], capture_output=True, text=True, env=ENV,
                           timeout=120)
    assert again.returncode == 0, again.stderr
    assert f"2D N=100: exactsim: going on after step {saved}" in again.stderr, again.stderr
    assert not state.exists()  # the run is in the results file now
    a = json.loads(whole.read_text())["runs"][0]
    b = json.loads(out.read_text())["runs"][0]
    assert b["stop"] == "completed" and b["steps_done"] == 100, b["stop"]
    # The same trajectory: every step's contacts, LCP, pivots and sub-steps, and the end state.
    keys = ["contacts", "lcp", "solved", "pivots", "substeps", "status"]
    assert [[x[k] for k in keys] for x in a["step_samples"]] == \
        [[x[k] for k in keys] for x in b["step_samples"]]
    assert a["end"] == b["end"], (a["end"], b["end"])
    assert b["elapsed_seconds"] > 0 and b["setup_seconds"] >= 0

    # --resume with neither a results nor a state file runs from the start.
    other = subprocess.run([BENCH, *args[:5], "99", "--no-bullet", "--out",
                            str(WORK / "none.json"), "--resume"], capture_output=True, text=True,
                           env=ENV, timeout=120)
    assert other.returncode == 0
    # A state file of other settings, or not one, is refused, naming the file and the field.
    (WORK / "bad.json.state").write_text("bench_scaling-state\n{\"seed\": 1}\n")
    bad = subprocess.run([BENCH, *args, "--out", str(WORK / "bad.json"), "--resume"],
                         capture_output=True, text=True, env=ENV, timeout=120)
    assert bad.returncode != 0
    assert f'{WORK / "bad.json.state"}: field "budget_seconds" is missing' in bad.stderr, \
        bad.stderr
    (WORK / "bad.json.state").write_text("not a state file")
    bad = subprocess.run([BENCH, *args, "--out", str(WORK / "bad.json"), "--resume"],
                         capture_output=True, text=True, env=ENV, timeout=120)
    assert bad.returncode != 0
    assert "bad.json.state: not a bench_scaling state file" in bad.stderr, bad.stderr


def test_resume_refuses_a_file_of_other_settings_or_no_results_file():
    out = WORK / "settings.json"
    assert bench(out, "--n", "3").returncode == 0
    other = subprocess.run([BENCH, "--dims", "2", "--steps", "6", "--budget-seconds", "600",
                            "--no-bullet", "--n", "3", "--out", str(out), "--resume"],
                           capture_output=True, text=True, env=ENV, timeout=120)
    assert other.returncode != 0
    assert f'{out}: field "steps" is 5, this run\'s is 6 (--resume)' in other.stderr, other.stderr
    other_build = json.loads(out.read_text())
    other_build["build"] = "0123456789abcdef"  # measured by another build of bench_scaling
    out.write_text(json.dumps(other_build))
    rebuilt = bench(out, "--n", "3", "--resume")
    assert rebuilt.returncode != 0
    assert f'{out}: field "build" is "0123456789abcdef"' in rebuilt.stderr, rebuilt.stderr
    bad = WORK / "bad.json"
    bad.write_text("[1, 2")
    broken = bench(bad, "--n", "3", "--resume")
    assert broken.returncode != 0 and f"{bad}: not JSON" in broken.stderr, broken.stderr
    assert bad.read_text() == "[1, 2"  # left as it was
    csv = bench(WORK / "r.csv", "--n", "3", "--resume")
    assert csv.returncode != 0 and "reads a JSON results file" in csv.stderr, csv.stderr


if __name__ == "__main__":
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    for name, test in list(globals().items()):
        if name.startswith("test_"):
            test()
            print("passed:", name)
