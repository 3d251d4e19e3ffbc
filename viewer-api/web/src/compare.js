// compare.js — two runs side by side, per class or per allocation site: what grew, what is
// new, what vanished. Sorted by growth, biggest first.
import { api, bytes, clear, errorBox, h, num, qs, segmented, select, signedBytes, signedNum } from './util.js';
import { card } from './frame_view.js';
import { keyNav } from './keys.js';
import { csvButton } from './csv.js';

export const opts = { a: null, b: null, group: 'class', by: 'bytes', normalize: 'none' };

export async function renderCompare(el, runs, current, rerender, filter = {}) {
  if (runs.length === 0) { clear(el, h('div', { class: 'empty' }, 'No runs.')); return; }
  if (opts.b === null) opts.b = current;
  if (opts.a === null) opts.a = (runs.find((r) => r.run_id !== current) || runs[0]).run_id;
  const runOpts = runs.map((r) => [r.run_id, `#${r.run_id} ${r.session_label || r.process || ''} (${r.device || r.build_id.slice(0, 8)})`]);
  const controls = h('div', { class: 'controls' },
    h('label', {}, 'A (before) ', select(runOpts, opts.a, (v) => { opts.a = Number(v); rerender(); }, 'Run A')),
    h('label', {}, 'B (after) ', select(runOpts, opts.b, (v) => { opts.b = Number(v); rerender(); }, 'Run B')),
    segmented([['class', 'By class'], ['site', 'By site']], opts.group, (v) => { opts.group = v; rerender(); }, 'Group'),
    segmented([['bytes', 'Bytes'], ['count', 'Count']], opts.by, (v) => { opts.by = v; rerender(); }, 'Metric'),
    segmented([['none', 'Totals'], ['per_frame', 'Per frame']], opts.normalize, (v) => { opts.normalize = v; rerender(); }, 'Normalize'));
  clear(el, h('div', { class: 'view-head' }, h('h2', {}, 'Compare runs')), controls, h('div', { class: 'loading' }, 'Loading…'));
  let d;
  try {
    d = await api('/api/compare' + qs({ a: opts.a, b: opts.b, group: opts.group, by: opts.by, normalize: opts.normalize, limit: 200, ...filter }));
  } catch (e) { el.lastChild.replaceWith(errorBox(e)); return; }
  const metric = (t) => (opts.by === 'count' ? num(t.count) : bytes(t.requested_bytes));
  const delta = (t) => (opts.by === 'count' ? signedNum(t.count) : signedBytes(t.requested_bytes));
  const summary = h('div', { class: 'cards' },
    card('A', metric(d.a.totals), `${num(d.a.frames)} frames`),
    card('B', metric(d.b.totals), `${num(d.b.frames)} frames`),
    card('Change', delta(d.delta), opts.normalize === 'per_frame' ? 'sorted per frame' : ''),
    card('New', num(d.counts.new), 'only in B'), card('Vanished', num(d.counts.vanished), 'only in A'),
    card('Matched by', d.match.replaceAll('_', ' ')));
  const maxGrowth = Math.max(1, ...d.entries.map((e) => Math.abs(e.growth)));
  const body = keyNav(h('tbody'));
  for (const e of d.entries) {
    const label = opts.group === 'class' ? e.full_name : (e.file ? `${e.function}  ·  ${e.file}:${e.line}` : e.function);
    const w = (Math.abs(e.growth) / maxGrowth) * 100;
    body.append(h('tr', { 'data-status': e.status, tabindex: 0 },
      h('td', {}, h('span', { class: `badge ${e.status}` }, e.status)),
      h('td', {}, h('span', { class: 'cls' }, label)),
      h('td', { class: 'num' }, metric(e.a)), h('td', { class: 'num' }, metric(e.b)),
      h('td', { class: `num ${e.growth > 0 ? 'up' : e.growth < 0 ? 'down' : ''}` }, delta(e.delta)),
      h('td', { class: 'bar-cell' }, h('div', { class: 'growth' },
        h('div', { class: e.growth >= 0 ? 'growth-up' : 'growth-down', style: `width:${w}%` })))));
  }
  const csv = csvButton('compare-csv', `compare-${opts.a}-${opts.b}-${opts.group}.csv`, () => ({
    header: ['status', opts.group === 'class' ? 'class' : 'function', 'file', 'line', 'a_count', 'a_requested_bytes', 'a_gc_bytes',
      'b_count', 'b_requested_bytes', 'b_gc_bytes', 'delta_count', 'delta_requested_bytes', 'delta_gc_bytes', 'growth'],
    rows: d.entries.map((e) => [e.status, opts.group === 'class' ? e.full_name : e.function, e.file ?? '', e.line ?? '',
      e.a.count, e.a.requested_bytes, e.a.gc_bytes, e.b.count, e.b.requested_bytes, e.b.gc_bytes,
      e.delta.count, e.delta.requested_bytes, e.delta.gc_bytes, e.growth]),
  }));
  el.lastChild.replaceWith(h('div', {}, summary, h('p', {}, csv),
    h('table', { class: 'grid', id: 'compare-table' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Status'), h('th', {}, opts.group === 'class' ? 'Class' : 'Allocation site'),
        h('th', { class: 'num' }, 'A'), h('th', { class: 'num' }, 'B'), h('th', { class: 'num' }, 'Δ'), h('th', {}, 'Growth'))), body)));
}
