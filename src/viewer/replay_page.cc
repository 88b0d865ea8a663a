// The replay page (docs/viewer.md). Canvas 2D only, no library and no network: 2D bodies are
// filled polygons; 3D bodies are projected orthographically, back faces culled, each body's front
// faces flat-shaded, bodies painted far to near with static ones first and translucent (the
// same camera as final.svg, view_camera.h). One canvas per run (two runs side by side, one
// clock), then one plot per step series with a line per run and a cursor at the clock's time.
// window.exactsimReplay is the page's API for tests.
#include "viewer/replay_page.h"

namespace exactsim {
namespace {

constexpr const char* kHead = R"html(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>exactsim replay</title>
<style>
body { font: 14px sans-serif; margin: 8px; color: #222; background: #fff; }
#top { margin-bottom: 6px; }
#note { color: #a15c00; margin-left: 1em; }
#main { display: flex; gap: 12px; align-items: flex-start; flex-wrap: wrap; }
#left { flex: 0 0 auto; }
#views { display: flex; gap: 8px; }
.runlabel { font-weight: bold; margin-bottom: 2px; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
canvas.view { border: 1px solid #ccc; display: block; cursor: grab; }
#controls { margin-top: 6px; display: flex; gap: 6px; align-items: center; flex-wrap: wrap; }
#controls button { min-width: 2.6em; }
#play { min-width: 4em; }
#scrub { width: 420px; }
#clock { margin-top: 4px; font-family: monospace; }
#side { flex: 1 1 260px; min-width: 240px; max-width: 640px; font-size: 12px; }
#side h3 { font-size: 13px; margin: 8px 0 2px; }
#side pre { margin: 0; height: min(26vh, 240px); overflow: auto; background: #f4f4f4; padding: 4px; white-space: pre; }
body.two #side pre, body.two #summaries pre { height: min(16vh, 180px); }
body.two #summaries { display: flex; gap: 12px; margin-top: 8px; font-size: 12px; }
body.two #summaries > div { flex: 1 1 0; min-width: 0; }
#summaries h3 { font-size: 13px; margin: 8px 0 2px; }
#summaries pre { margin: 0; height: min(26vh, 240px); overflow: auto; background: #f4f4f4; padding: 4px; white-space: pre; }
#overlap { height: 5.5em; overflow-y: auto; }
#plots-wrap { margin-top: 10px; }
#legend span { margin-right: 1.5em; font-weight: bold; }
#plots { display: flex; flex-wrap: wrap; gap: 6px 14px; margin-top: 4px; }
.plot { font-size: 12px; }
.plot canvas { display: block; cursor: crosshair; }
.ptitle { white-space: nowrap; overflow: hidden; }
.bad { color: #c00000; font-weight: bold; }
</style></head>
<body>
<div id="top"><b id="title"></b><span id="note"></span></div>
<div id="main">
<div id="left">
<div id="views"></div>
<div id="controls">
<button id="first" title="first frame (Home)">|&#x25C0;</button>
<button id="prev" title="previous frame (&larr;)">&#x25C0;</button>
<button id="play" title="play / pause (space)">play</button>
<button id="next" title="next frame (&rarr;)">&#x25B6;</button>
<button id="last" title="last frame (End)">&#x25B6;|</button>
<input id="scrub" type="range" min="0" value="0">
<select id="speed" title="playback speed (simulated time per second)">
<option value="0.1">0.1&times;</option><option value="0.25">0.25&times;</option>
<option value="1" selected>1&times;</option><option value="4">4&times;</option>
</select>
</div>
<div id="controls2" style="margin-top:4px">
<label id="contacts-label"><input id="contacts" type="checkbox" checked> contacts and impulses</label>
<label><input id="overlaps" type="checkbox" checked> overlapping pairs in red, above</label>
<input id="threshold" type="number" step="any" min="0" style="width:6em"> of the smaller body
<label><input id="names" type="checkbox"> names</label>
</div>
<div id="clock"></div>
</div>
<div id="side">
<h3>Overlap</h3><div id="overlap"></div>
<div id="reports"></div>
<div id="summaries"></div>
<div style="margin-top:6px;color:#666">Drag to pan (2D) or turn (3D), wheel to zoom, double-click
to reset. Click a plot to go to that time. Keys: space, &larr; &rarr;, Home, End.</div>
</div>
</div>
<div id="plots-wrap"><div id="legend"></div><div id="plots"></div></div>
<script id="replay-data" type="application/json">)html";

constexpr const char* kScript = R"html(</script>
<script>
(function () {
'use strict';
const D = JSON.parse(document.getElementById('replay-data').textContent);
const $ = (id) => document.getElementById(id);
const runs = D.runs, nR = runs.length;
const dim = runs[0].dimension, cs = dim === 2 ? 3 : 7;
const W = nR === 1 ? 760 : 520, H = nR === 1 ? 500 : 420;
const dpr = window.devicePixelRatio || 1;
const bg = D.background;
const css = (c, s) => 'rgb(' + c.map((v) => Math.max(0, Math.min(255, Math.round(v * (s === undefined ? 1 : s))))).join(',') + ')';
const unit = dim === 2 ? 'm\u00b2' : 'm\u00b3';
const kStaticAlpha = 0.55;  // 3D static faces (final.svg uses the same)
// Plot colours of the runs (A, B) and of the cursor: not body colours, which are on other canvases.
const kRunColours = [[21, 101, 192], [230, 81, 0]], kCursor = [208, 0, 208];
const letters = ['A', 'B'];
const hex = (c) => '#' + c.map((v) => v.toString(16).padStart(2, '0')).join('');

// ---- the runs: one canvas each, side by side ----
const R = runs.map((d, r) => {
  const box = document.createElement('div');
  const label = document.createElement('div');
  label.className = 'runlabel';
  label.style.color = hex(kRunColours[r]);
  label.style.maxWidth = W + 'px';
  label.textContent = letters[r] + ': model ' + d.model + ', ' + d.scene + ' (' + d.dir + ')';
  if (nR > 1) box.appendChild(label);
  const canvas = document.createElement('canvas');
  canvas.className = 'view';
  canvas.id = r === 0 ? 'view' : 'view' + r;
  canvas.width = Math.round(W * dpr); canvas.height = Math.round(H * dpr);
  canvas.style.width = W + 'px'; canvas.style.height = H + 'px';
  box.appendChild(canvas);
  $('views').appendChild(box);
  return { d, B: d.bodies, F: d.frames, nF: d.frames.step.length, nb: d.bodies.length, canvas, ctx: canvas.getContext('2d') };
});
const lastTime = (u) => u.F.time[u.nF - 1];
// The clock follows the run that lasts longest; the other shows its frame at that time.
let master = 0;
for (let r = 1; r < nR; ++r)
  if (lastTime(R[r]) > lastTime(R[master]) || (lastTime(R[r]) === lastTime(R[master]) && R[r].nF > R[master].nF)) master = r;
const M = R[master], nF = M.nF;

let frame = 0, playing = false, lastTick = 0, playTime = 0;
let zoom = 1, panX = 0, panY = 0;
const cam0 = runs[0].camera;
let az = cam0 ? cam0.azimuth : 0, el = cam0 ? cam0.elevation : 0;

// The frame run u shows at the clock's frame: the last of its frames not after the clock's time.
function frameOf(u) {
  if (u === M) return frame;
  const t = M.F.time[frame] + 1e-12;
  let lo = 0, hi = u.nF - 1;
  if (u.F.time[0] > t) return 0;
  while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (u.F.time[mid] <= t) lo = mid; else hi = mid - 1; }
  return lo;
}

// ---- vectors and the camera (the same construction as view_camera.cc) ----
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const scale3 = (a, s) => [a[0] * s, a[1] * s, a[2] * s];
const add3 = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const unit3 = (a) => { const n = Math.hypot(a[0], a[1], a[2]) || 1; return scale3(a, 1 / n); };
let cam = null;
function makeCamera() {
  if (dim === 2) { cam = null; return; }
  const up = cam0.up, hz = cam0.horizontal, side = cross(up, hz);
  const a = az * Math.PI / 180, e = el * Math.PI / 180;
  const toward = add3(scale3(add3(scale3(hz, Math.cos(a)), scale3(side, Math.sin(a))), Math.cos(e)), scale3(up, Math.sin(e)));
  const right = unit3(cross(scale3(toward, -1), up));
  const sup = cross(right, scale3(toward, -1));
  const light = unit3(add3(add3(toward, scale3(up, 0.6)), scale3(right, 0.3)));
  cam = { up, toward, right, sup, light };
}
function qrot(q, v) {  // q = (w, x, y, z), unit
  const w = q[0], u = [q[1], q[2], q[3]];
  const t = scale3(cross(u, v), 2);
  return add3(add3(v, scale3(t, w)), cross(u, t));
}
const isPresent = (u, k, i) => u.F.present[k].charAt(i) === '1';
function worldVertices(u, k, i) {
  const q = u.F.q[k], o = i * cs, V = u.B[i].vertices;
  if (dim === 2) {
    const c = Math.cos(q[o + 2]), s = Math.sin(q[o + 2]);
    return V.map((v) => [q[o] + c * v[0] - s * v[1], q[o + 1] + s * v[0] + c * v[1], 0]);
  }
  const rot = [q[o + 3], q[o + 4], q[o + 5], q[o + 6]], p = [q[o], q[o + 1], q[o + 2]];
  return V.map((v) => add3(p, qrot(rot, v)));
}
function bodyPosition(u, k, i) {
  const q = u.F.q[k], o = i * cs;
  return dim === 2 ? [q[o], q[o + 1], 0] : [q[o], q[o + 1], q[o + 2]];
}
const project = (p) => (dim === 2 ? [p[0], p[1]] : [dot(p, cam.right), dot(p, cam.sup)]);

// ---- the view box, shared by the runs: moving bodies plus the static bodies near them ----
let view = { cx: 0, cy: 0, scale: 1 };
function fitView() {
  let dyn = null, stat = null;
  const grow = (b, p) => (b ? [Math.min(b[0], p[0]), Math.min(b[1], p[1]), Math.max(b[2], p[0]), Math.max(b[3], p[1])] : [p[0], p[1], p[0], p[1]]);
  for (const u of R) {
    const m = Math.min(u.nF, 200);
    for (let s = 0; s < m; ++s) {
      const k = Math.round(s * (u.nF - 1) / Math.max(1, m - 1));
      for (let i = 0; i < u.nb; ++i) {
        if (!isPresent(u, k, i)) continue;
        for (const v of worldVertices(u, k, i)) {
          const p = project(v);
          if (u.B[i].static) stat = grow(stat, p); else dyn = grow(dyn, p);
        }
      }
    }
  }
  let box = dyn || stat || [-1, -1, 1, 1];
  if (dyn && stat) {
    const hx = Math.max(dyn[2] - dyn[0], 1e-9) / 2, hy = Math.max(dyn[3] - dyn[1], 1e-9) / 2;
    const cx = (dyn[0] + dyn[2]) / 2, cy = (dyn[1] + dyn[3]) / 2;
    const lo = [Math.max(stat[0], cx - 2 * hx), Math.max(stat[1], cy - 2 * hy)];
    const hi = [Math.min(stat[2], cx + 2 * hx), Math.min(stat[3], cy + 2 * hy)];
    if (lo[0] <= hi[0] && lo[1] <= hi[1]) box = [Math.min(box[0], lo[0]), Math.min(box[1], lo[1]), Math.max(box[2], hi[0]), Math.max(box[3], hi[1])];
  }
  const size = Math.max(box[2] - box[0], box[3] - box[1], 1e-9), mg = 0.08 * size;
  box = [box[0] - mg, box[1] - mg, box[2] + mg, box[3] + mg];
  view = { cx: (box[0] + box[2]) / 2, cy: (box[1] + box[3]) / 2, scale: Math.min(W / (box[2] - box[0]), H / (box[3] - box[1])) };
}
const toCanvas = (v) => [W / 2 + panX + (v[0] - view.cx) * view.scale * zoom, H / 2 + panY - (v[1] - view.cy) * view.scale * zoom];
const screenOf = (p) => toCanvas(project(p));

// ---- what a frame's data says ----
function threshold() {
  const thr = parseFloat($('threshold').value);
  return isFinite(thr) ? thr : D.overlap_threshold;
}
function overlappingPairs(u, k) {
  const t = threshold();
  return u.F.overlaps[k].filter((p) => p[2] > t * Math.min(u.B[p[0]].size, u.B[p[1]].size));
}
function bodyIndex(u, x) {
  if (typeof x === 'number') return x;
  return u.B.findIndex((b) => b.name === x);
}
// Per-contact data of a step report: `contacts` (when a list) or `contact_list` (what run
// writes), each {a, b, point, normal, impulse}; impulse a number (along the normal) or a vector.
function contactList(r) {
  if (!r) return null;
  return Array.isArray(r.contacts) ? r.contacts : Array.isArray(r.contact_list) ? r.contact_list : null;
}
function contactsOf(u, k) {
  const list = contactList(u.F.reports[k]);
  return list ? list.filter((c) => c && Array.isArray(c.point)) : [];
}
function impulseVector(c) {
  const pad = (v) => [v[0], v[1], v.length > 2 ? v[2] : 0];
  if (Array.isArray(c.impulse)) return pad(c.impulse);
  if (typeof c.impulse === 'number' && Array.isArray(c.normal)) return scale3(pad(c.normal), c.impulse);
  return null;
}
let impulseScale = 0, anyContacts = false;
function computeImpulseScale() {
  let m = 0;
  for (const u of R)
    for (let k = 0; k < u.nF; ++k)
      for (const c of contactsOf(u, k)) {
        anyContacts = true;
        const J = impulseVector(c);
        if (J) m = Math.max(m, Math.hypot(J[0], J[1], J[2]));
      }
  impulseScale = m > 0 ? 0.12 * Math.min(W, H) / (view.scale * m) : 0;  // longest arrow: 12 % of the view
}

// ---- drawing the bodies ----
function polygonPath(ctx, pts) {
  ctx.beginPath();
  ctx.moveTo(pts[0][0], pts[0][1]);
  for (let j = 1; j < pts.length; ++j) ctx.lineTo(pts[j][0], pts[j][1]);
  ctx.closePath();
}
function drawRun(u) {
  const ctx = u.ctx, B = u.B, k = frameOf(u);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = css(bg);
  ctx.fillRect(0, 0, W, H);
  const red = new Set();
  if ($('overlaps').checked) for (const p of overlappingPairs(u, k)) { red.add(p[0]); red.add(p[1]); }
  ctx.lineJoin = 'round';
  if (dim === 2) {
    for (let pass = 0; pass < 2; ++pass)
      for (let i = 0; i < u.nb; ++i) {
        if (!isPresent(u, k, i) || B[i].static !== (pass === 0)) continue;
        const pts = worldVertices(u, k, i).map(screenOf);
        for (const loop of B[i].loops || [pts.map((_, v) => v)]) {  // a compound: each part
          polygonPath(ctx, loop.map((v) => pts[v]));
          ctx.fillStyle = css(B[i].colour);
          ctx.fill();
          ctx.strokeStyle = red.has(i) ? '#e00000' : css(B[i].colour, 0.6);
          ctx.lineWidth = red.has(i) ? 3 : 1;
          ctx.stroke();
        }
      }
  } else {
    const order = [];
    for (let i = 0; i < u.nb; ++i)
      if (isPresent(u, k, i)) order.push([i, B[i].static ? 0 : 1, dot(bodyPosition(u, k, i), cam.toward)]);
    order.sort((a, b) => a[1] - b[1] || a[2] - b[2]);  // static first, then far to near
    for (const [i] of order) {
      const pts = worldVertices(u, k, i).map(screenOf);
      const o = i * cs, q = u.F.q[k], rot = [q[o + 3], q[o + 4], q[o + 5], q[o + 6]];
      B[i].faces.forEach((face, f) => {
        const n = qrot(rot, B[i].normals[f]);
        if (dot(n, cam.toward) <= 0) return;
        const shade = 0.35 + 0.65 * Math.max(0, dot(n, cam.light));
        polygonPath(ctx, face.map((v) => pts[v]));
        ctx.fillStyle = css(B[i].colour, shade);
        ctx.globalAlpha = B[i].static ? kStaticAlpha : 1;  // glass walls: bodies show through
        ctx.fill();
        ctx.globalAlpha = 1;
        ctx.strokeStyle = red.has(i) ? '#e00000' : css(B[i].colour, 0.55 * shade);
        ctx.lineWidth = red.has(i) ? 2.5 : 0.8;
        ctx.stroke();
      });
    }
  }
  if ($('names').checked) {
    ctx.fillStyle = '#000'; ctx.font = '11px sans-serif';
    for (let i = 0; i < u.nb; ++i)
      if (isPresent(u, k, i) && !B[i].static) { const s = screenOf(bodyPosition(u, k, i)); ctx.fillText(B[i].name, s[0] + 4, s[1] - 4); }
  }
  if ($('contacts').checked) {
    for (const c of contactsOf(u, k)) {
      const p = [c.point[0], c.point[1], c.point.length > 2 ? c.point[2] : 0];
      const s = screenOf(p);
      const J = impulseVector(c);
      if (J && impulseScale > 0 && Math.hypot(J[0], J[1], J[2]) > 0) {
        const e = screenOf(add3(p, scale3(J, impulseScale)));
        ctx.strokeStyle = '#1a237e'; ctx.lineWidth = 2;
        ctx.beginPath(); ctx.moveTo(s[0], s[1]); ctx.lineTo(e[0], e[1]); ctx.stroke();
        const a = Math.atan2(e[1] - s[1], e[0] - s[0]);
        ctx.beginPath(); ctx.moveTo(e[0], e[1]);
        ctx.lineTo(e[0] - 8 * Math.cos(a - 0.4), e[1] - 8 * Math.sin(a - 0.4));
        ctx.lineTo(e[0] - 8 * Math.cos(a + 0.4), e[1] - 8 * Math.sin(a + 0.4));
        ctx.closePath(); ctx.fillStyle = '#1a237e'; ctx.fill();
      }
      ctx.fillStyle = '#000';
      ctx.beginPath(); ctx.arc(s[0], s[1], 3.5, 0, 2 * Math.PI); ctx.fill();
    }
  }
  if (M.F.time[frame] > lastTime(u) + 1e-12) {  // this run ended earlier than the clock
    const s = u.d.summary;
    ctx.fillStyle = '#a15c00'; ctx.font = 'bold 13px sans-serif';
    ctx.fillText('run ended at t = ' + lastTime(u).toFixed(4) + ' s' + (s && s.failed ? ': ' + s.failure : ''), 8, 18);
  }
}

// ---- the text panels ----
function fmt(v) { return typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toPrecision(6)) : String(v); }
function esc(s) { return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c])); }
function stepLabel(u, k) { return u.F.step[k] < 0 ? 'initial state' : 'step ' + u.F.step[k]; }
function showText() {
  $('scrub').value = frame;
  let clock;
  if (nR === 1) {
    clock = stepLabel(M, frame) + '   t = ' + M.F.time[frame].toFixed(4) + ' s   (frame ' + (frame + 1) + ' of ' + nF + ')';
  } else {
    clock = 't = ' + M.F.time[frame].toFixed(4) + ' s';
    R.forEach((u, r) => { const k = frameOf(u); clock += '   ' + letters[r] + ': ' + stepLabel(u, k) + ' (frame ' + (k + 1) + ' of ' + u.nF + ')'; });
  }
  $('clock').textContent = clock;
  let html = '';
  R.forEach((u, r) => {
    const k = frameOf(u), rep = u.F.reports[k], pre = $(r === 0 ? 'report' : 'report' + r);
    if (rep) {
      const copy = Object.assign({}, rep);
      for (const key of ['contacts', 'contact_list'])
        if (Array.isArray(copy[key])) copy[key] = '[' + copy[key].length + ' contacts, drawn]';
      pre.textContent = JSON.stringify(copy, (key, v) => (typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(6)) : v), 1);
    } else {
      pre.textContent = u.F.step[k] < 0 ? '(the initial state: no step taken yet)' : '(no step report for this step in steps.jsonl)';
    }
    const pairs = overlappingPairs(u, k), all = u.F.overlaps[k];
    const who = nR > 1 ? letters[r] + ': ' : '';
    if (rep && typeof rep.overlap === 'number')
      html += '<div' + (pairs.length ? ' class="bad"' : '') + '>' + who + 'step report: total ' + fmt(rep.overlap) + ' ' + unit + '</div>';
    html += '<div>' + who + all.length + ' pair(s) with overlap > 0, ' + pairs.length + ' above the threshold' + (pairs.length ? ':' : '') + '</div>';
    for (const p of pairs.slice(0, 30))
      html += '<div class="bad">' + esc(u.B[p[0]].name) + ' \u2013 ' + esc(u.B[p[1]].name) + ': ' + fmt(p[2]) + ' ' + unit + '</div>';
  });
  $('overlap').innerHTML = html;
}

// ---- plots of steps.jsonl, one line per run, the cursor at the clock's time ----
const kPlots = [
  ['overlap', 'overlap (' + unit + ')', 1],
  ['max_penetration', 'max penetration (m)', 1],
  ['kinetic_energy', 'kinetic energy (J)', 1],
  ['potential_energy', 'potential energy (J)', 1],
  ['contacts', 'contacts', 1],
  ['solve_seconds', 'solve time (ms)', 1000],
];
const PW = 440, PH = 150, PM = { l: 64, r: 10, t: 8, b: 20 };
const plots = [];
function axisText(v) {
  if (v === 0) return '0';
  const a = Math.abs(v);
  return a >= 1e-3 && a < 1e5 ? String(Number(v.toPrecision(3))) : v.toExponential(2);
}
function makePlots() {
  let t0 = Infinity, t1 = -Infinity;
  for (const u of R) { t0 = Math.min(t0, u.F.time[0]); t1 = Math.max(t1, lastTime(u)); }
  for (const [name, title, scale] of kPlots) {
    const lines = R.map((u) => {
      const s = (u.d.series || {})[name] || { t: [], v: [] };
      return { t: s.t, v: s.v.map((x) => x * scale) };
    });
    let v0 = Infinity, v1 = -Infinity;
    for (const l of lines) {
      for (const x of l.v) if (isFinite(x)) { v0 = Math.min(v0, x); v1 = Math.max(v1, x); }
      if (l.t.length) { t0 = Math.min(t0, l.t[0]); t1 = Math.max(t1, l.t[l.t.length - 1]); }
    }
    const any = v0 <= v1;
    if (!any) { v0 = 0; v1 = 1; }
    const pad = v1 > v0 ? 0.06 * (v1 - v0) : Math.abs(v0) * 0.1 || 1;
    const box = document.createElement('div');
    box.className = 'plot';
    const head = document.createElement('div');
    head.className = 'ptitle';
    head.style.width = PW + 'px';
    const canvas = document.createElement('canvas');
    canvas.id = 'plot-' + name;
    canvas.width = Math.round(PW * dpr); canvas.height = Math.round(PH * dpr);
    canvas.style.width = PW + 'px'; canvas.style.height = PH + 'px';
    box.appendChild(head); box.appendChild(canvas);
    $('plots').appendChild(box);
    plots.push({ name, title, head, canvas, ctx: canvas.getContext('2d'), lines, any, lo: v0, hi: v1, v0: v0 - pad, v1: v1 + pad, cache: null });
  }
  if (!(t1 > t0)) t1 = t0 + 1;
  for (const p of plots) { p.t0 = t0; p.t1 = t1; renderPlot(p); }
}
const plotX = (p, t) => PM.l + (t - p.t0) / (p.t1 - p.t0) * (PW - PM.l - PM.r);
const plotY = (p, v) => PM.t + (p.v1 - v) / (p.v1 - p.v0) * (PH - PM.t - PM.b);
function renderPlot(p) {  // everything but the cursor, kept in p.cache
  const c = document.createElement('canvas');
  c.width = p.canvas.width; c.height = p.canvas.height;
  const ctx = c.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = '#fff'; ctx.fillRect(0, 0, PW, PH);
  const aw = PW - PM.l - PM.r, ah = PH - PM.t - PM.b;
  ctx.strokeStyle = '#bbb'; ctx.lineWidth = 1;
  ctx.strokeRect(PM.l - 0.5, PM.t - 0.5, aw + 1, ah + 1);
  if (p.v0 < 0 && p.v1 > 0) {
    ctx.strokeStyle = '#e4e4e4';
    const y = Math.round(plotY(p, 0)) + 0.5;
    ctx.beginPath(); ctx.moveTo(PM.l, y); ctx.lineTo(PM.l + aw, y); ctx.stroke();
  }
  ctx.fillStyle = '#555'; ctx.font = '11px sans-serif';
  ctx.textAlign = 'right';  // the smallest and largest value, at their heights
  ctx.textBaseline = 'middle';
  if (p.any) {
    ctx.fillText(axisText(p.hi), PM.l - 4, plotY(p, p.hi));
    if (p.hi > p.lo) ctx.fillText(axisText(p.lo), PM.l - 4, plotY(p, p.lo));
  }
  ctx.textBaseline = 'top';
  ctx.textAlign = 'left'; ctx.fillText(axisText(p.t0) + ' s', PM.l, PM.t + ah + 4);
  ctx.textAlign = 'right'; ctx.fillText(axisText(p.t1) + ' s', PM.l + aw, PM.t + ah + 4);
  if (!p.any) { ctx.textAlign = 'center'; ctx.fillText('not in steps.jsonl', PM.l + aw / 2, PM.t + ah / 2); }
  ctx.save();
  ctx.beginPath(); ctx.rect(PM.l, PM.t, aw, ah); ctx.clip();
  ctx.lineJoin = 'round'; ctx.lineCap = 'round';
  p.lines.forEach((l, r) => {
    ctx.strokeStyle = hex(kRunColours[r]);
    ctx.fillStyle = hex(kRunColours[r]);
    ctx.lineWidth = nR > 1 && r === 0 ? 3.5 : 2;  // A under B, wider, so that both show where equal
    if (l.t.length === 1) { ctx.beginPath(); ctx.arc(plotX(p, l.t[0]), plotY(p, l.v[0]), 2.5, 0, 2 * Math.PI); ctx.fill(); return; }
    ctx.beginPath();
    let open = false;
    for (let i = 0; i < l.t.length; ++i) {
      if (!isFinite(l.v[i])) { open = false; continue; }
      const x = plotX(p, l.t[i]), y = plotY(p, l.v[i]);
      if (open) ctx.lineTo(x, y); else { ctx.moveTo(x, y); open = true; }
    }
    ctx.stroke();
  });
  ctx.restore();
  p.cache = c;
}
// The value of series l at time t: its last point not after t (none before the first).
function valueAt(l, t) {
  if (!l.t.length || l.t[0] > t + 1e-12) return null;
  let lo = 0, hi = l.t.length - 1;
  while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (l.t[mid] <= t + 1e-12) lo = mid; else hi = mid - 1; }
  return l.v[lo];
}
function drawPlots() {
  const t = M.F.time[frame];
  for (const p of plots) {
    const ctx = p.ctx;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(p.cache, 0, 0);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = hex(kCursor);
    ctx.fillRect(Math.round(plotX(p, t)) - 1, PM.t, 2, PH - PM.t - PM.b);
    let html = '<b>' + esc(p.title) + '</b>';
    p.lines.forEach((l, r) => {
      const v = t > lastTime(R[r]) + 1e-12 ? null : valueAt(l, t);  // none after the run's end
      html += ' &nbsp;<span style="color:' + hex(kRunColours[r]) + '">' + (nR > 1 ? letters[r] + ' ' : '') + (v === null ? '\u2013' : esc(String(Number(v.toPrecision(4))))) + '</span>';
    });
    p.head.innerHTML = html;
  }
}

