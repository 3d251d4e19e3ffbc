// leaks.js — the lifetime views: leak candidates (objects still alive at the end of the range,
// ranked by how many allocation frames kept objects through a collection, which a leak adds to
// every frame) and temporaries (objects that died within N frames of their allocation). By
// class, allocation site or stack; each row points at its source and opens the flame graph
// filtered to it. A run recorded without lifetimes shows the endpoint's own note.
import './leaks.css';
import { api, bytes, clear, errorBox, h, num, pct, qs, segmented, shareBar } from './util.js';
import { siteLabel, stackList } from './stack_view.js';
import { keyNav } from './keys.js';
import { csvButton } from './csv.js';
import { sourceLink } from './source.js';

export const leakOpts = { group: 'class', by: 'frames', limit: 50 };
export const tempOpts = { group: 'class', by: 'gc_bytes', within: 1, limit: 50 };

const GROUPS = [['class', 'By class'], ['site', 'By site'], ['stack', 'By stack']];

function siteOf(e, group) { return group === 'site' ? e : group === 'stack' ? e.site : null; }

function label(e, group) { return group === 'class' ? e.full_name : siteLabel(siteOf(e, group)); }

// What the flame graph should be narrowed to for this row: its class, or its site's function.
function jumpFilter(e, group) {
  if (group === 'class') return { class: e.full_name };
  const s = siteOf(e, group);
  return s && s.site_id !== null ? { function: s.function } : null;
}

function rowCells(e, group, onJump) {
  const s = siteOf(e, group);
  const loc = s && s.file ? `${s.file}:${s.line}` : '';
  const sub = [];
  if (e.main_class) sub.push(`mostly ${e.main_class.full_name}` + (e.main_class.class_count > 1 ? ` (+${e.main_class.class_count - 1} classes)` : ''));
  if (group === 'stack') sub.push(`stack #${e.stack_id}`);
  const jf = jumpFilter(e, group);
  const flame = jf ? h('button', { class: 'btn small flame-link', type: 'button', title: 'Open the flame graph filtered to this row' }, 'Flame') : null;
  if (flame) flame.addEventListener('click', (ev) => { ev.stopPropagation(); onJump(jf, 'flame'); });
  return { loc, cell: h('td', {}, group === 'stack' ? h('span', { class: 'twisty' }) : null, h('span', { class: 'cls' }, label(e, group)),
    sub.length ? h('div', { class: 'sub muted' }, sub.join(' · ')) : null, s ? sourceLink(loc) : null, flame) };
}

// The table both views share: rank, the row's identity, then the view's own numeric columns.
function table(id, d, group, cols, onJump) {
  const body = keyNav(h('tbody'));
  for (const e of d.entries) {
    const { loc, cell } = rowCells(e, group, onJump);
    const row = h('tr', { tabindex: 0, class: group === 'stack' ? 'expandable' : '', 'data-rank': e.rank, 'data-location': loc || null },
      h('td', { class: 'num muted' }, String(e.rank)), cell,
      ...cols.map(([, , v]) => (v === 'share' ? h('td', { class: 'bar-cell' }, shareBar(e.share)) : h('td', { class: 'num' }, v(e)))));
    body.append(row);
    if (group === 'stack') {
      const detail = h('tr', { class: 'detail', hidden: true }, h('td', { colspan: cols.length + 2 }, stackList(e.stack_frames || e.frames)));
      row.addEventListener('click', (ev) => {
        if (ev.target.closest('.src, .flame-link')) return;
        detail.hidden = !detail.hidden; row.classList.toggle('open', !detail.hidden);
      });
      body.append(detail);
    }
  }
  return h('table', { class: 'grid', id },
    h('thead', {}, h('tr', {}, h('th', { class: 'num' }, '#'), h('th', {}, group === 'class' ? 'Class' : group === 'site' ? 'Allocation site' : 'Stack (allocation site)'),
      ...cols.map(([name, numeric]) => h('th', { class: numeric ? 'num' : '' }, name)))), body);
}

function csvRows(d, group, extra) {
  return d.entries.map((e) => {
    const s = siteOf(e, group);
    return [e.rank, group === 'class' ? e.full_name : s.function, s ? s.file : '', s ? s.line : '', e.main_class ? e.main_class.full_name : (group === 'class' ? e.full_name : ''),
      e.count, e.gc_bytes, e.allocated, ...extra(e), e.share];
  });
}

function head(title, controls) {
  return [h('div', { class: 'view-head' }, h('h2', {}, title)), controls, h('div', { class: 'loading' }, 'Loading…')];
}

// Renders of one view, newest last: a slower answer to an older request must not replace the
// newer one's (a control clicked twice quickly).
const latest = { leaks: 0, temps: 0 };

async function load(el, path, view) {
  const mine = ++latest[view];
  try {
    const d = await api(path);
    return mine === latest[view] ? d : null;
  } catch (e) {
    if (mine === latest[view]) el.lastChild.replaceWith(errorBox(e));
    return null;
  }
}

function rangeNote(range) { return h('span', { class: 'muted range-note' }, range ? `frames ${num(range.from)}–${num(range.to)}` : 'whole run'); }

function noLifetimes(el, id, d) {
  el.lastChild.replaceWith(h('p', { class: 'notice info', id }, d.note));
}

