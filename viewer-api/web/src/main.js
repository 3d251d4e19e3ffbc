// main.js — the page: pick a run, see its timeline, and look at it four ways (one frame, TopN,
// compare, flame graph). State lives in the URL hash so a view can be shared or reloaded.
import './style.css';
import { api, bytes, clear, duration, errorBox, h, num } from './util.js';
import { Timeline } from './timeline.js';
import { loadMarkers, showMarkerButtons } from './markers.js';
import { renderFrame } from './frame_view.js';
import { renderTop, opts as topOpts } from './topn.js';
import { renderCompare, opts as cmpOpts } from './compare.js';
import { renderFlame, opts as flameOpts } from './flame.js';
import { renderCallers, opts as callerOpts } from './callers.js';
import { FilterBar, filterQuery } from './filter_bar.js';
import { qs } from './util.js';
import { renderLeaks, renderTemps, leakOpts, tempOpts } from './leaks.js';
import { initLive } from './live.js';
import { renderTrend, renderDiff } from './fleet_views.js';

const TABS = ['frame', 'top', 'compare', 'flame', 'callers', 'leaks', 'temps', 'trend', 'diff'];
const state = { runs: [], run: null, frame: null, range: null, tab: 'frame', filter: { class: '', function: '', thread: '' } };
// Every view's own choices, in the URL under these names: a link reproduces the view.
const VIEW_KEYS = [
  [topOpts, 'group', 'top_group'], [topOpts, 'by', 'top_by'],
  [flameOpts, 'by', 'flame_by'], [flameOpts, 'invert', 'invert'], [flameOpts, 'frames', 'frames'],
  [callerOpts, 'by', 'callers_by'], [callerOpts, 'frames', 'callers_frames'],
  [cmpOpts, 'a', 'a'], [cmpOpts, 'b', 'b'], [cmpOpts, 'group', 'cmp_group'], [cmpOpts, 'by', 'cmp_by'],
  [cmpOpts, 'normalize', 'cmp_normalize'],
  [leakOpts, 'group', 'leak_group'], [leakOpts, 'by', 'leak_by'],
  [tempOpts, 'group', 'temp_group'], [tempOpts, 'by', 'temp_by'], [tempOpts, 'within', 'within'],
];
const VIEW_DEFAULTS = VIEW_KEYS.map(([o, k]) => o[k]);
const $ = (id) => document.getElementById(id);

function readHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  const n = (k) => (p.has(k) && p.get(k) !== '' && !isNaN(Number(p.get(k))) ? Number(p.get(k)) : null);
  state.run = n('run');
  state.frame = n('frame');
  state.range = n('from') !== null && n('to') !== null ? { from: n('from'), to: n('to') } : null;
  if (TABS.includes(p.get('tab'))) state.tab = p.get('tab');
  state.filter = { class: p.get('class') || '', function: p.get('function') || '', thread: p.get('thread') || '', kind: p.get('kind') || '' };
  VIEW_KEYS.forEach(([o, k, name], i) => {
    if (!p.has(name)) { o[k] = VIEW_DEFAULTS[i]; return; }
    const v = p.get(name), def = VIEW_DEFAULTS[i];
    o[k] = typeof def === 'boolean' ? v === '1' : (def === null || typeof def === 'number') ? (v === '' ? null : Number(v)) : v;
  });
}

function writeHash() {
  const p = new URLSearchParams({ run: state.run, tab: state.tab });
  if (state.frame !== null) p.set('frame', state.frame);
  if (state.range) { p.set('from', state.range.from); p.set('to', state.range.to); }
  if (state.filter.class) p.set('class', state.filter.class);
  if (state.filter.function) p.set('function', state.filter.function);
  if (state.filter.thread) p.set('thread', state.filter.thread);
  if (state.filter.kind) p.set('kind', state.filter.kind);
  VIEW_KEYS.forEach(([o, k, name], i) => {
    if (o[k] === VIEW_DEFAULTS[i] || o[k] === null) return;
    p.set(name, typeof o[k] === 'boolean' ? (o[k] ? '1' : '0') : o[k]);
  });
  history.replaceState(null, '', '#' + p.toString());
}

const timeline = new Timeline($('timeline'), {
  onFrame: (seq) => { state.frame = seq; setTab('frame'); },
  onRange: (from, to) => { state.range = { from, to }; updateSelectionLabel(); if (state.tab === 'frame') setTab('top'); else renderTab(); },
});

function notice(text, kind = 'info') {
  const n = $('notice');
  n.hidden = !text;
  n.className = `notice ${kind}`;
  n.textContent = text || '';
}

