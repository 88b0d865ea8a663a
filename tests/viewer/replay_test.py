#!/usr/bin/python3
"""The replay page in headless Chromium, and the still picture (docs/viewer.md).

Runs two short real simulations with the built CLI (a 2D box sliding onto a floor and a 3D cube
dropped on a floor, from scenes/), writes their replays with `exactsim view`, loads each page in
headless Chromium over the DevTools protocol (--remote-debugging-pipe), steps to given frames,
compares the page's body poses with trajectory.csv and checks the screenshot's pixels: the body's
colour where the trajectory puts the body, background where the body was earlier, and (2D) a
body-coloured area matching the box's size. Also: subsampling of long runs, contact points drawn
from the per-contact data run records in steps.jsonl, the plots of steps.jsonl (line pixels where
the series puts them, a cursor that moves with the frame), two runs of the corner trap (PEG and
the standard model) side by side, JSON panels that fit the window, final.svg, and the exit status 2
errors.

Usage: replay_test.py EXACTSIM_CLI SOURCE_DIR WORK_DIR. Exit 77 (ctest SKIP) if chromium is absent.
"""
import base64
import csv
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

SKIP = 77
failures = []


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        failures.append(what)
    return cond


# ---- a minimal PNG decoder (8-bit RGB/RGBA, non-interlaced: what Chromium writes) ----
def decode_png(data):
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, "unsupported PNG"
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, bpp, rows


class Image:
    def __init__(self, png):
        self.width, self.height, self.bpp, self.rows = decode_png(png)

    def count(self, colour, x0, y0, x1, y1, tol=40):
        """Pixels of this colour in the box [x0, x1] x [y0, y1] (page pixels, inclusive)."""
        n = 0
        for y in range(max(0, int(round(y0))), min(self.height - 1, int(round(y1))) + 1):
            row = self.rows[y]
            for x in range(max(0, int(round(x0))), min(self.width - 1, int(round(x1))) + 1):
                o = x * self.bpp
                if all(abs(row[o + c] - colour[c]) <= tol for c in range(3)):
                    n += 1
        return n

    def pixel(self, x, y):
        x, y = int(round(x)), int(round(y))
        o = x * self.bpp
        return tuple(self.rows[y][o:o + 3])

    def blob(self, colour, tol=3):
        """Number of pixels of this colour and their centroid (x, y)."""
        n, sx, sy = 0, 0.0, 0.0
        for y, row in enumerate(self.rows):
            for x in range(0, self.width * self.bpp, self.bpp):
                if all(abs(row[x + c] - colour[c]) <= tol for c in range(3)):
                    n += 1
                    sx += x // self.bpp
                    sy += y
        return n, ((sx / n, sy / n) if n else (float("nan"), float("nan")))


def steps_series(path):
    """The step reports of steps.jsonl as {name: ([times], [values])}, as the page plots them."""
    out = {}
    for line in open(path):
        if not line.strip():
            continue
        r = json.loads(line)
        for name, v in (("overlap", r.get("overlap")), ("kinetic_energy", r.get("kinetic_energy")),
                        ("potential_energy", r.get("potential_energy")),
                        ("contacts", r.get("contacts")),
                        ("solve_seconds", 1000 * r["seconds"]["solve"])):
            out.setdefault(name, ([], []))
            out[name][0].append(r["time"])
            out[name][1].append(v)
    return out


def near(p, q, tol=3):
    return all(abs(a - b) <= tol for a, b in zip(p, q))


def shaded(p, base):
    """p is base times one shade factor (flat shading of a 3D face), within a few levels."""
    s = sum(a * b for a, b in zip(p, base)) / sum(b * b for b in base)
    return 0.2 < s < 1.05 and all(abs(a - s * b) <= 6 for a, b in zip(p, base))


