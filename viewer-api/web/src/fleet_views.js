// fleet_views.js — across runs: the trend of the total, a class or a site per build or night
// (/api/trend), and the differential flame graph between two builds (/api/fleet/diff-flame:
// width = the new side's bytes, red = grew, blue = shrank). The database's runs are the history.
import { api, bytes, clear, errorBox, h, num, qs, segmented, select, signedBytes } from './util.js';

export const trendOpts = { what: 'total', name: '', per: 'build' };
export const diffOpts = { a: '', b: '' };

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag, attrs = {}) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

function chart(points) {
  const W = 760, H = 220, P = 40;
  const ys = points.map((p) => p.bytes_per_frame), max = Math.max(1, ...ys);
  const x = (i) => P + (points.length < 2 ? 0 : (i * (W - 2 * P)) / (points.length - 1));
  const y = (v) => H - P - (v / max) * (H - 2 * P);
  const s = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'trend-chart', role: 'img', 'aria-label': 'bytes per frame per point' });
  s.append(svg('line', { x1: P, y1: H - P, x2: W - P, y2: H - P, stroke: '#999' }));
  s.append(svg('polyline', { points: points.map((p, i) => `${x(i)},${y(p.bytes_per_frame)}`).join(' '), fill: 'none', stroke: '#c0392b', 'stroke-width': 2 }));
  points.forEach((p, i) => {
    const c = svg('circle', { cx: x(i), cy: y(p.bytes_per_frame), r: 4, fill: '#c0392b', 'data-key': p.key });
    const t = svg('title');
    t.textContent = `${p.key}: ${bytes(p.bytes_per_frame)} per frame over ${p.runs} run(s)`;
    c.append(t);
    s.append(c);
  });
  const label = svg('text', { x: P, y: P - 10, 'font-size': 12 });
  label.textContent = `max ${bytes(max)} / frame`;
  s.append(label);
  return s;
}

export async function renderTrend(el, rerender) {
  const input = h('input', { type: 'text', value: trendOpts.name, placeholder: 'System.String or Cache.Put', 'aria-label': 'Name' });
  input.addEventListener('change', () => { trendOpts.name = input.value.trim(); rerender(); });
  const controls = h('div', { class: 'controls' },
    segmented([['total', 'Total'], ['class', 'Class'], ['site', 'Site']], trendOpts.what, (v) => { trendOpts.what = v; rerender(); }, 'What'),
    input,
    segmented([['build', 'Per build'], ['night', 'Per night']], trendOpts.per, (v) => { trendOpts.per = v; rerender(); }, 'Per'));
  clear(el, h('div', { class: 'view-head' }, h('h2', {}, 'Trend across runs')), controls, h('div', { class: 'loading' }, 'Loading…'));
  const q = { per: trendOpts.per };
  if (trendOpts.what !== 'total' && trendOpts.name) q[trendOpts.what] = trendOpts.name;
  let d;
  try { d = await api('/api/trend' + qs(q)); } catch (e) { el.lastChild.replaceWith(errorBox(e)); return; }
  const body = h('tbody');
  d.points.forEach((p, i) => {
    const prev = i ? d.points[i - 1].bytes_per_frame : null;
    const change = prev ? `${(((p.bytes_per_frame / prev) - 1) * 100).toFixed(1)}%` : '';
    body.append(h('tr', { class: 'trend-row' }, h('td', {}, p.key), h('td', {}, p.first_night), h('td', { class: 'num' }, num(p.runs)),
      h('td', { class: 'num' }, bytes(p.totals.requested_bytes)), h('td', { class: 'num' }, bytes(p.bytes_per_frame)), h('td', { class: 'num' }, change)));
  });
  el.lastChild.replaceWith(h('div', {}, chart(d.points),
    h('table', { class: 'data trend-table' }, h('thead', {}, h('tr', {}, ...['Build / night', 'First night', 'Runs', 'Requested', 'Per frame', 'Change'].map((c) => h('th', {}, c)))), body)));
}

