"""A Python run of a shipped scene reproduces the CLI's trajectory.csv bit for bit."""
import csv
import json
import os
import signal
import subprocess
import sys
import time

import pytest

import exactsim


@pytest.mark.parametrize("name", ["box-on-floor-2d", "cube-drop-3d", "corner-trap-2d"])
def test_trajectory_matches_cli_bit_for_bit(name, cli, source_dir, tmp_path):
    scene_path = str(source_dir / "scenes" / f"{name}.json")
    done = subprocess.run([cli, "run", scene_path, "--out", str(tmp_path), "--quiet"],
                          capture_output=True)
    assert done.returncode in (0, 3)  # 3: stopped at a failed solve, as the Python run does
    with open(tmp_path / "trajectory.csv") as f:
        rows = list(csv.reader(f))
    header, rows = rows[0], rows[1:]
    assert header[:3] == ["step", "time", "body"]

    sim = exactsim.Simulation(scene_path)
    names = sim.body_names
    # Step -1: the initial state of the bodies that join at the first step (no spawn_time).
    with open(scene_path) as f:
        joining = [b.get("spawn_time", 0) == 0 for b in json.load(f)["bodies"]]
    expected = [(-1, sim.time, names[i], *sim.q[i], *sim.v[i])
                for i in range(len(names)) if joining[i]]

    def record(s):
        for i in range(len(names)):
            if s.present[i]:
                expected.append((s.report["step"], s.time, names[i], *s.q[i], *s.v[i]))
        return True

    sim.run(callback=record)
    assert len(rows) == len(expected) > sum(joining) > 0
    for row, exp in zip(rows, expected):
        got = (int(row[0]), float(row[1]), row[2], *map(float, row[3:]))
        assert got == exp  # exact: the CSV holds 17 significant digits


def test_run_scene_writes_the_cli_files(cli, source_dir, tmp_path):
    scene_path = str(source_dir / "scenes" / "box-on-floor-2d.json")
    subprocess.run([cli, "run", scene_path, "--out", str(tmp_path / "cli"), "--quiet"],
                   check=True, capture_output=True)
    summary = exactsim.run_scene(exactsim.Scene.from_file(scene_path), out=tmp_path / "py")
    assert summary["steps_done"] == summary["steps_planned"] == 200
    assert ((tmp_path / "py" / "trajectory.csv").read_bytes()
            == (tmp_path / "cli" / "trajectory.csv").read_bytes())
    assert (tmp_path / "py" / "summary.json").exists()


def test_run_scene_stops_on_ctrl_c_and_the_cli_resumes_it(cli, tmp_path):
    """Ctrl-C during exactsim.run_scene: KeyboardInterrupt after a whole step, with the summary
    and checkpoint of `exactsim run`, and `exactsim run --resume` ends it as if never stopped."""
    scene = tmp_path / "pour.json"
    args = ["--scenario", "pour2d-random", "--seed", "1", "--duration", "6", "--quiet"]
    subprocess.run([cli, "run", *args, "--out", str(tmp_path / "cli"), "--write-scene",
                    str(scene)], check=True, capture_output=True)
    out = tmp_path / "py"
    code = f"import exactsim; exactsim.run_scene({str(scene)!r}, out={str(out)!r})"
    p = subprocess.Popen([sys.executable, "-c", code], stderr=subprocess.PIPE, text=True,
                         env=os.environ)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and p.poll() is None:
        time.sleep(0.005)
        if (out / "trajectory.csv").exists() and (out / "trajectory.csv").stat().st_size > 200000:
            break
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode != 0 and "KeyboardInterrupt" in err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["failed"] and summary["failure"] == "interrupted"
    assert 0 < summary["steps_done"] < summary["steps_planned"]
    subprocess.run([cli, "run", "--resume", str(out), "--quiet"], check=True, capture_output=True)
    assert ((out / "trajectory.csv").read_bytes()
            == (tmp_path / "cli" / "trajectory.csv").read_bytes())