function draw() {
  for (const u of R) drawRun(u);
  showText();
  drawPlots();
}

// ---- playback ----
function setFrame(k) {
  frame = Math.max(0, Math.min(nF - 1, Math.round(Number(k) || 0)));
  draw();
  return frame;
}
function frameAtTime(t) {  // the clock's frame nearest to time t
  let best = 0;
  for (let k = 1; k < nF; ++k) if (Math.abs(M.F.time[k] - t) < Math.abs(M.F.time[best] - t)) best = k;
  return best;
}
function setPlaying(p) {
  playing = p && nF > 1;
  $('play').textContent = playing ? 'pause' : 'play';
  if (playing) {
    if (frame >= nF - 1) frame = 0;
    playTime = M.F.time[frame]; lastTick = performance.now();
    requestAnimationFrame(tick);
  }
}
function tick(now) {
  if (!playing) return;
  playTime += (now - lastTick) / 1000 * parseFloat($('speed').value);
  lastTick = now;
  let k = frame;
  while (k + 1 < nF && M.F.time[k + 1] <= playTime) ++k;
  if (k !== frame) setFrame(k);
  if (frame >= nF - 1) { setPlaying(false); return; }
  requestAnimationFrame(tick);
}

// ---- set-up ----
const d0 = runs[0];
if (nR === 1) {
  $('title').textContent = 'exactsim replay: ' + d0.scene + ' (' + dim + 'D, model ' + d0.model + ', h = ' + d0.step_size + ' s)';
} else {
  $('title').textContent = 'exactsim replay: ' + runs.map((d, r) => letters[r] + ' ' + d.scene + ' (model ' + d.model + ', h = ' + d.step_size + ' s)').join(' beside ') + ', ' + dim + 'D';
  document.body.className = 'two';
  $('plots-wrap').after($('summaries'));  // the summaries below the plots, side by side
}
document.title = 'exactsim replay: ' + runs.map((d) => d.scene + ' ' + d.model).join(' | ');
let note = '';
R.forEach((u, r) => {
  const who = nR > 1 ? letters[r] + ': ' : '';
  if (u.d.frames_in_run > u.nF)
    note += who + 'long run: showing ' + u.nF + ' of its ' + u.d.frames_in_run + ' trajectory frames, evenly spaced (first and last kept)  ';
  if (u.d.summary && u.d.summary.failed) note += who + 'The run stopped: ' + u.d.summary.failure + '  ';
});
$('note').textContent = note;
R.forEach((u, r) => {
  const who = nR > 1 ? ' (' + letters[r] + ', model ' + u.d.model + ')' : '';
  const sfx = r === 0 ? '' : String(r);
  for (const [parent, id, title, text] of [
    ['reports', 'report', 'Step report', null],
    ['summaries', 'summary', 'Run summary', u.d.summary ? JSON.stringify(u.d.summary, null, 1) : '(no summary.json: the run did not finish)']]) {
    const box = document.createElement('div'), h = document.createElement('h3');
    h.textContent = title + who;
    const pre = document.createElement('pre');
    pre.id = id + sfx;
    if (text !== null) pre.textContent = text;
    box.appendChild(h); box.appendChild(pre);
    $(parent).appendChild(box);
  }
});
if (nR > 1)
  $('legend').innerHTML = R.map((u, r) => '<span style="color:' + hex(kRunColours[r]) + '">\u2014 ' + letters[r] + ': model ' + esc(u.d.model) + ' (' + esc(u.d.dir) + ')</span>').join('');
