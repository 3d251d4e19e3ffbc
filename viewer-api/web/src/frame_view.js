// frame_view.js — one frame: what it allocated, grouped by class, biggest first; a class row
// opens its stacks, a stack opens its frames.
import { api, bytes, clear, errorBox, h, ms, num, pct, qs } from './util.js';
import { siteLabel, stackList } from './stack_view.js';
import { keyNav } from './keys.js';
import { csvButton } from './csv.js';
import { sourceLink } from './source.js';

export async function renderFrame(el, run, seq, filter = {}) {
  if (seq === null || seq === undefined) {
    clear(el, h('div', { class: 'empty' }, 'Click a frame in the timeline to see what it allocated.'));
    return;
  }
  clear(el, h('div', { class: 'loading' }, `Loading frame ${seq}…`));
  let d;
  try { d = await api(`/api/runs/${run}/frames/${seq}` + qs({ limit: 500, ...filter })); } catch (e) { clear(el, errorBox(e)); return; }
  const f = d.frame;
  const facts = h('div', { class: 'cards' },
    card('Frame', num(f.frame_index), `seq ${f.seq}`),
    card('Allocations', num(f.count)),
    card('Requested', bytes(f.requested_bytes), `GC ${bytes(f.gc_bytes)}`),
    card('Heap', bytes(f.heap_size), `free ${bytes(f.free_bytes)}`),
    card('Collections', num(f.collections), f.collections ? ms(f.gc_ns) : ''),
    f.live_bytes !== null ? card('Live', bytes(f.live_bytes)) : null);
  const total = f.requested_bytes || 1;
  const body = keyNav(h('tbody'));
  // Generic instances share a name (List`1 of different T): tell them apart by class id.
  const seen = new Map();
  for (const c of d.classes) seen.set(c.full_name, (seen.get(c.full_name) || 0) + 1);
  for (const c of d.classes) {
    const row = h('tr', { class: 'expandable', 'data-class': c.full_name, tabindex: 0 },
      h('td', {}, h('span', { class: 'twisty' }), h('span', { class: 'cls' }, c.full_name),
        seen.get(c.full_name) > 1 ? h('span', { class: 'muted' }, `  class #${c.class_id}`) : null),
      h('td', { class: 'num' }, num(c.count)), h('td', { class: 'num' }, bytes(c.requested_bytes)),
      h('td', { class: 'num' }, bytes(c.gc_bytes)), h('td', { class: 'num muted' }, pct(c.requested_bytes / total)),
      h('td', { class: 'num muted' }, String(c.stacks.length)));
    const detail = h('tr', { class: 'detail', hidden: true }, h('td', { colspan: 6 }, stacksOf(c)));
    const toggle = () => { detail.hidden = !detail.hidden; row.classList.toggle('open', !detail.hidden); };
    row.addEventListener('click', toggle);
    body.append(row, detail);
  }
  const table = d.classes.length
    ? h('table', { class: 'grid', id: 'frame-table' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Class'), h('th', { class: 'num' }, 'Count'), h('th', { class: 'num' }, 'Requested'),
        h('th', { class: 'num' }, 'GC bytes'), h('th', { class: 'num' }, 'Share'), h('th', { class: 'num' }, 'Stacks'))), body)
    : h('div', { class: 'empty' }, 'This frame allocated nothing.');
  const gcs = d.gc.length ? h('p', { class: 'gc-note' }, d.gc.map((g) =>
    `GC #${g.gc_no}: reclaimed ${bytes(g.reclaimed_bytes)} in ${ms(g.duration_ns)}, heap ${bytes(g.heap_size)}`).join(' · ')) : null;
  const csv = csvButton('frame-csv', `run-${run}-frame-${f.seq}.csv`, () => ({
    header: ['class', 'class_id', 'count', 'requested_bytes', 'gc_bytes', 'stacks'],
    rows: d.classes.map((c) => [c.full_name, c.class_id, c.count, c.requested_bytes, c.gc_bytes, c.stacks.length]),
  }));
  clear(el, h('div', { class: 'view-head' }, h('h2', {}, `Frame ${num(f.frame_index)}`),
    h('span', { class: 'muted' }, `${d.total} classes`), csv), facts, gcs, table);
}

function stacksOf(c) {
  return h('div', { class: 'stacks' }, c.stacks.map((s) => {
    const frames = h('div', { class: 'frames', hidden: true },
      s.site && s.site.file ? h('div', { class: 'site-src' }, 'Allocation site', sourceLink(`${s.site.file}:${s.site.line}`)) : null,
      stackList(s.frames));
    const head = h('div', { class: 'stack-head', tabindex: 0, 'data-stack': s.stack_id },
      h('span', { class: 'twisty' }), h('span', { class: 'site' }, siteLabel(s.site)),
      h('span', { class: 'muted' }, `${num(s.count)} × · ${bytes(s.requested_bytes)}`));
    head.addEventListener('click', () => { frames.hidden = !frames.hidden; head.classList.toggle('open', !frames.hidden); });
    return h('div', { class: 'stack-item' }, head, frames);
  }));
}

export function card(label, value, sub) {
  return h('div', { class: 'card' }, h('div', { class: 'card-label' }, label), h('div', { class: 'card-value' }, value),
    sub ? h('div', { class: 'card-sub' }, sub) : null);
}
