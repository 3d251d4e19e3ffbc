// flame.js — the flame graph of bytes (or counts) by call tree, drawn on a canvas, root (all)
// on top, outermost frames below it, the allocated class as the last box. Click to zoom.
import { api, bytes, clear, errorBox, h, num, pct, qs, segmented } from './util.js';

const ROW = 20;
const opts = { by: 'bytes' };

function hash(s) { let x = 2166136261; for (let i = 0; i < s.length; i++) x = Math.imul(x ^ s.charCodeAt(i), 16777619); return x >>> 0; }
function color(n) {
  if (n.class) return 'hsl(212, 70%, 62%)';
  const k = hash(n.name);
  return `hsl(${18 + (k % 30)}, ${62 + (k >> 8) % 20}%, ${58 + (k >> 16) % 12}%)`;
}

export async function renderFlame(el, run, range, rerender) {
  const controls = h('div', { class: 'controls' },
    segmented([['bytes', 'Bytes'], ['count', 'Count']], opts.by, (v) => { opts.by = v; rerender(); }, 'Weight'),
    h('span', { class: 'muted range-note' }, range ? `frames ${num(range.from)}–${num(range.to)}` : 'whole run'));
  clear(el, h('div', { class: 'view-head' }, h('h2', {}, 'Flame graph')), controls, h('div', { class: 'loading' }, 'Loading…'));
  let d;
  try {
    d = await api(`/api/runs/${run}/flame` + qs({ by: opts.by, from: range?.from, to: range?.to, min_share: 0.0005 }));
  } catch (e) { el.lastChild.replaceWith(errorBox(e)); return; }
  const fmt = opts.by === 'count' ? num : bytes;
  const crumbs = h('div', { class: 'crumbs' });
  const tip = h('div', { class: 'flame-tip', hidden: true });
  const canvas = h('canvas', { class: 'flame', id: 'flame-canvas' });
  const wrap = h('div', { class: 'flame-wrap' }, canvas, tip);
  el.lastChild.replaceWith(h('div', {}, crumbs, wrap));
  const total = d.root.value || 1;
  let zoom = [d.root];
  let boxes = [];

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
    clear(tip, h('strong', {}, b.n.name), h('div', {}, `${fmt(b.n.value)} · ${pct(b.n.value / total)}${b.n.class ? ' · allocated class' : ''}`));
    const r = wrap.getBoundingClientRect();
    tip.style.left = Math.min(e.clientX - r.left + 12, r.width - 260) + 'px';
    tip.style.top = e.clientY - r.top + 14 + 'px';
  });
  canvas.addEventListener('mouseleave', () => { tip.hidden = true; });
  canvas.addEventListener('click', (e) => {
    const b = at(e);
    if (!b || b.n === zoom[zoom.length - 1]) return;
    const path = [];
    const find = (n, trail) => { if (n === b.n) { path.push(...trail, n); return true; } return (n.children || []).some((c) => find(c, [...trail, n])); };
    find(d.root, []);
    zoom = path;
    draw();
  });
  draw();
  new ResizeObserver(() => draw()).observe(wrap);
}