# ---- headless Chromium over the DevTools protocol on a pipe ----
class Browser:
    def __init__(self, chromium, profile):
        self.to_chrome_r, self.to_chrome_w = os.pipe()
        self.from_chrome_r, self.from_chrome_w = os.pipe()
        args = [chromium, "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--no-default-browser-check", "--hide-scrollbars",
                "--force-device-scale-factor=1", "--window-size=1400,1000",
                "--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank"]
        cmd = 'exec "$@" 3<&%d 4>&%d' % (self.to_chrome_r, self.from_chrome_w)
        self.proc = subprocess.Popen(["bash", "-c", cmd, "chromium"] + args,
                                     pass_fds=(self.to_chrome_r, self.from_chrome_w),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(self.to_chrome_r)
        os.close(self.from_chrome_w)
        self.out = os.fdopen(self.to_chrome_w, "wb", buffering=0)
        self.inp = os.fdopen(self.from_chrome_r, "rb", buffering=0)
        self.buf = b""
        self.next_id = 0
        self.session = None

    def _read_message(self):
        while b"\0" not in self.buf:
            chunk = self.inp.read(65536)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=True):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        self.out.write(json.dumps(msg).encode() + b"\0")
        while True:
            m = self._read_message()
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m["result"]

    def open(self, url):
        target = self.call("Target.createTarget", {"url": "about:blank"}, session=False)
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": target["targetId"], "flatten": True},
                                 session=False)["sessionId"]
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": 1400, "height": 1000, "deviceScaleFactor": 1, "mobile": False})
        self.call("Page.enable")
        self.call("Page.navigate", {"url": url})
        for _ in range(200):
            if self.eval("!!(window.exactsimReplay && window.exactsimReplay.ready)"):
                return
            import time
            time.sleep(0.05)
        raise RuntimeError(url + ": the page did not set window.exactsimReplay")

    def eval(self, expr):
        r = self.call("Runtime.evaluate",
                      {"expression": expr, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in r:
            raise RuntimeError(expr + ": " + json.dumps(r["exceptionDetails"])[:400])
        return r["result"].get("value")

    def screenshot(self):
        self.eval("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        return Image(base64.b64decode(self.call("Page.captureScreenshot", {"format": "png"})["data"]))

    def close(self):
        try:
            self.call("Browser.close", session=False)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()


# ---- the runs ----
def run(cmd, expect=0):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode not in (expect if isinstance(expect, tuple) else (expect,)):
        print(p.stdout, p.stderr)
        raise RuntimeError("%s exited %d (expected %d)" % (" ".join(cmd), p.returncode, expect))
    return p


def trajectory(path):
    """{step: {body: row}} and the list of steps, from trajectory.csv."""
    frames, steps = {}, []
    with open(path) as f:
        for row in csv.DictReader(f):
            s = int(row["step"])
            if s not in frames:
                frames[s] = {}
                steps.append(s)
            frames[s][row["body"]] = {k: float(v) for k, v in row.items() if k != "body"}
    return frames, steps


def check_page_against_trajectory(b, label, traj, step, k, dim, r=0):
    """Page frame k shows trajectory step `step` in run r: its time and every body's pose."""
    api = "window.exactsimReplay"
    b.eval(api + ".setFrame(%d)" % k)
    check(b.eval(api + ".step(%d)" % r) == step, "%s: frame %d shows step %d" % (label, k, step))
    row0 = next(iter(traj[step].values()))
    check(abs(b.eval(api + ".time(%d)" % r) - row0["time"]) < 1e-12,
          "%s: frame %d shows the trajectory's time %.4f s" % (label, k, row0["time"]))
    worst = 0.0
    for body in b.eval(api + ".bodyPositions(%d)" % r):
        row = traj[step].get(body["name"])
        if not check(body["present"] == (row is not None),
                     "%s: body %s present as in the trajectory" % (label, body["name"])):
            continue
        if row is None:
            continue
        want = [row["x"], row["y"]] + ([row["z"]] if dim == 3 else [])
        worst = max(worst, max(abs(a - c) for a, c in zip(body["position"], want)))
        if dim == 2:
            worst = max(worst, abs(body["angle"] - row["theta"]))
        else:
            q = [row["qw"], row["qx"], row["qy"], row["qz"]]
            worst = max(worst, max(abs(a - c) for a, c in zip(body["orientation"], q)))
    check(worst < 1e-7, "%s: frame %d poses equal trajectory.csv (worst difference %.1e)"
          % (label, k, worst))


def plot_point(a, t, v):
    """Page pixel of (time, value) in a plot area (plotArea)."""
    return (a["left"] + (t - a["t0"]) / (a["t1"] - a["t0"]) * a["width"],
            a["top"] + (a["v1"] - v) / (a["v1"] - a["v0"]) * a["height"])


def check_plot_line(b, img, label, name, r, ts, vs, other=None):
    """Plot `name` draws run r's series (ts, vs), read from steps.jsonl by this test: the plot's
    ranges cover it tightly, the page's series equals it, and at sample points (away from the
    cursor and, with two runs, from the other run's line `other`) a pixel of the run's colour
    lies within 2 px of where the plot's ranges put the point. The line is a line, not a fill."""
    api = "window.exactsimReplay"
    a = b.eval(api + ".plotArea('%s')" % name)
    colour = b.eval(api + ".plotColours")[r]
    both = vs + (list(other[1]) if other else [])
    lo, hi = min(both), max(both)
    check(a["t0"] <= ts[0] + 1e-9 and a["t1"] >= ts[-1] - 1e-9 and a["v0"] <= lo and a["v1"] >= hi
          and (hi == lo or a["v1"] - a["v0"] <= 1.25 * (hi - lo)),
          "%s: plot %s spans the series (t %.3g..%.3g, v %.4g..%.4g, both runs) tightly (%s)"
          % (label, name, ts[0], ts[-1], lo, hi, a))
    page = b.eval(api + ".plotSeries('%s', %d)" % (name, r))
    check(len(page["t"]) == len(ts) and all(
        abs(x - y) <= 1e-7 * max(1.0, abs(y)) for x, y in zip(page["v"] + page["t"], vs + ts)),
          "%s: plot %s has the %d values of steps.jsonl" % (label, name, len(ts)))
    t_now = b.eval(api + ".time()")
    cursor_x = plot_point(a, t_now, 0)[0]
    tested = hits = 0
    n = len(ts)
    for j in range(1, 24):
        i = round(j * (n - 1) / 24)
        x, y = plot_point(a, ts[i], vs[i])
        if abs(x - cursor_x) < 5:
            continue
        if other is not None:  # skip where the other run's line passes within 6 px
            ot, ov = other
            oi = min(range(len(ot)), key=lambda m: abs(ot[m] - ts[i]))
            if abs(ot[oi] - ts[i]) > 1e-9 or abs(plot_point(a, ot[oi], ov[oi])[1] - y) < 6:
                continue
        tested += 1
        hits += img.count(colour, x - 2, y - 2, x + 2, y + 2) > 0
    check(tested >= 5 and hits >= 0.9 * tested,
          "%s: plot %s: run %d's colour %s at %d of %d sampled points of its series"
          % (label, name, r, colour, hits, tested))
    area = a["width"] * a["height"]
    painted = img.count(colour, a["left"], a["top"], a["left"] + a["width"], a["top"] + a["height"])
    check(0 < painted < 0.25 * area, "%s: plot %s: a line, %d of %d plot pixels in the run's "
          "colour" % (label, name, painted, area))


def check_cursor(b, label, name, k1, k2):
    """The plot's cursor is at the time of frame k1, then moves to frame k2's."""
    api = "window.exactsimReplay"
    cursor = b.eval(api + ".cursorColour")
    xs, imgs, areas = [], [], []
    for k in (k1, k2):
        b.eval(api + ".setFrame(%d)" % k)
        areas.append(b.eval(api + ".plotArea('%s')" % name))
        xs.append(plot_point(areas[-1], b.eval(api + ".time()"), 0)[0])
        imgs.append(b.screenshot())
    a = areas[0]
    check(areas[0] == areas[1], "%s: plot %s stays in place when the frame changes" % (label, name))

    def column(img, x):
        return img.count(cursor, x - 2, a["top"] + 1, x + 1, a["top"] + a["height"] - 1, tol=30)
    h = a["height"]
    check(abs(xs[0] - xs[1]) > 10, "%s: frames %d and %d are %.0f px apart on the time axis"
          % (label, k1, k2, abs(xs[0] - xs[1])))
    check(column(imgs[0], xs[0]) >= 0.8 * h and column(imgs[0], xs[1]) <= 0.1 * h,
          "%s: plot %s: at frame %d the cursor is the column at its time (x %.0f: %d px; x %.0f: "
          "%d px)" % (label, name, k1, xs[0], column(imgs[0], xs[0]), xs[1],
                      column(imgs[0], xs[1])))
    check(column(imgs[1], xs[1]) >= 0.8 * h and column(imgs[1], xs[0]) <= 0.1 * h,
          "%s: plot %s: at frame %d the cursor has moved to x %.0f (%d px; %d px left at x %.0f)"
          % (label, name, k2, xs[1], column(imgs[1], xs[1]), column(imgs[1], xs[0]), xs[0]))


def check_panels_fit(b, label):
    """No part of the page overflows the window sideways; the JSON panels scroll within."""
    geo = b.eval("""(() => {
      const pres = [...document.querySelectorAll('pre')].map((p) => {
        const r = p.getBoundingClientRect();
        return {id: p.id, right: r.right, height: r.height, scrolls: p.scrollHeight > p.clientHeight};
      });
      return {width: innerWidth, height: innerHeight, scrollWidth: document.documentElement.scrollWidth, pres};
    })()""")
    check(geo["scrollWidth"] <= geo["width"],
          "%s: the page is no wider than the window (%d <= %d px)"
          % (label, geo["scrollWidth"], geo["width"]))
    check(all(p["right"] <= geo["width"] and p["height"] <= 0.3 * geo["height"]
              for p in geo["pres"]) and len(geo["pres"]) >= 2,
          "%s: every JSON panel is inside the window and at most 30 %% of its height (%s)"
          % (label, [(p["id"], round(p["right"]), round(p["height"])) for p in geo["pres"]]))
    summary = [p for p in geo["pres"] if p["id"] == "summary"]
    check(summary and summary[0]["scrolls"], "%s: the run summary scrolls within its panel" % label)


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    cli, src, work = sys.argv[1:]
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("SKIP: chromium is not installed (Debian package 'chromium', in scripts/setup.sh); "
              "the replay page was not tested in a browser")
        return SKIP
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    d2, d3 = os.path.join(work, "box2d"), os.path.join(work, "cube3d")
    scene2 = os.path.join(src, "scenes", "box-on-floor-2d.json")
    scene3 = os.path.join(src, "scenes", "cube-drop-3d.json")
    run([cli, "run", scene2, "--duration", "0.5", "--out", d2, "--quiet"])
    run([cli, "run", scene3, "--duration", "0.3", "--out", d3, "--quiet"])

    # Errors: exit 2 with the folder and the reason.
    p = run([cli, "view", os.path.join(work, "missing")], expect=2)
    check("missing" in p.stderr and "no such results folder" in p.stderr,
          "view of a missing folder: exit 2, names the folder (%s)" % p.stderr.strip())
    # run --out writes scene.json (and the replay); without it view asks for --scene.
    check(os.path.exists(os.path.join(d2, "scene.json")) and
          os.path.exists(os.path.join(d2, "replay.html")),
          "run --out wrote scene.json and replay.html")
    os.remove(os.path.join(d2, "scene.json"))
    p = run([cli, "view", d2], expect=2)
    check("scene.json" in p.stderr and "--scene" in p.stderr,
          "view without a scene: exit 2, asks for --scene (%s)" % p.stderr.strip())
    p = run([cli, "view", d2, "--scene", scene3], expect=2)
    check("2D trajectory" in p.stderr, "view with the wrong scene: exit 2 (%s)" % p.stderr.strip())

    # 2D: the scene by --scene; 3D: the scene inside the folder (what run --out should write).
    run([cli, "view", d2, "--scene", scene2])
    shutil.copy(scene3, os.path.join(d3, "scene.json"))
    run([cli, "view", d3])
    for d in (d2, d3):
        html = open(os.path.join(d, "replay.html")).read()
        check("http://" not in html and "https://" not in html and "src=" not in html,
              "%s/replay.html loads nothing from outside (no URL, no src=)" % os.path.basename(d))

    # Subsampling: a copy of the 2D run viewed with --max-frames 7.
    dsub = os.path.join(work, "box2d-sub")
    shutil.copytree(d2, dsub)
    p = run([cli, "view", dsub, "--scene", scene2, "--max-frames", "7"])
    check("7 frames of 51" in p.stdout, "view --max-frames 7 reports 7 of 51 frames (%s)"
          % p.stdout.strip())

    # run records each step's contacts for a small scene: steps.jsonl's contact_list.
    reports2 = [json.loads(line) for line in open(os.path.join(d2, "steps.jsonl")) if line.strip()]
    recorded = reports2[-1].get("contact_list", [])
    check(len(recorded) == reports2[-1]["contacts"] > 0 and all(
        len(c["point"]) == 2 and abs(math.hypot(*c["normal"]) - 1) < 1e-5
        and len(c["impulse"]) == 2 for c in recorded),
          "run --out: the last step's contact_list has its %d contacts with 2D point, unit "
          "normal and impulse" % reports2[-1]["contacts"])
    # A copy without per-contact data: the page hides the contacts checkbox.
    dnc = os.path.join(work, "box2d-no-contacts")
    shutil.copytree(d2, dnc)
    with open(os.path.join(dnc, "steps.jsonl"), "w") as f:
        for r in reports2:
            r.pop("contact_list", None)
            f.write(json.dumps(r) + "\n")
    run([cli, "view", dnc, "--scene", scene2])

    # Two runs on one page: the corner trap with PEG (A) and the standard model (B).
    trap = os.path.join(src, "scenes", "corner-trap-2d.json")
    da, db = os.path.join(work, "trap-peg"), os.path.join(work, "trap-standard")
    run([cli, "run", trap, "--out", da, "--quiet"])
    run([cli, "run", trap, "--model", "standard", "--continue-on-failure", "--out", db, "--quiet"],
        expect=(0, 3))
    p = run([cli, "view", da, db])
    check(os.path.join(da, "replay.html") in p.stdout and da in p.stdout and db in p.stdout,
          "view A B writes A/replay.html and names both runs (%s)" % p.stdout.strip())
    p = run([cli, "view", da, d3], expect=2)
    check("cannot be shown beside" in p.stderr,
          "view of a 2D and a 3D run: exit 2 (%s)" % p.stderr.strip())

    # Per-contact data in the other form the page reads (`contacts` as a list): a copy of the 2D
    # run whose last step carries one contact at a point in empty space.
    dcon = os.path.join(work, "box2d-contacts")
    shutil.copytree(d2, dcon)
    lines = open(os.path.join(dcon, "steps.jsonl")).read().splitlines()
    last = json.loads(lines[-1])
    traj0, steps0 = trajectory(os.path.join(d2, "trajectory.csv"))
    empty = [traj0[steps0[0]]["box"]["x"], traj0[steps0[0]]["box"]["y"]]  # the box left it
    last["contacts"] = [{"a": "box", "b": "floor", "point": empty, "normal": [0, 1],
                         "impulse": 0.05}]
    lines[-1] = json.dumps(last)
    open(os.path.join(dcon, "steps.jsonl"), "w").write("\n".join(lines) + "\n")
    run([cli, "view", dcon, "--scene", scene2])

    # Overlap: a copy of the 2D run whose last frame has the box sunk 0.05 m into the floor
    # (overlap 0.2 x 0.05 = 0.01 m^2, a quarter of the box): the pair must turn red.
    dred = os.path.join(work, "box2d-sunk")
    shutil.copytree(d2, dred)
    rows = open(os.path.join(dred, "trajectory.csv")).read().splitlines()
    header = rows[0].split(",")
    last_step = rows[-1].split(",")[0]
    for r, line in enumerate(rows):
        cells = line.split(",")
        if cells[0] == last_step and cells[2] == "box":
            cells[header.index("y")], cells[header.index("theta")] = "0.05", "0"
            sunk_x = float(cells[header.index("x")])
            rows[r] = ",".join(cells)
    open(os.path.join(dred, "trajectory.csv"), "w").write("\n".join(rows) + "\n")
    run([cli, "view", dred, "--scene", scene2])

    profile = tempfile.mkdtemp(prefix="exactsim-chromium-")
    b = Browser(chromium, profile)
    try:
        # ---- 2D ----
        traj, steps = trajectory(os.path.join(d2, "trajectory.csv"))
        b.open("file://" + os.path.abspath(os.path.join(d2, "replay.html")))
        api = "window.exactsimReplay"
        b.eval(api + ".setOption('contacts', false)")  # arrows would cover parts of the box
        n = b.eval(api + ".frameCount")
        # The initial state (step -1) and the 50 steps.
        check(n == len(steps) == 51 and steps[0] == -1,
              "2D: the page has all %d frames, from the initial state (%s)" % (len(steps), n))
        check(b.eval(api + ".framesInRun") == 51, "2D: the page knows the run has 51 frames")
        b.eval(api + ".setFrame(0)")
        check(b.eval("document.getElementById('clock').textContent").startswith("initial state"),
              "2D frame 0 is labelled the initial state")
        bg = b.eval(api + ".background")
        box = b.eval(api + ".bodyNames").index("box")
        colour = b.eval(api + ".bodyColour(%d)" % box)
        for k in (0, 24, n - 1):
            check_page_against_trajectory(b, "2D", traj, steps[k], k, 2)
        k = n - 1
        b.eval(api + ".setFrame(%d)" % k)
        img = b.screenshot()
        now = traj[steps[k]]["box"]
        then = traj[steps[0]]["box"]
        at_now = b.eval(api + ".toPage([%r, %r])" % (now["x"], now["y"]))
        at_then = b.eval(api + ".toPage([%r, %r])" % (then["x"], then["y"]))
        ppm = b.eval(api + ".pixelsPerMetre()")
        check(math.dist(at_now, at_then) > 0.2 * ppm,
              "2D: the box moved more than its size on screen (%.0f px)" % math.dist(at_now, at_then))
        check(near(img.pixel(*at_now), colour),
              "2D frame %d: box colour %s at the trajectory's box position %s (pixel %s)"
              % (k, colour, [round(v) for v in at_now], img.pixel(*at_now)))
        check(near(img.pixel(*at_then), bg),
              "2D frame %d: background at the box's initial position (pixel %s)"
              % (k, img.pixel(*at_then)))
        area, centre = img.blob(colour)
        want = 0.2 * 0.2 * ppm * ppm
        check(0.8 * want < area < 1.1 * want,
              "2D: box-coloured area %d px, the box's 0.04 m^2 at %.0f px/m is %.0f px"
              % (area, ppm, want))
        check(math.dist(centre, at_now) < 1.5,
              "2D: the box-coloured pixels are centred on the box's position (%.1f, %.1f) vs "
              "(%.1f, %.1f)" % (centre + tuple(at_now)))
        right = b.eval(api + ".toPage([%r, %r])" % (now["x"] + 0.1, now["y"]))
        up = b.eval(api + ".toPage([%r, %r])" % (now["x"], now["y"] + 0.1))
        check(abs(right[0] - at_now[0] - 0.1 * ppm) < 0.5 and abs(right[1] - at_now[1]) < 0.5
              and abs(up[1] - at_now[1] + 0.1 * ppm) < 0.5 and abs(up[0] - at_now[0]) < 0.5,
              "2D: world x is screen right and world y screen up, at the same scale")
        b.eval(api + ".setFrame(0)")
        img0 = b.screenshot()
        check(near(img0.pixel(*at_then), colour) and near(img0.pixel(*at_now), bg),
              "2D frame 0: the box is at its initial position and gone from its last one")

        # The run's recorded contacts: a dark dot at a contact point of the last step, gone when
        # the checkbox is off; the checkbox is shown.
        check(b.eval(api + ".hasContacts()") and b.eval(
            "getComputedStyle(document.getElementById('contacts-label')).display") != "none",
              "contacts: the checkbox is shown for a run that recorded contacts")
        b.eval(api + ".setFrame(%d)" % (n - 1))
        b.eval(api + ".setOption('contacts', true)")
        shown = b.eval(api + ".contacts()")
        check(len(shown) == len(recorded), "contacts: the page has the last step's %d recorded "
              "contacts (%d)" % (len(recorded), len(shown)))
        at_c = b.eval(api + ".toPage(%s)" % json.dumps(recorded[0]["point"]))
        img = b.screenshot()
        check(near(img.pixel(*at_c), (0, 0, 0), 40),
              "contacts: a dark dot at the recorded contact point (pixel %s)" % (img.pixel(*at_c),))
        b.eval(api + ".setOption('contacts', false)")
        img = b.screenshot()
        check(not near(img.pixel(*at_c), (0, 0, 0), 60),
              "contacts: no dot there with the checkbox off (pixel %s)" % (img.pixel(*at_c),))

        # Plots of steps.jsonl, and the cursor following the frame.
        series2 = steps_series(os.path.join(d2, "steps.jsonl"))
        check(b.eval(api + ".plotNames") == ["overlap", "max_penetration", "kinetic_energy",
                                             "potential_energy", "contacts", "solve_seconds"],
              "plots: overlap, max penetration, kinetic and potential energy, contacts, solve time")
        b.eval("document.getElementById('plots').scrollIntoView()")
        b.eval(api + ".setFrame(10)")
        img = b.screenshot()
        for name in ("kinetic_energy", "potential_energy", "contacts"):
            check_plot_line(b, img, "2D", name, 0, *series2[name])
        check_cursor(b, "2D", "kinetic_energy", 10, 40)
        b.eval("window.scrollTo(0, 0)")
        check_panels_fit(b, "2D")

        # Without per-contact data the checkbox is hidden.
        b.open("file://" + os.path.abspath(os.path.join(dnc, "replay.html")))
        check(not b.eval(api + ".hasContacts()") and b.eval(
            "getComputedStyle(document.getElementById('contacts-label')).display") == "none",
              "contacts: the checkbox is hidden for a run without per-contact data")

        # Two runs side by side.
        b.open("file://" + os.path.abspath(os.path.join(da, "replay.html")))
        b.eval(api + ".setOption('contacts', false)")
        check(b.eval(api + ".runCount") == 2, "two runs: the page has both")
        rects = b.eval("[...document.querySelectorAll('canvas.view')].map((c) => "
                       "{const r = c.getBoundingClientRect(); return [r.left, r.top, r.right];})")
        check(len(rects) == 2 and rects[1][0] >= rects[0][2] and abs(rects[1][1] - rects[0][1]) < 1
              and rects[1][2] <= 1400,
              "two runs: two canvases side by side within the window (%s)" % rects)
        for r, d in enumerate((da, db)):
            tr, st = trajectory(os.path.join(d, "trajectory.csv"))
            nr = b.eval(api + ".runFrameCount(%d)" % r)
            check(nr == len(st), "two runs: run %d has its %d frames (%d)" % (r, len(st), nr))
            k = min(nr, b.eval(api + ".frameCount")) - 1
            check_page_against_trajectory(b, "two runs, run %d" % r, tr, st[k], k, 2, r)
            slider = b.eval(api + ".bodyNames").index("slider")
            colour = b.eval(api + ".bodyColour(%d, %d)" % (slider, r))
            at = b.eval(api + ".toPage([%r, %r], %d)" % (tr[st[k]]["slider"]["x"],
                                                        tr[st[k]]["slider"]["y"], r))
            img = b.screenshot()
            check(near(img.pixel(*at), colour) and rects[r][0] <= at[0] <= rects[r][2],
                  "two runs: run %d's slider drawn in its own canvas at its trajectory position "
                  "(pixel %s)" % (r, img.pixel(*at)))
        sa = steps_series(os.path.join(da, "steps.jsonl"))
        sb = steps_series(os.path.join(db, "steps.jsonl"))
        b.eval("document.getElementById('plots').scrollIntoView()")
        b.eval(api + ".setFrame(0)")
        img = b.screenshot()
        check(max(abs(x - y) for x, y in zip(sa["kinetic_energy"][1], sb["kinetic_energy"][1]))
              > 0.05, "two runs: the models' kinetic energies differ (the trap)")
        check_plot_line(b, img, "two runs", "kinetic_energy", 0, *sa["kinetic_energy"],
                        other=sb["kinetic_energy"])
        check_plot_line(b, img, "two runs", "kinetic_energy", 1, *sb["kinetic_energy"],
                        other=sa["kinetic_energy"])
        check_cursor(b, "two runs", "kinetic_energy", 5, 30)
        b.eval("window.scrollTo(0, 0)")
        check_panels_fit(b, "two runs")
        b.eval(api + ".setFrame(20)")
        check(b.eval(api + ".step(0)") == b.eval(api + ".step(1)") == 19,
              "two runs: one clock, both at step 19 at frame 20")

        # Subsampled page.
        tsub, ssub = trajectory(os.path.join(dsub, "trajectory.csv"))
        b.open("file://" + os.path.abspath(os.path.join(dsub, "replay.html")))
        check(b.eval(api + ".frameCount") == 7 and b.eval(api + ".framesInRun") == 51,
              "2D subsampled: 7 frames on the page of the run's 51")
        b.eval(api + ".setFrame(6)")
        check(b.eval(api + ".step()") == ssub[-1], "2D subsampled: the last frame is the last step")
        check("showing 7 of its 51" in b.eval("document.getElementById('note').textContent"),
              "2D subsampled: the page says it shows 7 of 51 frames")
        # Frame 3 of 7 over the frames 0…50 (steps −1…49) is frame round(3 · 50 / 6) = 25: step 24.
        check_page_against_trajectory(b, "2D subsampled", tsub, 24, 3, 2)

        # Contacts drawn, and hidden when toggled off.
        b.open("file://" + os.path.abspath(os.path.join(dcon, "replay.html")))
        b.eval(api + ".setFrame(%d)" % (n - 1))
        check(len(b.eval(api + ".contacts()")) == 1, "contacts: the page reads report.contacts")
        at_c = b.eval(api + ".toPage(%s)" % json.dumps(empty))
        img = b.screenshot()
        check(near(img.pixel(*at_c), (0, 0, 0), 40),
              "contacts: a dark contact dot at the contact point (pixel %s)" % (img.pixel(*at_c),))
        b.eval(api + ".setOption('contacts', false)")
        img = b.screenshot()
        check(near(img.pixel(*at_c), bg), "contacts: toggled off, background there")

        # Overlapping pair in red.
        b.open("file://" + os.path.abspath(os.path.join(dred, "replay.html")))
        b.eval(api + ".setOption('contacts', false)")
        b.eval(api + ".setFrame(%d)" % (n - 1))
        pairs = b.eval(api + ".overlappingPairs()")
        check(len(pairs) == 1 and {pairs[0]["a"], pairs[0]["b"]} == {"floor", "box"}
              and abs(pairs[0]["overlap"] - 0.01) < 1e-9,
              "overlap: the page finds floor-box overlapping by 0.01 m^2 (%s)" % pairs)
        b.eval(api + ".setFrame(0)")
        check(b.eval(api + ".overlappingPairs()") == [], "overlap: none at frame 0")
        b.eval(api + ".setFrame(%d)" % (n - 1))
        edge = b.eval(api + ".toPage([%r, 0.15])" % sunk_x)  # middle of the box's top edge

        def red_near(img, p):
            return any(near(img.pixel(p[0] + dx, p[1] + dy), (224, 0, 0), 40)
                       for dx in (-1, 0, 1) for dy in (-2, -1, 0, 1, 2))
        img = b.screenshot()
        check(red_near(img, edge), "overlap: the box's outline is red (pixel %s)"
              % (img.pixel(*edge),))
        b.eval(api + ".setOption('overlaps', false)")
        img = b.screenshot()
        check(not red_near(img, edge), "overlap: not red with the highlight off (pixel %s)"
              % (img.pixel(*edge),))

        # Playback: play from frame 0 advances the frame.
        b.eval(api + ".setFrame(0)")
        b.eval("document.getElementById('play').click()")
        b.eval("new Promise(r => setTimeout(r, 400))")
        playing_frame = b.eval(api + ".frame()")
        b.eval("document.getElementById('play').click()")
        check(playing_frame > 0, "play: 0.4 s of playback at 1x moved to frame %d"
              % playing_frame)

        # ---- 3D ----
        traj, steps = trajectory(os.path.join(d3, "trajectory.csv"))
        b.open("file://" + os.path.abspath(os.path.join(d3, "replay.html")))
        b.eval(api + ".setOption('contacts', false)")
        n = b.eval(api + ".frameCount")
        check(n == len(steps) == 61, "3D: the page has all %d frames (%s)" % (len(steps), n))
        check(b.eval(api + ".dimension") == 3, "3D: the page is 3D")
        cube = b.eval(api + ".bodyNames").index("cube")
        colour = b.eval(api + ".bodyColour(%d)" % cube)
        for k in (0, 30, n - 1):
            check_page_against_trajectory(b, "3D", traj, steps[k], k, 3)
        k = n - 1
        b.eval(api + ".setFrame(%d)" % k)
        img = b.screenshot()
        now, then = traj[steps[k]]["cube"], traj[steps[0]]["cube"]
        at_now = b.eval(api + ".toPage([%r, %r, %r])" % (now["x"], now["y"], now["z"]))
        at_then = b.eval(api + ".toPage([%r, %r, %r])" % (then["x"], then["y"], then["z"]))
        ppm = b.eval(api + ".pixelsPerMetre()")
        check(math.dist(at_now, at_then) > 0.2 * ppm,
              "3D: the cube moved more than its size on screen (%.0f px)" % math.dist(at_now, at_then))
        check(shaded(img.pixel(*at_now), colour),
              "3D frame %d: a shade of the cube's colour %s at its trajectory position (pixel %s)"
              % (k, colour, img.pixel(*at_now)))
        above = b.eval(api + ".toPage([%r, %r, %r])" % (now["x"], now["y"], now["z"] + 0.1))
        check(above[1] < at_now[1] - 0.05 * ppm,
              "3D: a point above the cube (against gravity) is higher on screen")
        px = img.pixel(*at_then)
        check(not shaded(px, colour) and max(px) - min(px) <= 12,
              "3D frame %d: grey background or floor, no cube, at the cube's initial position "
              "(pixel %s)" % (k, px))
        b.eval(api + ".setFrame(0)")
        img0 = b.screenshot()
        check(shaded(img0.pixel(*at_then), colour),
              "3D frame 0: the cube's colour at its initial position (pixel %s)"
              % (img0.pixel(*at_then),))
    finally:
        b.close()
        shutil.rmtree(profile, ignore_errors=True)

    # ---- final.svg: the last frame without a browser ----
    for d, bodies, dim in ((d2, ["floor", "box"], 2), (d3, ["floor", "cube"], 3)):
        svg = ET.parse(os.path.join(d, "final.svg")).getroot()
        ns = "{http://www.w3.org/2000/svg}"
        polys = svg.findall(ns + "polygon")
        _, steps = trajectory(os.path.join(d, "trajectory.csv"))
        caption = "".join(t.text or "" for t in svg.findall(ns + "text"))
        check("step %d," % steps[-1] in caption,
              "%dD final.svg is the last step %d (%s)" % (dim, steps[-1], caption))
        if dim == 2:
            check(len(polys) == 2, "2D final.svg: one polygon per body (%d)" % len(polys))
        else:
            check(4 <= len(polys) <= 6, "3D final.svg: the front faces of floor and cube, 2 or 3 "
                  "each (%d polygons)" % len(polys))

    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
