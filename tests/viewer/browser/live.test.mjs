// The live page (memtracer-viewer --live, issue 12) in headless Chromium against real processes:
// memtracer-sample-game listening on a free loopback port with a token, a memtracer-viewer
// receiving it live (its one memtracer-symbolize --follow child ingesting as frames arrive).
// Every wait is for a state the page shows (the status line's data-* attributes, the timeline's
// data, a marker button), bounded generously; nothing is asserted on wall time.
// Env: as page.test.mjs, plus MT_SAMPLE_GAME and MT_VIEWER_SYMBOLS (the game's symbols).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { consoleErrors, env, open, page, setup, shot } from './harness.mjs';

const WAIT = { timeout: 120000, polling: 100 };
const dir = mkdtempSync(join(tmpdir(), 'mt-live-page-'));
let game;

// The game first (its port is in its log), then the viewer connects to it.
setup.viewerArgs = () => new Promise((resolve, reject) => {
  game = spawn(env('MT_SAMPLE_GAME'), ['--frames', '1000000', '--fps', '30', '--listen', '127.0.0.1:0', '--token', 'live-test-token',
    '--out', join(dir, 'game.mt'), '--quiet'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  game.stderr.on('data', (d) => {
    log += d;
    const m = log.match(/listening on 127\.0\.0\.1:(\d+)/);
    if (m) resolve([join(dir, 'live.db'), '--live', `127.0.0.1:${m[1]}`, '--token', 'live-test-token',
      '--symbols', env('MT_VIEWER_SYMBOLS')]);
  });
  game.on('exit', (c) => reject(new Error(`game exited ${c}: ${log}`)));
});

after(() => {
  if (game && game.exitCode === null) game.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const bar = () => page.evaluate(() => ({ ...document.getElementById('live-bar').dataset }));
// Waits until `cond(dataset of the live bar, arg)` holds (evaluated in the page).
const until = (cond, arg) => page.waitForFunction(([c, a]) => {
  const el = document.getElementById('live-bar');
  return el && window.memtracerLiveCheck[c](el.dataset, a);
}, [cond, arg], WAIT);
// The conditions, installed in the page once (the page's CSP allows no eval of strings).
const CONDITIONS = () => {
  window.memtracerLiveCheck = {
    streamingShown5: (d) => d.state === 'streaming' && Number(d.shown) >= 5,
    shownAtLeast: (d, a) => Number(d.shown) >= a,
    pausedAcked: (d) => d.state === 'paused' && d.lastAck === 'pause applied',
    markAcked: (d) => d.lastAck === 'mark applied',
    resumedAcked: (d) => d.state === 'streaming' && d.lastAck === 'resume applied',
    stoppedEnded: (d) => d.state === 'stopped' && d.ingest === 'ended',
  };
};
// Polls `cond` (async, in this process) until it holds; the bound is generous, never the thing tested.
async function eventually(cond, bound = 120000) {
  const end = Date.now() + bound;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`not reached within ${bound} ms: ${cond}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('frames appear and grow; pause, mark, resume and stop steer the game', async () => {
  await open('');
  await page.evaluate(CONDITIONS);
  await until('streamingShown5');
  let b = await bar();
  const first = Number(b.shown);
  await until('shownAtLeast', first + 10);
  // One snapshot of the page (no refresh runs inside one evaluate), then the server's count,
  // which only grows: the page never shows a frame the viewer had not received.
  const snap = await page.evaluate(() => ({ shown: Number(document.getElementById('live-bar').dataset.shown),
    seq: window.memtracer.timeline.series.seq.length, bytes: window.memtracer.timeline.series.requested_bytes.slice(-10) }));
  assert.equal(snap.seq, snap.shown, 'the timeline holds the frames the page counts');
  const now = await page.evaluate(async () => (await (await fetch('/api/live')).json()));
  assert.ok(now.frames >= snap.shown && now.run_frames >= snap.shown, 'the page never shows frames the viewer did not receive');
  assert.ok(snap.bytes.some((v) => v > 0), 'the game allocates while recording');
  b = await bar();
  const run = Number(b.run);
  assert.equal(await page.evaluate(() => window.memtracer.state.run), run, 'the page shows the live run');
  await shot('60-live-streaming');

  // Pause: the game's frames go on, recording none of their allocations.
  await page.click('#live-pause');
  await until('pausedAcked');
  b = await bar();
  await until('shownAtLeast', Number(b.shown) + 15);
  // The newest frames, all opened after the pause applied, hold no allocation: wait for ten of them.
  await page.waitForFunction(() => {
    const r = window.memtracer.timeline.series.requested_bytes;
    return r.length >= 10 && r.slice(-10).every((v) => v === 0);
  }, null, WAIT);
  await shot('61-live-paused');

  // Mark, named through the page's prompt: it lands in the run and shows as a marker.
  page.once('dialog', (d) => d.accept('boss fight'));
  await page.click('#live-mark');
  await until('markAcked');
  await page.waitForSelector('#timeline-marks button.marker:has-text("boss fight")', WAIT);
  const marks = await page.evaluate(async (r) => (await (await fetch(`/api/runs/${r}/markers`)).json()).markers, run);
  assert.equal(marks.filter((m) => m.label === 'boss fight').length, 1, 'one marker named by the page');

  // Resume: allocations again in the newest frames.
  await page.click('#live-resume');
  await until('resumedAcked');
  await page.waitForFunction(() => window.memtracer.timeline.series.requested_bytes.slice(-3).every((v) => v > 0), null, WAIT);
  b = await bar();
  await until('shownAtLeast', Number(b.shown) + 10);

  // A range up to the newest frame keeps reaching it while frames come, and TopN follows: its
  // allocation count becomes the API's for the grown range.
  const n0 = Number((await bar()).shown);
  await page.evaluate((to) => window.memtracer.timeline.onRange(0, to), n0 - 1);
  assert.equal((await bar()).follow, '0', 'a selection ends following the newest frame');
  await page.click('button.tab[data-tab="top"]');
  await page.waitForFunction((n) => window.memtracer.state.range.to >= n + 10 && location.hash.includes(`to=${window.memtracer.state.range.to}`), n0 - 1, WAIT);
  await eventually(async () => {
    const { to, text } = await page.evaluate(() => ({ to: window.memtracer.state.range.to, text: document.querySelector('#tab-top p.muted')?.textContent || '' }));
    const api = await page.evaluate(async (q) => (await (await fetch(q)).json()), `/api/runs/${run}/top?from=0&to=${to}`);
    return to >= n0 + 9 && text.includes(`${api.totals.count.toLocaleString('en-US')} allocations`);
  });
  await shot('62-live-range-topn');

  // Stop: the game ends its capture; the viewer's run ends with every frame it received.
  await page.click('#live-stop');
  await until('stoppedEnded');
  b = await bar();
  assert.equal(b.frames, b.received, 'every received frame is queryable once the run ended');
  const summary = await page.evaluate(async (r) => (await (await fetch(`/api/runs/${r}`)).json()), run);
  assert.equal(summary.stop, 'end');
  assert.match(summary.stop_reason, /stopped by the live host/);
  assert.equal(summary.frames, Number(b.frames));
  assert.ok(await page.isDisabled('#live-pause'), 'no control after the end');
  await shot('63-live-stopped');
  assert.deepEqual(consoleErrors, []);
});
