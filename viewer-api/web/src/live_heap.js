// live_heap.js — the timeline's live-heap line: bytes of traced objects still alive after each
// frame (runs recorded with lifetimes), on the heap axis beside the GC heap, and the frames where
// each peaked (the frames endpoint's live_peak / heap_peak) marked with a labelled tick.
import { bytes, num } from './util.js';

const GREEN = '#16a34a', SLATE = '#64748b';

// The uPlot series for frames' live_bytes, and its data column (nulls without lifetimes).
export function liveSeries(series) {
  const has = Array.isArray(series.live_bytes);
  return {
    has,
    data: has ? series.live_bytes : series.seq.map(() => null),
    opts: { label: 'Live (traced)', stroke: GREEN, width: 1.5, scale: 'heap', show: has, value: (u, v) => (v === null ? '–' : bytes(v)), points: { show: false } },
  };
}

// Draws a small flag at each peak inside the visible x range.
export function drawPeaks(u, series) {
  const peaks = [[series.live_peak, GREEN, 'live peak'], [series.heap_peak && series.heap_peak.heap_size > 0 ? series.heap_peak : null, SLATE, 'heap peak']];
  const ctx = u.ctx, top = u.bbox.top, bottom = u.bbox.top + u.bbox.height;
  ctx.save();
  ctx.font = `${Math.round(11 * devicePixelRatio)}px system-ui, sans-serif`;
  for (const [p, color, label] of peaks) {
    if (!p || p.seq < u.scales.x.min || p.seq > u.scales.x.max) continue;
    const x = Math.round(u.valToPos(p.seq, 'x', true)) + 0.5;
    ctx.strokeStyle = color; ctx.fillStyle = color; ctx.lineWidth = 1.5; ctx.setLineDash([2, 2]);
    ctx.beginPath(); ctx.moveTo(x, top + 12); ctx.lineTo(x, bottom); ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillText(label, x + 4, top + 12 * devicePixelRatio);
  }
  ctx.restore();
}

// One line under the timeline naming the peaks (#timeline-peaks).
export function showPeaks(series) {
  const el = document.getElementById('timeline-peaks');
  if (el) { el.textContent = peakText(series); el.hidden = !el.textContent; }
}

export function peakText(series) {
  const parts = [];
  if (series.live_peak) parts.push(`Live heap peak ${bytes(series.live_peak.live_bytes)} at frame ${num(series.live_peak.seq)}`);
  if (series.heap_peak && series.heap_peak.heap_size > 0) parts.push(`GC heap peak ${bytes(series.heap_peak.heap_size)} at frame ${num(series.heap_peak.seq)}`);
  return parts.join(' · ');
}
