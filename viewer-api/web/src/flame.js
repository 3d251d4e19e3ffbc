// flame.js — the flame graph of bytes (or counts) by call tree, drawn on a canvas, root (all)
// on top, outermost frames below it, the allocated class as the last box. Click to zoom.
// Inverted: the allocated class on top, then who allocated it, then their callers. "C# methods"
// folds IL2CPP's runtime and generated C++ frames into the C# method that called them.
// Keys on the focused canvas: arrows move the selection (Down: biggest child, Up: parent,
// Left/Right: siblings), Enter zooms into it, Esc zooms out.
import { api, bytes, clear, errorBox, h, num, pct, qs, segmented } from './util.js';
import { sourceLink } from './source.js';

const ROW = 20;
export const opts = { by: 'bytes', invert: false, frames: 'all' };

function hash(s) { let x = 2166136261; for (let i = 0; i < s.length; i++) x = Math.imul(x ^ s.charCodeAt(i), 16777619); return x >>> 0; }
function color(n) {
  if (n.class) return 'hsl(212, 70%, 62%)';
  const k = hash(n.name);
  return `hsl(${18 + (k % 30)}, ${62 + (k >> 8) % 20}%, ${58 + (k >> 16) % 12}%)`;
}

export async function renderFlame(el, run, range, rerender, filter = {}) {
  const controls = h('div', { class: 'controls' },
    segmented([['bytes', 'Bytes'], ['count', 'Count']], opts.by, (v) => { opts.by = v; rerender(); }, 'Weight'),
    h('span', { id: 'flame-invert' }, segmented([['0', 'Callers below'], ['1', 'Inverted']], opts.invert ? '1' : '0', (v) => { opts.invert = v === '1'; rerender(); }, 'Direction')),
    h('span', { id: 'flame-frames' }, segmented([['all', 'All frames'], ['csharp', 'C# methods']], opts.frames, (v) => { opts.frames = v; rerender(); }, 'Frames')),
    h('span', { class: 'muted range-note' }, range ? `frames ${num(range.from)}–${num(range.to)}` : 'whole run'));
  clear(el, h('div', { class: 'view-head' }, h('h2', {}, 'Flame graph')), controls, h('div', { class: 'loading' }, 'Loading…'));
  let d;
  try {
    d = await api(`/api/runs/${run}/flame` + qs({ by: opts.by, from: range?.from, to: range?.to, min_share: 0.0005, invert: opts.invert ? 1 : undefined, frames: opts.frames === 'all' ? undefined : opts.frames, ...filter }));
  } catch (e) { el.lastChild.replaceWith(errorBox(e)); return; }
  const fmt = opts.by === 'count' ? num : bytes;
  const crumbs = h('div', { class: 'crumbs' });
  const tip = h('div', { class: 'flame-tip', hidden: true });
  const canvas = h('canvas', { class: 'flame', id: 'flame-canvas', tabindex: 0, 'aria-label': 'Flame graph: arrows select, Enter zooms, Esc zooms out' });
  const wrap = h('div', { class: 'flame-wrap' }, canvas, tip);
  const detail = h('div', { class: 'flame-detail', id: 'flame-detail' });
  el.lastChild.replaceWith(h('div', {}, crumbs, wrap, detail));
  const total = d.root.value || 1;
  let zoom = [d.root];
  let boxes = [];
  let sel = d.root;
  const parents = new Map();
  (function link(n) { for (const c of n.children || []) { parents.set(c, n); link(c); } })(d.root);
  const pathTo = (n) => { const p = []; for (let x = n; x; x = parents.get(x)) p.unshift(x); return p; };
  function select(n) {
    sel = n;
    draw();
    clear(detail, h('strong', { class: 'flame-sel' }, n.name), h('span', { class: 'muted' }, ` ${fmt(n.value)} · ${pct(n.value / total)}  `),
      n.class ? h('span', { class: 'muted' }, 'allocated class') : sourceLink(n.location));
    window.memtracer && (window.memtracer.flameSelected = n.name);
  }

  const depthOf = (n) => (n.children || []).reduce((m, c) => Math.max(m, 1 + depthOf(c)), 1);
  function draw() {
    const focus = zoom[zoom.length - 1];
    const width = wrap.clientWidth || 800, depth = depthOf(focus), dpr = window.devicePixelRatio || 1;
    canvas.width = width * dpr; canvas.height = depth * ROW * dpr;
    canvas.style.width = width + 'px'; canvas.style.height = depth * ROW + 'px';
    const ctx = canvas.getContext('2d');
    ctx.scale(dpr, dpr);
    ctx.font = '12px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    boxes = [];
    const lay = (n, x, w, y) => {
      if (w < 0.5) return;
      boxes.push({ n, x, y, w });
      ctx.fillStyle = color(n);
      ctx.fillRect(x, y, Math.max(0.5, w - 1), ROW - 1);
      if (w > 40) {
        ctx.fillStyle = '#111827';
        let label = n.name;
        const room = w - 8;
        while (label.length > 3 && ctx.measureText(label).width > room) label = label.slice(0, Math.max(3, Math.floor(label.length * room / ctx.measureText(label).width) - 1));
        if (label !== n.name) label = label.slice(0, -1) + '…';
        ctx.fillText(label, x + 4, y + ROW / 2);
      }
      let cx = x;
      for (const c of n.children || []) { const cw = (c.value / n.value) * w; lay(c, cx, cw, y + ROW); cx += cw; }
    };
    lay(focus, 0, width, 0);
    const sb = boxes.find((b) => b.n === sel);
    if (sb) {
      ctx.strokeStyle = '#0f172a'; ctx.lineWidth = 2;
      ctx.strokeRect(sb.x + 1, sb.y + 1, Math.max(2, sb.w - 3), ROW - 3);
    }
    clear(crumbs, zoom.map((n, i) => h('button', { class: 'crumb', onclick: () => { zoom = zoom.slice(0, i + 1); draw(); } },
      i === 0 ? 'all' : n.name)), h('span', { class: 'muted' }, `  ${fmt(focus.value)} · ${pct(focus.value / total)} of total`));
  }
  const at = (e) => {
    const r = canvas.getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top;
    return boxes.find((b) => x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + ROW);
  };
  canvas.addEventListener('mousemove', (e) => {
    const b = at(e);
    if (!b) { tip.hidden = true; return; }
    tip.hidden = false;
    clear(tip, h('strong', {}, b.n.name), h('div', {}, `${fmt(b.n.value)} · ${pct(b.n.value / total)}${b.n.class ? ' · allocated class' : ''}`),
      b.n.location ? h('div', { class: 'muted' }, b.n.location) : null);
    const r = wrap.getBoundingClientRect();
    tip.style.left = Math.min(e.clientX - r.left + 12, r.width - 260) + 'px';
    tip.style.top = e.clientY - r.top + 14 + 'px';
  });
  canvas.addEventListener('mouseleave', () => { tip.hidden = true; });
  canvas.addEventListener('click', (e) => {
    const b = at(e);
    if (!b) return;
    if (b.n !== zoom[zoom.length - 1]) zoom = pathTo(b.n);
    select(b.n);
  });
  canvas.addEventListener('keydown', (e) => {
    const kids = (n) => (n.children || []).filter((c) => boxes.some((b) => b.n === c));
    const par = parents.get(sel), sibs = par ? kids(par) : [], i = sibs.indexOf(sel);
    let next = null;
    if (e.key === 'ArrowDown') next = kids(sel)[0] || null;
    else if (e.key === 'ArrowUp') next = sel === zoom[zoom.length - 1] ? null : par;
    else if (e.key === 'ArrowRight') next = sibs[i + 1] || null;
    else if (e.key === 'ArrowLeft') next = sibs[i - 1] || null;
    else if (e.key === 'Enter') { zoom = pathTo(sel); select(sel); }
    else if (e.key === 'Escape') { if (zoom.length > 1) zoom = zoom.slice(0, -1); select(zoom[zoom.length - 1]); }
    else return;
    e.preventDefault();
    if (next) select(next);
  });
  select(d.root);
  new ResizeObserver(() => draw()).observe(wrap);
}