async function loadRuns() {
  const d = await api('/api/runs?limit=1000');
  state.runs = d.runs;
  const sel = $('run-select');
  clear(sel, d.runs.map((r) => h('option', { value: r.run_id }, `#${r.run_id} · ${r.session_label || r.process || 'run'} · ${r.device || r.os}`)));
  if (!d.runs.some((r) => r.run_id === state.run)) state.run = d.runs.length ? d.runs[d.runs.length - 1].run_id : null;
  sel.value = state.run ?? '';
}

// factsOnly: just the facts line (live.js, while the run grows).
async function loadRun(factsOnly = false) {
  if (state.run === null) { notice('This database has no runs yet. Upload a run.mt to add one.'); return; }
  const [s, series] = await Promise.all([api(`/api/runs/${state.run}`), factsOnly ? null : api(`/api/runs/${state.run}/frames` + qs(filterQuery(state.filter)))]);
  clear($('run-facts'),
    fact('Frames', num(s.frames)), fact('Duration', duration(s.duration_ns)),
    fact('Allocations', num(s.totals.count)), fact('Requested', bytes(s.totals.requested_bytes)),
    fact('GCs', num(s.totals.collections)),
    fact('GC figures', figureSources(s.figures), figureSourcesTitle(s.figures)), fact('Device', [s.device, s.os].filter(Boolean).join(' · ') || '–'),
    fact('Build', s.build_id ? s.build_id.slice(0, 12) : '–', s.build_id),
    fact('Threads', String(s.threads.length), s.threads.map((t) => t.name || t.os_tid).join(', ')));
  if (factsOnly) return;
  $('dl-trace').href = `/api/runs/${state.run}/trace`;
  updateDownloads();
  clear($('timeline-legend'));
  timeline.setData(series);
  if (state.frame !== null && state.frame >= s.frames) state.frame = null;
  if (state.range && state.range.to >= s.frames) state.range = null;
  if (state.frame !== null) timeline.selectFrame(state.frame);
  updateSelectionLabel();
  const marks = await loadMarkers(state.run);
  timeline.setMarks(marks);
  filterBar.setThreads(await api(`/api/runs/${state.run}/threads`).catch(() => null));
  showMarkerButtons(marks, s.frames, timeline.onRange);
}

// Measured or estimated: a no-patch capture estimates GC sizes and may see collections only
// through il2cpp's profiler (docs/integration.md, the per-platform table).
function figureSources(f) {
  if (!f) return '–';
  const sizes = { exact: 'exact sizes', estimated: 'estimated sizes', mixed: 'exact + estimated sizes', unknown: 'sizes unknown' }[f.gc_sizes] || f.gc_sizes;
  const gcs = { boehm: 'Boehm GCs', il2cpp_profiler: 'profiler GCs', none: 'no GCs' }[f.collections] || f.collections;
  return `${sizes} · ${gcs}`;
}

function figureSourcesTitle(f) {
  if (!f) return '';
  return `GC sizes: ${f.gc_sizes} (exact = Boehm's GC_size through a patched libil2cpp; estimated = Boehm's size classes, no-patch mode). `
    + `Collections: ${f.collections} (il2cpp_profiler = timing only, no heap figures).`;
}

function fact(label, value, title) {
  return h('div', { class: 'fact', title }, h('span', { class: 'fact-label' }, label), h('span', { class: 'fact-value' }, value));
}

function updateSelectionLabel() {
  const r = state.range;
  $('selection-label').textContent = r ? `Range: frames ${num(r.from)}–${num(r.to)} (${num(r.to - r.from + 1)})` : 'Range: whole run';
  $('clear-range').hidden = !r;
  updateDownloads();
  writeHash();
}

function updateDownloads() {
  if (state.run === null) return;
  const f = qs({ ...filterQuery(state.filter), from: state.range?.from, to: state.range?.to });
  $('dl-trace').href = `/api/runs/${state.run}/trace` + f;
  $('dl-collapsed').href = `/api/runs/${state.run}/collapsed` + f;
  $('dl-speedscope').href = `/api/runs/${state.run}/speedscope` + f;
}

// The filter changed (bar or search): the timeline shows what it keeps, and so does every view.
async function setFilter(f, tab) {
  state.filter = f;
  filterBar.set(f);
  updateDownloads();
  writeHash();
  try {
    const series = await api(`/api/runs/${state.run}/frames` + qs(filterQuery(f)));
    timeline.setData(series);
    if (state.frame !== null) timeline.selectFrame(state.frame);
    notice('');
  } catch (e) { notice(`Filter refused: ${e.message}`, 'error'); return; }
  if (tab) setTab(tab); else renderTab();
}

