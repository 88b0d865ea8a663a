#!/usr/bin/env python3
"""The command line's messages and exit statuses (README.md "The command line",
docs/input-validation.md "Exit codes"): errors of the argument parser are bad input (2) with a
readable message, `run` says when it wrote nothing, warns when h is large for the thinnest body
and says which bodies are still falling or not yet spawned at the end, runs an event-driven scene
as `events` does (and time-steps it with --model), `impact` reports energy
changes as changes, `lcp` prints no table header before an error, and a scene with joints runs and
keeps them in its written scene.

usage: cli_test.py EXACTSIM_CLI SOURCE_DIR WORK_DIR
"""
import json
import os
import subprocess
import sys

from expectations import Expectations


def run(cli, *args):
    p = subprocess.run([cli, *args], capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def scene_2d(bodies, step=0.005, duration=0.05, epsilon=None):
    contact = {"model": "peg", "friction": 0.5}
    if epsilon is not None:
        contact["parameters"] = {"epsilon": epsilon}
    return {"format": "exactsim-scene", "version": 1, "name": "cli-test", "dimension": 2,
            "time": {"step": step, "duration": duration}, "contact": contact,
            "bodies": [{"name": "floor", "static": True, "shape": {"box": [4, 1]},
                        "position": [0, -0.5]}] + bodies}


def write_json(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def main():
    cli, source, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    check = Expectations()
    expect = check.expect

    box = {"name": "box", "shape": {"box": [0.2, 0.2]}, "density": 100, "position": [0, 0.1]}
    resting = write_json(os.path.join(work, "resting.json"), scene_2d([box]))

    # The argument parser's own errors: exit 2 and a message naming the option.
    for args, names in [(["run", resting, "--no-such-option"], "--no-such-option"),
                        (["run", resting, "--every"], "--every"),
                        (["run", resting, "--every", "two"], "--every"),
                        (["impact"], "problem"),
                        (["no-such-command"], "subcommand"),
                        (["stress", "--hull-seeds", "0"], "--hull-seeds")]:
        code, out, err = run(cli, *args)
        expect(code == 2, f"{args}: exit {code}, expected 2 ({err!r})")
        expect(names in err, f"{args}: the message does not name {names}: {err!r}")
        expect(out == "", f"{args}: printed on stdout: {out!r}")
    code, out, _ = run(cli, "--version")
    expect(code == 0 and out.startswith("exactsim "), f"--version: exit {code}, {out!r}")
    code, out, _ = run(cli, "run", "--help")
    expect(code == 0 and "--every" in out, f"run --help: exit {code}")

    # Bounds in words, not CLI11's range up to the largest double.
    for args, want in [(["run", resting, "--every", "0"],
                        "--every: must be >= 1 (the trajectory is written every N steps), got 0"),
                       (["run", resting, "--gauss-seidel", "-3"],
                        "--gauss-seidel: must be >= 0 (0 = never), got -3"),
                       (["stress", "--jobs", "-1"], "--jobs: must be >= 0"),
                       (["lcp", "x.lcp", "--exact-max-work", "-1"], "--exact-max-work: must be >= 0"),
                       (["view", work, "--max-frames", "0"],
                        "--max-frames: must be >= 1 (frames on the page), got 0")]:
        code, _, err = run(cli, *args)
        expect(code == 2, f"{args}: exit {code}, expected 2 ({err!r})")
        expect(want in err, f"{args}: message {err!r}, expected {want!r}")
        expect(len(err) < 200, f"{args}: a message of {len(err)} characters: {err!r}")

    # Standard output that cannot be written (a full disk): the printed results are lost, exit 1.
    with open("/dev/full", "w") as full:
        p = subprocess.run([cli, "run", resting, "--quiet"], stdout=full, stderr=subprocess.PIPE,
                           text=True)
    expect(p.returncode == 1 and "cannot write to standard output" in p.stderr,
           f"stdout on /dev/full: exit {p.returncode}, {p.stderr!r}")

    # run without --out says that nothing was written; with --out it names the files.
    code, out, err = run(cli, "run", resting, "--quiet")
    expect(code == 0, f"run without --out: exit {code} ({err!r})")
    expect("nothing written (no --out DIR)" in out, f"run without --out: {out!r}")
    expect("written:" not in out, f"run without --out claims files: {out!r}")
    out_dir = os.path.join(work, "resting-out")
    code, out, err = run(cli, "run", resting, "--quiet", "--out", out_dir)
    expect(code == 0 and f"written: {out_dir}/" in out and "nothing written" not in out,
           f"run --out: exit {code}, {out!r}")

    # h large for the thinnest body: a plate 1 cm thick gets ε capped at 5 mm above h = 0.01 s.
    plate = {"name": "plate", "shape": {"box": [0.5, 0.01]}, "density": 100,
             "position": [0, 0.005]}
    thin = write_json(os.path.join(work, "thin.json"), scene_2d([plate], step=0.02, duration=0.1))
    code, _, err = run(cli, "run", thin, "--quiet")
    expect(code == 0, f"thin plate, h = 0.02: exit {code} ({err!r})")
    expect("warning: h = 0.02 s is large for the thinnest body, 'plate' (0.01 m across)" in err,
           f"thin plate, h = 0.02: no warning naming the plate: {err!r}")
    expect("capped at 0.005 m" in err and "h <= 0.01 s keeps eps = h/2" in err,
           f"thin plate: the warning does not give the cap and the step: {err!r}")
    code, _, err = run(cli, "run", thin, "--quiet", "--dt", "0.005")
    expect(code == 0 and "warning" not in err, f"thin plate, h = 0.005: exit {code}, {err!r}")
    code, _, err = run(cli, "run", thin, "--quiet", "--epsilon", "0.004")
    expect(code == 0 and "warning" not in err, f"thin plate, own eps: exit {code}, {err!r}")

    # The summary says which bodies are still falling or not yet spawned at the end.
    high = {"name": "high", "shape": {"box": [0.2, 0.2]}, "density": 100, "position": [1, 3]}
    late = {"name": "late", "shape": {"box": [0.2, 0.2]}, "density": 100, "position": [-1, 3],
            "spawn_time": 1.0}
    unsettled = write_json(os.path.join(work, "unsettled.json"),
                           scene_2d([box, high, late], duration=0.2))
    out_dir = os.path.join(work, "unsettled-out")
    code, out, err = run(cli, "run", unsettled, "--quiet", "--out", out_dir)
    expect(code == 0, f"unsettled: exit {code} ({err!r})")
    expect("at the end, t = 0.200 s: 1 body is still falling, 1 body has not spawned yet" in out,
           f"unsettled: the summary does not say so: {out!r}")
    with open(os.path.join(out_dir, "summary.json")) as f:
        summary = json.load(f)
    expect(summary.get("bodies_falling") == 1 and summary.get("bodies_not_spawned") == 1,
           f"unsettled: summary.json {summary.get('bodies_falling')}, "
           f"{summary.get('bodies_not_spawned')}")
    code, out, err = run(cli, "run", unsettled, "--quiet", "--duration", "3")
    expect(code == 0 and "at the end" not in out,
           f"unsettled after 3 s (all landed): exit {code}, {out!r}")
    code, out, _ = run(cli, "run", resting, "--quiet")
    expect("at the end" not in out, f"resting box: {out!r}")

    # --no-watchdog: recorded in scene.json (a rerun of it is the same run), said in the summary.
    out_dir = os.path.join(work, "no-watchdog")
    code, out, err = run(cli, "run", unsettled, "--quiet", "--no-watchdog", "--out", out_dir)
    expect(code == 0 and "watchdog off (penetration and lost bodies not checked)" in out,
           f"--no-watchdog: exit {code}, {out!r} {err!r}")
    with open(os.path.join(out_dir, "scene.json")) as f:
        stepping = json.load(f)["stepping"]
    expect(stepping.get("watch_penetration") is False, f"--no-watchdog: scene.json {stepping}")
    code, out2, _ = run(cli, "run", os.path.join(out_dir, "scene.json"), "--quiet")
    expect(code == 0 and "watchdog off" in out2, f"rerun of scene.json: exit {code}, {out2!r}")
    code, out, _ = run(cli, "run", unsettled, "--quiet")
    expect(code == 0 and "watchdog: max penetration" in out, f"with the watchdog: {out!r}")

    # --contacts: each step's contacts in steps.jsonl, by default for a small scene; off: none.
    for choice, wanted in (("auto", True), ("on", True), ("off", False)):
        out_dir = os.path.join(work, "contacts-" + choice)
        code, _, err = run(cli, "run", unsettled, "--quiet", "--contacts", choice, "--out", out_dir)
        with open(os.path.join(out_dir, "steps.jsonl")) as f:
            lines = [json.loads(line) for line in f]
        has = ["contact_list" in line for line in lines]
        expect(code == 0 and lines and all(h == wanted for h in has),
               f"--contacts {choice}: exit {code}, contact_list in {sum(has)} of {len(lines)} lines")
    code, _, err = run(cli, "run", unsettled, "--quiet", "--contacts", "always")
    expect(code == 2 and "--contacts" in err, f"--contacts always: exit {code}, {err!r}")

    # impact: the per-round energies are changes since the impact began.
    code, out, err = run(cli, "impact", os.path.join(source, "scenes/plus/example3_cradle.json"),
                         "--indent", "-1")
    expect(code == 0, f"impact: exit {code} ({err!r})")
    result = json.loads(out) if code == 0 else {"log": []}
    expect("kinetic_energy_before" not in out and "kinetic_energy_after" not in out,
           "impact: an energy change is printed under an energy's name")
    log = result["log"]
    expect(len(log) > 0 and all("energy_change_at_start" in r and "energy_change_at_end" in r
                                for r in log), "impact: rounds without energy_change_at_*")
    if log:
        expect(log[0]["energy_change_at_start"] == 0, f"impact: first round {log[0]}")
        expect(abs(log[-1]["energy_change_at_end"] - result["kinetic_energy_change"]) <= 1e-12,
               "impact: the last round's change is not the impact's")

    # run on an event-driven scene (contact.model "plus") runs it as `events` does, with the same
    # files and final state; options of the time stepper are refused, naming the option.
    ball = os.path.join(source, "scenes/plus/events_bouncing_ball.json")
    outputs = {}
    for command in ("run", "events"):
        folder = os.path.join(work, f"ball-{command}")
        code, out, err = run(cli, command, ball, "--duration", "0.5", "--out", folder)
        expect(code == 0, f"{command} on an event scene: exit {code} ({err!r})")
        with open(os.path.join(folder, "trajectory.csv")) as f:
            outputs[command] = (out.replace(folder, "OUT"), f.read())
    expect(outputs["run"] == outputs["events"],
           "run and events differ on an event scene (summary or trajectory.csv)")
    expect(outputs["run"][1].count("\n") > 100, "run on an event scene: a short trajectory")
    for extra in (["--dt", "0.01"], ["--impact", "plus"]):
        code, out, err = run(cli, "run", ball, *extra)
        expect(code == 2 and extra[0] in err and "event-driven" in err,
               f"run {extra} on an event scene: exit {code}, {err!r}")
    # ... unless --model asks to time-step it (docs/plus.md "Time-stepping an event-driven
    # scene"): the ball bounces to the same state, here with --dt too.
    folder = os.path.join(work, "ball-stepped")
    code, out, err = run(cli, "run", ball, "--model", "peg", "--dt", "0.001", "--duration", "0.5",
                         "--out", folder)
    expect(code == 0 and "model peg" in out and "impacts (PLUS, located)" in out,
           f"run --model peg on an event scene: exit {code}, {out!r} {err!r}")
    with open(os.path.join(folder, "trajectory.csv")) as f:
        stepped = f.read().strip().splitlines()[-1].split(",")
    evented = outputs["events"][1].strip().splitlines()[-1].split(",")
    expect(abs(float(stepped[5]) - float(evented[4])) < 1e-9,
           f"run --model peg on an event scene: z {stepped[5]} against the events' {evented[4]}")

    # events on a time-stepping scene runs its polytopes with located PLUS impacts (docs/plus.md
    # "Event-driven polytopes"): as `run --impact plus`; a scene asking for "none" is refused.
    # The cube drop names no impact model: `events` turns PLUS on, as `run --impact plus` does,
    # and plain `run` steps it inelastically.
    cube = os.path.join(source, "scenes/cube-drop-3d.json")
    outputs = {}
    for command, extra in (("events", []), ("run", ["--impact", "plus"]), ("run", [])):
        folder = os.path.join(work, f"cube-{command}-{len(extra)}")
        code, out, err = run(cli, command, cube, "--duration", "0.5", "--out", folder, *extra)
        expect(code == 0 and ("impacts (PLUS, located)" in out) == (command == "events" or bool(extra)),
               f"{command} {extra} on the cube drop: exit {code}, {out!r} {err!r}")
        with open(os.path.join(folder, "trajectory.csv")) as f:
            outputs[(command, len(extra))] = f.read()
    expect(outputs[("events", 0)] == outputs[("run", 2)],
           "events and run --impact plus differ on the cube drop")
    expect(outputs[("events", 0)] != outputs[("run", 0)],
           "events on the cube drop moves it as the inelastic run does")
    die = os.path.join(source, "scenes/die-bounce-3d.json")
    with open(die) as f:
        doc = json.load(f)
    doc["contact"]["impact"]["model"] = "none"
    inelastic = os.path.join(work, "die-inelastic.json")
    with open(inelastic, "w") as f:
        json.dump(doc, f)
    code, out, err = run(cli, "events", inelastic)
    expect(code == 2 and "contact.impact.model" in err and "die-inelastic.json" in err,
           f"events on a scene asking for no impacts: exit {code}, {err!r}")

    # lcp: an error comes alone, without the table's header; the sample file solves.
    bad = os.path.join(work, "bad.lcp")
    with open(bad, "w") as f:
        f.write("exactsim-lcp 1\nn 2\nq\n1\n")
    for files in (["missing.lcp"], [bad]):
        for extra in ([], ["--regularisation-path"]):
            code, out, err = run(cli, "lcp", *files, *extra)
            expect(code == 2, f"lcp {files} {extra}: exit {code}, expected 2 ({err!r})")
            expect(out == "", f"lcp {files} {extra}: printed {out!r} before the error")
            expect(os.path.basename(files[0]) in err, f"lcp {files}: message {err!r}")
    sample = os.path.join(source, "examples/lcp/box-on-floor-2d.lcp")
    code, out, err = run(cli, "lcp", sample)
    lines = out.splitlines()
    expect(code == 0 and len(lines) == 2 and lines[0].startswith("file")
           and "box-on-floor-2d.lcp" in lines[1] and " solved" in lines[1],
           f"lcp sample: exit {code}, {out!r} {err!r}")

    # A scene with joints (docs/joints.md): the chain runs without a failed solve, its written
    # scene.json keeps the joints, and a bad joint is bad input naming the joint's field.
    for chain, joints in [("chain-2d", 6), ("chain-3d", 8)]:
        chain_dir = os.path.join(work, chain)
        code, out, err = run(cli, "run", os.path.join(source, f"scenes/{chain}.json"),
                             "--duration", "0.5", "--quiet", "--out", chain_dir)
        expect(code == 0, f"{chain}: exit {code} ({err!r})")
        if code != 0:
            continue
        with open(os.path.join(chain_dir, "summary.json")) as f:
            summary = json.load(f)
        with open(os.path.join(chain_dir, "scene.json")) as f:
            written = json.load(f)
        expect(summary["solver_failures"] == 0 and summary["steps_done"] == 250,
               f"{chain}: {summary['solver_failures']} failed solves in {summary['steps_done']} "
               "steps")
        expect(len(written.get("joints", [])) == joints, f"{chain}: scene.json lost its joints")
    # The 2D chain with located PLUS impacts (docs/joints.md "Located impacts"): the links strike
    # the ledge with restitution and the joints take part in the impacts.
    with open(os.path.join(source, "scenes/chain-2d.json")) as f:
        bouncing = json.load(f)
    bouncing["contact"]["impact"] = {"model": "plus", "restitution": 0.5}
    bounce_dir = os.path.join(work, "chain-2d-plus")
    code, _, err = run(cli, "run", write_json(os.path.join(work, "chain-2d-plus.json"), bouncing),
                       "--duration", "0.5", "--quiet", "--out", bounce_dir)
    expect(code == 0, f"chain-2d with impacts: exit {code} ({err!r})")
    if code == 0:
        with open(os.path.join(bounce_dir, "summary.json")) as f:
            summary = json.load(f)
        expect(summary["solver_failures"] == 0 and summary.get("impacts", 0) > 0,
               f"chain-2d with impacts: {summary['solver_failures']} failed solves, "
               f"{summary.get('impacts')} impacts")
        step = summary["step"]
        with open(os.path.join(bounce_dir, "steps.jsonl")) as f:
            struck = [json.loads(line) for line in f if '"impacts"' in line]
        expect(struck and all(r["time"] - step - 1e-12 <= r["impacts"]["first_time"] <= r["time"]
                              for r in struck if r["impacts"]["count"] > 0),
               "chain-2d with impacts: an impact's first_time outside its step")
    with open(os.path.join(source, "scenes/chain-2d.json")) as f:
        bad = json.load(f)
    bad["joints"][2]["bodies"] = ["link2", "nobody"]
    code, _, err = run(cli, "run", write_json(os.path.join(work, "bad-chain.json"), bad), "--quiet")
    expect(code == 2 and "joints[2].bodies[1]" in err and "nobody" in err,
           f"bad joint: exit {code}, {err!r}")

    return check.report()


if __name__ == "__main__":
    sys.exit(main())
