// live.js — the page of `memtracer-viewer --live` (docs/live.md): a status line (connection
// state, frames/s, events/s, lag in frames, drops), Pause / Resume / Mark / Stop for the game,
// and a timeline that grows as the follow ingest commits frames. The timeline follows the newest
// frame until the user selects a frame or a range or zooms (wheel), and "Follow" takes it back;
// a range that reaches the newest frame keeps reaching it, and TopN / the frame view refresh.
// Updates come as server-sent events (/api/live/events); without --live nothing here runs.
import './live.css';
import { api, h, num } from './util.js';

const REFRESH_MS = 1000;  // at most one refresh of the views a second, whatever the frame rate
const FACTS_MS = 3000;    // the run's facts line (frames, allocations, ...) a little less often

export async function initLive(hooks) {
  let st;
  try { st = await api('/api/live'); } catch { return; }
  if (!st.live) return;
  new LiveView(hooks).start(st);
}

class LiveView {
  constructor(hooks) {
    this.k = hooks;  // { state, timeline, loadRuns, loadRun, loadFacts, renderTab, updateSelectionLabel, seriesQuery, reloadMarkers }
    this.follow = true;
    this.rangeFollows = false;
    this.shownFrames = 0;   // frames of the live run the timeline shows
    this.marksLoaded = -1;  // the runtime's mark count when the markers were last loaded
    this.busy = false;
    this.lastRefresh = 0;
    this.status = null;
    this.build();
    this.wrapTimeline();
    this.bar.dataset.follow = '1';
  }

  build() {
    const btn = (id, label, title, onclick) => h('button', { id, class: 'btn ghost small', title, onclick }, label);
    this.text = h('span', { id: 'live-status', class: 'live-status' }, 'Live: connecting…');
    this.bar = h('div', { id: 'live-bar', class: 'live-bar', role: 'status' },
      h('span', { class: 'live-dot' }), this.text, h('span', { class: 'spacer' }),
      btn('live-follow', 'Follow', 'Follow the newest frame again', () => this.setFollow(true)),
      btn('live-pause', 'Pause', 'Pause recording in the game (frames go on, with no events)', () => this.control('pause')),
      btn('live-resume', 'Resume', 'Resume recording', () => this.control('resume')),
      btn('live-mark', 'Mark…', 'A named marker at the game\'s current frame', () => this.mark()),
      btn('live-stop', 'Stop', 'Stop the capture in the game (the run ends)', () => this.control('stop')));
    document.querySelector('.topbar').after(this.bar);
    this.k.timeline.el.addEventListener('wheel', () => this.setFollow(false), { passive: true });
  }

  // A frame or range picked by the user ends following; a range up to the newest frame follows it.
  wrapTimeline() {
    const t = this.k.timeline, onFrame = t.onFrame, onRange = t.onRange;
    t.onFrame = (seq) => { this.setFollow(false); onFrame(seq); };
    t.onRange = (from, to) => {
      this.setFollow(false);
      this.rangeFollows = this.shownFrames > 0 && to >= this.shownFrames - 1;
      onRange(from, to);
    };
  }

  setFollow(on) {
    this.follow = on;
    this.bar.dataset.follow = on ? '1' : '0';
    if (on) { this.rangeFollows = false; this.k.timeline.follow(this.shownFrames); }
  }

  async control(what, label) {
    try {
      await api(`/api/live/${what}` + (label ? `?label=${encodeURIComponent(label)}` : ''), { method: 'POST' });
    } catch (e) { this.bar.dataset.error = e.message; this.text.textContent = `Live: ${what} refused: ${e.message}`; }
  }

  mark() {
    const label = prompt('Marker label (at the game\'s current frame):');
    if (label) this.control('mark', label.slice(0, 255));
  }

  start(st) {
    this.show(st);
    const es = new EventSource('/api/live/events');
    es.addEventListener('live', (e) => this.show(JSON.parse(e.data)));
  }

  show(s) {
    this.status = s;
    const b = this.bar.dataset;
    b.state = s.state; b.frames = s.run_frames; b.received = s.frames; b.run = s.run_id ?? '';
    b.ingest = s.ingest; b.lastAck = s.last_ack;
    const parts = [`Live: ${s.state}`, s.message || null, `frames ${num(s.frames)} (${s.frames_per_s.toFixed(1)}/s)`,
      `events ${num(Math.round(s.events_per_s))}/s`, `lag ${num(s.lag_frames)} frames`, `drops ${num(s.drops)}`,
      s.ingest === 'error' ? `ingest: ${s.ingest_error}` : null];
    this.text.textContent = parts.filter(Boolean).join(' · ');
    const on = ['streaming', 'paused'].includes(s.state);
    document.getElementById('live-pause').disabled = !on || s.paused;
    document.getElementById('live-resume').disabled = !on || !s.paused;
    document.getElementById('live-mark').disabled = !on;
    document.getElementById('live-stop').disabled = !on;
    this.refresh();
  }

  // Brings the page up to the run's queryable frames: one refresh at a time, at most one a second.
  async refresh() {
    const s = this.status;
    if (this.busy || s.run_id === null) return;
    const due = s.run_frames !== this.shownFrames || s.marks !== this.marksLoaded;
    if (!due || performance.now() - this.lastRefresh < REFRESH_MS) {
      if (due && !this.timer) this.timer = setTimeout(() => { this.timer = null; this.refresh(); }, REFRESH_MS);
      return;
    }
    this.busy = true;
    this.lastRefresh = performance.now();
    try { await this.update(s); } catch (e) { this.text.textContent += ` · ${e.message}`; }
    this.busy = false;
    if (this.status !== s) this.refresh();
  }

  async update(s) {
    const k = this.k, state = k.state;
    if (this.liveRun !== s.run_id) {  // the live run appeared: show it (unless the user picked another)
      this.liveRun = s.run_id;
      state.run = s.run_id; state.frame = null; state.range = null;
      await k.loadRuns();
      await k.loadRun();
      document.getElementById('notice').hidden = true;  // "no runs yet" is over
      k.renderTab();
    }
    if (state.run !== s.run_id) return;
    const series = await api(`/api/runs/${s.run_id}/frames` + k.seriesQuery());
    const frames = series.seq.length;
    k.timeline.grow(series, this.follow);
    this.shownFrames = frames;
    this.bar.dataset.shown = frames;
    if (performance.now() - (this.factsAt || 0) > FACTS_MS || s.state !== this.factsState) {
      this.factsAt = performance.now();
      this.factsState = s.state;
      await k.loadFacts();
    }
    if (s.marks !== this.marksLoaded) {
      this.marksLoaded = s.marks;
      await k.reloadMarkers(frames);
    }
    if (!frames) return;
    if (this.rangeFollows && state.range && state.range.to < frames - 1) {
      state.range = { from: state.range.from, to: frames - 1 };
      k.updateSelectionLabel();
      if (state.tab !== 'frame') k.renderTab();
    } else if (this.follow && state.tab === 'frame') {
      state.frame = frames - 1;  // following: the frame view shows the newest frame
      k.renderTab();
    }
  }
}