$('threshold').value = D.overlap_threshold;
$('scrub').max = nF - 1;
$('scrub').addEventListener('input', () => { setPlaying(false); setFrame($('scrub').value); });
$('first').onclick = () => { setPlaying(false); setFrame(0); };
$('last').onclick = () => { setPlaying(false); setFrame(nF - 1); };
$('prev').onclick = () => { setPlaying(false); setFrame(frame - 1); };
$('next').onclick = () => { setPlaying(false); setFrame(frame + 1); };
$('play').onclick = () => setPlaying(!playing);
for (const id of ['contacts', 'overlaps', 'names', 'threshold']) $(id).addEventListener('input', draw);
document.addEventListener('keydown', (e) => {
  if (e.target.tagName === 'INPUT' && e.target.type !== 'checkbox' && e.target.type !== 'range') return;
  if (e.key === ' ') { setPlaying(!playing); e.preventDefault(); }
  else if (e.key === 'ArrowLeft') { setPlaying(false); setFrame(frame - 1); e.preventDefault(); }
  else if (e.key === 'ArrowRight') { setPlaying(false); setFrame(frame + 1); e.preventDefault(); }
  else if (e.key === 'Home') setFrame(0);
  else if (e.key === 'End') setFrame(nF - 1);
});
let drag = null;
window.addEventListener('mouseup', () => { drag = null; });
window.addEventListener('mousemove', (e) => {
  if (!drag) return;
  const dx = e.clientX - drag[0], dy = e.clientY - drag[1];
  drag = [e.clientX, e.clientY];
  if (dim === 2) { panX += dx; panY += dy; }
  else { az -= dx * 0.4; el = Math.max(-89, Math.min(89, el + dy * 0.4)); makeCamera(); }
  draw();
});
for (const u of R) {
  u.canvas.addEventListener('mousedown', (e) => { drag = [e.clientX, e.clientY]; });
  u.canvas.addEventListener('wheel', (e) => { zoom *= Math.exp(-e.deltaY * 0.001); draw(); e.preventDefault(); }, { passive: false });
  u.canvas.addEventListener('dblclick', () => {
    zoom = 1; panX = panY = 0;
    if (cam0) { az = cam0.azimuth; el = cam0.elevation; }
    makeCamera(); fitView(); draw();
  });
}

