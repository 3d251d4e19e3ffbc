// timeline.js — per-frame bytes over the whole run with uPlot: GC markers on top, click a frame,
// drag a range. Heap size rides on a second axis.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { bytes, num } from './util.js';
import { drawPeaks, liveSeries, showPeaks } from './live_heap.js';
import { drawMarks } from './markers.js';

const FOLLOW_FRAMES = 600;  // a live timeline's window on the newest frames
const BLUE = '#2563eb', SLATE = '#64748b', ORANGE = '#ea580c', INK = '#0f172a';

export class Timeline {
  constructor(el, { onFrame, onRange }) {
    this.el = el;
    this.onFrame = onFrame;
    this.onRange = onRange;
    this.plot = null;
    this.gcSeqs = [];
    this.marks = [];  // the run's markers (markers.js), kept across setData
    this.selected = null;
    this.dragged = false;
    new ResizeObserver(() => this.plot && this.plot.setSize(this.size())).observe(el);
  }

  size() { return { width: Math.max(300, this.el.clientWidth), height: 230 }; }

  setData(series) {
    if (this.plot) this.plot.destroy();
    this.gcSeqs = series.gc.map((g) => g.seq);
    this.selected = null;
    const many = series.seq.length > 1500;
    const hasHeap = series.heap_size.some((v) => v > 0);  // some captures carry no heap figures
    const live = liveSeries(series);
    this.series = series;
    showPeaks(series);
    const data = [series.seq, series.requested_bytes, series.gc_bytes, series.heap_size, live.data];
    const fmtBytes = (u, vals) => vals.map((v) => (v === null ? '' : bytes(v)));
    const opts = {
      ...this.size(),
      scales: { x: { time: false }, y: { range: (u, lo, hi) => [0, hi * 1.08 || 1] }, heap: { range: (u, lo, hi) => [0, hi * 1.05 || 1] } },
      series: [
        { label: 'Frame', value: (u, v) => (v === null ? '–' : num(v)) },
        { label: 'Requested', stroke: BLUE, width: many ? 1 : 0, fill: 'rgba(37,99,235,0.35)',
          paths: many ? undefined : uPlot.paths.bars({ size: [0.8, 40] }), value: (u, v) => bytes(v), points: { show: false } },
        { label: 'GC bytes', stroke: '#0ea5e9', width: 1, show: false, value: (u, v) => bytes(v), points: { show: false } },
        { label: 'Heap', stroke: SLATE, width: 1.5, dash: [4, 3], scale: 'heap', show: hasHeap, value: (u, v) => bytes(v), points: { show: false } },
        live.opts,
      ],
      axes: [
        { stroke: SLATE, grid: { stroke: '#e2e8f0' }, ticks: { stroke: '#cbd5e1' }, label: 'frame', labelSize: 18 },
        { stroke: SLATE, grid: { stroke: '#e2e8f0' }, ticks: { stroke: '#cbd5e1' }, values: fmtBytes, size: 70 },
        { scale: 'heap', side: 1, stroke: SLATE, grid: { show: false }, values: fmtBytes, size: 70, show: hasHeap || live.has },
      ],
      cursor: { drag: { x: true, y: false, setScale: false }, points: { show: false } },
      legend: { live: true },
      hooks: {
        draw: [(u) => this.drawMarkers(u), (u) => drawPeaks(u, this.series), (u) => drawMarks(u, this.marks)],
        setSelect: [(u) => this.selectDone(u)],
        ready: [(u) => u.over.addEventListener('click', () => this.click(u))],
      },
    };
    this.plot = new uPlot(opts, data, this.el);
  }

  drawMarkers(u) {
    const ctx = u.ctx, top = u.bbox.top, bottom = u.bbox.top + u.bbox.height;
    ctx.save();
    ctx.fillStyle = ORANGE;
    ctx.strokeStyle = 'rgba(234,88,12,0.35)';
    ctx.lineWidth = 1;
    const [lo, hi] = [u.scales.x.min, u.scales.x.max];
    for (const s of this.gcSeqs) {
      if (s < lo || s > hi) continue;
      const x = Math.round(u.valToPos(s, 'x', true)) + 0.5;
      ctx.beginPath(); ctx.moveTo(x, top + 8); ctx.lineTo(x, bottom); ctx.stroke();
      ctx.beginPath(); ctx.moveTo(x - 4, top); ctx.lineTo(x + 4, top); ctx.lineTo(x, top + 7); ctx.closePath(); ctx.fill();
    }
    if (this.selected !== null) {
      const x = Math.round(u.valToPos(this.selected, 'x', true)) + 0.5;
      ctx.strokeStyle = INK; ctx.lineWidth = 2;
      ctx.beginPath(); ctx.moveTo(x, top); ctx.lineTo(x, bottom); ctx.stroke();
    }
    ctx.restore();
  }

  selectDone(u) {
    if (u.select.width < 3) return;
    this.dragged = true;
    const from = Math.max(0, Math.round(u.posToVal(u.select.left, 'x')));
    const to = Math.min(u.data[0].length - 1, Math.round(u.posToVal(u.select.left + u.select.width, 'x')));
    if (to > from) this.onRange(from, to);
  }

  click(u) {
    if (this.dragged) { this.dragged = false; return; }
    const idx = u.cursor.idx;
    if (idx === null || idx === undefined) return;
    this.selectFrame(u.data[0][idx]);
    this.onFrame(u.data[0][idx]);
  }

  // A live run's new frames (live.js): the same plot with more data, so a selection and the
  // zoom stay; following, the x axis shows the newest FOLLOW_FRAMES frames.
  grow(series, follow) {
    const restyle = !this.plot || !this.series || !this.series.seq.length || (series.seq.length > 1500) !== (this.series.seq.length > 1500);
    if (restyle) {  // first data, or bars becoming a line past 1500 frames: a new plot, the same selected frame
      const sel = this.selected;
      this.setData(series);
      this.selectFrame(sel);
      if (follow) this.follow(series.seq.length);
      return;
    }
    const selected = this.selected;
    this.gcSeqs = series.gc.map((g) => g.seq);
    this.series = series;
    showPeaks(series);
    const live = liveSeries(series);
    this.plot.setData([series.seq, series.requested_bytes, series.gc_bytes, series.heap_size, live.data], false);
    this.selected = selected;
    if (follow) this.follow(series.seq.length);
  }

  follow(frames) {
    if (!this.plot || !frames) return;
    this.plot.setScale('x', { min: Math.max(0, frames - FOLLOW_FRAMES), max: Math.max(frames - 1, 1) });
  }

  setMarks(marks) { this.marks = marks; if (this.plot) this.plot.redraw(false); }

  selectFrame(seq) { this.selected = seq; if (this.plot) this.plot.redraw(false); }

  // Frame seq -> canvas position, for tests and keyboard users.
  frameX(seq) { return this.plot ? this.plot.valToPos(seq, 'x') : 0; }

  clearRange() { if (this.plot) this.plot.setSelect({ left: 0, width: 0, top: 0, height: 0 }, false); }
}