export async function renderLeaks(el, run, range, rerender, filter = {}, onJump = () => {}) {
  const o = leakOpts;
  const controls = h('div', { class: 'controls' },
    segmented(GROUPS, o.group, (v) => { o.group = v; rerender(); }, 'Group'),
    segmented([['frames', 'Frames kept'], ['gc_bytes', 'Bytes'], ['count', 'Count']], o.by, (v) => { o.by = v; rerender(); }, 'Rank by'),
    rangeNote(range));
  clear(el, ...head('Leak candidates (alive at the end)', controls));
  const d = await load(el, `/api/runs/${run}/leaks` + qs({ group: o.group, by: o.by, limit: o.limit, from: range?.from, to: range?.to, ...filter }), 'leaks');
  if (!d) return;
  if (!d.lifetimes) { noLifetimes(el, 'leaks-note', d); return; }
  const cols = [['Alive', true, (e) => num(e.count)], ['GC bytes', true, (e) => bytes(e.gc_bytes)],
    ['Oldest frame', true, (e) => num(e.oldest_seq)], ['Age (frames)', true, (e) => num(e.age_frames)],
    ['Frames kept', true, (e) => num(e.frames)], [o.by === 'count' ? 'Share of count' : o.by === 'frames' ? 'Share of frames kept' : 'Share of bytes', false, 'share']];
  const csv = csvButton('leaks-csv', `run-${run}-leaks-${o.group}.csv`, () => ({
    header: ['rank', o.group === 'class' ? 'class' : 'function', 'file', 'line', 'class_main', 'alive_count', 'alive_gc_bytes', 'allocated',
      'oldest_seq', 'age_frames', 'frames_kept', 'share'],
    rows: csvRows(d, o.group, (e) => [e.oldest_seq, e.age_frames, e.frames]),
  }));
  el.lastChild.replaceWith(h('div', {},
    h('p', { class: 'muted' }, csv, ` ${num(d.totals.count)} objects · ${bytes(d.totals.gc_bytes)} alive at the end of frame ${num(d.range.to)} · ${num(d.total)} rows. `,
      '"Frames kept": allocation frames whose objects outlived a collection; a leak adds one every frame.'),
    table('leaks-table', d, o.group, cols, onJump),
    d.next_offset !== null ? h('p', { class: 'muted' }, `Showing the top ${d.entries.length} of ${num(d.total)}.`) : null));
}

export async function renderTemps(el, run, range, rerender, filter = {}, onJump = () => {}) {
  const o = tempOpts;
  const within = h('input', { type: 'number', id: 'temps-within', min: 0, max: 1000000, step: 1, value: String(o.within), 'aria-label': 'Died within N frames' });
  const apply = () => {
    const v = within.value.trim() === '' ? NaN : Number(within.value);
    if (!Number.isInteger(v) || v < 0 || v > 1000000) { within.value = String(o.within); return; }
    if (v !== o.within) { o.within = v; rerender(); }
  };
  within.addEventListener('change', apply);
  within.addEventListener('keydown', (e) => { if (e.key === 'Enter') apply(); });
  const controls = h('div', { class: 'controls' },
    segmented(GROUPS, o.group, (v) => { o.group = v; rerender(); }, 'Group'),
    segmented([['gc_bytes', 'Bytes'], ['count', 'Count']], o.by, (v) => { o.by = v; rerender(); }, 'Rank by'),
    h('label', { class: 'within' }, 'Died within ', within, ' frames'),
    rangeNote(range));
  clear(el, ...head('Temporaries', controls));
  const d = await load(el, `/api/runs/${run}/temporaries` + qs({ group: o.group, by: o.by, within: o.within, limit: o.limit, from: range?.from, to: range?.to, ...filter }), 'temps');
  if (!d) return;
  if (!d.lifetimes) { noLifetimes(el, 'temps-note', d); return; }
  const cols = [['Temporaries', true, (e) => num(e.count)], ['GC bytes', true, (e) => bytes(e.gc_bytes)],
    ['Allocated', true, (e) => num(e.allocated)], ['Of allocated', true, (e) => (e.allocated ? pct(e.count / e.allocated) : '–')],
    [o.by === 'count' ? 'Share of count' : 'Share of bytes', false, 'share']];
  const csv = csvButton('temps-csv', `run-${run}-temporaries-${o.group}-within-${d.within}.csv`, () => ({
    header: ['rank', o.group === 'class' ? 'class' : 'function', 'file', 'line', 'class_main', 'temporary_count', 'temporary_gc_bytes', 'allocated', 'within', 'share'],
    rows: csvRows(d, o.group, () => [d.within]),
  }));
  el.lastChild.replaceWith(h('div', {},
    h('p', { class: 'muted', id: 'temps-summary' }, csv, ` ${num(d.totals.count)} of ${num(d.totals.allocated)} objects died within ${num(d.within)} frame${d.within === 1 ? '' : 's'} · ${bytes(d.totals.gc_bytes)} · ${num(d.total)} rows`),
    table('temps-table', d, o.group, cols, onJump),
    d.next_offset !== null ? h('p', { class: 'muted' }, `Showing the top ${d.entries.length} of ${num(d.total)}.`) : null));
}