makeCamera();
fitView();
computeImpulseScale();
if (!anyContacts) $('contacts-label').style.display = 'none';
makePlots();
for (const p of plots)
  p.canvas.addEventListener('click', (e) => {
    const r = p.canvas.getBoundingClientRect();
    const t = p.t0 + (e.clientX - r.left - PM.l) / (PW - PM.l - PM.r) * (p.t1 - p.t0);
    setPlaying(false); setFrame(frameAtTime(t));
  });
const hashFrame = /frame=(\d+)/.exec(location.hash);
setFrame(hashFrame ? parseInt(hashFrame[1], 10) : nF - 1);

// ---- the API for tests and scripts; `r` (default 0) picks the run ----
const run = (r) => R[r || 0];
window.exactsimReplay = {
  ready: true,
  dimension: dim,
  runCount: nR,
  frameCount: nF,  // the clock's frames (the run that lasts longest)
  framesInRun: runs[0].frames_in_run,
  runFrameCount: (r) => run(r).nF,
  bodyNames: R[0].B.map((b) => b.name),
  background: bg.slice(),
  setFrame,
  frame: (r) => (r === undefined ? frame : frameOf(run(r))),
  step: (r) => run(r).F.step[frameOf(run(r))],
  time: (r) => run(r).F.time[frameOf(run(r))],
  // Poses of the current frame as the page uses them (2D: position [x, y] and angle; 3D:
  // position [x, y, z] and orientation [w, x, y, z]); absent bodies have present: false.
  bodyPositions: (r) => {
    const u = run(r), k = frameOf(u);
    return u.B.map((b, i) => {
      if (!isPresent(u, k, i)) return { name: b.name, present: false };
      const q = u.F.q[k], o = i * cs;
      return dim === 2 ? { name: b.name, present: true, position: [q[o], q[o + 1]], angle: q[o + 2] }
        : { name: b.name, present: true, position: [q[o], q[o + 1], q[o + 2]], orientation: [q[o + 3], q[o + 4], q[o + 5], q[o + 6]] };
    });
  },
  bodyColour: (i, r) => run(r).B[bodyIndex(run(r), i)].colour.slice(),
  // Page coordinates (CSS pixels from the viewport's top left) of a world point in run r's view.
  toPage: (p, r) => {
    const c = run(r).canvas, b = c.getBoundingClientRect(), s = screenOf([p[0], p[1], p.length > 2 ? p[2] : 0]);
    return [b.left + c.clientLeft + s[0], b.top + c.clientTop + s[1]];
  },
  pixelsPerMetre: () => view.scale * zoom,
  overlappingPairs: (r) => { const u = run(r); return overlappingPairs(u, frameOf(u)).map((p) => ({ a: u.B[p[0]].name, b: u.B[p[1]].name, overlap: p[2] })); },
  contacts: (r) => contactsOf(run(r), frameOf(run(r))),
  hasContacts: () => anyContacts,
  setOption: (name, on) => { $(name).checked = !!on; draw(); },
  // The plots: names, the colour of each run's line and of the cursor (RGB), and per plot the
  // plot area in page coordinates with the time and value ranges it spans (values in the
  // plot's unit: solve_seconds in ms).
  plotNames: kPlots.map((p) => p[0]),
  plotColours: kRunColours.slice(0, nR).map((c) => c.slice()),
  cursorColour: kCursor.slice(),
  plotArea: (name) => {
    const p = plots.find((q) => q.name === name), b = p.canvas.getBoundingClientRect();
    return { left: b.left + PM.l, top: b.top + PM.t, width: PW - PM.l - PM.r, height: PH - PM.t - PM.b, t0: p.t0, t1: p.t1, v0: p.v0, v1: p.v1 };
  },
  plotSeries: (name, r) => { const l = plots.find((q) => q.name === name).lines[r || 0]; return { t: l.t.slice(), v: l.v.slice() }; },
};
})();
</script>
</body></html>
)html";

}  // namespace

std::string replay_page(const std::string& data_json) {
  std::string data;
  data.reserve(data_json.size() + 64);
  for (std::size_t i = 0; i < data_json.size(); ++i) {
    if (data_json[i] == '<' && i + 1 < data_json.size() && data_json[i + 1] == '/') {
      data += "<\\/";
      ++i;
    } else {
      data += data_json[i];
    }
  }
  return std::string(kHead) + data + kScript;
}

}  // namespace exactsim