const filterBar = new FilterBar($('filter-bar'), {
  getRun: () => state.run,
  onChange: (f) => setFilter(f),
  onJump: (kind, f) => setFilter(f, kind === 'class' ? 'top' : 'flame'),
});

function setTab(tab) {
  state.tab = tab;
  for (const b of document.querySelectorAll('.tab')) b.classList.toggle('active', b.dataset.tab === tab);
  for (const t of TABS) $(`tab-${t}`).hidden = t !== tab;
  writeHash();
  renderTab();
}

function renderTab() {
  if (state.run === null) return;
  const el = $(`tab-${state.tab}`);
  const again = () => { writeHash(); renderTab(); };
  const f = filterQuery(state.filter);
  if (state.tab === 'frame') return renderFrame(el, state.run, state.frame, f);
  if (state.tab === 'top') return renderTop(el, state.run, state.range, again, f);
  if (state.tab === 'compare') return renderCompare(el, state.runs, state.run, again, f);
  if (state.tab === 'callers') return renderCallers(el, state.run, state.range, again, f);
  const jump = (more, tab) => setFilter({ ...state.filter, ...more }, tab);
  if (state.tab === 'leaks') return renderLeaks(el, state.run, state.range, again, f, jump);
  if (state.tab === 'temps') return renderTemps(el, state.run, state.range, again, f, jump);
  if (state.tab === 'trend') return renderTrend(el, again);
  if (state.tab === 'diff') return renderDiff(el, again);
  return renderFlame(el, state.run, state.range, again, f);
}

// A server reachable from other machines wants its token for uploads (it prints it at start).
async function postRun(file) {
  const send = (token) => api('/api/runs', {
    method: 'POST', body: file,
    headers: { 'Content-Type': 'application/octet-stream', ...(token ? { 'X-MemTracer-Token': token } : {}) },
  });
  try { return await send(sessionStorage.getItem('mt-token')); } catch (e) {
    if (e.status !== 401) throw e;
    const token = prompt('This server needs its upload token (memtracer-viewer printed it at start):');
    if (!token) throw e;
    sessionStorage.setItem('mt-token', token);
    return send(token);
  }
}

async function upload(file) {
  notice(`Uploading ${file.name} (${bytes(file.size)})…`);
  try {
    let job = await postRun(file);
    while (job.state === 'queued' || job.state === 'running') {
      notice(`Symbolizing ${file.name}: ${job.progress || job.state}`);
      await new Promise((r) => setTimeout(r, 700));
      job = await api(job.url);
    }
    if (job.state === 'failed') { notice(`Symbolizing ${file.name} failed: ${job.error}`, 'error'); return; }
    state.run = job.run_id;
    state.frame = null; state.range = null;
    await loadRuns();
    await loadRun();
    renderTab();
    notice(`${file.name} is run #${job.run_id}.`, 'ok');
  } catch (e) { notice(`Upload refused: ${e.message}`, 'error'); }
}

async function start() {
  readHash();
  filterBar.set(state.filter);
  window.addEventListener('hashchange', async () => {  // a pasted link: take all of its state
    const before = JSON.stringify([state.run, state.filter]);
    readHash();
    filterBar.set(state.filter);
    if (JSON.stringify([state.run, state.filter]) !== before) { $('run-select').value = state.run; await loadRun(); }
    setTab(state.tab);
  });
  for (const b of document.querySelectorAll('.tab')) b.addEventListener('click', () => setTab(b.dataset.tab));
  $('run-select').addEventListener('change', async (e) => {
    state.run = Number(e.target.value); state.frame = null; state.range = null;
    await loadRun(); setTab(state.tab);
  });
  $('clear-range').addEventListener('click', () => { state.range = null; timeline.clearRange(); updateSelectionLabel(); updateDownloads(); renderTab(); });
  $('upload').addEventListener('change', (e) => { if (e.target.files[0]) upload(e.target.files[0]); e.target.value = ''; });
  try {
    await loadRuns();
    await loadRun();
    setTab(state.tab);
    document.body.dataset.ready = '1';
    initLive({ state, timeline, loadRuns, loadRun, loadFacts: () => loadRun(true), renderTab, updateSelectionLabel,
      seriesQuery: () => qs(filterQuery(state.filter)),
      reloadMarkers: async (frames) => {
        const marks = await loadMarkers(state.run);
        timeline.setMarks(marks);
        showMarkerButtons(marks, frames, timeline.onRange);
      } });
  } catch (e) {
    clear($('tab-frame'), errorBox(e));
  }
}

window.memtracer = { state, timeline, setTab, setFilter };
start();
