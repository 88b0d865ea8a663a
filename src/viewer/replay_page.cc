// The replay page (docs/viewer.md). Canvas 2D only, no library and no network: 2D bodies are
// filled polygons; 3D bodies are projected orthographically, back faces culled, each body's front
// faces flat-shaded, bodies painted far to near with static ones first and translucent (the
// same camera as final.svg, view_camera.h). window.exactsimReplay is the page's API for tests.
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
#main { display: flex; gap: 12px; align-items: flex-start; }
canvas { border: 1px solid #ccc; display: block; cursor: grab; }
#controls { margin-top: 6px; display: flex; gap: 6px; align-items: center; flex-wrap: wrap; }
#controls button { min-width: 2.6em; }
#play { min-width: 4em; }
#scrub { width: 420px; }
#clock { margin-top: 4px; font-family: monospace; }
#side { width: 380px; font-size: 12px; }
#side h3 { font-size: 13px; margin: 8px 0 2px; }
#side pre { margin: 0; max-height: 300px; overflow: auto; background: #f4f4f4; padding: 4px; }
.bad { color: #c00000; font-weight: bold; }
</style></head>
<body>
<div id="top"><b id="title"></b><span id="note"></span></div>
<div id="main">
<div>
<canvas id="view"></canvas>
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
<label><input id="contacts" type="checkbox" checked> contacts and impulses</label>
<label><input id="overlaps" type="checkbox" checked> overlapping pairs in red, above</label>
<input id="threshold" type="number" step="any" min="0" style="width:6em"> of the smaller body
<label><input id="names" type="checkbox"> names</label>
</div>
<div id="clock"></div>
</div>
<div id="side">
<h3>Overlap</h3><div id="overlap"></div>
<h3>Step report</h3><pre id="report"></pre>
<h3>Run summary</h3><pre id="summary"></pre>
<div style="margin-top:6px;color:#666">Drag to pan (2D) or turn (3D), wheel to zoom, double-click
to reset. Keys: space, &larr; &rarr;, Home, End.</div>
</div>
</div>
<script id="replay-data" type="application/json">)html";

constexpr const char* kScript = R"html(</script>
<script>
(function () {
'use strict';
const D = JSON.parse(document.getElementById('replay-data').textContent);
const dim = D.dimension, B = D.bodies, F = D.frames, nF = F.step.length, nb = B.length;
const cs = dim === 2 ? 3 : 7;
const W = 880, H = 620;
const canvas = document.getElementById('view');
const dpr = window.devicePixelRatio || 1;
canvas.width = Math.round(W * dpr); canvas.height = Math.round(H * dpr);
canvas.style.width = W + 'px'; canvas.style.height = H + 'px';
const ctx = canvas.getContext('2d');
const $ = (id) => document.getElementById(id);
const bg = D.background;
const css = (c, s) => 'rgb(' + c.map((v) => Math.max(0, Math.min(255, Math.round(v * (s === undefined ? 1 : s))))).join(',') + ')';
const unit = dim === 2 ? 'm\u00b2' : 'm\u00b3';
const kStaticAlpha = 0.55;  // 3D static faces (final.svg uses the same)

let frame = 0, playing = false, lastTick = 0, playTime = 0;
let zoom = 1, panX = 0, panY = 0;
let az = D.camera ? D.camera.azimuth : 0, el = D.camera ? D.camera.elevation : 0;

// ---- vectors and the camera (the same construction as view_camera.cc) ----
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const scale3 = (a, s) => [a[0] * s, a[1] * s, a[2] * s];
const add3 = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const unit3 = (a) => { const n = Math.hypot(a[0], a[1], a[2]) || 1; return scale3(a, 1 / n); };
let cam = null;
function makeCamera() {
  if (dim === 2) { cam = null; return; }
  const up = D.camera.up, hz = D.camera.horizontal, side = cross(up, hz);
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
const isPresent = (k, i) => F.present[k].charAt(i) === '1';
function worldVertices(k, i) {
  const q = F.q[k], o = i * cs, V = B[i].vertices;
  if (dim === 2) {
    const c = Math.cos(q[o + 2]), s = Math.sin(q[o + 2]);
    return V.map((v) => [q[o] + c * v[0] - s * v[1], q[o + 1] + s * v[0] + c * v[1], 0]);
  }
  const rot = [q[o + 3], q[o + 4], q[o + 5], q[o + 6]], p = [q[o], q[o + 1], q[o + 2]];
  return V.map((v) => add3(p, qrot(rot, v)));
}
function bodyPosition(k, i) {
  const q = F.q[k], o = i * cs;
  return dim === 2 ? [q[o], q[o + 1], 0] : [q[o], q[o + 1], q[o + 2]];
}
const project = (p) => (dim === 2 ? [p[0], p[1]] : [dot(p, cam.right), dot(p, cam.sup)]);

// ---- the view box: moving bodies plus the static bodies near them (view_camera.cc) ----
let view = { cx: 0, cy: 0, scale: 1 };
function fitView() {
  const sample = [];
  const m = Math.min(nF, 200);
  for (let s = 0; s < m; ++s) sample.push(Math.round(s * (nF - 1) / Math.max(1, m - 1)));
  let dyn = null, stat = null;
  const grow = (b, p) => (b ? [Math.min(b[0], p[0]), Math.min(b[1], p[1]), Math.max(b[2], p[0]), Math.max(b[3], p[1])] : [p[0], p[1], p[0], p[1]]);
  for (const k of sample)
    for (let i = 0; i < nb; ++i) {
      if (!isPresent(k, i)) continue;
      for (const v of worldVertices(k, i)) {
        const p = project(v);
        if (B[i].static) stat = grow(stat, p); else dyn = grow(dyn, p);
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

// ---- what the frame's data says ----
function overlappingPairs(k) {
  const thr = parseFloat($('threshold').value);
  const t = isFinite(thr) ? thr : D.overlap_threshold;
  return F.overlaps[k].filter((p) => p[2] > t * Math.min(B[p[0]].size, B[p[1]].size));
}
function bodyIndex(x) {
  if (typeof x === 'number') return x;
  return B.findIndex((b) => b.name === x);
}
// Per-contact data, if the run wrote it: report.contacts (or report.contact_list) as a list of
// {a, b, point, normal, impulse}; impulse a number (along the normal) or a vector.
function contactsOf(k) {
  const r = F.reports[k];
  if (!r) return [];
  const list = Array.isArray(r.contacts) ? r.contacts : Array.isArray(r.contact_list) ? r.contact_list : [];
  return list.filter((c) => c && Array.isArray(c.point));
}
let impulseScale = 0;
function computeImpulseScale() {
  let m = 0;
  for (let k = 0; k < nF; ++k)
    for (const c of contactsOf(k)) {
      const J = impulseVector(c);
      if (J) m = Math.max(m, Math.hypot(J[0], J[1], J[2] || 0));
    }
  impulseScale = m > 0 ? 0.12 * Math.min(W, H) / (view.scale * m) : 0;  // longest arrow: 12 % of the view
}
function impulseVector(c) {
  const pad = (v) => [v[0], v[1], v.length > 2 ? v[2] : 0];
  if (Array.isArray(c.impulse)) return pad(c.impulse);
  if (typeof c.impulse === 'number' && Array.isArray(c.normal)) return scale3(pad(c.normal), c.impulse);
  return null;
}

// ---- drawing ----
function polygonPath(pts) {
  ctx.beginPath();
  ctx.moveTo(pts[0][0], pts[0][1]);
  for (let j = 1; j < pts.length; ++j) ctx.lineTo(pts[j][0], pts[j][1]);
  ctx.closePath();
}
function draw() {
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.fillStyle = css(bg);
  ctx.fillRect(0, 0, W, H);
  const k = frame;
  const red = new Set();
  if ($('overlaps').checked) for (const p of overlappingPairs(k)) { red.add(p[0]); red.add(p[1]); }
  ctx.lineJoin = 'round';
  if (dim === 2) {
    for (let pass = 0; pass < 2; ++pass)
      for (let i = 0; i < nb; ++i) {
        if (!isPresent(k, i) || B[i].static !== (pass === 0)) continue;
        polygonPath(worldVertices(k, i).map(screenOf));
        ctx.fillStyle = css(B[i].colour);
        ctx.fill();
        ctx.strokeStyle = red.has(i) ? '#e00000' : css(B[i].colour, 0.6);
        ctx.lineWidth = red.has(i) ? 3 : 1;
        ctx.stroke();
      }
  } else {
    const order = [];
    for (let i = 0; i < nb; ++i)
      if (isPresent(k, i)) order.push([i, B[i].static ? 0 : 1, dot(bodyPosition(k, i), cam.toward)]);
    order.sort((a, b) => a[1] - b[1] || a[2] - b[2]);  // static first, then far to near
    for (const [i] of order) {
      const pts = worldVertices(k, i).map(screenOf);
      const o = i * cs, q = F.q[k], rot = [q[o + 3], q[o + 4], q[o + 5], q[o + 6]];
      B[i].faces.forEach((face, f) => {
        const n = qrot(rot, B[i].normals[f]);
        if (dot(n, cam.toward) <= 0) return;
        const shade = 0.35 + 0.65 * Math.max(0, dot(n, cam.light));
        polygonPath(face.map((v) => pts[v]));
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
    for (let i = 0; i < nb; ++i)
      if (isPresent(k, i) && !B[i].static) { const s = screenOf(bodyPosition(k, i)); ctx.fillText(B[i].name, s[0] + 4, s[1] - 4); }
  }
  if ($('contacts').checked) {
    for (const c of contactsOf(k)) {
      const p = [c.point[0], c.point[1], c.point.length > 2 ? c.point[2] : 0];
      const s = screenOf(p);
      const J = impulseVector(c);
      if (J && impulseScale > 0) {
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
  showText(k, red);
}
function fmt(v) { return typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toPrecision(6)) : String(v); }
function showText(k) {
  $('scrub').value = k;
  $('clock').textContent = (F.step[k] < 0 ? 'initial state' : 'step ' + F.step[k]) + '   t = ' + F.time[k].toFixed(4) + ' s   (frame ' + (k + 1) + ' of ' + nF + ')';
  const r = F.reports[k];
  if (r) {
    const copy = Object.assign({}, r);
    for (const key of ['contacts', 'contact_list'])
      if (Array.isArray(copy[key])) copy[key] = '[' + copy[key].length + ' contacts, drawn]';
    $('report').textContent = JSON.stringify(copy, (key, v) => (typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(6)) : v), 1);
  } else {
    $('report').textContent = F.step[k] < 0 ? '(the initial state: no step taken yet)' : '(no step report for this step in steps.jsonl)';
  }
  const pairs = overlappingPairs(k), all = F.overlaps[k];
  let html = '';
  if (r && typeof r.overlap === 'number')
    html += '<div' + (pairs.length ? ' class="bad"' : '') + '>step report: total ' + fmt(r.overlap) + ' ' + unit + '</div>';
  html += '<div>' + all.length + ' pair(s) with overlap > 0, ' + pairs.length + ' above the threshold' + (pairs.length ? ':' : '') + '</div>';
  for (const p of pairs.slice(0, 30))
    html += '<div class="bad">' + esc(B[p[0]].name) + ' \u2013 ' + esc(B[p[1]].name) + ': ' + fmt(p[2]) + ' ' + unit + '</div>';
  $('overlap').innerHTML = html;
}
function esc(s) { return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c])); }

// ---- playback ----
function setFrame(k) {
  frame = Math.max(0, Math.min(nF - 1, Math.round(Number(k) || 0)));
  draw();
  return frame;
}
function setPlaying(p) {
  playing = p && nF > 1;
  $('play').textContent = playing ? 'pause' : 'play';
  if (playing) {
    if (frame >= nF - 1) frame = 0;
    playTime = F.time[frame]; lastTick = performance.now();
    requestAnimationFrame(tick);
  }
}
function tick(now) {
  if (!playing) return;
  playTime += (now - lastTick) / 1000 * parseFloat($('speed').value);
  lastTick = now;
  let k = frame;
  while (k + 1 < nF && F.time[k + 1] <= playTime) ++k;
  if (k !== frame) setFrame(k);
  if (frame >= nF - 1) { setPlaying(false); return; }
  requestAnimationFrame(tick);
}

// ---- set-up ----
const run = D.summary || {};
$('title').textContent = 'exactsim replay: ' + D.scene + ' (' + D.dimension + 'D, model ' + D.model + ', h = ' + D.step_size + ' s)';
document.title = 'exactsim replay: ' + D.scene;
if (D.frames_in_run > nF)
  $('note').textContent = 'long run: showing ' + nF + ' of its ' + D.frames_in_run + ' trajectory frames, evenly spaced (first and last kept)';
if (run && run.failed) $('note').textContent += '  The run stopped: ' + run.failure;
$('summary').textContent = D.summary ? JSON.stringify(D.summary, null, 1) : '(no summary.json: the run did not finish)';
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
canvas.addEventListener('mousedown', (e) => { drag = [e.clientX, e.clientY]; });
window.addEventListener('mouseup', () => { drag = null; });
window.addEventListener('mousemove', (e) => {
  if (!drag) return;
  const dx = e.clientX - drag[0], dy = e.clientY - drag[1];
  drag = [e.clientX, e.clientY];
  if (dim === 2) { panX += dx; panY += dy; }
  else { az -= dx * 0.4; el = Math.max(-89, Math.min(89, el + dy * 0.4)); makeCamera(); }
  draw();
});
canvas.addEventListener('wheel', (e) => { zoom *= Math.exp(-e.deltaY * 0.001); draw(); e.preventDefault(); }, { passive: false });
canvas.addEventListener('dblclick', () => {
  zoom = 1; panX = panY = 0;
  if (D.camera) { az = D.camera.azimuth; el = D.camera.elevation; }
  makeCamera(); fitView(); draw();
});

makeCamera();
fitView();
computeImpulseScale();
const m = /frame=(\d+)/.exec(location.hash);
setFrame(m ? parseInt(m[1], 10) : nF - 1);

// ---- the API for tests and scripts ----
window.exactsimReplay = {
  ready: true,
  dimension: dim,
  frameCount: nF,
  framesInRun: D.frames_in_run,
  bodyNames: B.map((b) => b.name),
  background: bg.slice(),
  setFrame,
  frame: () => frame,
  step: () => F.step[frame],
  time: () => F.time[frame],
  // Poses of the current frame as the page uses them (2D: position [x, y] and angle; 3D:
  // position [x, y, z] and orientation [w, x, y, z]); absent bodies have present: false.
  bodyPositions: () => B.map((b, i) => {
    if (!isPresent(frame, i)) return { name: b.name, present: false };
    const q = F.q[frame], o = i * cs;
    return dim === 2 ? { name: b.name, present: true, position: [q[o], q[o + 1]], angle: q[o + 2] }
      : { name: b.name, present: true, position: [q[o], q[o + 1], q[o + 2]], orientation: [q[o + 3], q[o + 4], q[o + 5], q[o + 6]] };
  }),
  bodyColour: (i) => B[bodyIndex(i)].colour.slice(),
  // Page coordinates (CSS pixels from the viewport's top left) of a world point.
  toPage: (p) => {
    const r = canvas.getBoundingClientRect(), s = screenOf([p[0], p[1], p.length > 2 ? p[2] : 0]);
    return [r.left + canvas.clientLeft + s[0], r.top + canvas.clientTop + s[1]];
  },
  pixelsPerMetre: () => view.scale * zoom,
  overlappingPairs: () => overlappingPairs(frame).map((p) => ({ a: B[p[0]].name, b: B[p[1]].name, overlap: p[2] })),
  contacts: () => contactsOf(frame),
  setOption: (name, on) => { $(name).checked = !!on; draw(); },
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
