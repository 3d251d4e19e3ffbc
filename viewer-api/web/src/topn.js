// topn.js — the biggest allocators over the selected range (or the whole run): by class, by
// allocation site or by full stack, ranked by bytes or by count.
import { api, bytes, clear, errorBox, h, num, qs, segmented, shareBar } from './util.js';
import { siteLabel, stackList } from './stack_view.js';
import { keyNav } from './keys.js';
import { csvButton } from './csv.js';
import { sourceLink } from './source.js';

export const opts = { group: 'class', by: 'bytes', limit: 50 };

// Two stacks often share a site; the frame that called the site tells them apart.
function caller(e) {
  const i = e.frames.findIndex((f) => f.name === e.site.function);
  if (i < 0) return '';
  const c = e.frames.slice(i + 1).find((f) => f.pos > e.frames[i].pos && f.name !== e.site.function);
  return c ? ` · called from ${c.name}` : '';
}

export async function renderTop(el, run, range, rerender, filter = {}) {
  const controls = h('div', { class: 'controls' },
    segmented([['class', 'By class'], ['site', 'By site'], ['stack', 'By stack']], opts.group, (v) => { opts.group = v; rerender(); }, 'Group'),
    segmented([['bytes', 'Bytes'], ['count', 'Count']], opts.by, (v) => { opts.by = v; rerender(); }, 'Rank by'),
    h('span', { class: 'muted range-note' }, range ? `frames ${num(range.from)}–${num(range.to)}` : 'whole run'));
  clear(el, h('div', { class: 'view-head' }, h('h2', {}, 'Top allocators')), controls, h('div', { class: 'loading' }, 'Loading…'));
  let d;
  try {
    d = await api(`/api/runs/${run}/top` + qs({ group: opts.group, by: opts.by, limit: opts.limit, from: range?.from, to: range?.to, ...filter }));
  } catch (e) { el.lastChild.replaceWith(errorBox(e)); return; }
  const name = opts.group === 'class' ? 'Class' : opts.group === 'site' ? 'Allocation site' : 'Stack (allocation site)';
  const body = keyNav(h('tbody'));
  for (const e of d.entries) {
    const label = opts.group === 'class' ? e.full_name : opts.group === 'site' ? siteLabel(e) : siteLabel(e.site);
    let classes = e.classes ? e.classes.map((c) => c.full_name).join(', ') : '';
    if (opts.group === 'stack') classes += ` · stack #${e.stack_id}` + caller(e);
    const site = opts.group === 'site' ? e : opts.group === 'stack' ? e.site : null;
    const loc = site && site.file ? `${site.file}:${site.line}` : '';
    const row = h('tr', { class: opts.group === 'stack' ? 'expandable' : '', 'data-rank': e.rank, tabindex: 0, 'data-location': loc || null },
      h('td', { class: 'num muted' }, String(e.rank)),
      h('td', {}, opts.group === 'stack' ? h('span', { class: 'twisty' }) : null, h('span', { class: 'cls' }, label),
        classes ? h('div', { class: 'sub muted' }, classes) : null, loc ? sourceLink(loc) : null),
      h('td', { class: 'num' }, num(e.count)), h('td', { class: 'num' }, bytes(e.requested_bytes)),
      h('td', { class: 'bar-cell' }, shareBar(e.share)));
    body.append(row);
    if (opts.group === 'stack') {
      const detail = h('tr', { class: 'detail', hidden: true }, h('td', { colspan: 5 }, stackList(e.frames)));
      row.addEventListener('click', () => { detail.hidden = !detail.hidden; row.classList.toggle('open', !detail.hidden); });
      body.append(detail);
    }
  }
  const t = d.totals;
  const csv = csvButton('top-csv', `run-${run}-top-${opts.group}.csv`, () => ({
    header: ['rank', opts.group === 'class' ? 'class' : 'function', 'file', 'line', 'count', 'requested_bytes', 'gc_bytes', 'share'],
    rows: d.entries.map((e) => {
      const s = opts.group === 'site' ? e : e.site;
      return [e.rank, opts.group === 'class' ? e.full_name : s.function, s ? s.file : '', s ? s.line : '', e.count, e.requested_bytes, e.gc_bytes, e.share];
    }),
  }));
  el.lastChild.replaceWith(h('div', {},
    h('p', { class: 'muted' }, csv, ' ', `${num(t.count)} allocations · ${bytes(t.requested_bytes)} requested · ${num(d.total)} ${opts.group === 'class' ? 'classes' : opts.group === 'site' ? 'sites' : 'stacks'}`),
    h('table', { class: 'grid', id: 'top-table' },
      h('thead', {}, h('tr', {}, h('th', { class: 'num' }, '#'), h('th', {}, name), h('th', { class: 'num' }, 'Count'),
        h('th', { class: 'num' }, 'Requested'), h('th', {}, opts.by === 'count' ? 'Share of count' : 'Share of bytes'))), body),
    d.next_offset !== null ? h('p', { class: 'muted' }, `Showing the top ${d.entries.length} of ${num(d.total)}.`) : null));
}
