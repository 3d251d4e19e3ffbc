// markers.js — the game's markers (mt_mark, or `mark` from a live host) on the timeline: a
// labelled violet tick at each marked frame, and a row of buttons under it; a button selects the
// range from its marker to the frame before the next one (or the run's end), the same range a
// drag would, so the URL, TopN, Leaks and the flame graph follow it.
import { api, clear, h, num } from './util.js';

const VIOLET = '#7c3aed';

export async function loadMarkers(run) {
  try {
    return (await api(`/api/runs/${run}/markers`)).markers;
  } catch {
    return [];  // a database written before markers existed has none to show
  }
}

// Draws each marker inside the visible x range as a tick with its label along the bottom edge.
export function drawMarks(u, marks) {
  if (!marks || !marks.length) return;
  const ctx = u.ctx, top = u.bbox.top, bottom = u.bbox.top + u.bbox.height;
  ctx.save();
  ctx.font = `${Math.round(11 * devicePixelRatio)}px system-ui, sans-serif`;
  ctx.strokeStyle = VIOLET; ctx.fillStyle = VIOLET; ctx.lineWidth = 1.5;
  for (const m of marks) {
    if (m.seq < u.scales.x.min || m.seq > u.scales.x.max) continue;
    const x = Math.round(u.valToPos(m.seq, 'x', true)) + 0.5;
    ctx.beginPath(); ctx.moveTo(x, top); ctx.lineTo(x, bottom); ctx.stroke();
    ctx.fillText(m.label, x + 4, bottom - 4 * devicePixelRatio);
  }
  ctx.restore();
}

// The buttons under the timeline (#timeline-marks); `frames` is the run's frame count.
export function showMarkerButtons(marks, frames, onRange) {
  const el = document.getElementById('timeline-marks');
  if (!el) return;
  const buttons = marks.map((m, i) => {
    const next = marks.slice(i + 1).find((n) => n.seq > m.seq);
    const to = next ? next.seq - 1 : frames - 1;
    return h('button', { class: 'btn ghost small marker', 'data-seq': m.seq, title: `frames ${num(m.seq)}–${num(to)}`,
      onclick: () => onRange(m.seq, Math.max(m.seq, to)) }, `${m.label} @${num(m.seq)}`);
  });
  clear(el, buttons.length ? [h('span', { class: 'hint' }, 'Markers:'), ...buttons] : []);
  el.hidden = !buttons.length;
}