function colour(n) {
  const d = n.value - n.before, base = Math.max(n.before, n.value, 1), k = Math.min(1, Math.abs(d) / base);
  if (Math.abs(d) < 0.5) return 'rgb(200,200,200)';
  const c = Math.round(230 - 150 * k);
  return d > 0 ? `rgb(230,${c},${c})` : `rgb(${c},${c},230)`;
}

// An icicle: each node's children below it, widths by the new side's bytes; a node's own part
// (what no child holds) stays an empty gap under it, so every row lines up with the one above.
function icicle(root) {
  const box = h('div', { class: 'diff-flame' });
  const row = (nodes, depth) => {
    const line = h('div', { class: 'diff-row', style: 'display:flex;height:20px' });
    const next = [];
    for (const { n, w, gap } of nodes) {
      if (gap) {
        line.append(h('div', { class: 'diff-gap', style: `width:${w}%` }));
        next.push({ w, gap: true });
        continue;
      }
      line.append(h('div', { class: 'diff-node', title: `${n.name}: ${bytes(n.value)} (was ${bytes(n.before)}, ${signedBytes(n.value - n.before)})`,
        style: `width:${w}%;background:${colour(n)};overflow:hidden;white-space:nowrap;font-size:11px;border-right:1px solid #fff;box-sizing:border-box`,
        'data-name': n.name, 'data-delta': Math.round(n.value - n.before) }, n.name));
      let used = 0;
      for (const c of n.children || []) {
        if (c.value <= 0 || n.value <= 0) continue;
        const cw = (w * c.value) / n.value;
        used += cw;
        next.push({ n: c, w: cw });
      }
      if (w - used > 1e-6) next.push({ w: w - used, gap: true });
    }
    box.append(line);
    if (next.some((x) => !x.gap) && depth < 64) row(next, depth + 1);
  };
  row([{ n: root, w: 100 }], 0);
  return box;
}

export async function renderDiff(el, rerender) {
  clear(el, h('div', { class: 'view-head' }, h('h2', {}, 'Differential flame graph')), h('div', { class: 'loading' }, 'Loading…'));
  let builds;
  try { builds = (await api('/api/trend')).points.map((p) => p.key); } catch (e) { el.lastChild.replaceWith(errorBox(e)); return; }
  if (builds.length === 0) { el.lastChild.replaceWith(h('div', { class: 'empty' }, 'No runs.')); return; }
  if (!builds.includes(diffOpts.a)) diffOpts.a = builds[0];
  if (!builds.includes(diffOpts.b)) diffOpts.b = builds[builds.length - 1];
  const opts = builds.map((b) => [b, b.slice(0, 16)]);
  const q = { a: diffOpts.a, b: diffOpts.b };
  const controls = h('div', { class: 'controls' },
    h('label', {}, 'A (before) ', select(opts, diffOpts.a, (v) => { diffOpts.a = v; rerender(); }, 'Build A')),
    h('label', {}, 'B (after) ', select(opts, diffOpts.b, (v) => { diffOpts.b = v; rerender(); }, 'Build B')),
    h('a', { href: '/api/fleet/diff-flame' + qs({ ...q, format: 'collapsed' }), class: 'button', download: '' }, 'Collapsed'),
    h('a', { href: '/api/fleet/diff-flame' + qs({ ...q, format: 'speedscope' }), class: 'button', download: '' }, 'speedscope'));
  el.firstChild.after(controls);
  let d;
  try { d = await api('/api/fleet/diff-flame' + qs(q)); } catch (e) { el.lastChild.replaceWith(errorBox(e)); return; }
  el.lastChild.replaceWith(h('div', {},
    h('p', { class: 'diff-summary' }, `B ${bytes(d.root.value)} per run, A ${bytes(d.root.before)} (${signedBytes(d.root.value - d.root.before)}); red grew, blue shrank`),
    icicle(d.root)));
}
