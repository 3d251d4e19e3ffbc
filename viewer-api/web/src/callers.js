// callers.js — the bottom-up view: the functions that allocate (the innermost frame of each
// stack; by default C# methods, IL2CPP's runtime frames folded into them), each opening to its
// callers, their callers, and so on. The inverted flame tree as a table. Keys: Up/Down move,
// Right or Enter opens, Left closes (or goes to the caller's row), Esc closes.
import { api, bytes, clear, errorBox, h, num, pct, qs, segmented } from './util.js';
import { keyNav } from './keys.js';
import { csvButton } from './csv.js';
import { sourceLink } from './source.js';

export const opts = { by: 'bytes', frames: 'csharp' };

export async function renderCallers(el, run, range, rerender, filter = {}) {
  const controls = h('div', { class: 'controls' },
    segmented([['bytes', 'Bytes'], ['count', 'Count']], opts.by, (v) => { opts.by = v; rerender(); }, 'Weight'),
    h('span', { id: 'callers-frames' }, segmented([['csharp', 'C# methods'], ['all', 'All frames']], opts.frames, (v) => { opts.frames = v; rerender(); }, 'Frames')),
    h('span', { class: 'muted range-note' }, range ? `frames ${num(range.from)}–${num(range.to)}` : 'whole run'));
  clear(el, h('div', { class: 'view-head' }, h('h2', {}, 'Callers (bottom-up)')), controls, h('div', { class: 'loading' }, 'Loading…'));
  let d;
  try {
    d = await api(`/api/runs/${run}/flame` + qs({ by: opts.by, from: range?.from, to: range?.to, invert: 1, classes: 0,
      frames: opts.frames, min_share: 0.0005, ...filter }));
  } catch (e) { el.lastChild.replaceWith(errorBox(e)); return; }
  const fmt = opts.by === 'count' ? num : bytes;
  const total = d.root.value || 1;
  const body = keyNav(h('tbody'));
  const rowOf = new Map();
  function row(n, depth, parentRow) {
    const kids = n.children || [];
    const tr = h('tr', { tabindex: 0, class: kids.length ? 'expandable' : '', 'data-depth': depth, 'data-name': n.name },
      h('td', { style: `padding-left:${10 + depth * 18}px` }, h('span', { class: 'twisty' }), h('span', { class: 'cls' }, n.name),
        n.location ? sourceLink(n.location) : null),
      h('td', { class: 'num' }, fmt(n.value)), h('td', { class: 'num muted' }, pct(n.value / total)));
    tr.node = n;
    tr.parentRow = parentRow;
    tr.kidRows = null;
    rowOf.set(tr, n);
    tr.addEventListener('click', (e) => { if (!e.target.closest('.src')) toggle(tr); });
    tr.addEventListener('keydown', (e) => {
      if (e.target !== tr) return;
      if (e.key === 'ArrowRight') { if (!tr.classList.contains('open')) toggle(tr); else if (tr.kidRows?.[0]) tr.kidRows[0].focus(); }
      else if (e.key === 'ArrowLeft') { if (tr.classList.contains('open')) toggle(tr); else if (tr.parentRow) tr.parentRow.focus(); }
      else return;
      e.preventDefault();
    });
    return tr;
  }
  function close(tr) {
    for (const k of tr.kidRows || []) { close(k); k.remove(); }
    tr.kidRows = null;
    tr.classList.remove('open');
  }
  function toggle(tr) {
    if (tr.classList.contains('open')) { close(tr); return; }
    const kids = tr.node.children || [];
    if (!kids.length) return;
    tr.kidRows = kids.map((c) => row(c, Number(tr.dataset.depth) + 1, tr));
    tr.after(...tr.kidRows);
    tr.classList.add('open');
  }
  for (const n of d.root.children || []) body.append(row(n, 0, null));
  const csv = csvButton('callers-csv', `run-${run}-callers.csv`, () => ({
    header: ['function', 'location', opts.by === 'count' ? 'count' : 'requested_bytes', 'share'],
    rows: (d.root.children || []).map((n) => [n.name, n.location || '', n.value, n.value / total]),
  }));
  el.lastChild.replaceWith(h('div', {},
    h('p', { class: 'muted' }, csv, ` ${fmt(d.root.value)} in ${num((d.root.children || []).length)} allocating functions; open a row for its callers`),
    h('table', { class: 'grid tree', id: 'callers-table' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Function (callers below)'), h('th', { class: 'num' }, opts.by === 'count' ? 'Count' : 'Requested'),
        h('th', { class: 'num' }, 'Share'))), body)));
}
